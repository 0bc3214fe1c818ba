"""The arbiter's console and the other ways to use a game page, in a real browser (issue 5 §2, §4).

An adjournment with a sealed move and its resumption (TK-A2..A4), pause/resume and added time, the clock-only
mode on a phone, one shared device for both players, and a player's page closed and opened again mid-game.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import segno
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, create_game, new_page, play_hole, screenshot, sign_in_arbiter

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Page:
    """One signed-in arbiter for the module's games (signing in hashes a password: slow on purpose)."""
    page = new_page(browser, locale="en-GB")
    sign_in_arbiter(page, server)
    return page


def links_of(game: dict[str, Any]) -> dict[str, str]:
    links = game["links"]
    assert isinstance(links, dict)
    return {str(role): str(url) for role, url in links.items()}


def token_of(link: str) -> str:
    found = re.search(r"token=([^&]+)", link)
    assert found is not None
    return found.group(1)


def shared_url(server: Server, game: dict[str, Any], mode: str) -> str:
    """One device holding both players' secret links."""
    links = links_of(game)
    tokens = f"token={token_of(links['white'])}&token={token_of(links['black'])}"
    return f"{server.url}/games/{game['id']}?mode={mode}&lang=en&{tokens}"


def ready(page: Page) -> None:
    expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator("#connection")).to_be_hidden()


def open_player(browser: Browser, link: str, **options: Any) -> Page:
    page = new_page(browser, locale="en-GB", **options)
    page.goto(f"{link}&lang=en")
    ready(page)
    return page


def start(arbiter: Page, server: Server, game_id: str) -> None:
    arbiter.goto(f"{server.url}/games/{game_id}?lang=en")
    ready(arbiter)
    arbiter.locator("#console [data-cmd=start]").click()
    expect(arbiter.locator("#status")).to_contain_text("to move")


def play(page: Page, side: str, hole: int) -> None:
    play_hole(page, side, hole)


def moves_played(page: Page) -> int:
    return int(page.evaluate("window.toreshiGame.state.moves.length"))


def clock_seconds(page: Page, side: str) -> int:
    minutes, seconds = page.locator(f".player-bar[data-side={side}] [data-clock]").inner_text().split(":")
    return int(minutes) * 60 + int(float(seconds))


def refusal_of(page: Page, role: str, command: str, data: dict[str, Any]) -> str:
    """Send a command through the page's own room connection; the refusal's code ("" when accepted)."""
    code = page.evaluate(
        """async ([role, command, data]) => {
            const client = window.toreshiGame.clients.find((c) => c.role === role);
            try { await client.command(command, data); return ""; } catch (refusal) { return refusal.code; }
        }""",
        [role, command, data],
    )
    return str(code)


def clear_notice(page: Page) -> None:
    """Hide a notice left by an earlier step, for a clean screenshot."""
    page.evaluate("document.getElementById('notice').hidden = true")


def qr_rows(page: Page, text: str) -> list[str]:
    rows = page.evaluate(
        """async (text) => (await import("/static/js/qr.js")).qrMatrix(text).map((row) => row.map(Number).join(""))""",
        text,
    )
    return [str(row) for row in rows]


def segno_rows(text: str) -> list[str]:
    symbol = segno.make(text, error="m", mask=0, mode="alphanumeric", boost_error=False)
    return ["".join("1" if module else "0" for module in row) for row in symbol.matrix]


def stored_bytes(server: Server) -> bytes:
    """Everything the server has written to its data folder (the database and its journal)."""
    data_dir = Path(server.log.name).parent
    return b"".join(path.read_bytes() for path in data_dir.rglob("*") if path.is_file() and path.suffix != ".log")


def test_an_adjournment_with_a_sealed_move_and_its_resumption(browser: Browser, server: Server, arbiter: Page) -> None:
    game = create_game(arbiter, server)
    links = links_of(game)
    white, black = open_player(browser, links["white"]), open_player(browser, links["black"])
    start(arbiter, server, str(game["id"]))
    play(white, "white", 7)
    expect(black.locator("button.hole.side-black.legal")).not_to_have_count(0)
    play(black, "black", 2)
    expect(white.locator("#status")).to_contain_text("Абай (White) — to move")

    # Before the arbiter adjourns, nobody can seal (TK-A2).
    assert white.locator("[data-player-cmd=adjourn]").count() == 0
    assert refusal_of(white, "white", "adjourn", {"hole": 3, "salt": "ab" * 16}) == "seal_without_adjournment"
    # A player's page says what the rule is; the clause's number is for the arbiter's console only.
    expect(white.locator("#notice")).to_have_text("A move is sealed only when the arbiter adjourns the game.")

    arbiter.locator("#console [data-cmd=request_adjournment]").click()
    for page in (white, black, arbiter):
        expect(page.locator("#adjournment")).to_have_text("The arbiter adjourns the game: Абай seals the next move")
    expect(arbiter.locator("#console [data-cmd=cancel_adjournment]")).to_be_visible()
    expect(black.locator("[data-player-cmd=adjourn]")).to_have_count(0)

    white.locator("[data-player-cmd=adjourn]").click()
    dialog = white.locator("#seal-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#seal-confirm")).to_be_disabled()
    dialog.locator(".seal-hole", has_text=re.compile(r"^3$")).click()
    clear_notice(white)
    screenshot(white, "togyz-seal-dialog")
    dialog.locator("#seal-confirm").click()
    expect(dialog).to_be_hidden()

    adjourned = "Adjourned at move 2: Абай has sealed a move"
    for page in (white, black, arbiter):
        expect(page.locator("#status")).to_have_text(adjourned)
        expect(page.locator("#envelope-commitment")).to_have_text(re.compile(r"^([0-9a-f]{8} ){7}[0-9a-f]{8}$"))
    seals = {page.locator("#envelope-commitment").inner_text() for page in (white, black, arbiter)}
    assert len(seals) == 1, "both players and the arbiter see the same seal"
    expect(white.locator("#envelope-check")).to_have_text("✓ Your code opens this envelope.")
    code = white.locator("#envelope-code").inner_text()
    assert re.fullmatch(r"3(-[0-9A-F]{4}){8}", code), code
    expect(black.locator("#envelope-mine")).to_be_hidden()
    expect(arbiter.locator("#envelope-mine")).to_be_hidden()
    # The QR code is drawn in the browser; it holds the same code (module for module what segno makes of it).
    expect(white.locator("#envelope-qr svg")).to_be_visible()
    assert qr_rows(white, code) == segno_rows(code)
    salt = code[2:].replace("-", "").lower()
    assert salt.encode() not in stored_bytes(server), "the salt (and so the hole) must not be stored before opening"
    expect(white.locator(".envelope-what")).to_have_text(re.compile(r"^Time used: Абай 0:\d\d, Болат 0:\d\d$"))
    clear_notice(white)
    screenshot(white, "togyz-sealed-move-code")

    # The sealer's code survives a reload of the sealer's page (it is kept on that device only).
    white.reload()
    ready(white)
    expect(white.locator("#envelope-mine")).to_be_visible()
    expect(white.locator("#envelope-code-box")).to_be_hidden()
    white.locator("#show-code").click()
    expect(white.locator("#envelope-code")).to_have_text(code)
    expect(white.locator("#show-code")).to_have_text("Hide my envelope code")

    # Resumption (TK-A4): a code for another hole does not open the envelope; the sealer's code does.
    form = arbiter.locator("#open-envelope")
    expect(form).to_be_visible()
    form.scroll_into_view_if_needed()
    screenshot(arbiter, "togyz-arbiter-console-adjourned")
    form.locator("input[name=code]").fill("4" + code[1:])
    form.locator("button[type=submit]").click()
    expect(arbiter.locator("#notice")).to_contain_text("does not open this envelope")
    expect(arbiter.locator("#status")).to_have_text(adjourned)
    form.locator("input[name=code]").fill(code.lower().replace("-", " "))
    form.locator("button[type=submit]").click()
    for page in (white, black, arbiter):
        expect(page.locator("#status")).to_have_text("Абай must play the sealed move 3")
    expect(black.locator("#notice")).to_have_text("The envelope is opened: the sealed move is 3")

    # The board offers only the sealed move, and the server refuses any other.
    expect(white.locator("button.hole.legal")).to_have_count(1)
    expect(white.locator("button.hole.legal.sealed .hole-num")).to_have_text("3")
    assert refusal_of(white, "white", "move", {"hole": 5}) == "must_play_sealed_move"
    expect(white.locator("#notice")).to_have_text("Абай must play the sealed move, hole 3.")
    assert moves_played(white) == 2
    play(white, "white", 3)
    expect(black.locator("#moves tbody td:not(:empty)")).to_have_count(3)
    expect(black.locator("button.hole.side-black.legal")).not_to_have_count(0)
    assert white.evaluate(f"localStorage.getItem('toreshi.envelope.{game['id']}')") is None


def test_once_the_arbiter_adjourns_nobody_plays_openly(browser: Browser, server: Server, arbiter: Page) -> None:
    """TK-A2 from the arbiter's side: after the console adjourns, the player to move is offered no hole to play and
    the server refuses an open move; the duty to seal stays with that player until the arbiter cancels."""
    game = create_game(arbiter, server)
    links = links_of(game)
    white, black = open_player(browser, links["white"]), open_player(browser, links["black"])
    start(arbiter, server, str(game["id"]))
    expect(white.locator("button.hole.side-white.legal")).not_to_have_count(0)

    arbiter.locator("#console [data-cmd=request_adjournment]").click()
    for page in (white, black, arbiter):
        expect(page.locator("#adjournment")).to_have_text("The arbiter adjourns the game: Абай seals the next move")
    expect(white.locator("[data-player-cmd=adjourn]")).to_be_visible()
    expect(white.locator("button.hole.legal")).to_have_count(0)
    expect(black.locator("button.hole.legal")).to_have_count(0)
    assert refusal_of(white, "white", "move", {"hole": 7}) == "seal_only_while_adjourning"
    refused = "The arbiter has adjourned the game: Абай seals the move, nobody plays openly."
    expect(white.locator("#notice")).to_have_text(refused)
    assert refusal_of(black, "black", "adjourn", {"hole": 2, "salt": "ab" * 16}) == "sealer_not_to_move"
    assert moves_played(arbiter) == 0
    # The arbiter still sees the same sealer, and the console still offers to cancel.
    expect(arbiter.locator("#adjournment")).to_have_text("The arbiter adjourns the game: Абай seals the next move")
    expect(arbiter.locator("#console [data-cmd=cancel_adjournment]")).to_be_visible()

    arbiter.locator("#console [data-cmd=cancel_adjournment]").click()
    expect(white.locator("[data-player-cmd=adjourn]")).to_have_count(0)
    play(white, "white", 7)
    expect(arbiter.locator("#moves tbody td:not(:empty)")).to_have_count(1)


def test_pause_resume_and_add_time_from_the_console(browser: Browser, server: Server, arbiter: Page) -> None:
    game = create_game(arbiter, server)
    white = open_player(browser, links_of(game)["white"])
    start(arbiter, server, str(game["id"]))
    play(white, "white", 9)

    arbiter.locator("#console [data-cmd=pause]").click()
    for page in (white, arbiter):
        expect(page.locator("#status")).to_have_text("Paused")
    expect(arbiter.locator("#console [data-cmd=resume]")).to_be_visible()
    expect(white.locator("button.hole.legal")).to_have_count(0)
    before = clock_seconds(arbiter, "black")

    form = arbiter.locator("#add-time")
    form.locator("select[name=side]").select_option("black")
    form.locator("input[name=seconds]").fill("90")
    form.locator("button[type=submit]").click()
    added = f"{(before + 90) // 60}:{(before + 90) % 60:02d}"
    # The resulting time is shown and confirmed before anything is sent.
    dialog = arbiter.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    shown = f"{before // 60}:{before % 60:02d}"
    expect(dialog.locator("#confirm-text")).to_contain_text(f"Болат: +1:30 ({shown} → {added})")
    dialog.locator("#confirm-yes").click()
    for page in (white, arbiter):
        expect(page.locator(".player-bar[data-side=black] [data-clock]")).to_have_text(added)
    assert clock_seconds(white, "black") == before + 90
    arbiter.locator("#console").scroll_into_view_if_needed()
    screenshot(arbiter, "togyz-arbiter-console-paused")

    arbiter.locator("#console [data-cmd=resume]").click()
    expect(white.locator("#status")).to_contain_text("Болат (Black) — to move")
    black_clock = arbiter.locator(".player-bar[data-side=black] [data-clock]")
    expect(black_clock).to_have_class(re.compile(r"\brunning\b"))
    expect(black_clock).not_to_have_text(added, timeout=3_000)


def test_the_clock_only_mode_on_a_phone(browser: Browser, server: Server, arbiter: Page) -> None:
    game = create_game(arbiter, server)
    # One phone between the players, holding both secret links; the game is played on a physical board.
    url = shared_url(server, game, "clock")
    phone = new_page(browser, locale="en-GB", viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    phone.goto(url)
    ready(phone)
    start(arbiter, server, str(game["id"]))
    white, black = phone.locator(".tap[data-side=white]"), phone.locator(".tap[data-side=black]")
    expect(white).to_have_class(re.compile(r"\bactive\b"))
    expect(white.locator(".tap-hint")).to_have_text("Your move: tap, then choose the hole you played")
    for ply, (area, hole) in enumerate([(white, 7), (black, 3), (white, 1), (black, 9)], start=1):
        area.tap()
        expect(area.locator(".picker")).to_be_visible()
        area.locator(".pick", has_text=re.compile(rf"^{hole}$")).tap()
        phone.wait_for_function(f"window.toreshiGame.state.moves.length === {ply}")
    expect(white).to_have_class(re.compile(r"\brunning\b"))
    assert moves_played(phone) == 4
    tokens = [move["token"][0] for move in phone.evaluate("window.toreshiGame.state.moves")]
    assert tokens == ["7", "3", "1", "9"]
    expect(white.locator("[data-clock]")).not_to_have_text("7:00")
    # The big digits fit the phone's width.
    box = white.locator("[data-clock]").bounding_box()
    assert box is not None and box["width"] < PHONE["width"]
    screenshot(phone, "togyz-clock-only-phone")
    arbiter.goto(f"{server.url}/games/{game['id']}?lang=en")
    ready(arbiter)
    expect(arbiter.locator("#moves tbody td:not(:empty)")).to_have_count(4)


def test_one_shared_device_turns_the_board_to_the_side_to_move(browser: Browser, server: Server, arbiter: Page) -> None:
    game = create_game(arbiter, server)
    url = shared_url(server, game, "shared")
    tablet = new_page(browser, locale="en-GB")
    tablet.goto(url)
    ready(tablet)
    expect(tablet.locator("#role")).to_have_text("White + Black")
    start(arbiter, server, str(game["id"]))
    for ply, hole in enumerate([5, 6, 8, 2], start=1):
        side = "white" if ply % 2 else "black"
        expect(tablet.locator(".player-bar.bottom")).to_have_attribute("data-side", side)
        # Only the side to move, at the bottom, can play.
        expect(tablet.locator(f".row-bottom button.hole.side-{side}.legal")).not_to_have_count(0)
        expect(tablet.locator(".row-top button.hole.legal")).to_have_count(0)
        play(tablet, side, hole)
        expect(tablet.locator("#moves tbody td:not(:empty)")).to_have_count(ply)
    expect(tablet.locator(".player-bar.bottom")).to_have_attribute("data-side", "white")
    screenshot(tablet, "togyz-shared-device")


def test_a_player_page_closed_and_reopened_mid_game_is_restored(
    browser: Browser, server: Server, arbiter: Page
) -> None:
    game = create_game(arbiter, server)
    links = links_of(game)
    white, black = open_player(browser, links["white"]), open_player(browser, links["black"])
    start(arbiter, server, str(game["id"]))
    play(white, "white", 4)
    play(black, "black", 6)
    play(white, "white", 8)
    expect(black.locator("#moves tbody td:not(:empty)")).to_have_count(3)
    board_before = black.evaluate("window.toreshiGame.state.board")

    # Black's phone is closed while it is Black's move; White presses on; Black opens the link again.
    black.context.close()
    black = open_player(browser, links["black"])
    expect(black.locator("#moves tbody td:not(:empty)")).to_have_count(3)
    assert black.evaluate("window.toreshiGame.state.board") == board_before
    expect(black.locator("#role")).to_have_text("Black · Болат")
    expect(black.locator("#status")).to_contain_text("Болат (Black) — to move")
    play(black, "black", 1)
    expect(white.locator("#moves tbody td:not(:empty)")).to_have_count(4)

    # The same page reloaded by White keeps going as well.
    white.reload()
    ready(white)
    expect(white.locator("#moves tbody td:not(:empty)")).to_have_count(4)
    expect(white.locator("button.hole.side-white.legal")).not_to_have_count(0)
    play(white, "white", 2)
    expect(black.locator("#moves tbody td:not(:empty)")).to_have_count(5)
