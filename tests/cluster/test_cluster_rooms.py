"""Two cluster members in one process over the real PostgreSQL and Redis: forwarding, replicas, takeover, fencing.

The subprocess tests (test_takeover.py) show the whole thing end to end; these pin down each rule quickly.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import orjson
import pytest
from starlette.testclient import TestClient

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.bus import InProcessBus
from toreshi.live.cluster.forward import NotDeliveredError
from toreshi.live.cluster.redis_bus import RedisBus
from toreshi.live.cluster.rooms import ClusterConfig, ClusterRooms
from toreshi.live.owner import Ack, OwnershipLostError
from toreshi.live.registry import Rooms
from toreshi.live.room import Actor, Command
from toreshi.store import EventStore, NewEvent, RoomKind, open_store
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from ..live.counter_room import CounterRoom, next_event
from .conftest import Services
from .servers import REDIS_URL

pytestmark = pytest.mark.anyio

PLAYER = Actor("player", "aigerim")
CONFIG = ClusterConfig(lease_ms=1_500, scan_interval_s=60, command_timeout_s=3)
"""Short leases; the scan runs once at start only, so that the tests decide who takes which room."""


@asynccontextmanager
async def member(store: EventStore, services: Services, name: str) -> AsyncIterator[ClusterRooms]:
    bus = RedisBus(REDIS_URL, prefix=services.prefix)
    rooms = ClusterRooms(store, bus, {"togyz": CounterRoom}, instance=name, config=CONFIG)
    await rooms.start()
    try:
        yield rooms
    finally:
        await rooms.close()
        await bus.close()


@pytest.fixture
async def store(services: Services) -> AsyncIterator[EventStore]:
    async with open_store(services.postgres_url, schema=services.schema) as opened:
        await opened.create_room("r1", RoomKind.TOGYZ)
        yield opened


async def test_a_command_on_another_instance_is_forwarded_and_answered(store: EventStore, services: Services) -> None:
    async with member(store, services, "x") as x, member(store, services, "y") as y:
        here = await x.get("r1", "togyz")
        assert (await here.handle(Command("add", PLAYER, {"n": 2}, id="a"))).version == 1
        assert x.owned() == ["r1"] and await services.lease_holder("r1") == "x"

        there = await y.get("r1", "togyz")
        ack = await there.handle(Command("add", PLAYER, {"n": 5}, id="b"))
        assert ack.version == 2 and y.owned() == []  # applied by x, acknowledged through y
        assert there.version == 2 and there.snapshot(None).data["total"] == 7  # y reads its own write at once
        with pytest.raises(Refused) as refused:  # a forwarded refusal comes back as the same kit value
            await there.handle(Command("add", PLAYER, {"n": -1}))
        assert refused.value.refusal == Refusal(Common.FIELD_TOO_SMALL, {"field": "n", "minimum": 1})

        # y's sockets read from y's replica: it folds the log behind each bus message and republishes in order.
        async with there.bus.subscribe(there.channel) as messages:
            await there.handle(Command("add", PLAYER, {"n": 1}))
            seen = [await next_event(messages, 5)]
            while seen[-1].v < 3:
                seen.append(await next_event(messages, 5))
        assert [m.v for m in seen] in ([2, 3], [3]) and there.version == 3
        assert there.snapshot(None).data["total"] == 8
        assert [m.v for m in there.catch_up(1) or []] == [2, 3]

        # Nobody listens for a dead instance: the sender knows at once that its request was not applied.
        with pytest.raises(NotDeliveredError):
            await y.forwarder.request("gone", {"room": "r1"})
        assert await y.forwarder.alive("x") and not await y.forwarder.alive("gone")


async def test_a_replica_repairs_what_the_bus_did_not_say(store: EventStore, services: Services) -> None:
    async with member(store, services, "x") as x, member(store, services, "y") as y:
        await (await x.get("r1", "togyz")).handle(Command("add", PLAYER, {"n": 2}))
        there = await y.get("r1", "togyz")
        assert there.version == 1
        async with there.bus.subscribe(there.channel):  # a socket of y watches the room
            # Written without any announcement on the bus (as if the message were lost).
            await store.append("r1", 1, [NewEvent("added", {"n": 4, "by": "x"}, 10), NewEvent("added", {"n": 1}, 11)])
            await asyncio.sleep(0.1)
            assert there.version == 1
            await y.scan()  # the scan compares the watched replicas' versions with the database
            assert there.version == 3 and there.logic.view(None, 0)["total"] == 7


async def test_a_replica_nobody_watches_reads_nothing_until_asked(store: EventStore, services: Services) -> None:
    async with member(store, services, "x") as x, member(store, services, "y") as y:
        here = await x.get("r1", "togyz")
        await here.handle(Command("add", PLAYER, {"n": 2}))
        there = await y.get("r1", "togyz")
        replica = y._replicas["r1"]
        assert there.version == 1 and replica.watchers() == 0
        for _ in range(3):
            await here.handle(Command("add", PLAYER, {"n": 1}))
        await asyncio.sleep(0.2)  # the announcements reached y, which read nothing for them
        assert replica.version == 1 and replica.stale
        await y.scan()
        assert replica.version == 1  # the scan repairs only watched replicas
        again = await y.get("r1", "togyz")  # someone asks: read from the log now
        assert again.version == 4 and again.snapshot(None).data["total"] == 5 and not replica.stale


async def test_a_dead_owner_is_replaced_at_once_and_cannot_write_after(store: EventStore, services: Services) -> None:
    x_bus = RedisBus(REDIS_URL, prefix=services.prefix)
    x = ClusterRooms(store, x_bus, {"togyz": CounterRoom}, instance="x", config=CONFIG)
    await x.start()
    try:
        await (await x.get("r1", "togyz")).handle(Command("add", PLAYER, {"n": 2}))
        stale = x.local_owner("r1")
        assert stale is not None
        # x "dies": it stops listening and renewing, but its lease (1.5 s) has not lapsed.
        for task in x._tasks:
            task.cancel()
        await x.forwarder.close()
        assert await services.lease_holder("r1") == "x"

        async with member(store, services, "y") as y:
            started = asyncio.get_running_loop().time()
            ack = await (await y.get("r1", "togyz")).handle(Command("add", PLAYER, {"n": 3}))
            assert asyncio.get_running_loop().time() - started < 1.0  # no waiting for the lease to lapse
            assert ack.version == 2 and y.owned() == ["r1"] and await services.lease_holder("r1") == "y"
            assert y.takeovers[-1] == ("r1", 1)

            with pytest.raises(OwnershipLostError):  # the event log fences the old owner
                await stale.handle(Command("add", PLAYER, {"n": 100}))
            assert [event.payload["n"] for event in await store.load("r1")] == [2, 3]
    finally:
        await x.close()
        await x_bus.close()


async def test_an_owner_that_cannot_renew_drops_the_room_at_once(store: EventStore, services: Services) -> None:
    async with member(store, services, "x") as x:
        room = await x.get("r1", "togyz")
        await room.handle(Command("add", PLAYER, {"n": 2}))
        await services.redis.set(f"{services.prefix}lease:r1", "someone-else", px=5_000)
        await x.renew()
        assert x.owned() == [] and x.local_owner("r1") is None
        assert await services.lease_holder("r1") == "someone-else"  # not released: it was not ours any more


def test_without_a_bus_the_app_stays_in_process(tmp_path: Path) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path / "data"))) as client:
        services = client.app.state.services  # type: ignore[attr-defined]
        assert isinstance(services.bus, InProcessBus) and type(services.rooms) is Rooms


async def _owned(rooms: ClusterRooms, room_id: str) -> None:
    for _ in range(200):
        if rooms.owned() == [room_id]:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{rooms.instance} never loaded {room_id}")


async def test_the_lease_goes_to_the_instance_that_has_the_rooms_sockets(store: EventStore, services: Services) -> None:
    async with member(store, services, "x") as x, member(store, services, "y") as y:
        here = await x.get("r1", "togyz")  # x creates the room and owns it; nobody watches it on x
        await here.handle(Command("add", PLAYER, {"n": 2}, id="a"))
        there = await y.get("r1", "togyz")
        async with there.bus.subscribe(there.channel) as messages:  # a socket of y watches the room
            assert (await there.handle(Command("add", PLAYER, {"n": 3}, id="b"))).version == 2  # forwarded to x
            assert x.handovers == [("r1", "y")] and await services.lease_holder("r1") == "y"
            await _owned(y, "r1")  # loaded on y at once, not when the scan comes
            assert x.owned() == []
            assert (await there.handle(Command("add", PLAYER, {"n": 4}, id="c"))).version == 3  # handled on y
            assert (await there.handle(Command("add", PLAYER, {"n": 3}, id="b"))).version == 2  # a retry: its answer
            # A command reaching x now is forwarded to y, which keeps the room: it has the sockets.
            assert (await here.handle(Command("add", PLAYER, {"n": 1}, id="d"))).version == 4
            assert y.handovers == [] and y.owned() == ["r1"]
            seen = [await next_event(messages, 5)]
            while seen[-1].v < 4:
                seen.append(await next_event(messages, 5))
        assert [m.v for m in seen] == [2, 3, 4]  # each once, in order, across the hand-over
        assert there.snapshot(None).data["total"] == 10
        stored = await store.load("r1")
        assert [(e.version, e.command_id) for e in stored] == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]


async def test_an_owner_announces_each_command_once_on_redis(store: EventStore, services: Services) -> None:
    async with member(store, services, "x") as x:
        room = await x.get("r1", "togyz")
        pubsub = services.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(f"{services.prefix}room:r1")
        try:
            async with room.bus.subscribe(room.channel) as messages:  # a socket on the owner's instance
                ack = await room.handle(Command("add_ones", PLAYER, {"count": 3}, id="a"))
                local = [await next_event(messages, 2) for _ in range(3)]
            assert ack == Ack(3, 3) and [m.v for m in local] == [1, 2, 3]  # straight from the owner
            assert [m.more for m in local] == [True, True, False]
            announced: list[object] = []
            async with asyncio.timeout(2):
                while not announced:
                    raw = await pubsub.get_message(timeout=1.0)
                    if raw is not None:
                        announced.append(orjson.loads(raw["data"]))
            await asyncio.sleep(0.2)
            assert await pubsub.get_message(timeout=0.1) is None  # one message for the command's three events
            assert announced == [{"t": "announce", "v": 3}]
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2
