"""The broadcast view of a round in a real browser (issue 5 §2): three live games on one screen, a move played in
one of them appears on the projector's page, whose clocks tick; a screenshot at 1920×1080 is kept."""

from __future__ import annotations

import html
import re

from playwright.sync_api import Browser, Page, expect

from .conftest import Server, new_page, play_hole, screenshot, session_csrf, sign_in_arbiter

PLAYERS = ["Абенов Нұрлан", "Бекова Айгерім", "Сейітов Ерлан", "Жұмабаева Дана", "Оспанов Тимур", "Қасымова Әсел"]


def form_post(page: Page, server: Server, path: str, csrf: str, **form: str) -> str:
    """A form post with the arbiter page's session; returns the page it lands on."""
    response = page.request.post(
        f"{server.url}{path}", form={**form, "csrf": csrf}, headers={"origin": server.url, "accept-language": "en"}
    )
    assert response.ok, response.text()
    return html.unescape(response.text())


def round_with_live_games(page: Page, server: Server) -> tuple[str, dict[int, str], dict[int, str]]:
    """A round robin of six, round 1 published, a live room for each of its 3 boards: (tid, rooms, White's links)."""
    csrf = session_csrf(page, server)
    created = page.request.post(
        f"{server.url}/tournaments/new",
        form={"name": "Broadcast Cup", "system": "round_robin", "rounds": "", "time_control": "blitz", "fee": "0",
              "currency": "KZT", "csrf": csrf},
        headers={"origin": server.url},
        max_redirects=0,
    )  # fmt: skip
    assert created.status == 303, created.text()
    tid = created.headers["location"].rsplit("/", 1)[-1]
    for name in PLAYERS:
        form_post(page, server, f"/tournaments/{tid}/do/add-participant", csrf, name=name)
    form_post(page, server, f"/tournaments/{tid}/do/pair", csrf)
    form_post(page, server, f"/tournaments/{tid}/do/publish", csrf)
    answer = form_post(page, server, f"/tournaments/{tid}/rounds/1/games", csrf, control="blitz")
    rooms: dict[int, str] = {}
    whites: dict[int, str] = {}
    for chunk in answer.split('class="sheet-board" id="board-')[1:]:  # the round's sheet of the players' links
        board = chunk.split('"', 1)[0]
        room = re.search(r'href="/games/(g-[0-9a-f]+)/links"', chunk)
        white = re.search(r'role-white".*?href="(http[^"]+/games/g-[0-9a-f]+\?token=[^"]+)"', chunk, re.S)
        assert room is not None and white is not None, chunk
        rooms[int(board)], whites[int(board)] = room.group(1), white.group(1)
    assert sorted(rooms) == [1, 2, 3]
    return tid, rooms, whites


def test_a_move_in_one_game_shows_on_the_round_broadcast(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser, locale="en-GB")
    sign_in_arbiter(arbiter, server)
    tid, rooms, whites = round_with_live_games(arbiter, server)

    # The round page links to the broadcast view.
    arbiter.goto(f"{server.url}/tournaments/{tid}/rounds/1?lang=en")
    expect(arbiter.locator(f'a[href="/tournaments/{tid}/rounds/1/live"]')).to_be_visible()

    projector = new_page(browser, locale="en-GB", viewport={"width": 1920, "height": 1080})
    projector.goto(f"{server.url}/tournaments/{tid}/rounds/1/live?lang=en")
    boards = projector.locator(".live-board[data-room]")
    expect(boards).to_have_count(3)
    for number, room in rooms.items():
        board = projector.locator(f'.live-board[data-board="{number}"]')
        expect(board).to_have_attribute("data-room", room)
        expect(board.locator(".lb-hole")).to_have_count(18)
        expect(board.locator(".lb-hole .lb-count", has_text=re.compile(r"^9$"))).to_have_count(18)
        expect(board.locator(".lb-kazan-count")).to_have_text(["0", "0"])
        expect(board.locator(".lb-status")).to_have_text("Waiting for the start")
        expect(board.locator(f'a.lb-link[href="/games/{room}"]')).to_be_visible()
    one = projector.locator('.live-board[data-board="1"]')
    two = projector.locator('.live-board[data-board="2"]')

    # The arbiter starts board 1; White plays hole 1 (9 kumalaks: the last lands in White's hole 9, no capture).
    arbiter.goto(f"{server.url}/games/{rooms[1]}?lang=en")
    arbiter.locator("#console [data-cmd=start]").click()
    expect(one.locator(".lb-status")).to_have_text("White — to move")
    expect(one.locator('.lb-player[data-side="white"] .lb-clock.running')).to_have_count(1)
    white = new_page(browser, locale="en-GB")
    white.goto(f"{whites[1]}&lang=en")
    play_hole(white, "white", 1)

    expect(one).to_have_attribute("data-plies", "1")
    expect(one.locator(".lb-last-move")).to_have_text("1. 19")
    expect(one.locator('.lb-hole.side-white[data-hole="1"] .lb-count')).to_have_text("1")
    expect(one.locator('.lb-hole.side-white[data-hole="1"]')).to_have_class(re.compile(r"\blast\b"))
    expect(one.locator('.lb-hole.side-white[data-hole="9"] .lb-count')).to_have_text("10")
    expect(one.locator(".lb-status")).to_have_text("Black — to move")
    # Black's clock now runs on the projector and ticks without any message from the server.
    black_clock = one.locator('.lb-player[data-side="black"] .lb-clock')
    expect(black_clock).to_have_class(re.compile(r"\brunning\b"))
    first = black_clock.inner_text()
    projector.wait_for_timeout(1500)
    assert black_clock.inner_text() != first
    # The other boards did not move.
    expect(two).to_have_attribute("data-plies", "0")
    expect(two.locator(".lb-hole .lb-count", has_text=re.compile(r"^9$"))).to_have_count(18)

    # The arbiter declares board 2's result: the projector shows it, and the board is marked as over.
    arbiter.goto(f"{server.url}/games/{rooms[2]}?lang=en")
    arbiter.once("dialog", lambda dialog: dialog.accept())
    expect(arbiter.locator("#decide")).to_be_visible()
    arbiter.select_option("#decide select[name=result]", "0-1")
    arbiter.fill("#decide input[name=reason]", "Black's opponent left the hall")
    arbiter.locator("#decide button[type=submit]").click()
    expect(arbiter.locator("#notice")).to_be_hidden()
    expect(two.locator(".lb-status")).to_have_text("0 – 1 · Arbiter's decision")
    expect(two).to_have_class(re.compile(r"\bover\b"))

    # Everything fits one 1920×1080 screen without scrolling.
    height = projector.evaluate("document.documentElement.scrollHeight")
    assert height <= 1080, height
    screenshot(projector, "round-broadcast")
    # So would twelve boards: copies of the third fill the grid to 12, and the page still does not scroll.
    projector.evaluate(
        """() => {
            const grid = document.querySelector(".broadcast-grid");
            const third = grid.querySelector('[data-board="3"]');
            for (let n = 4; n <= 12; n += 1) grid.append(Object.assign(third.cloneNode(true), {id: `copy-${n}`}));
        }"""
    )
    expect(projector.locator(".live-board")).to_have_count(12)
    height = projector.evaluate("document.documentElement.scrollHeight")
    assert height <= 1080, height
    assert projector.evaluate("document.documentElement.scrollWidth") <= 1920
    screenshot(projector, "round-broadcast-12-boards")
    for page in (white, projector, arbiter):
        page.context.close()
