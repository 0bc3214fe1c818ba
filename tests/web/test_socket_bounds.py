"""Every number a client sends on the room socket is bounded, and a malformed frame closes the socket with the
protocol's error (``closing``, close code 1008), logged once in one line without a traceback (issue 26)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from toreshi.live.room import Actor
from toreshi.web.rooms.presence import LOST_AFTER_MS
from toreshi.web.rooms.socket import CLOSE_POLICY, Connection

from .helpers import receive_until
from .test_socket import make_app

HUGE = "9" * 3_000
"""A 3,000-digit integer literal (Python reads up to 4,300 digits; a float() of it overflows)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path)) as test_client:
        yield test_client


def closed_for(client: TestClient, caplog: pytest.LogCaptureFixture, frames: list[str]) -> tuple[int, str]:
    """Send ``frames`` on a fresh socket (the first is the hello) and return the close code and the ``closing``
    error's reason; checks that the socket was closed and that exactly one line was logged, with no traceback."""
    caplog.clear()
    with (
        caplog.at_level(logging.INFO, logger="toreshi.web.rooms.socket"),
        client.websocket_connect("/ws/rooms/r1") as ws,
    ):
        for frame in frames:
            ws.send_text(frame)
        error = receive_until(ws, "error")
        assert error["code"] == "closing", error
        with pytest.raises(WebSocketDisconnect) as closed:
            drain(ws)
    records = [record for record in caplog.records if record.name == "toreshi.web.rooms.socket"]
    assert len(records) == 1, [record.getMessage() for record in records]
    assert records[0].exc_info is None and "\n" not in records[0].getMessage()
    assert error["reason"] in records[0].getMessage()
    return closed.value.code, str(error["reason"])


def drain(ws: Any) -> None:
    """Read until the server closes the socket (raises ``WebSocketDisconnect`` then)."""
    while True:
        ws.receive_json()


HELLO = '{"t":"hello","v":0,"token":"secret-a"}'


@pytest.mark.parametrize(
    ("frames", "reason"),
    [
        ([HELLO, '{"t":"cmd","id":"1","type":"press","data":{"tc":' + HUGE + "}}"], "bad_number"),
        ([HELLO, '{"t":"cmd","id":"1","type":"add","data":{"n":-' + HUGE + "}}"], "bad_number"),
        (['{"t":"hello","v":' + HUGE + "}"], "bad_number"),
        (['{"t":"hello","v":9007199254740992}'], "bad_number"),  # 2**53: one past what a browser sends exactly
        ([HELLO, '{"t":"pong","id":1,"tc":' + HUGE + "}"], "bad_number"),
        ([HELLO, '{"t":"pong","id":1,"tc":1e300}'], "bad_number"),
        ([HELLO, '{"t":"pong","id":1,"tc":NaN}'], "bad_json"),
        ([HELLO, '{"t":"cmd","id":"1","type":"add","data":{"n":Infinity}}'], "bad_json"),
        (['{"t":"hello","v":1.5}'], "bad_hello"),
        (['{"t":"hello","v":true}'], "bad_hello"),
        (['{"t":"hello","v":-1}'], "bad_hello"),
        (['{"t":"hello","v":0,"token":7}'], "bad_hello"),
        ([HELLO, '{"t":"pong","id":true,"tc":5}'], "bad_pong"),
        ([HELLO, '{"t":"pong","id":1.5,"tc":5}'], "bad_pong"),
        ([HELLO, '{"t":"pong","id":1,"tc":false}'], "bad_pong"),
        ([HELLO, '{"t":"pong","id":1,"tc":1e15}'], "bad_pong"),  # 30,000 years: no clock
        ([HELLO, '{"t":"pong","id":1}'], "bad_pong"),
    ],
)
def test_a_malformed_frame_closes_the_socket_with_the_protocols_error_logged_once(
    client: TestClient, caplog: pytest.LogCaptureFixture, frames: list[str], reason: str
) -> None:
    assert closed_for(client, caplog, frames) == (CLOSE_POLICY, reason)


def test_numbers_within_the_bounds_are_taken(client: TestClient) -> None:
    """The largest integer a browser sends exactly is a number like any other; a clock reading as a float too."""
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_text('{"t":"hello","v":9007199254740991,"token":"secret-a"}')
        assert receive_until(ws, "snapshot")["v"] == 0  # a version the room never had: the whole room
        ping = receive_until(ws, "ping")
        ws.send_json({"t": "pong", "id": ping["id"], "tc": ping["ts"] + 0.25})
        receive_until(ws, "offset")
        ws.send_text('{"t":"cmd","id":"1","type":"add","data":{"n":9007199254740991}}')
        assert receive_until(ws, "ack")["v"] == 1


def test_a_pong_for_no_ping_changes_nothing(client: TestClient) -> None:
    """A well-formed pong whose ping was never sent (or was answered already) is ignored: the socket stays open."""
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_text(HELLO)
        receive_until(ws, "snapshot")
        ws.send_json({"t": "pong", "id": 10**9, "tc": 5})
        ws.send_json({"t": "cmd", "id": "1", "type": "add", "data": {"n": 1}})
        assert receive_until(ws, "ack")["v"] == 1


def connection(kind: str, role: str) -> Connection:
    websocket: Any = SimpleNamespace()
    found = Connection(websocket, owner_of=None, resolve=None)  # type: ignore[arg-type]
    found.owner = SimpleNamespace(logic=SimpleNamespace(kind=kind))
    found.actor = Actor(role, "Алтын" if role.startswith("team:") else "")
    return found


@pytest.mark.parametrize("role", ["projector", "assistant", "team:1"])
def test_every_connection_on_the_quiz_hosts_panel_is_heard_from_before_it_would_show_as_lost(role: str) -> None:
    """Issue 31: the panel calls a connection lost after 2.5 s without a word from it; a projector pinged every
    10 s showed as lost in most looks while it lit the lamps. Each connection the panel shows answers a ping
    well within that (a round trip of a second still counts)."""
    interval_ms = connection("quiz", role).ping_interval() * 1000
    assert interval_ms + 1_000 <= LOST_AFTER_MS


def test_spectators_are_still_pinged_seldom() -> None:
    assert connection("quiz", "spectator").ping_interval() == 10.0
    assert connection("togyz", "white").ping_interval() == 2.0
