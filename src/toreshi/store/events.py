"""The room event log: append with optimistic concurrency, load, list rooms, snapshots.

Each live room (a togyz game, a quiz game) is a sequence of events numbered 1, 2, 3, … Its state is a fold of
that sequence, so a room is rebuilt after a crash or on another instance by replaying its events — from the
latest snapshot, if one was saved. The log is append-only (the database refuses UPDATE and DELETE on it).

Every append names the version it was decided on; it commits only if the room is still at that version, so two
owners of one room (a takeover race, a stale instance) can never both append: one gets
:class:`~toreshi.store.errors.VersionConflictError`. :meth:`EventStore.append` returns after the commit, so an
acknowledged event survives a crash of the process.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import orjson
from sqlalchemy import Connection, Insert, Row, Update, and_, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from toreshi.store.errors import (
    InvalidEventError,
    RoomExistsError,
    SnapshotError,
    UnknownRoomError,
    VersionConflictError,
)
from toreshi.store.schema import (
    COMMAND_ID_LENGTH,
    EVENT_TYPE_LENGTH,
    RoomKind,
    RoomStatus,
    room_events,
    room_grants,
    rooms,
)
from toreshi.store.sqlite_writer import SQLiteWriter

JsonObject = dict[str, Any]
"""A decoded JSON object, as payloads and snapshots come back."""

MAX_PAYLOAD_BYTES = 64 * 1024
"""An event is one decision (a move, a press, a verdict); anything larger is a bug or an attack."""
MAX_SNAPSHOT_BYTES = 8 * 1024 * 1024

_ROOM_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")
_EVENT_TYPE = re.compile(rf"[A-Za-z][A-Za-z0-9._:-]{{0,{EVENT_TYPE_LENGTH - 1}}}")
_INT64_MAX = 2**63 - 1


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: what happened, its data, and the owner's server time (integer ms)."""

    type: str
    payload: Mapping[str, Any]
    server_time_ms: int
    command_id: str | None = None
    """The command or timer firing it came from (events decided together share it)."""
    decided_at: datetime | None = None
    """The wall-clock time of the decision; the time of the write when not given."""


GROUP_COMMIT_MAX = 64
"""The most appends that share one commit."""


@dataclass(frozen=True, slots=True)
class _Append:
    room_id: str
    expected_version: int
    events: tuple[NewEvent, ...]
    payloads: tuple[JsonObject, ...]
    status: str | None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as the log holds it."""

    room_id: str
    room_kind: RoomKind
    version: int
    type: str
    payload: JsonObject
    server_time_ms: int
    created_at: datetime
    command_id: str | None = None


@dataclass(frozen=True, slots=True)
class Room:
    """A room's row: what it is, where it stands, its newest version and the version its snapshot covers."""

    id: str
    kind: RoomKind
    status: RoomStatus
    version: int
    snapshot_version: int
    created_at: datetime
    updated_at: datetime
    archived_at: datetime | None = None
    """When an arbiter archived the room (it leaves the lists, stays readable); ``None`` while listed."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A room's state folded over its events 1…``version``, saved so that replay need not start at 1."""

    room_id: str
    version: int
    state: JsonObject


@dataclass(frozen=True, slots=True)
class Replay:
    """What rebuilding a room takes: its row, its latest snapshot (if any) and the events after it, in order."""

    room: Room
    snapshot: Snapshot | None
    events: list[StoredEvent]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class EventStore:
    """Rooms and their event logs in one database; safe to share between tasks and between processes."""

    def __init__(
        self, engine: AsyncEngine, *, now: Callable[[], datetime] = _utc_now, group_commit: bool = True
    ) -> None:
        self._engine = engine
        # Wall-clock time stamps the rows for the record; the rules' clocks come in with each event.
        self._now = now
        # SQLite has one writer at a time. Queueing this process's writers here keeps them off SQLite's busy
        # handler, which sleeps in steps of up to 100 ms; other processes still wait through busy_timeout.
        self._sqlite_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._write_lock: AbstractAsyncContextManager[object] = self._sqlite_lock or nullcontext()
        # With one writer at a time, appends waiting for the lock are better written together, in one commit.
        self._pending: list[tuple[_Append, asyncio.Future[int]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._writer: SQLiteWriter | None = None
        # On PostgreSQL (asyncpg) an append is one statement on the driver's connection: see `_append_postgres`.
        self._one_statement = engine.dialect.name == "postgresql" and engine.dialect.driver == "asyncpg"
        # Group commit on PostgreSQL too: appends that arrive while one is being written go together in one
        # statement (benchmarks/pg_group_commit.py measures it against one statement each). Off: each alone.
        self._group_commit = group_commit
        self._pg_writing = 0

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        async with self._write_lock, self._engine.begin() as connection:
            yield connection

    @property
    def engine(self) -> AsyncEngine:
        return self._engine

    async def close(self) -> None:
        """Stop the SQLite writer thread, if one was started (the engine is the caller's to dispose)."""
        if self._flusher is not None and not self._flusher.done():
            await asyncio.shield(self._flusher)
        writer, self._writer = self._writer, None
        if writer is not None:
            await asyncio.to_thread(writer.close)

    def _sqlite_writer(self) -> SQLiteWriter:
        if self._writer is None:
            self._writer = SQLiteWriter(self._engine)
        return self._writer

    async def create_room(self, room_id: str, kind: RoomKind, *, status: RoomStatus = RoomStatus.LIVE) -> Room:
        """Register a new room at version 0; refuse an id that is taken."""
        _check_room_id(room_id)
        kind, status = RoomKind(kind), RoomStatus(status)
        now = self._now()
        try:
            async with self._writing() as connection:
                await connection.execute(
                    insert(rooms).values(
                        id=room_id,
                        kind=kind.value,
                        status=status.value,
                        version=0,
                        snapshot=None,
                        snapshot_version=0,
                        created_at=now,
                        updated_at=now,
                    )
                )
        except IntegrityError:
            raise RoomExistsError(room_id) from None
        return Room(room_id, kind, status, 0, 0, now, now)

    async def room(self, room_id: str) -> Room:
        """The room's row; :class:`UnknownRoomError` if there is none."""
        async with self._engine.connect() as connection:
            return await _room(connection, room_id)

    async def rooms(
        self, *, status: RoomStatus | None = None, kind: RoomKind | None = None, archived: bool | None = None
    ) -> list[Room]:
        """Rooms in order of creation, optionally only those with ``status`` or ``kind``, archived or not.

        ``rooms(status=RoomStatus.LIVE)`` is what an instance resumes at start-up.
        """
        query = select(*_ROOM_COLUMNS).order_by(rooms.c.created_at, rooms.c.id)
        if status is not None:
            query = query.where(rooms.c.status == RoomStatus(status).value)
        if kind is not None:
            query = query.where(rooms.c.kind == RoomKind(kind).value)
        if archived is not None:
            query = query.where(rooms.c.archived_at.is_not(None) if archived else rooms.c.archived_at.is_(None))
        async with self._engine.connect() as connection:
            return [_room_from_row(row) for row in await connection.execute(query)]

    async def append(
        self,
        room_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        status: RoomStatus | None = None,
    ) -> int:
        """Append ``events`` after ``expected_version`` as versions ``expected_version + 1, …``; return the newest.

        All or nothing, in one transaction, returning only after the commit. Refused with
        :class:`VersionConflictError` if the room is no longer at ``expected_version``. ``status`` changes the
        room's status in the same transaction (the final event of a game and ``finished`` commit together).
        """
        _check_room_id(room_id)
        if isinstance(expected_version, bool) or not isinstance(expected_version, int) or expected_version < 0:
            raise InvalidEventError(f"expected_version must be an integer ≥ 0, got {expected_version!r}")
        if not events:
            raise InvalidEventError("append needs at least one event")
        payloads = [_checked_event(event) for event in events]
        changes_status = None if status is None else RoomStatus(status).value
        request = _Append(room_id, expected_version, tuple(events), tuple(payloads), changes_status)
        if self._one_statement:
            if not self._group_commit or (self._pg_writing == 0 and not self._pending):
                self._pg_writing += 1
                try:
                    return await self._append_postgres(request)
                finally:
                    self._pg_writing -= 1
            return await self._wait_for_flush(request, self._flush_postgres)
        if self._sqlite_lock is None or (not self._pending and not self._sqlite_lock.locked()):
            # Nothing else is being written: at once (on SQLite, on the event loop itself when the database lets
            # it, see SQLiteWriter: no trip through the loop's queue before or after).
            return await self._append_alone(request)
        # Group commit (SQLite): appends that arrive while a transaction is being written wait for the next one and
        # share its commit. Each keeps its own compare-and-set; each caller still returns only after the commit.
        return await self._wait_for_flush(request, self._flush)

    async def _wait_for_flush(self, request: _Append, flush: Callable[[], Coroutine[Any, Any, None]]) -> int:
        """Queue ``request`` for the next shared commit (starting the task that writes them) and wait for it."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._pending.append((request, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(flush())
        return await future

    async def _append_postgres(self, request: _Append) -> int:
        """One append as one statement (PostgreSQL): the compare-and-set of the room's version and the insert of its
        events in a single ``WITH … UPDATE … INSERT``, which PostgreSQL runs as one transaction — one round trip
        instead of five (a pool ping, BEGIN, UPDATE, INSERT, COMMIT), prepared once per connection by asyncpg.
        Appends of several rooms run side by side on the pool's connections, and PostgreSQL shares the WAL flush of
        commits that arrive together."""
        now = self._now()
        rows = _pg_rows(request, now)
        encoded = _pg_json(rows)
        new_version = request.expected_version + len(rows)
        async with self._engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection
            try:
                status = await driver.execute(
                    _PG_APPEND, request.room_id, request.expected_version, new_version, now, request.status, encoded
                )
                if status == f"INSERT 0 {len(rows)}":
                    return new_version
                actual = await driver.fetchval("SELECT version FROM rooms WHERE id = $1", request.room_id)
            except asyncpg.UniqueViolationError:
                # Only a writer that bypassed rooms.version could get here; still a lost race, not corruption.
                actual = await driver.fetchval("SELECT version FROM rooms WHERE id = $1", request.room_id)
            except asyncpg.DataError as error:
                raise InvalidEventError(f"PostgreSQL refused the events: {error}") from None
            except (OSError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError):
                raw.invalidate()  # a broken connection never goes back to the pool
                raise
        if actual is None:
            raise UnknownRoomError(request.room_id)
        raise VersionConflictError(request.room_id, request.expected_version, int(actual))

    async def _flush_postgres(self) -> None:
        """Write the queued appends, as many rooms as wait (one append per room: a room's next append expects the
        version its previous one makes), in one statement each round; the rest wait for the next round."""
        while self._pending:
            batch: list[tuple[_Append, asyncio.Future[int]]] = []
            later: list[tuple[_Append, asyncio.Future[int]]] = []
            rooms_in_batch: set[str] = set()
            for item in self._pending:
                if item[0].room_id in rooms_in_batch or len(batch) >= GROUP_COMMIT_MAX:
                    later.append(item)
                else:
                    batch.append(item)
                    rooms_in_batch.add(item[0].room_id)
            self._pending = later
            requests = [request for request, _ in batch]
            self._pg_writing += 1
            try:
                if len(requests) == 1:  # the single statement is the cheaper one
                    outcomes = [await self._outcome_alone(requests[0])]
                else:
                    try:
                        outcomes = await self._append_postgres_many(requests)
                    except Exception:
                        # The statement wrote nothing (one bad append, a lost connection): each alone, so that one
                        # cannot fail the others and each gets its own error.
                        outcomes = [await self._outcome_alone(request) for request in requests]
            finally:
                self._pg_writing -= 1
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, Exception):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    async def _outcome_alone(self, request: _Append) -> int | Exception:
        try:
            return await self._append_postgres(request)
        except Exception as error:
            return error

    async def _append_postgres_many(self, requests: list[_Append]) -> list[int | Exception]:
        """Appends of different rooms in one statement (one round trip, one commit): each its new version, or its
        conflict when its room had moved on (nothing written for it; the others are written)."""
        now = self._now()
        batch = [
            {
                "room_id": request.room_id,
                "expected": request.expected_version,
                "new_version": request.expected_version + len(request.events),
                "status": request.status,
                "events": _pg_rows(request, now),
            }
            for request in requests
        ]
        async with self._engine.connect() as connection:
            raw = await connection.get_raw_connection()
            driver: Any = raw.driver_connection
            try:
                claimed = {row[0] for row in await driver.fetch(_PG_APPEND_MANY, now, _pg_json(batch))}
                missing = [request.room_id for request in requests if request.room_id not in claimed]
                actual: dict[str, int] = {}
                if missing:
                    found = await driver.fetch("SELECT id, version FROM rooms WHERE id = ANY($1::text[])", missing)
                    actual = {row[0]: int(row[1]) for row in found}
            except (OSError, asyncpg.InterfaceError, asyncpg.PostgresConnectionError):
                raw.invalidate()  # a broken connection never goes back to the pool
                raise
        outcomes: list[int | Exception] = []
        for request in requests:
            if request.room_id in claimed:
                outcomes.append(request.expected_version + len(request.events))
            elif request.room_id not in actual:
                outcomes.append(UnknownRoomError(request.room_id))
            else:
                outcomes.append(
                    VersionConflictError(request.room_id, request.expected_version, actual[request.room_id])
                )
        return outcomes

    async def _append_alone(self, request: _Append) -> int:
        try:
            (outcome,) = await self._write_appends([request])
        except IntegrityError:
            # Only a writer that bypassed rooms.version could get here; it is still a lost race, not corruption.
            actual = (await self.room(request.room_id)).version
            raise VersionConflictError(request.room_id, request.expected_version, actual) from None
        if isinstance(outcome, VersionConflictError):
            raise outcome
        return outcome

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:GROUP_COMMIT_MAX], self._pending[GROUP_COMMIT_MAX:]
            try:
                outcomes = await self._write_appends([request for request, _ in batch])
            except Exception:
                # The shared transaction was rolled back: write each one alone, so that one bad append cannot
                # fail the others.
                for request, future in batch:
                    try:
                        result = await self._append_alone(request)
                    except Exception as error:
                        if not future.done():
                            future.set_exception(error)
                    else:
                        if not future.done():
                            future.set_result(result)
                continue
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, VersionConflictError):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    async def _write_appends(self, requests: list[_Append]) -> list[int | VersionConflictError]:
        """Appends in one transaction: each its new version or its conflict. SQLite through :class:`SQLiteWriter`
        (on the event loop when it need not wait), PostgreSQL through the async engine."""
        work = partial(self._append_all, requests=requests)
        if self._sqlite_lock is not None:
            async with self._sqlite_lock:
                return await self._sqlite_writer().write(work)
        async with self._writing() as connection:
            return await connection.run_sync(work)

    def _append_all(self, connection: Connection, requests: list[_Append]) -> list[int | VersionConflictError]:
        return [self._append_one(connection, request) for request in requests]

    def _append_one(self, connection: Connection, request: _Append) -> int | VersionConflictError:
        """One append inside an open transaction: the new version, or the conflict (nothing written for it)."""
        now = self._now()
        claim, parameters = self._claim(request, now)
        kind = connection.execute(claim, parameters).scalar_one_or_none()
        if kind is None:
            actual = connection.execute(select(rooms.c.version).where(rooms.c.id == request.room_id)).scalar()
            if actual is None:
                raise UnknownRoomError(request.room_id)
            return VersionConflictError(request.room_id, request.expected_version, actual)
        connection.execute(*self._rows(request, kind, now))
        return int(parameters["new_version"])

    @staticmethod
    def _claim(request: _Append, now: datetime) -> tuple[Update, dict[str, Any]]:
        """The compare-and-set of an append and its parameters (the version it moves the room to is
        ``new_version``). The row lock (or SQLite's write lock) makes a concurrent append with the same expected
        version wait, then find the version moved and match nothing."""
        parameters = {
            "room_id": request.room_id,
            "expected_version": request.expected_version,
            "new_version": request.expected_version + len(request.events),
            "claimed_at": now,
        }
        if request.status is None:
            return _CLAIM, parameters
        return _CLAIM_WITH_STATUS, {**parameters, "new_status": request.status}

    @staticmethod
    def _rows(request: _Append, kind: str, now: datetime) -> tuple[Insert, list[dict[str, Any]]]:
        """The insert of an append's events, once its claim succeeded."""
        rows = [
            {
                "room_id": request.room_id,
                "version": request.expected_version + offset,
                "room_kind": kind,
                "type": event.type,
                "payload": payload,
                "server_time_ms": event.server_time_ms,
                "created_at": event.decided_at or now,
                "command_id": event.command_id,
            }
            for offset, (event, payload) in enumerate(zip(request.events, request.payloads, strict=True), start=1)
        ]
        return _INSERT_EVENTS, rows

    async def load(self, room_id: str, after_version: int = 0) -> list[StoredEvent]:
        """The room's events with versions above ``after_version``, oldest first (a client's resync)."""
        if isinstance(after_version, bool) or not isinstance(after_version, int) or after_version < 0:
            raise InvalidEventError(f"after_version must be an integer ≥ 0, got {after_version!r}")
        async with self._engine.connect() as connection:
            events = await _events_after(connection, room_id, after_version)
            if not events:
                await _room(connection, room_id)  # an unknown room is an error, not an empty log
            return events

    async def set_status(self, room_id: str, status: RoomStatus) -> Room:
        """Change the room's status without an event (an arbiter closing a room, for instance)."""
        status = RoomStatus(status)
        async with self._writing() as connection:
            changed = await connection.execute(
                update(rooms).where(rooms.c.id == room_id).values(status=status.value, updated_at=self._now())
            )
            if changed.rowcount != 1:
                raise UnknownRoomError(room_id)
            return await _room(connection, room_id)

    async def set_archived(self, room_id: str, archived: bool) -> Room:
        """Take the room off the lists (``archived``) or put it back; its log and snapshot are untouched."""
        async with self._writing() as connection:
            changed = await connection.execute(
                update(rooms).where(rooms.c.id == room_id).values(archived_at=self._now() if archived else None)
            )
            if changed.rowcount != 1:
                raise UnknownRoomError(room_id)
            return await _room(connection, room_id)

    async def discard_empty_room(self, room_id: str) -> bool:
        """Delete a room that has no event (a creation that failed after its row was made), with any grant made
        for it; ``False`` (nothing deleted) once the room has an event — a log is never deleted."""
        async with self._writing() as connection:
            found = await connection.execute(select(rooms.c.version).where(rooms.c.id == room_id))
            version = found.scalar_one_or_none()
            if version is None or version != 0:
                return False
            await connection.execute(delete(room_grants).where(room_grants.c.room_id == room_id))
            gone = await connection.execute(delete(rooms).where(and_(rooms.c.id == room_id, rooms.c.version == 0)))
            return bool(gone.rowcount)

    async def save_snapshot(self, room_id: str, version: int, state: Mapping[str, Any]) -> None:
        """Store ``state`` as the fold of events 1…``version``, replacing an older snapshot.

        Refused if ``version`` is beyond the room's newest event or older than the snapshot already stored.
        """
        encoded = _checked_json(state, what="snapshot", limit=MAX_SNAPSHOT_BYTES)
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise SnapshotError(f"snapshot version must be an integer ≥ 0, got {version!r}")
        async with self._writing() as connection:
            changed = await connection.execute(
                update(rooms)
                .where(and_(rooms.c.id == room_id, rooms.c.version >= version, rooms.c.snapshot_version <= version))
                .values(snapshot=encoded, snapshot_version=version, updated_at=self._now())
            )
            if changed.rowcount != 1:
                room = await _room(connection, room_id)
                if version > room.version:
                    raise SnapshotError(
                        f"snapshot of room {room_id!r} at version {version} is beyond its newest event {room.version}"
                    )
                raise SnapshotError(
                    f"snapshot of room {room_id!r} at version {version} is older than the stored one "
                    f"at {room.snapshot_version}"
                )

    async def load_snapshot(self, room_id: str) -> Snapshot | None:
        """The room's latest snapshot, or ``None`` if none was saved."""
        async with self._engine.connect() as connection:
            row = await _room_row(connection, room_id, with_snapshot=True)
        return _snapshot_from_row(row)

    async def replay(self, room_id: str) -> Replay:
        """Everything needed to rebuild the room: its latest snapshot and the events after it."""
        async with self._engine.connect() as connection:
            # The snapshot first: events are only ever added, so those read next always continue it.
            row = await _room_row(connection, room_id, with_snapshot=True)
            snapshot = _snapshot_from_row(row)
            events = await _events_after(connection, room_id, row.snapshot_version)
        room = _room_from_row(row)
        if events:
            room = Room(
                room.id, room.kind, room.status, events[-1].version, room.snapshot_version,
                room.created_at, room.updated_at, room.archived_at,
            )  # fmt: skip
        return Replay(room, snapshot, events)


_AnyRow = Row[*tuple[Any, ...]]

# The statements of an append, built once: SQLAlchemy then finds their compiled form by a memoized cache key
# instead of building and hashing new statement objects for every append.
_CLAIM_MATCH = and_(rooms.c.id == bindparam("room_id"), rooms.c.version == bindparam("expected_version"))
_CLAIM = (
    update(rooms)
    .where(_CLAIM_MATCH)
    .values(version=bindparam("new_version"), updated_at=bindparam("claimed_at"))
    .returning(rooms.c.kind)
)
_CLAIM_WITH_STATUS = (
    update(rooms)
    .where(_CLAIM_MATCH)
    .values(version=bindparam("new_version"), updated_at=bindparam("claimed_at"), status=bindparam("new_status"))
    .returning(rooms.c.kind)
)
_INSERT_EVENTS = insert(room_events)
_PG_APPEND = """
WITH claim AS (
    UPDATE rooms SET version = $3, updated_at = $4, status = COALESCE($5, status)
    WHERE id = $1 AND version = $2
    RETURNING kind
)
INSERT INTO room_events (room_id, version, room_kind, type, payload, server_time_ms, created_at, command_id)
SELECT $1, e.version, claim.kind, e.type, e.payload, e.server_time_ms, e.created_at, e.command_id
FROM claim, jsonb_to_recordset($6::jsonb) AS e(
    version bigint, type text, payload jsonb, server_time_ms bigint, created_at timestamptz, command_id text
)
"""


_PG_APPEND_MANY = """
WITH batch AS (
    SELECT * FROM jsonb_to_recordset($2::jsonb)
        AS b(room_id text, expected bigint, new_version bigint, status text, events jsonb)
), claim AS (
    UPDATE rooms SET version = batch.new_version, updated_at = $1, status = COALESCE(batch.status, rooms.status)
    FROM batch
    WHERE rooms.id = batch.room_id AND rooms.version = batch.expected
    RETURNING rooms.id, rooms.kind, batch.events
), written AS (
    INSERT INTO room_events (room_id, version, room_kind, type, payload, server_time_ms, created_at, command_id)
    SELECT claim.id, e.version, claim.kind, e.type, e.payload, e.server_time_ms, e.created_at, e.command_id
    FROM claim, jsonb_to_recordset(claim.events) AS e(
        version bigint, type text, payload jsonb, server_time_ms bigint, created_at timestamptz, command_id text
    )
)
SELECT id FROM claim
"""
"""Several rooms' appends as one statement: each room's compare-and-set and its events, the rooms whose version
matched are returned (a data-modifying ``WITH`` part runs whether or not the final ``SELECT`` reads it)."""


def _pg_rows(request: _Append, now: datetime) -> list[dict[str, Any]]:
    """An append's events as the rows ``jsonb_to_recordset`` reads."""
    return [
        {
            "version": request.expected_version + offset,
            "type": event.type,
            "payload": payload,
            "server_time_ms": event.server_time_ms,
            "created_at": (event.decided_at or now).isoformat(),
            "command_id": event.command_id,
        }
        for offset, (event, payload) in enumerate(zip(request.events, request.payloads, strict=True), start=1)
    ]


def _pg_json(value: object) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # what orjson refuses (an integer over 64 bits): the standard encoder decides
        return json.dumps(value, ensure_ascii=False)


_ROOM_COLUMNS = (
    rooms.c.id,
    rooms.c.kind,
    rooms.c.status,
    rooms.c.version,
    rooms.c.snapshot_version,
    rooms.c.created_at,
    rooms.c.updated_at,
    rooms.c.archived_at,
)


async def _room_row(connection: AsyncConnection, room_id: str, *, with_snapshot: bool = False) -> _AnyRow:
    columns = (*_ROOM_COLUMNS, rooms.c.snapshot) if with_snapshot else _ROOM_COLUMNS
    row = (await connection.execute(select(*columns).where(rooms.c.id == room_id))).one_or_none()
    if row is None:
        raise UnknownRoomError(room_id)
    return row


async def _room(connection: AsyncConnection, room_id: str) -> Room:
    return _room_from_row(await _room_row(connection, room_id))


async def _events_after(connection: AsyncConnection, room_id: str, after_version: int) -> list[StoredEvent]:
    result = await connection.execute(
        select(room_events)
        .where(and_(room_events.c.room_id == room_id, room_events.c.version > after_version))
        .order_by(room_events.c.version)
    )
    return [
        StoredEvent(
            room_id=row.room_id,
            room_kind=RoomKind(row.room_kind),
            version=row.version,
            type=row.type,
            payload=row.payload,
            server_time_ms=row.server_time_ms,
            created_at=row.created_at,
            command_id=row.command_id,
        )
        for row in result
    ]


def _room_from_row(row: _AnyRow) -> Room:
    return Room(
        id=row.id,
        kind=RoomKind(row.kind),
        status=RoomStatus(row.status),
        version=row.version,
        snapshot_version=row.snapshot_version,
        created_at=row.created_at,
        updated_at=row.updated_at,
        archived_at=row.archived_at,
    )


def _snapshot_from_row(row: _AnyRow) -> Snapshot | None:
    if row.snapshot is None:
        return None
    return Snapshot(row.id, row.snapshot_version, row.snapshot)


def _check_room_id(room_id: str) -> None:
    if not isinstance(room_id, str) or not _ROOM_ID.fullmatch(room_id):
        raise InvalidEventError(
            f"invalid room id {room_id!r}: 1–64 characters of A–Z a–z 0–9 . _ : -, starting with a letter or digit"
        )


def _checked_event(event: NewEvent) -> JsonObject:
    if not isinstance(event.type, str) or not _EVENT_TYPE.fullmatch(event.type):
        raise InvalidEventError(
            f"invalid event type {event.type!r}: 1–{EVENT_TYPE_LENGTH} characters of A–Z a–z 0–9 . _ : -, "
            "starting with a letter"
        )
    time_ms = event.server_time_ms
    if isinstance(time_ms, bool) or not isinstance(time_ms, int) or not 0 <= time_ms <= _INT64_MAX:
        raise InvalidEventError(f"server_time_ms of {event.type!r} must be an integer ms ≥ 0, got {time_ms!r}")
    command = event.command_id
    if command is not None and (not isinstance(command, str) or not 0 < len(command) <= COMMAND_ID_LENGTH):
        raise InvalidEventError(f"command_id of {event.type!r} must be a text of 1–{COMMAND_ID_LENGTH} characters")
    if event.decided_at is not None and event.decided_at.tzinfo is None:
        raise InvalidEventError(f"decided_at of {event.type!r} must be an aware (UTC) timestamp")
    return _checked_json(event.payload, what=f"payload of {event.type!r}", limit=MAX_PAYLOAD_BYTES)


def _checked_json(value: Mapping[str, Any], *, what: str, limit: int) -> JsonObject:
    """``value`` as it will come back from either database, or a clear refusal.

    Both databases must hold it alike: only string keys (JSON would turn others into strings), no NaN or infinity,
    no NUL character and no lone surrogate (PostgreSQL's JSONB refuses those two, SQLite would keep them — a log
    must not be valid on one database and not on the other).
    """
    if not isinstance(value, Mapping):
        raise InvalidEventError(f"{what} must be a JSON object (a mapping), got {type(value).__name__}")
    _check_json_tree(value, what)
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as error:
        raise InvalidEventError(f"{what} is not storable as JSON: {error}") from None
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise InvalidEventError(f"{what} contains a lone surrogate, which is not valid Unicode text") from None
    if size > limit:
        raise InvalidEventError(f"{what} is {size} bytes of JSON; the limit is {limit}")
    decoded: JsonObject = json.loads(text)
    return decoded


def _check_json_tree(value: object, what: str) -> None:
    # Iterative: a hostile, deeply nested payload must not exhaust the recursion limit.
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise InvalidEventError(f"{what} contains a NUL character (U+0000), which PostgreSQL cannot store")
        elif isinstance(item, Mapping):
            for key in item:
                if not isinstance(key, str):
                    raise InvalidEventError(f"{what} has a non-string key {key!r}; JSON keys are strings")
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list | tuple):
            pending.extend(item)
