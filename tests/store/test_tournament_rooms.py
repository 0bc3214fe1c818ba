"""Migration 0003: tournament rooms are admitted, existing rooms and their logs survive, other kinds stay refused."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import EventStore, RoomKind, upgrade

from .conftest import INSERT_ROOM, assert_kind_refused, downgrade, upgrade_and_open_room

pytestmark = pytest.mark.anyio

INSERT_EVENT = text(
    "INSERT INTO room_events (room_id, version, room_kind, type, payload, server_time_ms, created_at) "
    "VALUES ('g-1', :version, 'togyz', :type, :payload, 0, CURRENT_TIMESTAMP)"
)


async def test_upgrading_a_database_with_games_admits_tournament_rooms(engine: AsyncEngine) -> None:
    assert await upgrade(engine, "0002") == "0002"
    async with engine.begin() as connection:  # a game as revision 0002 stored it
        await connection.execute(INSERT_ROOM, {"id": "g-1", "kind": "togyz"})
        for version, kind, payload in ((1, "game_created", '{"white": "A"}'), (2, "move", '{"hole": 7}')):
            await connection.execute(INSERT_EVENT, {"version": version, "type": kind, "payload": payload})
    await assert_kind_refused(engine, "t-early", "tournament")  # not before the migration
    store = await upgrade_and_open_room(engine, "t-1", RoomKind.TOURNAMENT, "tournament_created")
    assert [e.type for e in await store.load("g-1")] == ["game_created", "move"]
    assert [(r.id, r.kind) for r in await store.rooms()] == [("g-1", RoomKind.TOGYZ), ("t-1", RoomKind.TOURNAMENT)]
    await assert_kind_refused(engine, "x-1", "knockout")


async def test_a_downgrade_is_refused_while_tournament_rooms_exist(engine: AsyncEngine) -> None:
    await upgrade(engine)
    await downgrade(engine, "0002")
    await assert_kind_refused(engine, "t-0", "tournament", (IntegrityError, DBAPIError))
    await upgrade(engine)
    await EventStore(engine).create_room("t-1", RoomKind.TOURNAMENT)
    with pytest.raises(RuntimeError, match="1 tournament room"):
        await downgrade(engine, "0002")
    assert [r.kind for r in await EventStore(engine).rooms()] == [RoomKind.TOURNAMENT]
