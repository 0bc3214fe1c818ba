"""A clock corrected by more than the tournament's amount (issue 29) on the arbiter's console of a tournament game,
in Kazakh and Russian on a laptop and a phone: without a reason the console asks for one at the reason field;
with it, the confirmation names the warning level before anything is sent; confirmed, the dial changes."""

from __future__ import annotations

import html
import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, new_page, screenshot, session_csrf, sign_in_arbiter

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}


def _tournament_game(page: Page, server: Server) -> str:
    """A tournament (the default amount, 60 s) with its round 1 paired, published and given game rooms; board 1's
    room."""
    csrf = session_csrf(page, server)

    def post(path: str, **form: str) -> str:
        response = page.request.post(f"{server.url}{path}", form={**form, "csrf": csrf},
                                     headers={"origin": server.url})  # fmt: skip
        assert response.ok, response.text()
        return html.unescape(response.text())

    response = page.request.post(f"{server.url}/tournaments/new", form={"name": "Түркістан", "system": "swiss_dutch",
                                 "rounds": "3", "control": "blitz", "csrf": csrf}, headers={"origin": server.url},
                                 max_redirects=0)  # fmt: skip
    tid = response.headers["location"].rsplit("/", 1)[-1]
    for index, name in enumerate(("Асқар Жұмабаев", "Бекзат Нұров")):
        post(f"/tournaments/{tid}/do/add-participant", name=name, rating=str(1900 - index))
    post(f"/tournaments/{tid}/do/pair")
    post(f"/tournaments/{tid}/do/publish")
    sheet = post(f"/tournaments/{tid}/rounds/1/games", control="blitz")
    room = re.search(r"/games/(g-[0-9a-f]+)", sheet)
    assert room is not None, sheet
    return room.group(1)


@pytest.mark.parametrize(("language", "size"), [("kk", "desktop"), ("ru", "phone")])
def test_a_large_correction_asks_for_the_reason_and_names_the_level(
    browser: Browser, server: Server, language: str, size: str
) -> None:
    arbiter = new_page(browser, viewport=LAPTOP if size == "desktop" else PHONE)
    sign_in_arbiter(arbiter, server)
    room = _tournament_game(arbiter, server)
    arbiter.goto(f"{server.url}/games/{room}?lang={language}")
    expect(arbiter.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    arbiter.locator("#console [data-cmd=start]").click()
    form = arbiter.locator("#add-time")
    expect(form).to_be_visible()
    form.locator("select[name=side]").select_option("black")
    form.locator("input[name=seconds]").fill("120")
    form.locator("button[type=submit]").click()
    # No reason: asked for at its field, nothing sent.
    reason = form.locator("input[name=reason]")
    expect(reason).to_have_attribute("aria-invalid", "true")
    expect(arbiter.locator("#confirm-dialog")).not_to_be_visible()
    reason.fill("сағат бұзылды" if language == "kk" else "часы сломались")
    form.locator("button[type=submit]").click()
    dialog = arbiter.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(arbiter.locator("#notice")).to_be_hidden()  # the notice asking for the reason is gone
    level = "Ескерту деңгейі: ескерту" if language == "kk" else "Уровень предупреждения: предупреждение"
    expect(dialog.locator("#confirm-text")).to_contain_text(level)
    expect(dialog.locator("#confirm-text")).to_contain_text("+2:00")
    assert not re.search(r"\b(Warning|level|departure|regulation)\b", dialog.inner_text())
    screenshot(arbiter, f"togyz-arbiter-clock-correction-warning-{language}-{size}")
    dialog.locator("#confirm-yes").click()
    expect(arbiter.locator(".player-bar[data-side=black] [data-clock]")).to_have_text(re.compile(r"^9:0\d$"))
    expect(arbiter.locator("#notice")).to_be_hidden()  # accepted: no refusal
    arbiter.context.close()
