from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.exc import DBAPIError

from toreshi.store import (
    EventStore,
    InvalidEventError,
    NewEvent,
    RoomExistsError,
    RoomKind,
    RoomStatus,
    SnapshotError,
    UnknownRoomError,
    VersionConflictError,
    create_engine,
)
from toreshi.store.schema import room_events, rooms

from .conftest import Database

pytestmark = pytest.mark.anyio


def move(hole: int, at_ms: int = 1_000) -> NewEvent:
    return NewEvent("move", {"hole": hole}, server_time_ms=at_ms)


async def test_append_then_load_returns_the_events_in_order(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    assert await store.append("g1", 0, [move(7, 100), move(3, 200)]) == 2
    assert await store.append("g1", 2, [NewEvent("draw_offer", {"by": "white", "note": "ұсыныс"}, 300)]) == 3

    events = await store.load("g1")
    assert [(e.version, e.type, e.payload, e.server_time_ms) for e in events] == [
        (1, "move", {"hole": 7}, 100),
        (2, "move", {"hole": 3}, 200),
        (3, "draw_offer", {"by": "white", "note": "ұсыныс"}, 300),
    ]
    assert {e.room_kind for e in events} == {RoomKind.TOGYZ}
    assert all(e.created_at.tzinfo is UTC for e in events)
    assert [e.version for e in await store.load("g1", after_version=2)] == [3]
    assert await store.load("g1", after_version=3) == []
    assert (await store.room("g1")).version == 3


async def test_payloads_come_back_as_stored_json(store: EventStore) -> None:
    await store.create_room("q1", RoomKind.QUIZ)
    payload = {"nested": {"list": [1, 2.5, None, True, "x"], "tuple": (1, 2)}, "big": 2**62, "empty": {}}
    await store.append("q1", 0, [NewEvent("press", payload, 5)])
    (event,) = await store.load("q1")
    assert event.payload == {"nested": {"list": [1, 2.5, None, True, "x"], "tuple": [1, 2]}, "big": 2**62, "empty": {}}


async def test_a_stale_expected_version_is_refused_and_writes_nothing(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    await store.append("g1", 0, [move(1)])
    with pytest.raises(VersionConflictError, match=r"expected version 0, but the room is at 1") as caught:
        await store.append("g1", 0, [move(2), move(3)])
    assert (caught.value.expected, caught.value.actual) == (0, 1)
    with pytest.raises(VersionConflictError, match="expected version 5"):
        await store.append("g1", 5, [move(2)])
    assert [e.payload for e in await store.load("g1")] == [{"hole": 1}]
    assert (await store.room("g1")).version == 1


async def test_two_tasks_at_the_same_version_exactly_one_wins(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    version = 0
    for round_ in range(10):
        outcomes = await asyncio.gather(
            store.append("g1", version, [move(1, round_)]),
            store.append("g1", version, [move(2, round_), move(3, round_)]),
            return_exceptions=True,
        )
        wins = [o for o in outcomes if isinstance(o, int)]
        conflicts = [o for o in outcomes if isinstance(o, VersionConflictError)]
        assert len(wins) == 1, outcomes
        assert len(conflicts) == 1, outcomes
        version = wins[0]
    events = await store.load("g1")
    assert [e.version for e in events] == list(range(1, version + 1))


async def test_two_owners_on_separate_engines_exactly_one_wins(database: Database, store: EventStore) -> None:
    """Two instances (two connection pools) racing for one room: the database, not the process, decides."""
    await store.create_room("g1", RoomKind.TOGYZ)
    other_engine = create_engine(database.url, schema=database.schema)
    other = EventStore(other_engine)
    try:
        version = 0
        for round_ in range(10):
            outcomes = await asyncio.gather(
                store.append("g1", version, [move(1, round_)]),
                other.append("g1", version, [move(2, round_)]),
                return_exceptions=True,
            )
            wins = [o for o in outcomes if isinstance(o, int)]
            assert len(wins) == 1, outcomes
            assert isinstance(next(o for o in outcomes if not isinstance(o, int)), VersionConflictError)
            version = wins[0]
        assert [e.version for e in await other.load("g1")] == list(range(1, 11))
    finally:
        await other_engine.dispose()


async def test_many_rooms_append_concurrently_without_interference(store: EventStore) -> None:
    ids = [f"g{n}" for n in range(8)]
    for room_id in ids:
        await store.create_room(room_id, RoomKind.TOGYZ)

    async def play(room_id: str) -> int:
        version = 0
        for ply in range(15):
            version = await store.append(room_id, version, [move(ply % 9 + 1, ply)])
        return version

    assert await asyncio.gather(*(play(room_id) for room_id in ids)) == [15] * 8
    for room_id in ids:
        assert [e.version for e in await store.load(room_id)] == list(range(1, 16))


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([], "at least one event"),
        ([NewEvent("", {}, 0)], "invalid event type"),
        ([NewEvent("move with spaces", {}, 0)], "invalid event type"),
        ([NewEvent("move", {}, -1)], "server_time_ms"),
        ([NewEvent("move", {}, True)], "server_time_ms"),
        ([NewEvent("move", {"t": float("nan")}, 0)], "not storable as JSON"),
        ([NewEvent("move", {"t": object()}, 0)], "not storable as JSON"),
        ([NewEvent("move", {1: "x"}, 0)], "non-string key 1"),  # type: ignore[dict-item]
        ([NewEvent("move", {"t": "a\x00b"}, 0)], "NUL character"),
        ([NewEvent("move", {"t": "\ud800"}, 0)], "lone surrogate"),
        ([NewEvent("move", {"t": "x" * 70_000}, 0)], "the limit is 65536"),
        ([NewEvent("move", ["not", "an", "object"], 0)], "must be a JSON object"),  # type: ignore[arg-type]
        ([move(1), NewEvent("move", {"t": float("inf")}, 0)], "not storable as JSON"),
    ],
)
async def test_bad_events_are_refused_before_anything_is_written(
    store: EventStore, events: list[NewEvent], message: str
) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    with pytest.raises(InvalidEventError, match=message):
        await store.append("g1", 0, events)
    assert await store.load("g1") == []
    assert (await store.room("g1")).version == 0


async def test_deeply_nested_payload_is_refused_not_crashing(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    deep: dict[str, Any] = {}
    for _ in range(100_000):
        deep = {"d": deep}
    with pytest.raises(InvalidEventError, match="not storable as JSON"):
        await store.append("g1", 0, [NewEvent("move", deep, 0)])


async def test_bad_ids_and_versions_are_refused(store: EventStore) -> None:
    with pytest.raises(InvalidEventError, match="invalid room id"):
        await store.create_room("", RoomKind.TOGYZ)
    with pytest.raises(InvalidEventError, match="invalid room id"):
        await store.create_room("x" * 65, RoomKind.TOGYZ)
    with pytest.raises(InvalidEventError, match="invalid room id"):
        await store.append("a/b", 0, [move(1)])
    with pytest.raises(ValueError, match="'chess' is not a valid RoomKind"):
        await store.create_room("c1", "chess")  # type: ignore[arg-type]
    await store.create_room("g1", RoomKind.TOGYZ)
    with pytest.raises(InvalidEventError, match="expected_version must be an integer ≥ 0"):
        await store.append("g1", -1, [move(1)])
    with pytest.raises(InvalidEventError, match="after_version"):
        await store.load("g1", after_version=-1)
    assert [room.id for room in await store.rooms()] == ["g1"]


async def test_unknown_rooms_and_duplicate_rooms(store: EventStore) -> None:
    with pytest.raises(UnknownRoomError, match="no room 'nope'"):
        await store.append("nope", 0, [move(1)])
    with pytest.raises(UnknownRoomError):
        await store.load("nope")
    with pytest.raises(UnknownRoomError):
        await store.room("nope")
    with pytest.raises(UnknownRoomError):
        await store.replay("nope")
    await store.create_room("g1", RoomKind.TOGYZ)
    await store.append("g1", 0, [move(1)])
    with pytest.raises(RoomExistsError, match="room 'g1' already exists"):
        await store.create_room("g1", RoomKind.QUIZ)
    room = await store.room("g1")
    assert (room.kind, room.version) == (RoomKind.TOGYZ, 1)


async def test_rooms_lists_by_status_and_kind(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    await store.create_room("q1", RoomKind.QUIZ)
    await store.create_room("g2", RoomKind.TOGYZ, status=RoomStatus.PAUSED)
    await store.create_room("g3", RoomKind.TOGYZ)
    await store.append("g3", 0, [NewEvent("result", {"score": "1-0"}, 9)], status=RoomStatus.FINISHED)

    live = await store.rooms(status=RoomStatus.LIVE)
    assert sorted(room.id for room in live) == ["g1", "q1"]
    assert [room.id for room in await store.rooms(status=RoomStatus.LIVE, kind=RoomKind.QUIZ)] == ["q1"]
    assert [room.id for room in await store.rooms(status=RoomStatus.PAUSED)] == ["g2"]
    finished = await store.room("g3")
    assert (finished.status, finished.version) == (RoomStatus.FINISHED, 1)
    assert len(await store.rooms()) == 4

    assert (await store.set_status("g2", RoomStatus.LIVE)).status is RoomStatus.LIVE
    assert sorted(room.id for room in await store.rooms(status=RoomStatus.LIVE)) == ["g1", "g2", "q1"]
    with pytest.raises(UnknownRoomError):
        await store.set_status("nope", RoomStatus.LIVE)


async def test_a_refused_append_does_not_change_the_status(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    await store.append("g1", 0, [move(1)])
    with pytest.raises(VersionConflictError):
        await store.append("g1", 0, [NewEvent("result", {}, 9)], status=RoomStatus.FINISHED)
    assert (await store.room("g1")).status is RoomStatus.LIVE


async def test_snapshots_and_replay_from_them(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    assert await store.load_snapshot("g1") is None
    await store.append("g1", 0, [move(n) for n in range(1, 6)])
    replay = await store.replay("g1")
    assert (replay.snapshot, [e.version for e in replay.events], replay.room.version) == (None, [1, 2, 3, 4, 5], 5)

    await store.save_snapshot("g1", 3, {"board": [9] * 18, "ply": 3})
    await store.append("g1", 5, [move(6)])
    snapshot = await store.load_snapshot("g1")
    assert snapshot is not None
    assert (snapshot.version, snapshot.state) == (3, {"board": [9] * 18, "ply": 3})
    replay = await store.replay("g1")
    assert replay.snapshot == snapshot
    assert [e.version for e in replay.events] == [4, 5, 6]
    assert (replay.room.version, replay.room.snapshot_version) == (6, 3)

    with pytest.raises(SnapshotError, match="at version 7 is beyond its newest event 6"):
        await store.save_snapshot("g1", 7, {})
    with pytest.raises(SnapshotError, match="at version 2 is older than the stored one at 3"):
        await store.save_snapshot("g1", 2, {})
    with pytest.raises(InvalidEventError, match="NUL"):
        await store.save_snapshot("g1", 6, {"x": "\x00"})
    with pytest.raises(UnknownRoomError):
        await store.save_snapshot("nope", 0, {})
    assert (await store.load_snapshot("g1")) == snapshot

    await store.save_snapshot("g1", 6, {"ply": 6})
    replay = await store.replay("g1")
    assert replay.snapshot is not None
    assert (replay.snapshot.version, replay.events) == (6, [])


async def test_the_database_refuses_to_change_or_delete_events(store: EventStore) -> None:
    """Append-only is enforced by triggers, not only by the API: a stray UPDATE or DELETE fails."""
    await store.create_room("g1", RoomKind.TOGYZ)
    await store.append("g1", 0, [move(1)])
    for statement in (
        update(room_events).values(type="forged"),
        delete(room_events),
    ):
        with pytest.raises(DBAPIError, match="append-only"):
            async with store.engine.begin() as connection:
                await connection.execute(statement)
    assert [e.type for e in await store.load("g1")] == ["move"]


async def test_foreign_keys_are_enforced(store: EventStore) -> None:
    now = datetime.now(UTC)
    row = {"room_id": "ghost", "version": 1, "room_kind": "togyz", "type": "move", "payload": {},
           "server_time_ms": 0, "created_at": now}  # fmt: skip
    with pytest.raises(DBAPIError):
        async with store.engine.begin() as connection:
            await connection.execute(room_events.insert().values(**row))
    async with store.engine.connect() as connection:
        assert (await connection.execute(select(rooms.c.id))).all() == []


async def test_rows_carry_wall_clock_time_from_the_injected_source(database: Database, store: EventStore) -> None:
    fixed = datetime(2026, 3, 21, 9, 30, tzinfo=UTC)
    clocked = EventStore(store.engine, now=lambda: fixed)
    room = await clocked.create_room("g1", RoomKind.TOGYZ)
    await clocked.append("g1", 0, [move(1)])
    (event,) = await clocked.load("g1")
    assert room.created_at == event.created_at == (await clocked.room("g1")).updated_at == fixed
