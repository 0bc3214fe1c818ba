"""Two players in separate browsers, an arbiter and a spectator, on a real server (issue 5 §4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from toreshi.togyz import Termination
from toreshi.togyz.pgn import read_games
from toreshi.togyz.replay import replay

from .conftest import Server, create_game, new_page, play_hole, screenshot, sign_in_arbiter


def shortest_game_won_on_the_board(shared_data: Path) -> list[int]:
    """The holes of the shortest PlayOK game that ends with a kazan of 82 or more."""
    best: list[int] | None = None
    with (shared_data / "togyz" / "playok-2024-2025.pgn").open(encoding="utf-8", newline="") as handle:
        for game in read_games(handle):
            report = replay(game)
            if report.outcome is not None and report.outcome.termination is Termination.KAZAN:
                holes = [move.hole for move in game.moves]
                if best is None or len(holes) < len(best):
                    best = holes
    assert best is not None
    return best


def plies_shown(page: Page) -> int:
    return int(page.locator("#moves tbody td:not(:empty)").count())


def play(page: Page, side: str, hole: int) -> None:
    play_hole(page, side, hole)


def open_players(browser: Browser, server: Server, game: dict[str, object]) -> tuple[Page, Page]:
    links = game["links"]
    assert isinstance(links, dict)
    white = new_page(browser, locale="kk-KZ")
    white.goto(f"{links['white']}&lang=kk")
    black = new_page(browser, locale="ru-RU")
    black.goto(f"{links['black']}&lang=ru")
    for page in (white, black):
        expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
        expect(page.locator("#connection")).to_be_hidden()
    return white, black


def start(arbiter: Page, server: Server, game_id: str) -> None:
    arbiter.goto(f"{server.url}/games/{game_id}?lang=en")
    arbiter.locator("#console [data-cmd=start]").click()
    expect(arbiter.locator("#status")).to_contain_text("to move")


@pytest.fixture
def arbiter(browser: Browser, server: Server) -> Page:
    page = new_page(browser, locale="en-GB")
    sign_in_arbiter(page, server)
    return page


def test_a_full_game_to_82_with_clocks_running_watched_by_a_spectator(
    browser: Browser, server: Server, arbiter: Page, shared_data: Path
) -> None:
    holes = shortest_game_won_on_the_board(shared_data)
    game = create_game(arbiter, server)
    white, black = open_players(browser, server, game)
    spectator = new_page(browser, locale="en-GB")
    spectator.goto(f"{server.url}/games/{game['id']}?lang=en")
    start(arbiter, server, str(game["id"]))
    clock_before = white.locator(".player-bar[data-side=white] [data-clock]").inner_text()
    for ply, hole in enumerate(holes, start=1):
        mover, side = (white, "white") if ply % 2 else (black, "black")
        play(mover, side, hole)
        expect(spectator.locator("#moves tbody td:not(:empty)")).to_have_count(ply)
        if ply == 20:
            screenshot(white, "togyz-board-white-kk")
            screenshot(spectator, "togyz-spectator")
    for page in (white, black, spectator, arbiter):
        expect(page.locator("#result")).to_be_visible()
    assert plies_shown(spectator) == len(holes)
    assert white.locator(".player-bar[data-side=white] [data-clock]").inner_text() != clock_before
    screenshot(black, "togyz-result-black-ru")
    screenshot(arbiter, "togyz-arbiter-console")


def test_a_draw_offer_with_a_move_is_accepted(browser: Browser, server: Server, arbiter: Page) -> None:
    game = create_game(arbiter, server)
    white, black = open_players(browser, server, game)
    start(arbiter, server, str(game["id"]))
    white.locator("#offer-with-move").check()
    play(white, "white", 7)
    accept = black.locator("[data-cmd=accept_draw]:visible, [data-player-cmd=accept_draw]:visible").first
    expect(accept).to_be_visible()
    accept.click()
    for page in (white, black):
        expect(page.locator("#result .result-symbol")).to_have_text("½ – ½")
    expect(white.locator("#moves tbody td").first).to_contain_text("=")


def test_the_flag_falls_by_itself_at_zero(browser: Browser, server: Server, arbiter: Page) -> None:
    control = {"periods": [{"moves": None, "time_ms": 2_000}], "increment_ms": 0, "delay_ms": 0}
    game = create_game(arbiter, server, control=control)
    white, black = open_players(browser, server, game)
    # In automatic mode the opponent is never offered "claim the flag": the clock records the fall (TK-B10).
    seen = (
        "window.__claims = 0; new MutationObserver(() => {"
        " if (document.querySelector('[data-player-cmd=claim_flag]')) window.__claims += 1;"
        " }).observe(document.body, {subtree: true, childList: true})"
    )
    black.evaluate(seen)
    start(arbiter, server, str(game["id"]))
    for page in (white, black):
        expect(page.locator("#result .result-symbol")).to_have_text("0 – 1", timeout=10_000)
    expect(white.locator(".player-bar[data-side=white] [data-clock]")).to_have_text(re.compile(r"0:00"))
    assert black.evaluate("window.__claims") == 0


def test_a_refusal_is_shown_in_the_page_language_naming_the_players(
    browser: Browser, server: Server, arbiter: Page
) -> None:
    game = create_game(arbiter, server)
    white, black = open_players(browser, server, game)
    start(arbiter, server, str(game["id"]))
    # Commands the board would not offer, sent through each page's own connection: the server refuses them and
    # the page shows the server's sentence, in its own language, with the players' names (never "white").
    send = "([type, data]) => window.toreshiGame.clients[0].command(type, data).catch(() => null)"
    black.evaluate(send, ["move", {"hole": 1}])
    expect(black.locator("#notice")).to_have_text("Сейчас ходит Абай, а не Болат.")
    white.evaluate(send, ["press", {}])
    expect(white.locator("#notice")).to_have_text(
        "Абай жүріс жасамай тұрып қарсыласының (Болат) сағатын қоса алмайды."
    )  # and no clause number: regulation codes are for the arbiter's console
    screenshot(black, "togyz-refusal-ru")
    screenshot(white, "togyz-refusal-kk")
