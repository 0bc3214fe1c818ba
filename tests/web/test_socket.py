"""The room socket against a real owner and a real SQLite log (a tiny counter room stands in for a game)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from toreshi.live.bus import InProcessBus
from toreshi.live.owner import PROTOCOL_VERSION, RoomOwner
from toreshi.live.registry import Rooms
from toreshi.live.room import Actor
from toreshi.live.store_log import StoreLog
from toreshi.store import RoomKind, open_store
from toreshi.web.rooms.socket import serve_room

from ..live.counter_room import CounterRoom
from .helpers import receive_until

TOKENS = {"secret-a": Actor("player", "a")}


def make_app(tmp_path: Path) -> Starlette:
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with open_store(f"sqlite+aiosqlite:///{tmp_path / 'socket.db'}") as store:
            await store.create_room("r1", RoomKind.TOGYZ)
            state["rooms"] = Rooms(StoreLog(store), InProcessBus(), {"counter": CounterRoom})
            state["store"] = store
            yield
            await state["rooms"].close()

    async def endpoint(websocket: WebSocket) -> None:
        room_id = websocket.path_params["room_id"]

        async def owner_of() -> RoomOwner | None:
            return await state["rooms"].get(room_id, "counter") if room_id == "r1" else None

        async def resolve(socket: WebSocket, token: str | None) -> Actor:
            return TOKENS.get(token or "", Actor("spectator"))

        await serve_room(websocket, owner_of, resolve)

    return Starlette(routes=[WebSocketRoute("/ws/rooms/{room_id}", endpoint)], lifespan=lifespan)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path)) as test_client:
        yield test_client


def test_hello_welcome_snapshot_command_ack_and_event(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": "secret-a"})
        welcome = receive_until(ws, "welcome")
        assert (welcome["role"], welcome["name"], welcome["protocol"]) == ("player", "a", PROTOCOL_VERSION)
        ws.send_json({"t": "cmd", "id": "1", "type": "add", "data": {"n": 4}})
        ack = receive_until(ws, "ack")
        assert ack == {"t": "ack", "id": "1", "v": 1}
        event = receive_until(ws, "event")
        assert (event["v"], event["type"], event["data"]["n"]) == (1, "added", 4)


def test_the_events_of_one_command_travel_in_one_frame(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/r1") as player, client.websocket_connect("/ws/rooms/r1") as spectator:
        player.send_json({"t": "hello", "v": 0, "token": "secret-a"})
        spectator.send_json({"t": "hello", "v": 0})
        for ws in (player, spectator):
            receive_until(ws, "snapshot")
        player.send_json({"t": "cmd", "id": "1", "type": "add_ones", "data": {"count": 3}})
        for ws in (player, spectator):
            frame = ws.receive_json()
            while frame["t"] in ("ping", "offset", "ack"):
                frame = ws.receive_json()
            assert frame["t"] == "events" and frame["room"] == "r1"
            assert [(e["t"], e["v"], e["type"], e.get("more", False)) for e in frame["events"]] == [
                ("event", 1, "added", True),
                ("event", 2, "added", True),
                ("event", 3, "added", False),
            ]


def test_spectators_are_refused_and_nothing_changes(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_json({"t": "hello", "v": 0})
        assert receive_until(ws, "welcome")["role"] == "spectator"
        ws.send_json({"t": "cmd", "id": "x", "type": "add", "data": {"n": 1}})
        refused = receive_until(ws, "refused")
        assert (refused["id"], refused["code"]) == ("x", "forbidden")


def test_reconnect_gets_the_missed_events_in_order(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": "secret-a"})
        for number in range(3):
            ws.send_json({"t": "cmd", "id": str(number), "type": "add", "data": {"n": 1}})
            receive_until(ws, "ack")
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_json({"t": "hello", "v": 1})
        receive_until(ws, "welcome")
        frame = ws.receive_json()
        while frame["t"] in ("ping", "offset"):
            frame = ws.receive_json()
        assert frame["t"] == "events"  # what a reconnecting client missed comes in one frame
        assert [event["v"] for event in frame["events"]] == [2, 3]


def test_clock_sync_answers_pings_with_an_offset(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_json({"t": "hello", "v": 0})
        ping = receive_until(ws, "ping")
        ws.send_json({"t": "pong", "id": ping["id"], "tc": ping["ts"] + 5_000})
        offset = receive_until(ws, "offset")
        assert offset["rtt"] >= 0
        assert abs(offset["offset"] - 5_000) <= offset["rtt"] + 1


def test_cross_origin_sockets_are_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect("/ws/rooms/r1", headers={"origin": "https://evil.example"}) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 1008


def test_malformed_messages_get_clear_errors(client: TestClient) -> None:
    with client.websocket_connect("/ws/rooms/r1") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": "secret-a"})
        receive_until(ws, "welcome")
        ws.send_json({"t": "cmd", "type": "add"})
        assert receive_until(ws, "error")["code"] == "bad_command"
        ws.send_json({"t": "dance"})
        assert receive_until(ws, "error")["code"] == "unknown_type"
        ws.send_text("x" * 5000)
        error = receive_until(ws, "error")
        assert error["code"] == "closing" and "at most 4096 bytes" in error["message"]
