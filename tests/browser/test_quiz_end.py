"""Ending a «Своя игра» game early in a real browser (issue 15 §3): the host console's «End the game» asks, naming
the scores, and takes a reason for the report; the games list's «Finish» asks the same before it posts."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from .conftest import Server, new_page, screenshot, sign_in_arbiter
from .test_quiz_game import TEAMS, answer_dialog, create_game, open_table


@pytest.fixture
def arbiter(browser: Browser, server: Server) -> Iterator[Page]:
    page = new_page(browser, locale="en-GB", viewport={"width": 1366, "height": 900})
    sign_in_arbiter(page, server)
    yield page
    page.context.close()


@pytest.fixture
def projector(browser: Browser) -> Iterator[Page]:
    page = new_page(browser, locale="ru-RU", viewport={"width": 1920, "height": 1080})
    yield page
    page.context.close()


def answer_dialogs(page: Page, answers: list[str | None]) -> tuple[list[str], Callable[[Dialog], None]]:
    """Answer the page's next dialogs in turn (``None``: dismiss); returns what each one asked, and the listener
    (to remove it)."""
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        reply = answers.pop(0) if answers else None
        if reply is None:
            dialog.dismiss()
        else:
            dialog.accept(reply)

    page.on("dialog", answer)
    return asked, answer


def test_the_host_ends_the_game_from_the_console_and_from_the_games_list(
    server: Server, arbiter: Page, projector: Page, shared_data: Path
) -> None:
    pack = shared_data / "quiz" / "siq" / "1.siq"
    game = create_game(arbiter, server, pack, "qualifying", TEAMS)
    table = open_table(arbiter, projector, game, {})
    host = table.host
    a = TEAMS[0]
    end = host.locator(".q-actions button", has_text="End the game")
    table.status("Waiting for the draw")
    expect(end).to_have_count(0)  # not before the first question
    host.keyboard.press("d")
    table.status(re.compile(r"chooses$"))
    expect(end).to_have_count(0)
    table.choose(0, 1)
    host.keyboard.press(" ")
    table.buzzer_key(a)
    table.judge(a, 1, right=True)
    table.expect_scores(projector, host)
    end.click()
    answer_dialog(host, ok=False)  # cancelled: nothing happens
    expect(end).to_have_count(1)
    table.status(re.compile(r"chooses$"))
    end.click()
    message = answer_dialog(host, reason="Свет погас")  # the app's own dialog, never the browser's prompt()
    table.status("End of the game")
    expect(end).to_have_count(0)
    expect(projector.locator(".q-status")).to_have_text("Игра окончена")
    table.expect_scores(projector, host)
    assert f"{a} 1, {TEAMS[1]} 0, {TEAMS[2]} 0, {TEAMS[3]} 0" in message
    screenshot(host, "quiz-host-game-ended")
    arbiter.goto(f"{server.url}/quiz/{game.room_id}/report?lang=en")
    expect(arbiter.locator(".q-report-ended")).to_contain_text("The host ended the game early")
    expect(arbiter.locator(".q-report-ended")).to_contain_text("Свет погас")

    # The games list: a second game, its first question in play, finished from the list after its confirmation.
    second = create_game(arbiter, server, pack, "qualifying", TEAMS)
    table = open_table(arbiter, projector, second, {})
    table.host.keyboard.press("d")
    table.status(re.compile(r"chooses$"))
    table.choose(0, 2)
    arbiter.goto(f"{server.url}/quiz?lang=en")
    expect(arbiter.locator("main")).to_contain_text("A game is never deleted")
    finish = arbiter.locator(f'form[action="/quiz/{second.room_id}/finish"] button')
    expect(arbiter.locator(f'form[action="/quiz/{game.room_id}/finish"]')).to_have_count(0)
    screenshot(arbiter, "quiz-list-finish")
    asked, _listener = answer_dialogs(arbiter, [None, ""])
    finish.click()  # dismissed: the form is not sent
    expect(finish).to_have_count(1)
    assert arbiter.url.endswith("/quiz?lang=en")
    finish.click()
    arbiter.wait_for_url(re.compile(r"/quiz\?filter=finished$"))
    expect(arbiter.locator(f'a[href="/quiz/{second.room_id}"]')).to_contain_text("Finished")
    assert asked[0] == asked[1] and f"{TEAMS[0]} 0, {TEAMS[1]} 0" in asked[0]
    screenshot(arbiter, "quiz-list-finished")
