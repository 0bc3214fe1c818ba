"""Persistence: rooms and their append-only event logs on SQLite (embedded) or PostgreSQL (several instances).

>>> from toreshi.store import EventStore, NewEvent, RoomKind, open_store
>>> async def demo(url: str) -> None:
...     async with open_store(url) as store:  # migrates to the newest schema first
...         await store.create_room("g1", RoomKind.TOGYZ)
...         version = await store.append("g1", 0, [NewEvent("move", {"hole": 7}, server_time_ms=1_200)])
...         events = await store.load("g1")
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy.engine import URL

from toreshi.store.engine import SQLiteSynchronous, UnsupportedDatabaseError, create_engine, default_url, parse_url
from toreshi.store.errors import (
    InvalidEventError,
    RoomExistsError,
    SnapshotError,
    StoreError,
    UnknownRoomError,
    VersionConflictError,
)
from toreshi.store.events import EventStore, JsonObject, NewEvent, Replay, Room, Snapshot, StoredEvent
from toreshi.store.migrate import MigrationError, upgrade
from toreshi.store.schema import RoomKind, RoomStatus

__all__ = [
    "EventStore",
    "InvalidEventError",
    "JsonObject",
    "MigrationError",
    "NewEvent",
    "Replay",
    "Room",
    "RoomExistsError",
    "RoomKind",
    "RoomStatus",
    "SQLiteSynchronous",
    "Snapshot",
    "SnapshotError",
    "StoreError",
    "StoredEvent",
    "UnknownRoomError",
    "UnsupportedDatabaseError",
    "VersionConflictError",
    "create_engine",
    "default_url",
    "open_store",
    "parse_url",
    "upgrade",
]


@asynccontextmanager
async def open_store(
    url: str | URL,
    *,
    schema: str | None = None,
    sqlite_synchronous: SQLiteSynchronous = SQLiteSynchronous.NORMAL,
    migrate: bool = True,
) -> AsyncIterator[EventStore]:
    """The store for an app's lifetime: engine created, schema migrated (unless ``migrate=False``), engine disposed
    on exit. Meant for the app's lifespan: ``async with open_store(url) as store: …``.
    """
    engine = create_engine(url, schema=schema, sqlite_synchronous=sqlite_synchronous)
    try:
        if migrate:
            await upgrade(engine)
        store = EventStore(engine)
        try:
            yield store
        finally:
            await store.close()
    finally:
        await engine.dispose()
