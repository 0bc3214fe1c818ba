from __future__ import annotations

import asyncio
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import MigrationError, RoomKind, RoomStatus, create_engine, open_store, upgrade
from toreshi.store.migrate import (
    current_revision,
    head_revision,
    known_revisions,
    run_in_alembic_environment,
)
from toreshi.store.schema import metadata

from .conftest import Database, downgrade

pytestmark = pytest.mark.anyio


def differences(connection: Connection) -> list[Any]:
    return list(compare_metadata(MigrationContext.configure(connection), metadata))


def table_names(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


async def test_upgrade_creates_the_schema_the_code_describes(engine: AsyncEngine) -> None:
    assert await current_revision(engine) is None
    assert await upgrade(engine) == head_revision() == known_revisions()[-1]
    assert await upgrade(engine) == head_revision()  # nothing left to do
    async with engine.connect() as connection:
        assert await connection.run_sync(differences) == []
        assert {"rooms", "room_events", "alembic_version"} <= await connection.run_sync(table_names)


async def test_upgrade_to_an_older_revision_is_refused(engine: AsyncEngine) -> None:
    """`toreshi db upgrade --revision 0001` on a newer database exits non-zero, the schema untouched (issue 26)."""
    first, *_, newest = known_revisions()
    await upgrade(engine)
    with pytest.raises(MigrationError, match=f"at revision '{newest}', newer than '{first}': .* forward only"):
        await upgrade(engine, first)
    assert await current_revision(engine) == newest
    assert await upgrade(engine, newest) == newest  # the revision it is at is no step back


async def test_downgrade_removes_everything_and_upgrade_rebuilds_it(engine: AsyncEngine) -> None:
    await upgrade(engine)
    await downgrade(engine, "base")
    async with engine.connect() as connection:
        assert await connection.run_sync(table_names) <= {"alembic_version"}
    assert await current_revision(engine) is None
    assert await upgrade(engine) == head_revision()


async def test_instances_starting_together_migrate_once(database: Database) -> None:
    engines = [create_engine(database.url, schema=database.schema) for _ in range(3)]
    try:
        assert await asyncio.gather(*(upgrade(engine) for engine in engines)) == [head_revision()] * 3
        async with engines[0].connect() as connection:
            assert (await connection.execute(text("SELECT count(*) FROM alembic_version"))).scalar() == 1
    finally:
        for engine in engines:
            await engine.dispose()


async def test_a_database_from_a_newer_toreshi_is_refused(engine: AsyncEngine) -> None:
    await upgrade(engine)
    async with engine.begin() as connection:
        await connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(MigrationError, match="revision '9999', which this toreshi does not know"):
        await upgrade(engine)
    with pytest.raises(MigrationError, match="unknown revision 'zz'"):
        await upgrade(engine, "zz")
    assert await current_revision(engine) == "9999"


def test_the_alembic_command_line_is_pointed_to_toreshi() -> None:
    with pytest.raises(MigrationError, match="use `toreshi db upgrade`"):
        run_in_alembic_environment(Config())


async def test_open_store_migrates_at_start(database: Database) -> None:
    async with open_store(database.url, schema=database.schema) as store:
        assert await current_revision(store.engine) == head_revision()
        await store.create_room("g1", RoomKind.TOGYZ)
    async with open_store(database.url, schema=database.schema) as store:  # a restart: nothing to migrate
        assert [room.id for room in await store.rooms(status=RoomStatus.LIVE)] == ["g1"]
