from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from toreshi.clock.timesource import FakeTime
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import OwnershipLostError, RoomOwner
from toreshi.live.room import Actor, Command, CommandRefusedError
from toreshi.live.store_log import StoreLog
from toreshi.live.timeline import Clocks
from toreshi.store import EventStore, RoomKind, open_store

from .counter_room import CounterRoom

pytestmark = pytest.mark.anyio

PLAYER = Actor("player", "aigerim")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    async with open_store(f"sqlite+aiosqlite:///{tmp_path / 'live.db'}") as opened:
        await opened.create_room("r1", RoomKind.TOGYZ)
        yield opened


async def test_a_command_is_persisted_then_published_then_acknowledged(store: EventStore) -> None:
    bus = InProcessBus()
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), bus)
    async with bus.subscribe(owner.channel) as messages:
        ack = await owner.handle(Command("add", PLAYER, {"n": 3}))
        message = await asyncio.wait_for(anext(messages), 1)
    assert (ack.version, ack.events) == (1, 1)
    assert message["v"] == 1 and message["type"] == "added" and message["data"] == {"n": 3, "by": "aigerim"}
    stored = await store.load("r1")
    assert [(event.version, event.type, event.payload) for event in stored] == [(1, "added", {"n": 3, "by": "aigerim"})]


async def test_a_refused_command_changes_nothing(store: EventStore) -> None:
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    with pytest.raises(CommandRefusedError) as refused:
        await owner.handle(Command("add", PLAYER, {"n": -1}))
    assert refused.value.code == "bad_amount"
    with pytest.raises(CommandRefusedError, match="spectators"):
        await owner.handle(Command("add", Actor("spectator"), {"n": 1}))
    assert owner.version == 0
    assert await store.load("r1") == []


async def test_a_retried_command_is_applied_once(store: EventStore) -> None:
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    first = await owner.handle(Command("add", PLAYER, {"n": 2}, id="c-1"))
    again = await owner.handle(Command("add", PLAYER, {"n": 2}, id="c-1"))
    assert first == again
    assert owner.snapshot(None)["data"]["total"] == 2
    assert len(await store.load("r1")) == 1


async def test_reload_rebuilds_the_state_and_charges_the_outage_by_wall_time(store: EventStore) -> None:
    mono, wall = FakeTime(1_000), FakeTime(1_700_000_000_000)
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus(), clocks=Clocks(mono, wall))
    mono.advance(400)
    await owner.handle(Command("add", PLAYER, {"n": 5}))
    assert owner.now_ms() == 400
    await owner.close()
    # The server restarts: a new process, its monotonic clock starts again; 7 s of wall time have passed.
    wall.now_ms = int((await store.load("r1"))[-1].created_at.timestamp() * 1000) + 7_000
    restarted = await RoomOwner.load(
        "r1", CounterRoom, StoreLog(store), InProcessBus(), clocks=Clocks(FakeTime(3), wall)
    )
    assert restarted.version == 1
    assert restarted.snapshot(None)["data"]["total"] == 5
    assert restarted.now_ms() == 400 + 7_000
    assert restarted.catch_up(0) is not None


async def test_the_timer_fires_and_its_event_is_persisted(store: EventStore) -> None:
    bus = InProcessBus()
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), bus)
    async with bus.subscribe(owner.channel) as messages:
        await owner.handle(Command("alarm", PLAYER, {"in_ms": 30}))
        first = await asyncio.wait_for(anext(messages), 1)
        rang = await asyncio.wait_for(anext(messages), 2)
    assert (first["type"], rang["type"]) == ("alarm_set", "rang")
    assert rang["data"]["late_ms"] >= 0
    assert [event.type for event in await store.load("r1")] == ["alarm_set", "rang"]
    await owner.close()


async def test_a_second_owner_of_the_same_room_loses(store: EventStore) -> None:
    first = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    second = await RoomOwner.load("r1", CounterRoom, StoreLog(store), InProcessBus())
    await second.handle(Command("add", PLAYER, {"n": 1}))
    with pytest.raises(OwnershipLostError):
        await first.handle(Command("add", PLAYER, {"n": 1}))
    assert first.lost
    assert [event.version for event in await store.load("r1")] == [1]


async def test_private_data_stays_out_of_the_broadcast(store: EventStore) -> None:
    bus = InProcessBus()
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), bus)
    async with bus.subscribe(owner.channel) as messages:
        await owner.handle(Command("whisper", Actor("arbiter"), {"text": "9"}))
        message = await asyncio.wait_for(anext(messages), 1)
    assert message["data"] == {}
    assert "secret" not in owner.snapshot(None)["data"]
    assert owner.snapshot(Actor("arbiter"))["data"]["secret"] == "9"
    assert (await store.load("r1"))[0].payload == {"secret": "9"}


async def test_catch_up_gives_missing_events_or_asks_for_a_snapshot(store: EventStore) -> None:
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    for _ in range(3):
        await owner.handle(Command("add", PLAYER, {"n": 1}))
    missed = owner.catch_up(1)
    assert missed is not None and [message["v"] for message in missed] == [2, 3]
    assert owner.catch_up(3) == []
    assert owner.catch_up(9) is None
