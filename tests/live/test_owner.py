from __future__ import annotations

from typing import Any

import pytest

from toreshi.clock.timesource import FakeTime
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.owner import Ack, OwnershipLostError, RoomOwner
from toreshi.live.room import Actor, Command
from toreshi.live.store_log import StoreLog
from toreshi.live.timeline import Clocks
from toreshi.store import EventStore, NewEvent, RoomKind, RoomStatus

from .counter_room import CounterRoom, next_event

pytestmark = pytest.mark.anyio

PLAYER = Actor("player", "aigerim")


@pytest.fixture
async def store(store: EventStore) -> EventStore:
    """The shared fresh store, with the room ``r1``."""
    await store.create_room("r1", RoomKind.TOGYZ)
    return store


async def test_a_command_is_persisted_then_published_then_acknowledged(store: EventStore) -> None:
    bus = InProcessBus()
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), bus)
    async with bus.subscribe(owner.channel) as messages:
        ack = await owner.handle(Command("add", PLAYER, {"n": 3}))
        message = await next_event(messages, 1)
    assert (ack.version, ack.events) == (1, 1)
    assert message.v == 1 and message.type == "added" and message.data == {"n": 3, "by": "aigerim"}
    stored = await store.load("r1")
    assert [(event.version, event.type, event.payload) for event in stored] == [(1, "added", {"n": 3, "by": "aigerim"})]


async def test_a_refused_command_changes_nothing(store: EventStore) -> None:
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    with pytest.raises(Refused) as refused:
        await owner.handle(Command("add", PLAYER, {"n": -1}))
    assert refused.value.refusal == Refusal(Common.FIELD_TOO_SMALL, {"field": "n", "minimum": 1})
    with pytest.raises(Refused) as forbidden:
        await owner.handle(Command("add", Actor("spectator"), {"n": 1}))
    assert forbidden.value.refusal.code is Common.FORBIDDEN
    assert owner.version == 0
    assert await store.load("r1") == []


async def test_a_retried_command_is_applied_once(store: EventStore) -> None:
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    first = await owner.handle(Command("add", PLAYER, {"n": 2}, id="c-1"))
    again = await owner.handle(Command("add", PLAYER, {"n": 2}, id="c-1"))
    assert first == again
    assert owner.snapshot(None).data["total"] == 2
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
    assert restarted.snapshot(None).data["total"] == 5
    assert restarted.now_ms() == 400 + 7_000
    assert restarted.catch_up(0) is not None


async def test_the_timer_fires_and_its_event_is_persisted(store: EventStore) -> None:
    bus = InProcessBus()
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), bus)
    async with bus.subscribe(owner.channel) as messages:
        await owner.handle(Command("alarm", PLAYER, {"in_ms": 30}))
        first = await next_event(messages, 1)
        rang = await next_event(messages, 2)
    assert (first.type, rang.type) == ("alarm_set", "rang")
    assert rang.data["late_ms"] >= 0
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
        message = await next_event(messages, 1)
    assert message.data == {}
    assert "secret" not in owner.snapshot(None).data
    assert owner.snapshot(Actor("arbiter")).data["secret"] == "9"
    assert (await store.load("r1"))[0].payload == {"secret": "9"}


async def test_catch_up_gives_missing_events_or_asks_for_a_snapshot(store: EventStore) -> None:
    owner = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    for _ in range(3):
        await owner.handle(Command("add", PLAYER, {"n": 1}))
    missed = owner.catch_up(1)
    assert missed is not None and [message.v for message in missed] == [2, 3]
    assert owner.catch_up(3) == []
    assert owner.catch_up(9) is None


class DyingLog(StoreLog):
    """A log whose owner process dies right after an append: nothing written afterwards reaches the store."""

    async def mark_finished(self, room_id: str) -> None:
        raise RuntimeError("killed between the final event and marking the room finished")


async def test_the_final_event_and_finished_commit_together(store: EventStore) -> None:
    owner = RoomOwner("r1", CounterRoom(), DyingLog(store), InProcessBus())
    ack = await owner.handle(Command("finish", PLAYER))
    assert ack == Ack(2, 2)
    assert (await store.room("r1")).status is RoomStatus.FINISHED


async def test_a_start_repairs_a_room_whose_log_says_it_is_finished(store: EventStore) -> None:
    # As an older owner left it: the final event written, the room still "live" (it died before the second write).
    await store.append("r1", 0, [NewEvent("ended", {}, 5)])
    assert (await store.room("r1")).status is RoomStatus.LIVE
    owner = await RoomOwner.load("r1", CounterRoom, StoreLog(store), InProcessBus())
    assert owner.logic.is_finished()  # type: ignore[attr-defined]
    assert (await store.room("r1")).status is RoomStatus.FINISHED


async def test_a_command_retried_on_a_new_owner_gets_the_original_answer(store: EventStore) -> None:
    """The owner that applied it died before answering (the client saw `moved`): the retry is not applied again."""
    first = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    applied = await first.handle(Command("add_ones", PLAYER, {"count": 2}, id="player:aigerim:c-7"))
    await first.handle(Command("add", PLAYER, {"n": 10}, id="player:aigerim:c-8"))
    taken_over = await RoomOwner.load("r1", CounterRoom, StoreLog(store), InProcessBus())
    again = await taken_over.handle(Command("add_ones", PLAYER, {"count": 2}, id="player:aigerim:c-7"))
    assert again == applied == Ack(2, 2)
    assert taken_over.snapshot(None).data["total"] == 12
    assert len(await store.load("r1")) == 3
    fresh = await taken_over.handle(Command("add_ones", PLAYER, {"count": 2}, id="player:aigerim:c-9"))
    assert fresh == Ack(5, 2)


async def test_catch_up_after_a_restart_keeps_the_frames_of_protocol_2(store: EventStore) -> None:
    live = RoomOwner("r1", CounterRoom(), StoreLog(store), InProcessBus())
    await live.handle(Command("add_ones", PLAYER, {"count": 3}, id="a"))
    await live.handle(Command("add", PLAYER, {"n": 1}))  # no id: a batch of its own all the same
    await live.handle(Command("add_ones", PLAYER, {"count": 2}))
    before = live.catch_up(0)
    restarted = await RoomOwner.load("r1", CounterRoom, StoreLog(store), InProcessBus())
    after = restarted.catch_up(0)
    assert before is not None and after is not None
    assert [(m.v, m.more) for m in after] == [
        (1, True), (2, True), (3, False), (4, False), (5, True), (6, False)
    ]  # fmt: skip
    assert [(m.v, m.more) for m in before] == [(m.v, m.more) for m in after]


async def test_a_new_owner_charges_the_time_an_append_waited_to_be_written(store: EventStore) -> None:
    mono, wall = FakeTime(0), FakeTime(1_700_000_000_000)

    class SlowLog(StoreLog):
        async def append(self, *args: Any, **kwargs: Any) -> int:
            mono.advance(300)  # the write waits 300 ms behind others (the room's clock runs meanwhile)
            wall.advance(300)
            return await super().append(*args, **kwargs)

    owner = RoomOwner("r1", CounterRoom(), SlowLog(store), InProcessBus(), clocks=Clocks(mono, wall))
    mono.advance(1_000)
    wall.advance(1_000)
    await owner.handle(Command("add", PLAYER, {"n": 1}))  # decided at room time 1,000, written at 1,300
    (stored,) = await store.load("r1")
    assert stored.server_time_ms == 1_000
    assert int(stored.created_at.timestamp() * 1000) == 1_700_000_001_000  # the decision's wall time
    wall.advance(2_000)  # the owner dies; another instance takes over 2 s after the write
    taken_over = await RoomOwner.load(
        "r1", CounterRoom, StoreLog(store), InProcessBus(), clocks=Clocks(FakeTime(50), wall)
    )
    assert taken_over.now_ms() == owner.now_ms() + 2_000 == 3_300
