"""Practice against the engine: a togyz room whose other side the engine plays, with takebacks."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from starlette.testclient import TestClient

from toreshi.services.engine import _move_job
from toreshi.web import practice_pages
from toreshi.web.app import create_app
from toreshi.web.settings import Settings

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
