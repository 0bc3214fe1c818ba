"""The broadcast overlays in a real browser at 1920×1080 (issue 29), as OBS loads them: no session, the site's CSP
in force, a transparent page. Each is screenshotted without a background into docs/screenshots/overlay-*.png and
its four corners must be fully transparent."""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, new_page, play_hole, screenshot, sign_in_arbiter
from .test_quiz_game import TEAMS, create_game
from .test_round_broadcast import PLAYERS, round_with_live_games

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
FRAME = {"width": 1920, "height": 1080}


def png_alpha(data: bytes, points: list[tuple[int, int]]) -> list[int]:
    """The alpha of the given pixels of an 8-bit RGBA PNG (Chromium's transparent screenshot), decoded here so the
    test needs no imaging library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, idat, width = 8, b"", 0
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset : offset + 8])
        body = data[offset + 8 : offset + 8 + length]
        if kind == b"IHDR":
            width, _height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert (depth, colour) == (8, 6), "RGBA expected"
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    raw, stride, rows = zlib.decompress(idat), width * 4, []
    previous = bytearray(stride)
    for start in range(0, len(raw), stride + 1):
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - 4] if i >= 4 else 0
            up, corner = previous[i], previous[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return [rows[y][x * 4 + 3] for x, y in points]


def shoot(page: Page, name: str) -> None:
    """The overlay as OBS composes it: no background; the corners let the camera picture through."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image = page.screenshot(path=str(SCREENSHOTS / f"overlay-{name}.png"), omit_background=True)
    corners = [(0, 0), (1919, 0), (0, 1079), (1919, 1079), (960, 540)]
    assert png_alpha(image, corners[:4]) == [0, 0, 0, 0], name
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080


def obs_page(browser: Browser, locale: str) -> tuple[Page, list[str]]:
    """A browser source: a context of its own (no session), the CSP enforced; what the console complains of."""
    page = new_page(browser, locale=locale, viewport=FRAME, bypass_csp=False)
    complaints: list[str] = []
    page.on("console", lambda message: complaints.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: complaints.append(str(error)))
    return page, complaints


def test_the_board_and_standings_overlays(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser, locale="en-GB")
    sign_in_arbiter(arbiter, server)
    tid, rooms, whites = round_with_live_games(arbiter, server)
    arbiter.goto(f"{server.url}/games/{rooms[1]}?lang=en")
    arbiter.locator("#console [data-cmd=start]").click()
    white = new_page(browser, locale="en-GB")
    white.goto(f"{whites[1]}&lang=en")

    overlay, complaints = obs_page(browser, "kk-KZ")
    overlay.goto(f"{server.url}/tournaments/{tid}/overlay/board/1?lang=kk")
    board = overlay.locator("#overlay")
    expect(board).to_have_attribute("data-room", rooms[1])
    expect(board).to_have_attribute("data-connection", "online")
    expect(board.locator(".lb-hole")).to_have_count(18)
    expect(board.locator(".ov-round")).not_to_be_empty()
    expect(board.locator('.ov-player[data-side="white"] .ov-name')).to_have_text(PLAYERS[0])
    play_hole(white, "white", 1)  # the move reaches the overlay live
    expect(board).to_have_attribute("data-plies", "1")
    expect(board.locator(".ov-last-move")).to_have_text("1. 19")
    expect(board.locator('.lb-hole.side-white[data-hole="9"] .lb-count')).to_have_text("10")
    expect(board.locator('.ov-player[data-side="black"] .ov-clock.running')).to_have_count(1)
    shoot(overlay, "board")

    overlay.goto(f"{server.url}/tournaments/{tid}/overlay/standings?lang=kk")
    expect(overlay.locator(".ov-ticker-rows li")).to_have_count(len(PLAYERS))
    expect(overlay.locator(".ov-ticker-rows li").first).to_be_in_viewport()
    shoot(overlay, "standings")
    assert complaints == []

    # The arbiter's page of these addresses, on a phone and a laptop, in Kazakh and Russian.
    phone: ViewportSize = {"width": 390, "height": 844}
    laptop: ViewportSize = {"width": 1280, "height": 800}
    sizes = (("kk", phone), ("ru", laptop))
    for language, viewport in sizes:
        arbiter.set_viewport_size(viewport)
        arbiter.goto(f"{server.url}/tournaments/{tid}/overlays?lang={language}")
        expect(arbiter.locator(".overlay-urls li")).to_have_count(3)
        assert arbiter.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        screenshot(arbiter, f"overlay-list-{language}-{viewport['width']}")
    for page in (overlay, white, arbiter):
        page.context.close()


def test_the_quiz_overlay(browser: Browser, server: Server, shared_data: Path) -> None:
    arbiter = new_page(browser, locale="en-GB")
    sign_in_arbiter(arbiter, server)
    game = create_game(arbiter, server, shared_data / "quiz" / "siq" / "1.siq", "qualifying", TEAMS)
    overlay, complaints = obs_page(browser, "ru-RU")
    overlay.goto(f"{server.url}/quiz/{game.room_id}/overlay?lang=ru")
    expect(overlay.locator(".q-teams .q-team")).to_have_count(len(TEAMS))
    expect(overlay.locator(".ov-question")).to_be_hidden()

    host = arbiter
    host.goto(game.links["host"].replace("?token=", "?lang=en&token="))
    expect(host.locator(".q-connection")).to_have_attribute("data-status", "online")
    expect(host.locator(".q-status")).to_have_text("Waiting for the draw")
    host.keyboard.press("d")  # the lot
    expect(host.locator(".q-status")).to_have_text(re.compile(r"chooses$"))
    cell = host.locator('.q-grid button.q-cell[data-key="0:1"]')
    cell.focus()
    host.keyboard.press("Enter")
    answer = "«Игры разума»"
    expect(host.locator(".q-answer")).to_have_text(answer)
    expect(overlay.locator(".ov-question")).to_be_visible()
    expect(overlay.locator(".ov-question .q-value")).not_to_be_empty()
    expect(overlay.locator(".ov-question .q-theme")).not_to_be_empty()
    assert answer not in overlay.locator("body").inner_text()
    expect(overlay.locator(".q-team .q-lamp")).to_have_count(len(TEAMS))
    shoot(overlay, "quiz")
    assert complaints == []
    for page in (overlay, arbiter):
        page.context.close()
