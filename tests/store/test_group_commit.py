"""Group commit: appends that arrive while another is being written share one commit (SQLite: one transaction;
PostgreSQL: one statement), and each still gets exactly its own outcome — its version, its conflict, its error."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from toreshi.store import EventStore, NewEvent, RoomKind, UnknownRoomError, VersionConflictError

from .conftest import Database

pytestmark = pytest.mark.anyio


def move(hole: int, at_ms: int = 1_000) -> NewEvent:
    return NewEvent("move", {"hole": hole}, server_time_ms=at_ms)


def spy_on_batches(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sizes of the shared PostgreSQL statements ``store`` writes from now on."""
    sizes: list[int] = []
    write_many = store._append_postgres_many

    async def counted(requests: list[Any]) -> list[int | Exception]:
        sizes.append(len(requests))
        return await write_many(requests)

    monkeypatch.setattr(store, "_append_postgres_many", counted)
    return sizes


async def test_rooms_appending_at_once_share_statements_and_each_gets_its_version(
    database: Database, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes = spy_on_batches(store, monkeypatch)
    ids = [f"g{n}" for n in range(40)]
    for room_id in ids:
        await store.create_room(room_id, RoomKind.TOGYZ)

    async def play(room_id: str) -> int:
        version = 0
        for ply in range(6):
            version = await store.append(room_id, version, [move(ply % 9 + 1, ply), move(9, ply)])
        return version

    assert await asyncio.gather(*(play(room_id) for room_id in ids)) == [12] * 40
    for room_id in ids:
        events = await store.load(room_id)
        assert [e.version for e in events] == list(range(1, 13))
        assert [e.payload["hole"] for e in events][:4] == [1, 9, 2, 9]
    if database.dialect == "postgresql":
        assert sizes, "40 rooms at once never shared a statement"
        assert max(sizes) > 1
        assert sum(sizes) + 1 <= 40 * 6  # at least the first append went alone, the rest together or alone


async def test_a_conflict_or_an_unknown_room_in_a_shared_commit_fails_only_itself(
    database: Database, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes = spy_on_batches(store, monkeypatch)
    for room_id in ("a", "b", "c", "d"):
        await store.create_room(room_id, RoomKind.TOGYZ)
    await store.append("c", 0, [move(1)])
    outcomes = await asyncio.gather(
        store.append("a", 0, [move(1)]),  # written alone: nothing else is being written yet
        store.append("b", 0, [move(2)]),
        store.append("c", 0, [move(3)]),  # stale: "c" is at 1
        store.append("nowhere", 0, [move(4)]),
        store.append("d", 0, [move(5), move(6)]),
        return_exceptions=True,
    )
    assert outcomes[0] == 1 and outcomes[1] == 1 and outcomes[4] == 2, outcomes
    assert isinstance(outcomes[2], VersionConflictError) and (outcomes[2].expected, outcomes[2].actual) == (0, 1)
    assert isinstance(outcomes[3], UnknownRoomError)
    assert [e.payload for e in await store.load("c")] == [{"hole": 1}]
    assert [e.payload for e in await store.load("d")] == [{"hole": 5}, {"hole": 6}]
    if database.dialect == "postgresql":
        assert sizes == [4]


async def test_one_room_queued_twice_is_written_in_order_across_two_commits(
    database: Database, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A room's second append expects the version its first makes: never in the same statement."""
    sizes = spy_on_batches(store, monkeypatch)
    for room_id in ("a", "b"):
        await store.create_room(room_id, RoomKind.TOGYZ)
    outcomes = await asyncio.gather(
        store.append("a", 0, [move(1)]),
        store.append("b", 0, [move(1)]),
        store.append("b", 1, [move(2)]),
        return_exceptions=True,
    )
    assert list(outcomes) == [1, 1, 2]
    assert [e.payload for e in await store.load("b")] == [{"hole": 1}, {"hole": 2}]
    if database.dialect == "postgresql":
        assert sizes == [], "two single appends go alone, not as statements of one"  # see _flush_postgres


async def test_without_group_commit_each_append_is_its_own_statement(
    database: Database, store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = EventStore(store.engine, group_commit=False)
    sizes = spy_on_batches(alone, monkeypatch)
    for room_id in ("a", "b", "c"):
        await alone.create_room(room_id, RoomKind.TOGYZ)
    assert await asyncio.gather(*(alone.append(room_id, 0, [move(1)]) for room_id in "abc")) == [1, 1, 1]
    assert sizes == []
    await alone.close()
