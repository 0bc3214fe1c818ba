"""A player's board on a phone held sideways (issue 30: "the board on a landscape phone is smeared"): at the
landscape sizes of common phones every stone lies inside its hole without touching another, none is cut off, and
both clocks are on the screen; with 0 to 40 stones in a hole (the board is drawn again with such a position by the
page's own renderer). Portrait and a laptop are measured too, so that the fix changes nothing there. No console
error on the page, in any orientation."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

from .conftest import Server, create_game, new_page, screenshot, sign_in_arbiter

SIZES = [(844, 390), (740, 360), (915, 412), (390, 844), (1280, 800)]

MEASURE = """() => {
  const box = (element) => element.getBoundingClientRect();
  const problems = [];
  for (const stones of document.querySelectorAll("#board .stones")) {
    const hole = box(stones.closest(".hole"));
    const area = box(stones);
    const dots = [...stones.querySelectorAll(".kumalak")].map(box);
    dots.forEach((dot, index) => {
      if (dot.width < 2) problems.push(`stone ${index} too small`);
      if (dot.top < area.top - 0.5 || dot.bottom > area.bottom + 0.5 || dot.left < hole.left || dot.right > hole.right)
        problems.push(`stone ${index} of ${dots.length} cut off`);
      for (const other of dots.slice(index + 1)) {
        if (dot.left < other.right - 0.5 && other.left < dot.right - 0.5 && dot.top < other.bottom - 0.5
            && other.top < dot.bottom - 0.5) problems.push(`stones ${index} of ${dots.length} overlap`);
      }
    });
  }
  const clocks = [...document.querySelectorAll(".player-bar .clock")].map(box);
  const offScreen = clocks.filter((clock) => clock.bottom > innerHeight + 0.5 || clock.right > innerWidth + 0.5);
  return { problems, clocks: clocks.length, offScreen: offScreen.length };
}"""

CROWDED = """async () => {
  // The page's own renderer, with a position of every kind of hole: empty, few, many (13-20), crowded (21+).
  const { drawBoard } = await import("/static/js/togyz-board.js");
  const board = { white: [0, 1, 5, 9, 12, 13, 20, 21, 40], black: [40, 21, 20, 13, 12, 9, 5, 1, 0] };
  drawBoard(document.getElementById("board"), { board, kazans: { white: 0, black: 0 }, tuzdyks: { white: null,
    black: null } }, { t: (key) => key, names: { white: "Абай", black: "Болат" }, bottom: "white", last: null,
    play: () => null });
}"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_board_keeps_its_stones_apart_in_every_orientation(
    browser: Browser, server: Server, width: int, height: int
) -> None:
    arbiter = new_page(browser)
    sign_in_arbiter(arbiter, server)
    game = create_game(arbiter, server, white="Абай", black="Болат")
    arbiter.context.close()
    white = str(game["links"]["white"])
    link = white if "://" in white else server.url + white
    phone: dict[str, Any] = {"is_mobile": True, "has_touch": True} if width < 1000 else {}
    page = new_page(browser, viewport={"width": width, "height": height}, **phone)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{link}&lang=kk")
    page.locator("#board .hole").first.wait_for()
    page.wait_for_timeout(200)
    measured = page.evaluate(MEASURE)
    assert measured["clocks"] == 2 and measured["offScreen"] == 0, measured
    assert measured["problems"] == [], measured["problems"][:10]
    if (width, height) == (844, 390):
        screenshot(page, "pwa-game-landscape-kk")
    page.evaluate(CROWDED)
    crowded = page.evaluate(MEASURE)
    assert crowded["problems"] == [], crowded["problems"][:10]
    assert errors == [], errors
    page.context.close()
