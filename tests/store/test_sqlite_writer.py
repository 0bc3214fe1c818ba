"""The SQLite writer: commits on the event loop when nothing waits, in its thread when the database is busy."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import EventStore, NewEvent, RoomKind, SQLiteSynchronous, create_engine, upgrade
from toreshi.store.sqlite_writer import SQLiteWriter

pytestmark = pytest.mark.anyio


@pytest.fixture
async def engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite:///{tmp_path / 'writer.db'}")
    await upgrade(engine)
    yield engine
    await engine.dispose()


def insert_room(room_id: str) -> Callable[[sqlite3.Connection], int]:
    def work(connection: sqlite3.Connection) -> int:
        connection.execute(
            "INSERT INTO rooms (id, kind, status, version, snapshot_version, created_at, updated_at) "
            "VALUES (:id, 'togyz', 'live', 0, 0, '2026-11-30 12:00:00', '2026-11-30 12:00:00')",
            {"id": room_id},
        )
        return len(room_id)

    return work


async def room_ids(engine: AsyncEngine) -> list[str]:
    async with engine.connect() as connection:
        return [row[0] for row in await connection.execute(text("SELECT id FROM rooms ORDER BY id"))]


async def test_a_write_commits_on_the_loop_when_the_database_is_free(engine: AsyncEngine) -> None:
    writer = SQLiteWriter(engine)
    try:
        assert await writer.write(insert_room("g-1")) == 3
        assert (writer.inline_writes, writer.thread_writes) == (1, 0)
        assert await room_ids(engine) == ["g-1"]  # committed: another connection sees it
    finally:
        writer.close()


async def test_a_busy_database_is_waited_for_in_the_thread_without_blocking_the_loop(
    engine: AsyncEngine, tmp_path: Path
) -> None:
    writer = SQLiteWriter(engine)
    other = sqlite3.connect(tmp_path / "writer.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process's writer holds the lock
        write = asyncio.create_task(writer.write(insert_room("g-2")))
        ticks = 0
        for _ in range(10):  # the loop keeps running while the write waits
            await asyncio.sleep(0.01)
            ticks += 1
        assert ticks == 10 and not write.done()
        other.execute("COMMIT")
        assert await asyncio.wait_for(write, 5) == 3
        assert (writer.inline_writes, writer.thread_writes) == (0, 1)
        assert await room_ids(engine) == ["g-2"]
    finally:
        other.close()
        writer.close()


async def test_a_failed_write_rolls_back_and_reports_its_error(engine: AsyncEngine) -> None:
    writer = SQLiteWriter(engine)
    try:
        await writer.write(insert_room("g-3"))

        def twice(connection: sqlite3.Connection) -> None:
            insert_room("g-4")(connection)
            insert_room("g-3")(connection)  # the primary key refuses it: g-4 must go too

        with pytest.raises(IntegrityError, match="UNIQUE"):  # the driver's error, as SQLAlchemy's wrapper
            await writer.write(twice)
        assert await room_ids(engine) == ["g-3"]
    finally:
        writer.close()


async def test_with_synchronous_full_every_write_goes_to_the_thread(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'full.db'}", sqlite_synchronous=SQLiteSynchronous.FULL)
    await upgrade(engine)
    writer = SQLiteWriter(engine)
    try:
        await writer.write(insert_room("g-5"))
        assert (writer.inline_writes, writer.thread_writes) == (0, 1)
        assert await room_ids(engine) == ["g-5"]
    finally:
        writer.close()
        await engine.dispose()


async def test_appends_survive_closing_the_store_and_reopening_the_file(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'reopen.db'}"
    engine = create_engine(url)
    await upgrade(engine)
    store = EventStore(engine)
    await store.create_room("g-6", RoomKind.TOGYZ)
    for version in range(20):
        await store.append("g-6", version, [NewEvent("move", {"hole": version % 9 + 1}, server_time_ms=version)])
    await store.close()  # checkpoints what the loop's connection wrote, then stops the thread
    await engine.dispose()
    again = create_engine(url)
    try:
        events = await EventStore(again).load("g-6")
        assert [event.version for event in events] == list(range(1, 21))
    finally:
        await again.dispose()
