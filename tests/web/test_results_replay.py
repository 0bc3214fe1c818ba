"""Issue 29, the results site's game pages: each game move by move from the page alone (its positions inlined as
JSON, the app's board script and style beside it as ``replay.js`` and ``replay.css``), linked from the round's
pairings and from the crosstable, every link relative, nothing private in it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.togyz.position import BLACK, WHITE, Position
from toreshi.tournament.model import GameResult
from toreshi.web.common.bundle import classic_script, shared_board_css

from .helpers import post, receive_until, start_game
from .test_broadcast_evaluation import tournament_with_links

# Black takes a tuzdyk on White's hole 8 with its second move; two moves more after it.
MOVES = [8, 1, 7, 8, 3, 2]


def play_moves(client: TestClient, room: str, tokens: dict[str, str], moves: list[int]) -> None:
    """The arbiter starts the game; the players play ``moves`` from their own sockets."""
    start_game(client, room)
    with client.websocket_connect(f"/ws/rooms/{room}") as white, client.websocket_connect(f"/ws/rooms/{room}") as black:
        players = {"white": white, "black": black}
        for side, ws in players.items():
            ws.send_json({"t": "hello", "v": 0, "token": tokens[side]})
            receive_until(ws, "welcome")
        for number, hole in enumerate(moves):
            ws = players["white" if number % 2 == 0 else "black"]
            ws.send_json({"t": "cmd", "id": f"m{number}", "type": "move", "data": {"hole": hole}})
            assert receive_until(ws, "ack")["id"] == f"m{number}"


def replay_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found[1])
    return data


@pytest.fixture
def published(client: TestClient, arbiter: str, tmp_path: Path) -> tuple[Path, str, dict[int, str], list[str]]:
    """A round robin of six, board 1 of round 1 played (MOVES) in its game room, the site written by the command;
    the folder, the tournament's id, the rooms by board and what must never be published."""
    tid, rooms, tokens = tournament_with_links(client, arbiter)
    play_moves(client, rooms[1], tokens[rooms[1]], MOVES)
    post(client, f"/tournaments/{tid}/do/result", arbiter, round="1", board="1", result=GameResult.WHITE_WINS.value)
    folder = tmp_path / "site"
    result = CliRunner().invoke(app, ["publish", tid, str(folder), "--data-dir", str(tmp_path / "data")])
    assert result.exit_code == 0, result.output
    secrets = [token for pair in tokens.values() for token in pair.values()]
    return folder, tid, rooms, secrets


def test_a_game_page_carries_its_positions_and_moves_and_nothing_private(
    client: TestClient, published: tuple[Path, str, dict[int, str], list[str]]
) -> None:
    folder, _tid, rooms, secrets = published
    for language, start in (("kk", "Бастапқы позиция"), ("ru", "Начальная позиция"), ("en", "Starting position")):
        html = (folder / language / "game-1-1.html").read_text()
        data = replay_data(html)
        assert data["strings"]["start"] == start
        frames = data["frames"]
        assert len(frames) == len(MOVES) + 1 and data["moves"] == len(MOVES) // 2
        position = Position()
        for ply, (hole, frame) in enumerate(zip(MOVES, frames[1:], strict=True), start=1):
            position.play(hole)
            assert frame["ply"] == ply and frame["hole"] == hole
            assert frame["board"] == {"white": list(position.holes(WHITE)), "black": list(position.holes(BLACK))}
            assert frame["kazans"] == {"white": position.kazans[WHITE], "black": position.kazans[BLACK]}
            assert frame["tuzdyks"] == {"white": position.tuzdyk(WHITE), "black": position.tuzdyk(BLACK)}
            assert f'data-ply="{ply}">{frame["token"]}</button>' in html  # the move list, one button a ply
        assert frames[4]["tuzdyks"] == {"white": None, "black": 8}
        # The page needs nothing but its folder: the script and the style beside it, no module, no fetch.
        assert '<script src="../replay.js"></script>' in html and 'href="../replay.css"' in html
        assert 'type="module"' not in html and "/static/" not in html
        for label in ('data-step="first"', 'data-step="previous"', 'data-step="next"', 'data-step="last"'):
            assert label in html
        assert 'aria-live="polite"' in html and f'lang="{language}"' in html
    kk = (folder / "kk" / "game-1-1.html").read_text()
    assert 'aria-label="Алдыңғы жүріс"' in kk and 'aria-label="Келесі жүріс"' in kk and "Previous move" not in kk
    ru = (folder / "ru" / "game-1-1.html").read_text()
    assert replay_data(ru)["strings"]["turn"] == "Очередь хода: {side}" and "Next move" not in ru
    # Nothing private: no player's link token, no room id (the room's address is the players' door), no clock,
    # no evaluation or fair-play figure.
    for path in folder.rglob("*"):
        if path.is_file():
            text = path.read_bytes()
            for secret in [*secrets, *rooms.values()]:
                assert secret.encode() not in text, (path, secret)
    for language in ("kk", "ru", "en"):
        html = (folder / language / "game-1-1.html").read_text()
        for private in ("token=", "evaluation", "expectation", "fairplay", "fair_play", "clock", "sealed", "ws://"):
            assert private not in html.lower(), (language, private)


def test_the_pairings_and_the_crosstable_link_each_played_game_to_its_page(
    published: tuple[Path, str, dict[int, str], list[str]],
) -> None:
    folder, _tid, _rooms, _secrets = published
    for language in ("kk", "ru", "en"):
        round_page = (folder / language / "round-1.html").read_text()
        assert 'href="game-1-1.html"' in round_page
        crosstable = (folder / language / "crosstable.html").read_text()
        # Both players' cells of the round robin's grid link to the game played in its room (the other boards'
        # games were not played: no page, no link).
        links = re.findall(r'<td><a href="(game-\d+-\d+\.html)" title="[^"]+">', crosstable)
        assert links == ["game-1-1.html", "game-1-1.html"], links
        for target in re.findall(r'(?:href|src)="([^"#?]+)"', crosstable + round_page):
            assert not target.startswith(("/", "http:", "https:")), target
            assert (folder / language).joinpath(target).resolve().is_file(), target
    html = (folder / "kk" / "game-1-1.html").read_text()
    for target in re.findall(r'(?:href|src)="([^"#?]+)"', html):
        assert not target.startswith(("/", "http:", "https:")), target
        assert (folder / "kk").joinpath(target).resolve().is_file(), target


def test_the_app_serves_the_same_game_page_script_and_style(
    client: TestClient, published: tuple[Path, str, dict[int, str], list[str]]
) -> None:
    folder, tid, _rooms, _secrets = published
    with TestClient(client.app) as visitor:  # nobody signed in
        for name, kind in (("kk/game-1-1.html", "text/html"), ("replay.js", "text/javascript"),
                           ("replay.css", "text/css")):  # fmt: skip
            served = visitor.get(f"/results/{tid}/{name}")
            assert served.status_code == 200 and served.headers["content-type"].startswith(kind), name
            assert served.content == (folder / name).read_bytes(), name
            assert "script-src 'self'" in served.headers["content-security-policy"]


def test_the_site_script_is_the_apps_modules_as_one_classic_script() -> None:
    script = classic_script("results-replay.js")
    assert not re.search(r"^\s*(import|export)\b", script, re.M)  # no module syntax: it runs from file://
    for shared in ("function drawBoard", "function startStepper", "function plyText", "function translator"):
        assert script.count(shared) == 1, shared  # the app's own board and stepping code, once each
    assert "fetch(" not in script and "WebSocket" not in script
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node.js to check the script's syntax")
    checked = subprocess.run([node, "--check", "-"], input=script, capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr


def test_the_game_page_has_a_text_for_every_key_its_script_shows(
    published: tuple[Path, str, dict[int, str], list[str]],
) -> None:
    folder, _tid, _rooms, _secrets = published
    static = Path(__file__).resolve().parents[2] / "src" / "toreshi" / "web" / "static" / "js"
    script = "".join(
        (static / name).read_text() for name in ("results-replay.js", "togyz-stepper.js", "togyz-board.js")
    )
    used = set(re.findall(r'(?<![\w.$])t\("(\w+)"', script)) | {"white", "black"}
    assert {"kazan", "tuzdyk", "ply", "start", "turn", "kazans", "tuzdyk_on"} <= used
    for language in ("kk", "ru", "en"):
        strings = replay_data((folder / language / "game-1-1.html").read_text())["strings"]
        assert sorted(used - strings.keys()) == [], language


def test_the_site_board_style_is_the_apps_board_style_with_its_colours() -> None:
    sheet = (Path(__file__).resolve().parents[2] / "src/toreshi/web/static/css/toreshi.css").read_text()
    css = shared_board_css("#replay")
    for rule in (".board {", ".hole {", ".kazan-count {", ".tuzdyk-mark {", ".player-bar.to-move {"):
        assert rule in css and rule in sheet, rule
    colours = re.match(r"#replay \{(.*?)\}", css, re.S)
    assert colours is not None
    for used in set(re.findall(r"var\((--[\w-]+)", css)):
        assert f"{used}:" in colours[1], used  # every colour the rules use is set on the replay's box
    assert "header.top" not in css and "body {" not in css  # the app's page chrome stays out
