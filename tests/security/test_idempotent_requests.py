"""Issue 13 §2: a request that can only be made once is stored once. A togyz player's protest is one per game and
side (the room cannot decide it; the tournament's desk does): thirty repeats store one event, each repeat refused."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from .helpers import create_togyz, greet, sign_in, stored_version


def send(ws: Any, number: int, kind: str) -> dict[str, Any]:
    time.sleep(0.06)  # within the 20 commands a second a person may send: every repeat reaches the room
    ws.send_json({"t": "cmd", "id": f"c{number}", "type": kind, "data": {}})
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message.get("id") == f"c{number}" and message["t"] in ("ack", "refused"):
            return message


def test_a_players_protest_is_stored_once_however_often_it_is_sent(client: TestClient) -> None:
    csrf = sign_in(client)
    room, tokens = create_togyz(client, csrf)
    with client.websocket_connect(f"/ws/rooms/{room}") as arbiter:
        greet(arbiter)
        assert send(arbiter, 0, "start")["t"] == "ack"
    with client.websocket_connect(f"/ws/rooms/{room}?lang=en") as black:
        greet(black, token=tokens["black"])
        assert send(black, 0, "resign")["t"] == "ack"
        before = stored_version(client, room)
        answers = [send(black, number, "file_protest") for number in range(1, 31)]
    assert answers[0]["t"] == "ack"
    assert {(answer["t"], answer["code"]) for answer in answers[1:]} == {("refused", "protest_already_filed")}
    message = "A protest on behalf of Қара is already filed for this game; the arbiters decide it."
    assert answers[1]["message"] == message
    assert stored_version(client, room) == before + 1
