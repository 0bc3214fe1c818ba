"""Practice against the engine: a togyz room whose other side the engine plays, with takebacks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from starlette.testclient import TestClient

from toreshi.services import practice as practice_service
from toreshi.services.engine import _move_job
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import create_game, csrf_in, receive_until, start_game


def start_practice(client: TestClient, **fields: str) -> tuple[str, str]:
    page = client.get("/practice?lang=kk")
    assert page.status_code == 200 and "Компьютермен жаттығу" in page.text
    form = {"csrf": csrf_in(page.text), "name": "Асқар", "level": "1", "side": "white", "control": "blitz", **fields}
    answer = client.post("/practice", data=form, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    url = urlparse(answer.headers["location"])
    room = url.path.rsplit("/", 1)[1]
    return room, parse_qs(url.query)["token"][0]


def room_state(client: TestClient, room: str) -> dict[str, Any]:
    data: dict[str, Any] = client.get(f"/api/rooms/{room}").json()["data"]
    return data


def wait_for_plies(client: TestClient, room: str, plies: int) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        state = room_state(client, room)
        if len(state["moves"]) >= plies:
            return state
        time.sleep(0.05)
    raise AssertionError(f"the engine did not reach ply {plies}")


def test_the_engine_answers_and_a_move_is_taken_back(client: TestClient) -> None:
    room, token = start_practice(client)
    state = room_state(client, room)
    assert state["status"] == "running" and state["names"] == {"white": "Асқар", "black": "Компьютер, 1-деңгей"}
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": token})
        welcome = receive_until(ws, "welcome")
        assert welcome["role"] == "white"
        ws.send_json({"t": "cmd", "id": "m1", "type": "move", "data": {"hole": 7}})
        receive_until(ws, "ack")
        answered = wait_for_plies(client, room, 2)
        assert answered["moves"][1]["side"] == "black" and answered["turn"] == "white"
        # The engine's move reaches the player's socket, with the takeback among what the player may do now.
        while True:
            seen = receive_until(ws, "event")["data"].get("state")
            if seen is not None and len(seen["moves"]) == 2:
                break
        assert "take_back" in seen["can"] and "move" in seen["can"]
        ws.send_json({"t": "cmd", "id": "tb", "type": "take_back", "data": {}})
        ack = receive_until(ws, "ack")
        assert ack["id"] == "tb"
    back = room_state(client, room)
    assert back["moves"] == [] and back["board"] == {"white": [9] * 9, "black": [9] * 9}
    assert back["turn"] == "white" and back["clock"]["running"] == "white"


def test_the_engine_moves_first_when_the_person_plays_black(client: TestClient) -> None:
    room, _token = start_practice(client, side="black", level="2")
    state = wait_for_plies(client, room, 1)
    assert state["names"]["black"] == "Асқар" and state["moves"][0]["side"] == "white"
    assert state["clock"]["running"] == "black"


def test_a_takeback_outside_practice_is_refused_in_the_players_language(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    room = game["id"]
    start_game(client, room)
    with client.websocket_connect(f"/ws/rooms/{room}?lang=ru") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": game["tokens"]["white"]})
        receive_until(ws, "welcome")
        ws.send_json({"t": "cmd", "id": "m", "type": "move", "data": {"hole": 7}})
        receive_until(ws, "ack")
        ws.send_json({"t": "cmd", "id": "tb", "type": "take_back", "data": {}})
        refused = receive_until(ws, "refused")
        assert refused["code"] == "takeback_not_practice", refused


def test_after_a_restart_the_engine_takes_its_seat_again(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data")
    with TestClient(create_app(settings), base_url="http://testserver") as first:
        room, token = start_practice(first)
    with TestClient(create_app(settings), base_url="http://testserver") as second:
        with second.websocket_connect(f"/ws/rooms/{room}") as ws:
            ws.send_json({"t": "hello", "v": 0, "token": token})
            assert receive_until(ws, "welcome")["role"] == "white"
            ws.send_json({"t": "cmd", "id": "m1", "type": "move", "data": {"hole": 3}})
            receive_until(ws, "ack")
        state = wait_for_plies(second, room, 2)
        assert state["moves"][1]["side"] == "black"


def test_the_engines_choice_is_seeded_by_the_room_and_the_ply() -> None:
    # A depth-limited level chooses by its seeded draw only: the same room and ply, the same move.
    first = [_move_job([7, 3], 2, f"g-1:{ply}").hole for ply in range(8)]
    again = [_move_job([7, 3], 2, f"g-1:{ply}").hole for ply in range(8)]
    assert first == again and all(1 <= hole <= 9 for hole in first)


def test_the_number_of_practice_games_at_once_is_capped(tmp_path: Path) -> None:
    # Two browsers holding one game each fill an instance of two: a third is told to come back later.
    settings = Settings(data_dir=tmp_path / "data", practice_max_games=2)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        start_practice(client)
        client.cookies.clear()  # another browser
        start_practice(client)
        client.cookies.clear()
        page = client.get("/practice?lang=ru")
        form = {"csrf": csrf_in(page.text), "name": "Бекзат", "level": "1", "side": "white", "control": "blitz"}
        refused = client.post("/practice?lang=ru", data=form, follow_redirects=False)
        assert refused.status_code == 200 and "слишком много тренировочных партий" in refused.text


def test_past_its_quota_a_browser_may_end_its_oldest_game_and_start_a_new_one(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", practice_per_browser=2)
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        oldest, _token = start_practice(client)
        start_practice(client)
        page = client.get("/practice?lang=kk")
        form = {"csrf": csrf_in(page.text), "name": "Асқар", "level": "2", "side": "white", "control": "blitz"}
        offered = client.post("/practice?lang=kk", data=form, follow_redirects=False)
        assert offered.status_code == 200 and "2-ойыныңызды жалғастыру" in offered.text
        assert "Ең ескі ойынымды аяқтап, жаңасын бастау" in offered.text and 'name="end_oldest"' in offered.text
        again = client.post("/practice?lang=kk", data={**form, "end_oldest": "1"}, follow_redirects=False)
        assert again.status_code == 303
        # The oldest game was resigned by its absent player, in its log: a restarted server does not resume it.
        assert room_state(client, oldest)["status"] == "finished"
        cookies = dict(client.cookies)
    app = create_app(settings)
    with TestClient(app, base_url="http://testserver", cookies=cookies) as restarted:
        assert room_state(restarted, oldest)["status"] == "finished"
        assert len(app.state.services.practice.seats()) == 2
        # The browser's session remembers its games: after the restart it still holds its quota.
        page = restarted.get("/practice?lang=kk")
        refused = restarted.post("/practice?lang=kk", data={**form, "csrf": csrf_in(page.text)}, follow_redirects=False)
        assert refused.status_code == 200 and "2-ойыныңызды жалғастыру" in refused.text


def test_an_idle_practice_game_is_reclaimed_by_the_server_on_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(practice_service, "SWEEP_EVERY_S", 0.05)
    settings = Settings(data_dir=tmp_path / "data", practice_idle_minutes=0.01)  # 0.6 s without a move
    with TestClient(create_app(settings), base_url="http://testserver") as client:
        room, _token = start_practice(client)
        deadline = time.monotonic() + 20
        while room_state(client, room)["status"] != "finished":
            assert time.monotonic() < deadline, "the idle game was not reclaimed"
            time.sleep(0.1)
        # A private practice game leaves the lists once over (archived, in the store).
        while f'href="/games/{room}"' not in client.get("/?filter=archived").text:
            assert time.monotonic() < deadline, "the reclaimed game was not archived"
            time.sleep(0.1)


def test_a_practice_game_is_listed_only_when_its_player_asks(client: TestClient) -> None:
    private, _token = start_practice(client)
    listed, _token = start_practice(client, listed="1")
    home = client.get("/?lang=ru").text
    assert f'href="/games/{listed}"' in home and f'href="/games/{private}"' not in home
    form = client.get("/practice?lang=ru").text
    assert "Показывать мою партию в общем списке партий" in form and 'name="listed"' in form
