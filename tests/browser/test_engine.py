"""The engine in the browser, in Kazakh (issue 19 §2): a practice game where the computer answers a move and a move
is taken back, then the finished game's replay with the computer's review curve and worst moves."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .conftest import Server, new_page, play_hole, screenshot, session_csrf, sign_in_arbiter
from .test_round_broadcast import form_post, round_with_live_games

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 860}


def plies(page: Page) -> int:
    return int(page.evaluate("window.toreshiGame.state.moves.length"))


def legal_holes(page: Page) -> list[int]:
    """White's holes the page offers to play now (the computer's answers decide which are left)."""
    page.locator("button.hole.side-white.legal").first.wait_for()
    numbers = page.locator("button.hole.side-white.legal .hole-num").all_inner_texts()
    return [int(number) for number in numbers]


def answered(page: Page, count: int) -> None:
    page.wait_for_function(f"window.toreshiGame.state.moves.length === {count}", timeout=30_000)


def test_practice_against_the_computer_then_its_review(browser: Browser, server: Server) -> None:
    page = new_page(browser, viewport=PHONE, locale="kk-KZ")
    page.goto(f"{server.url}/practice?lang=kk")
    expect(page.locator("h1")).to_have_text("Компьютермен жаттығу")
    page.fill("input[name=name]", "Асқар")
    page.check("input[name=level][value='1']")
    page.check("input[name=side][value=white]")
    screenshot(page, "engine-practice-form-kk-phone")
    page.click("form.practice-form button[type=submit]")
    page.wait_for_url(re.compile(r"/games/g-[0-9a-f]+\?token="))
    room = re.search(r"/games/(g-[0-9a-f]+)", page.url)
    assert room is not None
    expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator(".player-bar[data-side=black] .name")).to_have_text("Компьютер, 1-деңгей")

    # The person moves; the computer answers on its own, its clock pressed.
    play_hole(page, "white", 7)
    answered(page, 2)
    take_back = page.locator("#player-buttons [data-player-cmd=take_back]")
    expect(take_back).to_have_text("Жүрісті қайтару")
    screenshot(page, "engine-practice-answered-kk-phone")
    take_back.click()
    answered(page, 0)
    assert page.evaluate("window.toreshiGame.state.board.white") == [9] * 9

    for number, hole in enumerate((3, 5, 9), start=1):
        play_hole(page, "white", hole if hole in legal_holes(page) else legal_holes(page)[0])
        answered(page, 2 * number)
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#player-buttons [data-player-cmd=resign]").click()
    page.wait_for_function("window.toreshiGame.state.status === 'finished'")
    total = plies(page)

    # The replay: the computer's review, its curve (one point per position) and the worst moves, in Kazakh.
    words = {"kk": ("Компьютерлік талдау", "Тереңдік", "Бағалау: бастаушы"), "ru": ("Компьютерный разбор", "Глубина",
             "Оценка: белые")}  # fmt: skip
    for name, viewport, language in (
        ("kk-phone", PHONE, "kk"),
        ("kk-desktop", DESKTOP, "kk"),
        ("ru-desktop", DESKTOP, "ru"),
    ):
        title, depth, bar = words[language]
        replay = new_page(browser, viewport=viewport, locale="kk-KZ")
        replay.goto(f"{server.url}/games/{room.group(1)}/replay?lang={language}")
        expect(replay.locator("#review-title")).to_have_text(title)
        expect(replay.locator("#review")).to_have_attribute("data-review", "ready", timeout=60_000)
        expect(replay.locator("#review-curve")).to_have_attribute("data-points", str(total + 1))
        expect(replay.locator("#review-curve svg polyline.review-line")).to_have_count(1)
        assert replay.locator("#review-worst li").count() >= 1
        expect(replay.locator("#review-status")).to_contain_text(depth)
        expect(replay.locator("#eval-bar")).to_be_visible()
        expect(replay.locator("#eval-bar .eval-text")).to_contain_text(bar)
        # A click on a worst move shows the position before it.
        first = replay.locator("#review-worst li button").first
        if first.count():
            first.click()
            ply = int(replay.evaluate("window.toreshiReplay.ply"))
            assert 0 <= ply < total
        replay.locator("#review").scroll_into_view_if_needed()
        screenshot(replay, f"engine-review-{name}")
        replay.context.close()
    page.context.close()


def test_the_round_broadcast_shows_the_evaluation_bar_after_the_delay(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser, locale="en-GB")
    sign_in_arbiter(arbiter, server)
    tid, rooms, whites = round_with_live_games(arbiter, server)
    csrf = session_csrf(arbiter, server)
    form_post(arbiter, server, f"/tournaments/{tid}/do/evaluation", csrf, shown="on", delay_minutes="0")
    arbiter.goto(f"{server.url}/games/{rooms[1]}?lang=en")
    arbiter.locator("#console [data-cmd=start]").click()
    white = new_page(browser, locale="kk-KZ", viewport=PHONE)
    white.goto(whites[1])
    expect(white.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    play_hole(white, "white", 7)
    white.wait_for_function("window.toreshiGame.state.moves.length === 1")
    expect(white.locator(".eval-bar, .lb-eval")).to_have_count(0)  # the player's page has no bar at all
    for name, viewport in (("desktop", {"width": 1920, "height": 1080}), ("phone", PHONE)):
        projector = new_page(browser, locale="kk-KZ", viewport=viewport)
        projector.goto(f"{server.url}/tournaments/{tid}/rounds/1/live?lang=kk")
        one = projector.locator('.live-board[data-board="1"] .lb-eval')
        expect(one).to_be_visible(timeout=20_000)
        expect(one.locator(".lb-eval-text")).to_contain_text("Бағалау: бастаушы")
        expect(projector.locator('.live-board[data-board="2"] .lb-eval')).to_be_hidden()  # not started: nothing
        screenshot(projector, f"engine-broadcast-evaluation-kk-{name}")
        projector.context.close()
