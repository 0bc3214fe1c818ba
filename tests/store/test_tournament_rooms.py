"""Migration 0003: tournament rooms are admitted, existing rooms and their logs survive, other kinds stay refused."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from toreshi.store import EventStore, NewEvent, RoomKind, create_engine, upgrade
from toreshi.store.migrate import alembic_config, head_revision, lock_for_migration

from .conftest import Database

pytestmark = pytest.mark.anyio

INSERT_ROOM = text(
    "INSERT INTO rooms (id, kind, status, version, snapshot_version, created_at, updated_at) "
    "VALUES (:id, :kind, 'live', 0, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
)


INSERT_EVENT = text(
    "INSERT INTO room_events (room_id, version, room_kind, type, payload, server_time_ms, created_at) "
    "VALUES ('g-1', :version, 'togyz', :type, :payload, 0, CURRENT_TIMESTAMP)"
)


def downgrade_to(connection: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


async def test_upgrading_a_database_with_games_admits_tournament_rooms(database: Database) -> None:
    engine = create_engine(database.url, schema=database.schema)
    try:
        assert await upgrade(engine, "0002") == "0002"
        async with engine.begin() as connection:  # a game as revision 0002 stored it
            await connection.execute(INSERT_ROOM, {"id": "g-1", "kind": "togyz"})
            for version, kind, payload in ((1, "game_created", '{"white": "A"}'), (2, "move", '{"hole": 7}')):
                await connection.execute(INSERT_EVENT, {"version": version, "type": kind, "payload": payload})
        with pytest.raises(IntegrityError):  # not before the migration
            async with engine.begin() as connection:
                await connection.execute(INSERT_ROOM, {"id": "t-early", "kind": "tournament"})
        assert await upgrade(engine) == head_revision()
        store = EventStore(engine)
        await store.create_room("t-1", RoomKind.TOURNAMENT)
        await store.append("t-1", 0, [NewEvent("tournament_created", {"name": "Cup"}, 0)])
        assert [e.type for e in await store.load("g-1")] == ["game_created", "move"]
        assert [(r.id, r.kind) for r in await store.rooms()] == [("g-1", RoomKind.TOGYZ), ("t-1", RoomKind.TOURNAMENT)]
        with pytest.raises(IntegrityError):
            async with engine.begin() as connection:
                await connection.execute(INSERT_ROOM, {"id": "x-1", "kind": "knockout"})
    finally:
        await engine.dispose()


async def test_a_downgrade_is_refused_while_tournament_rooms_exist(database: Database) -> None:
    engine = create_engine(database.url, schema=database.schema)
    try:
        await upgrade(engine)
        async with engine.connect() as connection:
            await lock_for_migration(connection)
            await connection.run_sync(downgrade_to, "0002")
            await connection.commit()
        with pytest.raises((IntegrityError, DBAPIError)):
            async with engine.begin() as connection:
                await connection.execute(INSERT_ROOM, {"id": "t-0", "kind": "tournament"})
        await upgrade(engine)
        await EventStore(engine).create_room("t-1", RoomKind.TOURNAMENT)
        async with engine.connect() as connection:
            await lock_for_migration(connection)
            with pytest.raises(RuntimeError, match="1 tournament room"):
                await connection.run_sync(downgrade_to, "0002")
            await connection.rollback()
        assert [r.kind for r in await EventStore(engine).rooms()] == [RoomKind.TOURNAMENT]
    finally:
        await engine.dispose()
