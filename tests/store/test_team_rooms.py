"""Migration 0008: team competition rooms (kind ``teams``) are admitted; a downgrade is refused while one exists."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError

from toreshi.store import EventStore, NewEvent, RoomKind, create_engine, upgrade
from toreshi.store.migrate import head_revision, lock_for_migration

from .conftest import Database
from .test_tournament_rooms import INSERT_ROOM, downgrade_to

pytestmark = pytest.mark.anyio


async def test_team_rooms_are_admitted_from_revision_0008_and_hold_a_downgrade_back(database: Database) -> None:
    engine = create_engine(database.url, schema=database.schema)
    try:
        assert await upgrade(engine, "0006") == "0006"
        async with engine.begin() as connection:
            await connection.execute(INSERT_ROOM, {"id": "t-1", "kind": "tournament"})
        with pytest.raises(IntegrityError):  # not before the migration
            async with engine.begin() as connection:
                await connection.execute(INSERT_ROOM, {"id": "tt-early", "kind": "teams"})
        assert await upgrade(engine) == head_revision()
        store = EventStore(engine)
        await store.create_room("tt-1", RoomKind.TEAMS)
        await store.append("tt-1", 0, [NewEvent("teams_created", {"name": "Cup"}, 0)])
        assert [(r.id, r.kind) for r in await store.rooms()] == [("t-1", RoomKind.TOURNAMENT), ("tt-1", RoomKind.TEAMS)]
        async with engine.connect() as connection:
            await lock_for_migration(connection)
            with pytest.raises(RuntimeError, match="1 team room"):
                await connection.run_sync(downgrade_to, "0006")
            await connection.rollback()
        assert [r.kind for r in await EventStore(engine).rooms()] == [RoomKind.TOURNAMENT, RoomKind.TEAMS]
    finally:
        await engine.dispose()


async def test_without_team_rooms_the_downgrade_restores_the_old_check(database: Database) -> None:
    engine = create_engine(database.url, schema=database.schema)
    try:
        await upgrade(engine)
        async with engine.connect() as connection:
            await lock_for_migration(connection)
            await connection.run_sync(downgrade_to, "0006")
            await connection.commit()
        with pytest.raises(IntegrityError):
            async with engine.begin() as connection:
                await connection.execute(INSERT_ROOM, {"id": "tt-2", "kind": "teams"})
        assert await upgrade(engine) == head_revision()
    finally:
        await engine.dispose()
