"""A call from a board reaches the round page (issue 28), in a real browser, in Kazakh and Russian, on a laptop and
a phone: the arbiter sees which board called and when, and answers from there; the player's page sees the answer."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, new_page, screenshot, session_csrf, sign_in_arbiter

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
ENGLISH = re.compile(r"Calls to the arbiter|called at|Answer: I am coming|is answered")


def post(page: Page, server: Server, path: str, **form: str) -> None:
    response = page.request.post(
        f"{server.url}{path}", form={**form, "csrf": session_csrf(page, server)}, headers={"origin": server.url}
    )
    assert response.ok, response.text()


def test_the_round_page_shows_a_boards_call_and_the_arbiter_answers(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser, locale="kk-KZ", viewport=LAPTOP)
    sign_in_arbiter(arbiter, server)
    arbiter.goto(f"{server.url}/tournaments/new?lang=kk")
    arbiter.fill("input[name=name]", "Шақыру кубогы")
    arbiter.select_option("select[name=system]", "swiss_dutch")
    arbiter.fill("input[name=rounds]", "3")
    arbiter.check("input[name=control][value=blitz]")
    arbiter.locator("form button[type=submit].primary").click()
    arbiter.wait_for_url(re.compile(r"/tournaments/t-[0-9a-f]+$"))
    tid = arbiter.url.rsplit("/", 1)[-1]
    players = "\n".join(f"{name},{1900 - 10 * i}" for i, name in enumerate(["Асқар", "Бекзат", "Гүлнар", "Дәурен"]))
    post(arbiter, server, f"/tournaments/{tid}/do/import", csv=f"name,rating\n{players}\n")
    post(arbiter, server, f"/tournaments/{tid}/do/pair")
    post(arbiter, server, f"/tournaments/{tid}/do/publish")
    post(arbiter, server, f"/tournaments/{tid}/rounds/1/games", control="blitz")
    arbiter.goto(f"{server.url}/tournaments/{tid}/rounds/1/links?lang=kk")
    black_link = arbiter.locator("#board-2 .link-card .url a").nth(1).get_attribute("href")
    assert black_link

    player = new_page(browser, locale="kk-KZ", viewport=PHONE)
    player.goto(f"{black_link}&lang=kk")
    expect(player.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    player.locator("[data-player-cmd=call_arbiter]").click()
    expect(player.locator("#calls")).to_be_visible()

    for language, answer in (("ru", "Ответить: иду"), ("kk", "Жауап беру: келе жатырмын")):
        for name, size in (("desktop", LAPTOP), ("phone", PHONE)):
            arbiter.set_viewport_size(size)
            arbiter.goto(f"{server.url}/tournaments/{tid}/rounds/1?lang={language}")
            calls = arbiter.locator("#calls")
            expect(calls).to_be_visible()
            expect(calls.locator("li.call-open[data-board='2'][data-side='black']")).to_be_visible()
            expect(calls.locator("button")).to_have_text(answer)
            assert re.search(r"\d{1,2}:\d\d", calls.inner_text())
            assert not ENGLISH.search(arbiter.locator("main").inner_text())
            calls.scroll_into_view_if_needed()
            screenshot(arbiter, f"tournament-round-call-{language}-{name}")
    arbiter.locator("#calls button").click()
    expect(arbiter.locator("p.notice[role=status]").first).to_contain_text("2")
    expect(arbiter.locator("#calls li.call-answered")).to_be_visible()
    assert not ENGLISH.search(arbiter.locator("main").inner_text())
    screenshot(arbiter, "tournament-round-call-answered-kk-phone")
    expect(player.locator("#calls")).to_be_hidden()
    expect(player.locator("#call-log li")).to_have_count(1)
