"""Migration 0003: tournament rooms are admitted, existing rooms and their logs survive, other kinds stay refused."""

from __future__ import annotations

import pytest
from alembic import command
from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from toreshi.store import EventStore, NewEvent, RoomKind, create_engine, upgrade
from toreshi.store.migrate import alembic_config, lock_for_migration

from .conftest import Database

pytestmark = pytest.mark.anyio

INSERT_ROOM = text(
    "INSERT INTO rooms (id, kind, status, version, snapshot_version, created_at, updated_at) "
    "VALUES (:id, :kind, 'live', 0, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
)


def downgrade_to(connection: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


async def test_upgrading_a_database_with_games_admits_tournament_rooms(database: Database) -> None:
    engine = create_engine(database.url, schema=database.schema)
    try:
        assert await upgrade(engine, "0002") == "0002"
        old = EventStore(engine)
        await old.create_room("g-1", RoomKind.TOGYZ)
        await old.append("g-1", 0, [NewEvent("game_created", {"white": "A"}, 0), NewEvent("move", {"hole": 7}, 5)])
        with pytest.raises(IntegrityError):  # not before the migration
            async with engine.begin() as connection:
                await connection.execute(INSERT_ROOM, {"id": "t-early", "kind": "tournament"})
        assert await upgrade(engine) == "0003"
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
