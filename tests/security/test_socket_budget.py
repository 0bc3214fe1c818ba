"""One link cannot multiply its share of the server by opening many sockets, and numbers that are no numbers are
refused at the edge."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from toreshi.web.rooms.socket import ACTOR_SOCKETS, CLOSE_POLICY, COMMANDS_PER_SECOND, CONNECTIONS_PER_ACTOR

from ..web.helpers import receive_message
from .helpers import create_togyz, sign_in


@pytest.fixture
def game(client: TestClient) -> Any:
    csrf = sign_in(client)
    room_id, tokens = create_togyz(client, csrf)
    return client, room_id, tokens


def answer_to(ws: Any, command_id: str) -> dict[str, Any]:
    """The server's answer (ack or refused) to a command, skipping pings and events."""
    for _ in range(200):
        message = receive_message(ws)
        if message.get("id") == command_id and message["t"] in ("ack", "refused", "failed"):
            return message
    raise AssertionError(f"no answer to {command_id}")


def next_of(ws: Any, *kinds: str) -> dict[str, Any]:
    for _ in range(200):
        message = receive_message(ws)
        if message["t"] in kinds:
            return message
    raise AssertionError(f"no {kinds} message")


def hello(ws: Any, token: str) -> dict[str, Any]:
    ws.send_json({"t": "hello", "v": 0, "token": token})
    return dict(ws.receive_json())


def test_a_link_holds_at_most_so_many_sockets_at_once(game: Any) -> None:
    client, room_id, tokens = game
    with ExitStack() as stack:
        for _ in range(CONNECTIONS_PER_ACTOR):
            ws = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
            assert hello(ws, tokens["white"])["t"] == "welcome"
        extra = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
        answer = hello(extra, tokens["white"])
        assert (answer["t"], answer["code"], answer["reason"]) == ("error", "closing", "too_many_connections")
        with pytest.raises(WebSocketDisconnect) as closed:
            extra.receive_json()
        assert closed.value.code == CLOSE_POLICY
        other = stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}"))
        assert hello(other, tokens["black"])["t"] == "welcome"  # another player is not affected
    # All closed: the link may connect again.
    with client.websocket_connect(f"/ws/rooms/{room_id}") as again:
        assert hello(again, tokens["white"])["t"] == "welcome"
    assert not any(key[0] == room_id for key in ACTOR_SOCKETS._open)


def test_the_command_budget_is_shared_by_a_links_sockets(game: Any) -> None:
    client, room_id, tokens = game
    answers: list[str] = []
    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/ws/rooms/{room_id}")) for _ in range(4)]
        for ws in sockets:
            assert hello(ws, tokens["white"])["t"] == "welcome"
        for index in range(COMMANDS_PER_SECOND * 2):
            ws = sockets[index % len(sockets)]
            ws.send_json({"t": "cmd", "id": f"c{index}", "type": "offer_draw", "data": {}})
            answer = answer_to(ws, f"c{index}")
            answers.append(str(answer.get("code", answer["t"])))
    # Each socket alone stays far below its own 20/s: only the shared budget can refuse.
    assert answers.count("rate_limited") >= COMMANDS_PER_SECOND // 2


@pytest.mark.parametrize("frame", ['{"t":"pong","id":1,"tc":NaN}', '{"t":"pong","id":1,"tc":1e400}',
                                   '{"t":"cmd","id":"x","type":"press","data":{"lag_ms":Infinity}}'])  # fmt: skip
def test_numbers_that_are_not_numbers_are_refused_at_the_edge(game: Any, frame: str) -> None:
    client, room_id, tokens = game
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        assert hello(ws, tokens["white"])["t"] == "welcome"
        ws.send_text(frame)
        answer = next_of(ws, "error")
        assert answer["code"] == "closing" and "not JSON" in answer["message"]


def test_a_pong_with_an_absurd_clock_closes_the_socket(game: Any) -> None:
    """A clock reading beyond any number a page sends is a malformed frame (issue 26): closed, never ignored."""
    client, room_id, tokens = game
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        assert hello(ws, tokens["white"])["t"] == "welcome"
        ping = next_of(ws, "ping")
        ws.send_text(json.dumps({"t": "pong", "id": ping["id"], "tc": 1e308}))
        answer = next_of(ws, "error", "offset")
        assert (answer["t"], answer["code"], answer["reason"]) == ("error", "closing", "bad_number")


def test_a_connection_sending_frames_far_over_the_limit_is_closed(game: Any) -> None:
    """Issue 13 §2: not only commands count: a burst of hellos (each costs a snapshot) or pongs closes the socket."""
    from toreshi.web.rooms.socket import MESSAGES_PER_SECOND

    client, room_id, tokens = game
    with client.websocket_connect(f"/ws/rooms/{room_id}?lang=ru") as ws:
        assert hello(ws, tokens["white"])["t"] == "welcome"
        for _ in range(MESSAGES_PER_SECOND * 8):  # far over it, however slowly a loaded machine sends them
            ws.send_json({"t": "pong", "id": 0, "tc": 1})
        answer = next_of(ws, "error")
        assert (answer["code"], answer["reason"]) == ("closing", "flood")
        assert answer["message"] == "Слишком много сообщений сразу: соединение закрыто."
        with pytest.raises(WebSocketDisconnect) as closed:
            next_of(ws, "never")
        assert closed.value.code == CLOSE_POLICY
