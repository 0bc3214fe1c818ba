"""A togyz game move by move in a real browser (issue 5 §2), after a late arrival recorded from the console (TK-C6).

The arbiter starts the game with Black absent and records Black's arrival; the players play a few moves on one
shared device, Black resigns, and the finished game's page links to the replay, which is stepped through with its
buttons, the arrow keys and the move list.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import Server, create_game, new_page, play_hole, screenshot, sign_in_arbiter

HOLES = [7, 3, 9, 1, 5, 2]


def ready(page: Page) -> None:
    expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator("#connection")).to_be_hidden()


def token_of(link: str) -> str:
    found = re.search(r"token=([^&]+)", link)
    assert found is not None
    return found.group(1)


def play(page: Page, side: str, hole: int) -> None:
    play_hole(page, side, hole)


def moves_played(page: Page) -> int:
    return int(page.evaluate("window.toreshiGame.state.moves.length"))


def counts(page: Page) -> dict[str, Any]:
    """What the replay's board shows: both rows of holes and both kazans, read from the page."""
    board: dict[str, Any] = {}
    for side in ("white", "black"):
        holes = page.locator(f"#board .hole.side-{side}")
        shown = {
            int(holes.nth(i).locator(".hole-num").inner_text()): int(holes.nth(i).locator(".hole-count").inner_text())
            for i in range(holes.count())
        }
        board[side] = [shown[hole] for hole in range(1, 10)]
        board[f"kazan_{side}"] = int(page.locator(f"#board .kazan.side-{side} .kazan-count").inner_text())
    return board


def frame_counts(page: Page, ply: int) -> dict[str, Any]:
    frame = page.evaluate(f"window.toreshiReplay.frames[{ply}]")
    return {
        "white": frame["board"]["white"],
        "black": frame["board"]["black"],
        "kazan_white": frame["kazans"]["white"],
        "kazan_black": frame["kazans"]["black"],
    }


def test_a_late_arrival_then_the_finished_game_replayed_move_by_move(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser, locale="en-GB")
    sign_in_arbiter(arbiter, server)
    game = create_game(arbiter, server)
    arbiter.goto(f"{server.url}/games/{game['id']}?lang=en")
    ready(arbiter)
    # Black has not come: the game starts without them (TK-C6).
    arbiter.locator('#start-absent input[value="black"]').check()
    arbiter.locator("#console [data-cmd=start]").click()
    expect(arbiter.locator("#status")).to_contain_text("to move")
    expect(arbiter.locator("#start-absent")).to_be_hidden()

    links = game["links"]
    tokens = f"token={token_of(links['white'])}&token={token_of(links['black'])}"
    shared = new_page(browser, locale="en-GB")
    shared.goto(f"{server.url}/games/{game['id']}?mode=shared&lang=en&{tokens}")
    ready(shared)
    play(shared, "white", HOLES[0])
    shared.wait_for_function("window.toreshiGame.state.moves.length === 1")
    # An absent player's board cannot be played: the page names the player and who records the arrival.
    expect(shared.locator("#status")).to_have_text("Болат has not arrived yet: the arbiter records the arrival")
    expect(shared.locator("button.hole.legal")).to_have_count(0)
    assert moves_played(shared) == 1

    form = arbiter.locator("#arrive")
    expect(form).to_be_visible()
    form.locator("select[name=side]").select_option("black")
    screenshot(arbiter, "togyz-console-late-arrival")
    form.locator("button[type=submit]").click()
    play(shared, "black", HOLES[1])
    shared.wait_for_function("window.toreshiGame.state.moves.length === 2")
    for number, hole in enumerate(HOLES[2:], start=2):
        play(shared, "white" if number % 2 == 0 else "black", hole)
        shared.wait_for_function(f"window.toreshiGame.state.moves.length === {number + 1}")
    tokens_played = shared.evaluate("window.toreshiGame.state.moves.map((move) => move.token)")
    assert len(tokens_played) == len(HOLES) and tokens_played[0] == "76(10)"

    shared.on("dialog", lambda dialog: dialog.accept())
    expect(shared.locator("#replay-link")).to_be_hidden()
    shared.locator("#player-buttons [data-player-cmd=resign]", has_text="Болат").click()
    link = shared.locator("#replay-link")
    expect(link).to_be_visible()
    link.click()
    shared.wait_for_url(f"**/games/{game['id']}/replay")
    page = shared

    total = len(HOLES)
    moves = (total + 1) // 2  # a move is White's ply and Black's reply, as the score sheet numbers them
    last_side = "White" if total % 2 else "Black"
    expect(page.locator("#replay-ply")).to_have_text(f"Move {moves} of {moves} · {last_side}: {tokens_played[-1]}")
    assert page.locator(".replay-move").all_inner_texts() == tokens_played
    assert counts(page) == frame_counts(page, total)
    expect(page.locator('[data-step="next"]')).to_be_disabled()

    page.locator('[data-step="first"]').click()
    expect(page.locator("#replay-ply")).to_have_text("Starting position")
    start = counts(page)
    assert start == {"white": [9] * 9, "black": [9] * 9, "kazan_white": 0, "kazan_black": 0}
    expect(page.locator('[data-step="previous"]')).to_be_disabled()

    page.locator('[data-step="next"]').click()
    expect(page.locator("#replay-ply")).to_have_text(f"Move 1 of {moves} · White: 76(10)")
    first = counts(page)
    assert first["kazan_white"] == 10 and first["white"][6] == 1 and first["black"][5] == 0
    expect(page.locator("#board .hole.last")).to_have_count(1)
    expect(page.locator(".player-bar[data-side=black]")).to_have_class(re.compile(r"\bto-move\b"))

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-ply")).to_contain_text(f"Move 2 of {moves} · White")  # the third ply
    assert counts(page) == frame_counts(page, 3)
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-ply")).to_contain_text(f"Move 1 of {moves} · Black")
    assert counts(page) == frame_counts(page, 2)
    page.keyboard.press("End")
    expect(page.locator("#replay-ply")).to_contain_text(f"Move {moves} of {moves}")
    page.keyboard.press("Home")
    expect(page.locator("#replay-ply")).to_have_text("Starting position")

    page.locator(".replay-move", has_text=tokens_played[3]).first.click()
    expect(page.locator("#replay-ply")).to_have_text(f"Move 2 of {moves} · Black: {tokens_played[3]}")
    expect(page.locator("#moves td.last .replay-move")).to_have_text(tokens_played[3])
    assert counts(page) == frame_counts(page, 4)
    for ply in range(total + 1):
        total_kumalaks = sum(frame_counts(page, ply)["white"]) + sum(frame_counts(page, ply)["black"])
        assert total_kumalaks + frame_counts(page, ply)["kazan_white"] + frame_counts(page, ply)["kazan_black"] == 162
    screenshot(page, "togyz-replay")
    page.context.close()
    arbiter.context.close()
