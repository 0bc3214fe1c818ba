"""Calling the arbiter in a real browser (issue 28), in Kazakh and Russian: a player calls from the clock-only
screen of a phone, the arbiter's console (a laptop) shows who called and when and answers, and the call with its
answer stays in the game's record on both pages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, create_game, new_page, screenshot, sign_in_arbiter

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
TEXTS = {
    "kk": {"call": "Төрешіні шақыру", "open": "төрешіні", "answer": "шақыруға жауап беру", "log": "жауап берілді"},
    "ru": {"call": "Вызвать судью", "open": "вызов судьи", "answer": "Ответить на вызов", "log": "ответ в"},
}
ENGLISH = re.compile(r"called the arbiter|Call the arbiter|Answer .*call|Calls to the arbiter")


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Page:
    page = new_page(browser, locale="en-GB", viewport=LAPTOP)
    sign_in_arbiter(page, server)
    return page


LAYOUTS = {
    # the player's phone on the clock-only screen, the arbiter's laptop
    "phone": (PHONE, "&mode=clock", LAPTOP),
    # the player at a laptop with the board, the arbiter walking the hall with a phone
    "laptop": (LAPTOP, "", PHONE),
}


def ready(page: Page) -> None:
    expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator("#connection")).to_be_hidden()


@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("language", ["kk", "ru"])
def test_a_player_calls_and_the_arbiter_answers(
    browser: Browser, server: Server, arbiter: Page, language: str, layout: str
) -> None:
    words = TEXTS[language]
    player_size, mode, arbiter_size = LAYOUTS[layout]
    arbiter.set_viewport_size(arbiter_size)
    game = create_game(arbiter, server)
    arbiter.goto(f"{server.url}/games/{game['id']}?lang={language}")
    ready(arbiter)
    arbiter.locator("#console [data-cmd=start]").click()
    expect(arbiter.locator("#console [data-cmd=pause]")).to_be_visible()

    phone = new_page(browser, locale="en-GB", viewport=player_size)
    phone.goto(f"{game['links']['white']}{mode}&lang={language}")
    ready(phone)
    call = phone.locator("[data-player-cmd=call_arbiter]")
    expect(call).to_have_text(words["call"])
    call.scroll_into_view_if_needed()
    screenshot(phone, f"togyz-arbiter-call-button-{layout}-{language}")
    call.click()
    expect(phone.locator("#calls")).to_be_visible()
    expect(phone.locator("#calls")).to_contain_text("Абай")
    expect(phone.locator("#calls")).to_contain_text(words["open"])
    expect(call).to_have_count(0)  # one open call at a time: the button is gone until the arbiter answers
    assert not ENGLISH.search(phone.locator("body").inner_text())
    screenshot(phone, f"togyz-arbiter-call-player-{layout}-{language}")

    calls = arbiter.locator("#calls")
    expect(calls).to_be_visible()
    answer = calls.locator("[data-answer-call=white]")
    expect(answer).to_contain_text(words["answer"])
    assert not ENGLISH.search(arbiter.locator("body").inner_text())
    arbiter.evaluate("window.scrollTo(0, 0)")
    screenshot(arbiter, f"togyz-arbiter-call-{'console' if layout == 'phone' else 'console-phone'}-{language}")
    answer.click()
    expect(calls).to_be_hidden()
    expect(phone.locator("#calls")).to_be_hidden()
    for page in (phone, arbiter):
        log = page.locator("#call-log")
        expect(log).to_be_visible()
        expect(log.locator("li")).to_have_count(1)
        expect(log.locator("li")).to_contain_text(words["log"])
        assert re.search(r"\d{1,2}:\d\d", log.locator("li").inner_text())
    phone.locator("#call-log").scroll_into_view_if_needed()
    screenshot(phone, f"togyz-arbiter-call-answered-{layout}-{language}")
    # Too soon for another call (30 s after the last): no button; the room would refuse it, in the page's language.
    expect(phone.locator("[data-player-cmd=call_arbiter]")).to_have_count(0)
    code = phone.evaluate(
        """async () => {
            const client = window.toreshiGame.clients.find((c) => c.role === "white");
            try { await client.command("call_arbiter", {}); return ""; } catch (refusal) { return refusal.code; }
        }"""
    )
    assert code == "call_too_soon"
    expect(phone.locator("#notice")).to_be_visible()
    assert not ENGLISH.search(phone.locator("#notice").inner_text())
    phone.context.close()
