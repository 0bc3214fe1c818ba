"""Every store test runs twice: on a fresh SQLite file and in a fresh schema of the local PostgreSQL.

PostgreSQL is found at ``TORESHI_TEST_POSTGRES_URL`` or at 127.0.0.1:5432, database ``test``, user ``postgres``
or ``root`` (trust auth). Without it the PostgreSQL half is skipped — or fails when ``CI`` is set, because CI
must prove both databases.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from toreshi.store import EventStore, NewEvent, RoomKind, create_engine, upgrade
from toreshi.store.migrate import alembic_config, head_revision, lock_for_migration

from ..postgres import probe_postgres

_postgres_url: str | None = None
_postgres_problems: list[str] = []


@dataclass(frozen=True)
class Database:
    """Where one test's tables live."""

    url: str
    schema: str | None = None

    @property
    def dialect(self) -> str:
        return "postgresql" if self.url.startswith("postgresql") else "sqlite"


INSERT_ROOM = text(
    "INSERT INTO rooms (id, kind, status, version, snapshot_version, created_at, updated_at) "
    "VALUES (:id, :kind, 'live', 0, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
)
"""A room row as any revision stores it (the check on ``kind`` is what the migrations change)."""


async def insert_room(engine: AsyncEngine, room_id: str, kind: str) -> None:
    """A room row written directly, as the schema of whatever revision ``engine`` is at admits it."""
    async with engine.begin() as connection:
        await connection.execute(INSERT_ROOM, {"id": room_id, "kind": kind})


async def assert_kind_refused(
    engine: AsyncEngine, room_id: str, kind: str, errors: type[Exception] | tuple[type[Exception], ...] = IntegrityError
) -> None:
    """The schema's check on ``rooms.kind`` refuses a room of ``kind`` at the revision ``engine`` is at."""
    with pytest.raises(errors):
        await insert_room(engine, room_id, kind)


async def upgrade_and_open_room(engine: AsyncEngine, room_id: str, kind: RoomKind, first_event: str) -> EventStore:
    """Migrate to the head revision and open a room of ``kind`` through the store, with its first event."""
    assert await upgrade(engine) == head_revision()
    store = EventStore(engine)
    await store.create_room(room_id, kind)
    await store.append(room_id, 0, [NewEvent(first_event, {"name": "Cup"}, 0)])
    return store


async def _find_postgres() -> str:
    global _postgres_url
    if _postgres_url is None and not _postgres_problems:
        _postgres_url, problems = await probe_postgres()
        _postgres_problems.extend(problems)
    if _postgres_url is None:
        message = "PostgreSQL is not reachable for the store tests:\n  " + "\n  ".join(_postgres_problems)
        if os.environ.get("CI"):
            pytest.fail(message + "\n(CI is set: start PostgreSQL, e.g. through scripts/_env.sh ensure_services)")
        pytest.skip(message)
    return _postgres_url


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Database]:
    """An empty database: a new SQLite file, or a new PostgreSQL schema dropped afterwards."""
    if request.param == "sqlite":
        yield Database(f"sqlite+aiosqlite:///{tmp_path / 'toreshi.db'}")
        return
    url = await _find_postgres()
    schema = f"toreshi_test_{uuid.uuid4().hex[:12]}"
    admin = create_async_engine(url)
    try:
        async with admin.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield Database(url, schema)
    finally:
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()


@pytest.fixture
async def engine(database: Database) -> AsyncIterator[AsyncEngine]:
    """An engine on ``database`` (not migrated yet), disposed of afterwards."""
    engine = create_engine(database.url, schema=database.schema)
    try:
        yield engine
    finally:
        await engine.dispose()


@pytest.fixture
async def store(engine: AsyncEngine) -> AsyncIterator[EventStore]:
    """An :class:`EventStore` on the migrated ``database``."""
    await upgrade(engine)
    store = EventStore(engine)
    yield store
    await store.close()


def downgrade_to(connection: Connection, revision: str) -> None:
    config = alembic_config()
    config.attributes["connection"] = connection
    command.downgrade(config, revision)


async def downgrade(engine: AsyncEngine, revision: str) -> None:
    """Migrate down to ``revision`` under the lock that serialises schema changes (rolled back if it fails)."""
    async with engine.connect() as connection:
        await lock_for_migration(connection)
        await connection.run_sync(downgrade_to, revision)
        await connection.commit()
