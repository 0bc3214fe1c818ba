"""The arbiter's fair-play report (issue 28): started by a POST, computed by the engine's worker processes,
stored with its progress; reading the page writes nothing; the figures are the engine's own for each game."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from toreshi.store.schema import fairplay_reports
from toreshi.togyz.engine import Limits
from toreshi.togyz.engine.fairplay import game_figures
from toreshi.togyz.position import Position
from toreshi.web.app import create_app
from toreshi.web.common.services import services_of
from toreshi.web.common.settings import Settings

from .helpers import post, receive_until, sign_in, start_game
from .test_broadcast_evaluation import tournament_with_links
from .test_broadcast_pages import PLAYERS

DEPTH = 3
PLIES = 24


@pytest.fixture
def fast(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(data_dir=tmp_path / "data", review_depth=DEPTH, review_budget=20.0, fairplay_workers=1)
    with TestClient(create_app(settings), base_url="http://testserver", headers={"accept-language": "en"}) as client:
        yield client


def _moves(seed: int) -> list[int]:
    """A legal game of PLIES plies: each side plays its (seed + ply)-th legal move."""
    position, moves = Position(), list[int]()
    for ply in range(PLIES):
        legal = position.legal_moves()
        hole = legal[(seed + ply) % len(legal)]
        position.play(hole)
        moves.append(hole)
    return moves


def _play(client: TestClient, room: str, tokens: dict[str, str], moves: list[int]) -> None:
    start_game(client, room)
    with client.websocket_connect(f"/ws/rooms/{room}") as white, client.websocket_connect(f"/ws/rooms/{room}") as black:
        players = {"white": white, "black": black}
        for side, ws in players.items():
            ws.send_json({"t": "hello", "v": 0, "token": tokens[side]})
            receive_until(ws, "welcome")
        for number, hole in enumerate(moves):
            ws = players["white" if number % 2 == 0 else "black"]
            ws.send_json({"t": "cmd", "id": f"m{number}", "type": "move", "data": {"hole": hole}})
            receive_until(ws, "ack")
        black.send_json({"t": "cmd", "id": "r", "type": "resign", "data": {}})
        receive_until(black, "ack")


def _rows(client: TestClient) -> int:
    engine = services_of(client).store.engine  # type: ignore[arg-type]

    async def count() -> int:
        async with engine.connect() as connection:
            return int((await connection.execute(select(func.count()).select_from(fairplay_reports))).scalar_one())

    return int(client.portal.call(count))  # type: ignore[union-attr]


def _wait(client: TestClient, tid: str) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        page = client.get(f"/tournaments/{tid}/fairplay").text
        if "Games analysed" not in page:
            return page
        assert 'http-equiv="refresh"' in page and "<progress" in page  # the progress, reloaded without a script
        time.sleep(0.3)
    raise AssertionError("the report did not finish in two minutes")


def test_the_report_is_computed_on_request_stored_and_read_without_writing(fast: TestClient) -> None:
    csrf = sign_in(fast)
    tid, rooms, tokens = tournament_with_links(fast, csrf)
    games = {board: _moves(board) for board in rooms}
    for board, room in rooms.items():
        _play(fast, room, tokens[room], games[board])
    post(fast, f"/tournaments/{tid}/collect", csrf)
    page = fast.get(f"/tournaments/{tid}/fairplay").text
    assert "No report yet" in page and "evidence for an arbiter, not a verdict" in page.lower()
    assert _rows(fast) == 0  # reading wrote nothing
    page = post(fast, f"/tournaments/{tid}/fairplay", csrf)
    assert "The engine is analysing the tournament's games." in page
    page = _wait(fast, tid)
    assert _rows(fast) == 1
    # Each game's figures are the engine's own (the same review, the same depth), per side, on the page.
    limits = Limits(depth=DEPTH, movetime=1.0)
    stored: Any = fast.portal.call(_stored, fast, tid)  # type: ignore[union-attr]
    assert stored.status == "ready" and stored.done == stored.total == 3
    for game in stored.report["games"]:
        expected = game_figures(games[game["board"]], limits, clock=time.monotonic)
        assert game["white_figures"] == [expected.white.moves, expected.white.matches, expected.white.loss]
        assert game["black_figures"] == [expected.black.moves, expected.black.matches, expected.black.loss]
        assert f'href="/games/{game["room"]}/replay"' in page
    assert len(stored.report["players"]) == 6 and "The whole field" in page
    # Read again: the same, nothing recomputed (the stored time of the request has not moved).
    again = fast.get(f"/tournaments/{tid}/fairplay").text
    assert re.findall(r"Asked for by .*?</p>", again) == re.findall(r"Asked for by .*?</p>", page)
    # In Kazakh and Russian, no English on the page (the players' names are Latin here: the test's own).
    allowed = {word for name in PLAYERS for word in re.findall(r"[A-Za-z]+", name)} | {"Club", "Cup", "Chief"}
    for language in ("kk", "ru"):
        localized = fast.get(f"/tournaments/{tid}/fairplay?lang={language}").text
        main = html.unescape(localized.split("<main", 1)[1].split("</main>", 1)[0])
        words = re.findall(r"[A-Za-z][A-Za-z]+", re.sub(r"<[^>]+>", " ", main))
        assert [word for word in words if word not in allowed] == [], language


async def _stored(client: TestClient, tid: str) -> Any:
    service = services_of(client).fairplay  # type: ignore[arg-type]
    assert service is not None
    report = await service.report(tid)
    assert report is not None
    return report.stored


def test_players_and_spectators_never_see_the_report(fast: TestClient) -> None:
    csrf = sign_in(fast)
    tid, _, _ = tournament_with_links(fast, csrf)
    assert 'href="/tournaments/' + tid + '/fairplay"' in fast.get(f"/tournaments/{tid}").text
    fast.post("/logout", data={"csrf": csrf})
    assert "/fairplay" not in fast.get(f"/tournaments/{tid}").text  # no link in the public menu
    answer = fast.get(f"/tournaments/{tid}/fairplay", follow_redirects=False)
    assert answer.status_code in (303, 401) and "/login" in answer.headers.get("location", "/login")
