"""The published results site's game page (issue 29) opened from files in Chromium, as a club's USB stick would
serve it: the game stepped through move by move with the buttons, the arrow keys and the move list, in Kazakh and
Russian, on a phone (390×844) and a laptop (1280×800); the board's holes, kazans and tuzdyk follow the game's
positions and the page writes nothing to the console. The screenshots go to docs/screenshots/."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect
from starlette.testclient import TestClient

from toreshi.tournament.model import GameResult
from toreshi.web.app import create_app
from toreshi.web.common.middleware import CONTENT_SECURITY_POLICY
from toreshi.web.common.settings import Settings

from ..web.helpers import post
from ..web.test_broadcast_evaluation import tournament_with_links
from ..web.test_results_replay import MOVES, play_moves
from ..web.test_tournament_pages import sign_in
from .conftest import new_page
from .test_accessibility import AXE_OPTIONS
from .test_content_security import WATCH_VIOLATIONS

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES: dict[str, ViewportSize] = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
# What the page says in each language: the start, the step buttons' names, the turn and the tuzdyk.
WORDS = {
    "kk": {"start": "Бастапқы позиция", "next": "Келесі жүріс", "previous": "Алдыңғы жүріс", "turn": "Жүріс кезегі",
           "first": "Бастапқы позицияға", "tuzdyk": "Тұздық"},
    "ru": {"start": "Начальная позиция", "next": "Следующий ход", "previous": "Предыдущий ход", "turn": "Очередь хода",
           "first": "К начальной позиции", "tuzdyk": "Туздык"},
}  # fmt: skip


def _published(tmp_path: Path) -> Path:
    """A round robin of six whose board 1 of round 1 was played in its game room (MOVES, then 1-0), published by
    ``toreshi publish`` in a process of its own (this one's event loop belongs to Playwright)."""
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "kk"}) as web:
        csrf = sign_in(web)
        tid, rooms, tokens = tournament_with_links(web, csrf)
        play_moves(web, rooms[1], tokens[rooms[1]], MOVES)
        post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result=GameResult.WHITE_WINS.value)
    folder = tmp_path / "site"
    command = [sys.executable, "-m", "toreshi", "publish", tid, str(folder), "--data-dir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return folder


def _watch(page: Page) -> list[str]:
    """What goes wrong on ``page``: console errors, script errors and any request not for a file."""
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: None if request.url.startswith("file:") else problems.append(request.url))
    return problems


def _board(page: Page) -> dict[str, Any]:
    """What the board shows: each side's nine holes (a count, or "X" for a tuzdyk) and the two kazans."""
    shown: dict[str, Any] = page.evaluate(
        """() => {
        const side = (name) => [...Array(9).keys()].map((i) => {
          const hole = document.querySelector(`#board .hole[data-side="${name}"][data-hole="${i + 1}"]`);
          return hole.classList.contains("tuzdyk") ? "X" : Number(hole.querySelector(".hole-count").textContent);
        });
        const kazan = (name) => Number(document.querySelector(`#board .kazan.side-${name} .kazan-count`).textContent);
        return { white: side("white"), black: side("black"), kazans: { white: kazan("white"), black: kazan("black") } };
      }"""
    )
    return shown


def _expected(frame: dict[str, Any]) -> dict[str, Any]:
    """The board a frame of the game describes: a tuzdyk stands on its owner's opponent's row."""
    rows: dict[str, list[Any]] = {side: list(frame["board"][side]) for side in ("white", "black")}
    for owner, opponent in (("white", "black"), ("black", "white")):
        hole = frame["tuzdyks"][owner]
        if hole:
            rows[opponent][hole - 1] = "X"
    return {**rows, "kazans": frame["kazans"]}


def test_a_published_game_is_replayed_from_files_in_kazakh_and_russian_on_a_phone_and_a_laptop(
    browser: Browser, tmp_path: Path
) -> None:
    folder = _published(tmp_path)
    for language, words in WORDS.items():
        for size, viewport in SIZES.items():
            page = new_page(browser, viewport=viewport)
            problems = _watch(page)
            page.goto((folder / language / "round-1.html").as_uri())
            page.locator("main a[href='game-1-1.html']").click()  # the pairing links to the game's page
            assert page.url.startswith("file://") and page.url.endswith(f"/{language}/game-1-1.html")
            frames = json.loads(page.locator("#replay-data").text_content() or "")["frames"]
            assert len(frames) == len(MOVES) + 1
            # The page opens on the final position; the move list marks its last move.
            expect(page.locator("#replay")).to_have_attribute("data-ply", str(len(MOVES)))
            assert _board(page) == _expected(frames[-1])
            expect(page.get_by_role("button", name=words["next"], exact=True)).to_be_disabled()
            # Home, then forward move by move with the button and the arrow key: the counts follow the positions.
            page.keyboard.press("Home")
            expect(page.locator("#replay-ply")).to_have_text(words["start"])
            assert _board(page) == {"white": [9] * 9, "black": [9] * 9, "kazans": {"white": 0, "black": 0}}
            expect(page.get_by_role("button", name=words["first"], exact=True)).to_be_disabled()
            page.get_by_role("button", name=words["next"], exact=True).click()
            expect(page.locator("#replay")).to_have_attribute("data-ply", "1")
            assert _board(page) == _expected(frames[1]) and frames[1]["kazans"] != frames[0]["kazans"]
            expect(page.locator(".player-bar[data-side='black']")).to_have_class("player-bar top to-move")
            for ply in (2, 3, 4):
                page.keyboard.press("ArrowRight")
                expect(page.locator("#replay")).to_have_attribute("data-ply", str(ply))
                assert _board(page) == _expected(frames[ply]), ply
            # After Black's second move its tuzdyk stands on White's hole 8; the screen reader hears it too.
            expect(page.locator("#board .hole[data-side='white'][data-hole='8']")).to_have_class(
                "hole side-white tuzdyk tuzdyk-black")  # fmt: skip
            said = page.locator("#replay-said")
            expect(said).to_contain_text(words["turn"])
            expect(said).to_contain_text(words["tuzdyk"])
            page.screenshot(path=str(SHOTS / f"results-replay-{language}-{size}.png"), full_page=True)
            page.get_by_role("button", name=words["previous"], exact=True).click()
            expect(page.locator("#replay")).to_have_attribute("data-ply", "3")
            assert _board(page) == _expected(frames[3])
            page.keyboard.press("ArrowLeft")
            assert _board(page) == _expected(frames[2])
            # A move of the list shows its position; End goes back to the last.
            page.locator(".replay-move[data-ply='5']").click()
            expect(page.locator("#replay")).to_have_attribute("data-ply", "5")
            expect(page.locator("#moves td.last .replay-move")).to_have_text(frames[5]["token"])
            assert _board(page) == _expected(frames[5])
            page.keyboard.press("End")
            assert _board(page) == _expected(frames[-1])
            # Nothing is wider than the screen, nothing was asked of a server, nothing went to the console.
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            assert "Next move" not in page.locator("body").inner_text()
            assert problems == [], problems
            # axe-core finds nothing critical, serious or moderate (after the console check: axe
            # itself asks for the page's stylesheets, which file:// refuses).
            if size == "laptop":
                found = Axe().run(page, options=AXE_OPTIONS).response["violations"]
                bad = [(v["id"], v["impact"]) for v in found if v.get("impact") in ("critical", "serious", "moderate")]
                assert bad == [], bad
            page.context.close()


TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}


def test_the_game_page_runs_under_the_apps_content_security_policy(browser: Browser, tmp_path: Path) -> None:
    """Served from a web host with the app's policy (no inline script, no inline style): the replay still runs."""
    folder = _published(tmp_path)

    def serve(route: Route) -> None:
        path = folder / route.request.url.removeprefix("http://results.test/")
        if not path.is_file():
            route.fulfill(status=404, body="")
            return
        headers = {"content-security-policy": CONTENT_SECURITY_POLICY, "x-content-type-options": "nosniff"}
        route.fulfill(status=200, body=path.read_bytes(), headers=headers, content_type=TYPES[path.suffix])

    page = new_page(browser, bypass_csp=False, viewport=SIZES["laptop"])
    page.add_init_script(WATCH_VIOLATIONS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.route("http://results.test/**", serve)
    page.goto("http://results.test/kk/game-1-1.html")
    expect(page.locator("#replay")).to_have_attribute("data-ply", str(len(MOVES)))
    page.keyboard.press("Home")
    expect(page.locator("#replay-ply")).to_have_text(WORDS["kk"]["start"])
    assert page.locator("#board .hole").count() == 18 and page.locator("#board .kazan").count() == 2
    assert page.evaluate("window.__violations") == [] and errors == []
    page.context.close()
