"""SQLite appends through the driver's connection (issue 32): the rows are what SQLAlchemy would have written, and a
shared commit keeps each append's compare-and-set, status change and outcome.

The payload checks these appends rely on are asked again here of subclasses of the built-in types, which the check
tells apart by exact type first.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import (
    EventStore,
    InvalidEventError,
    NewEvent,
    RoomKind,
    RoomStatus,
    UnknownRoomError,
    VersionConflictError,
    create_engine,
    upgrade,
)
from toreshi.store.schema import room_events

pytestmark = pytest.mark.anyio

AT = datetime(2026, 3, 21, 9, 30, 5, 120_000, tzinfo=UTC)


@pytest.fixture
async def sqlite_engine(tmp_path: Path) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(f"sqlite:///{tmp_path / 'append.db'}")
    await upgrade(engine)
    yield engine
    await engine.dispose()


def raw_rows(engine: AsyncEngine, query: str) -> list[tuple[Any, ...]]:
    path = engine.url.database
    assert path is not None
    with sqlite3.connect(path) as connection:
        return connection.execute(query).fetchall()


async def test_event_rows_are_stored_as_sqlalchemy_stores_them(sqlite_engine: AsyncEngine) -> None:
    store = EventStore(sqlite_engine, now=lambda: AT)
    try:
        await store.create_room("g1", RoomKind.QUIZ)  # the room's row is written through SQLAlchemy
        almaty = timezone(timedelta(hours=5))
        decided = datetime(2026, 3, 21, 14, 0, tzinfo=almaty)  # no microseconds, not in UTC
        payload = {"команда": "Қыран", "score": [1, -2.5, None, True], "nested": {"k": "\u2028"}}
        events = [
            NewEvent("press", payload, 7, command_id="c-1"),
            NewEvent("verdict", {"ok": False}, 8, decided_at=decided),
        ]
        assert await store.append("g1", 0, events) == 2
        (room_created, room_updated) = raw_rows(sqlite_engine, "SELECT created_at, updated_at FROM rooms")[0]
        stored = raw_rows(
            sqlite_engine,
            "SELECT version, room_kind, type, server_time_ms, created_at, command_id FROM room_events ORDER BY version",
        )
        # The text SQLAlchemy's DATETIME stores: UTC, always with microseconds (sorts as a string).
        assert room_created == room_updated == "2026-03-21 09:30:05.120000"
        assert stored == [
            (1, "quiz", "press", 7, "2026-03-21 09:30:05.120000", "c-1"),
            (2, "quiz", "verdict", 8, "2026-03-21 09:00:00.000000", None),
        ]
        loaded = await store.load("g1")
        assert [event.payload for event in loaded] == [payload, {"ok": False}]
        assert [event.created_at for event in loaded] == [AT, decided.astimezone(UTC)]
        async with sqlite_engine.connect() as connection:  # and SQLAlchemy reads the JSON column back alike
            assert (await connection.execute(select(room_events.c.payload))).scalars().all() == [
                payload,
                {"ok": False},
            ]
    finally:
        await store.close()


async def test_a_shared_commit_keeps_each_compare_and_set_and_status(sqlite_engine: AsyncEngine) -> None:
    store = EventStore(sqlite_engine)
    try:
        for room_id in ("a", "b", "c", "d"):
            await store.create_room(room_id, RoomKind.TOGYZ)
        await store.append("c", 0, [NewEvent("move", {"hole": 1}, 0)])
        outcomes = await asyncio.gather(
            store.append("a", 0, [NewEvent("move", {"hole": 1}, 0)]),  # alone: starts the writing
            store.append(
                "b", 0, [NewEvent("move", {"hole": 2}, 0), NewEvent("end", {}, 1)], status=RoomStatus.FINISHED
            ),
            store.append("c", 0, [NewEvent("move", {"hole": 3}, 0)], status=RoomStatus.PAUSED),  # stale
            store.append("d", 0, [NewEvent("move", {"hole": 4}, 0)]),
            return_exceptions=True,
        )
        assert outcomes[0] == 1 and outcomes[1] == 2 and outcomes[3] == 1, outcomes
        assert isinstance(outcomes[2], VersionConflictError) and (outcomes[2].expected, outcomes[2].actual) == (0, 1)
        assert (await store.room("b")).status is RoomStatus.FINISHED
        assert (await store.room("c")).status is RoomStatus.LIVE  # the refused append changed nothing
        assert [event.payload for event in await store.load("c")] == [{"hole": 1}]
        with pytest.raises(UnknownRoomError):
            await store.append("nowhere", 0, [NewEvent("move", {"hole": 5}, 0)])
        writer = store._writer
        assert writer is not None and writer.inline_writes >= 2  # the first alone, the others shared
    finally:
        await store.close()


class Side(StrEnum):
    WHITE = "white"


class Hole(IntEnum):
    NINE = 9


class Text(str):
    pass


class Ordered(dict[Any, Any]):
    pass


async def test_subclasses_of_json_types_are_checked_like_the_types(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    assert await store.append("g1", 0, [NewEvent("move", Ordered(side=Side.WHITE, hole=Hole.NINE), 0)]) == 1
    assert [event.payload for event in await store.load("g1")] == [{"side": "white", "hole": 9}]
    with pytest.raises(InvalidEventError, match="NUL character"):
        await store.append("g1", 1, [NewEvent("move", {"t": [Text("a\x00b")]}, 0)])
    with pytest.raises(InvalidEventError, match="non-string key"):
        await store.append("g1", 1, [NewEvent("move", {"t": Ordered({1: "x"})}, 0)])
    assert (await store.room("g1")).version == 1
