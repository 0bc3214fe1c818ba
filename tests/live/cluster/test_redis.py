"""The scale-out path against the real local Redis (127.0.0.1:6379): never a mock."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from toreshi.live.cluster.lease import RedisLeases
from toreshi.live.cluster.redis_bus import RedisBus, wait_until_subscribed
from toreshi.live.protocol import AnnounceNotice

pytestmark = pytest.mark.anyio

REDIS_URL = os.environ.get("TORESHI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
async def bus() -> AsyncIterator[RedisBus]:
    created = RedisBus(REDIS_URL, prefix=f"test-{uuid.uuid4().hex}:")
    try:
        await created.redis.ping()
    except Exception as error:
        await created.close()
        if os.environ.get("CI"):
            pytest.fail(f"Redis is required in CI at {REDIS_URL}: {error}")
        pytest.skip(f"no Redis at {REDIS_URL}: {error}")
    yield created
    await created.close()


async def test_messages_reach_every_subscriber_in_order(bus: RedisBus) -> None:
    other_instance = RedisBus(REDIS_URL, prefix=bus.prefix)
    try:
        async with bus.subscribe("room:g1") as here, other_instance.subscribe("room:g1") as there:
            await wait_until_subscribed(bus, "room:g1", subscribers=2)
            for version in range(1, 6):
                await bus.publish("room:g1", AnnounceNotice(version))
            for messages in (here, there):
                received = [await asyncio.wait_for(anext(messages), 2) for _ in range(5)]
                assert received == [AnnounceNotice(version) for version in range(1, 6)]
    finally:
        await other_instance.close()


async def test_channels_are_separate(bus: RedisBus) -> None:
    async with bus.subscribe("room:a") as a_messages:
        await wait_until_subscribed(bus, "room:a")
        await bus.publish("room:b", AnnounceNotice(1))
        await bus.publish("room:a", AnnounceNotice(7))
        assert await asyncio.wait_for(anext(a_messages), 2) == AnnounceNotice(7)


async def test_a_lease_has_one_holder_until_it_lapses(bus: RedisBus) -> None:
    redis: Redis = bus.redis
    prefix = f"{bus.prefix}lease:"
    first = RedisLeases(redis, "instance-a", lease_ms=300, prefix=prefix)
    second = RedisLeases(redis, "instance-b", lease_ms=300, prefix=prefix)
    assert await first.acquire("g1")
    assert not await second.acquire("g1")
    assert await first.renew("g1")
    assert not await second.release("g1")  # only the holder may release
    assert await first.holder_of("g1") == "instance-a"
    await asyncio.sleep(0.45)  # instance-a "dies": no renewal
    assert await second.acquire("g1")
    assert not await first.renew("g1")
    assert await second.release("g1")
    assert await first.holder_of("g1") is None


async def test_many_subscriptions_share_one_redis_connection(bus: RedisBus) -> None:
    contexts = [bus.subscribe(f"room:{number}") for number in range(150)]
    streams = [await context.__aenter__() for context in contexts]
    try:
        await wait_until_subscribed(bus, "room:149")
        clients = await bus.redis.client_list()
        subscribers = [client for client in clients if int(client.get("sub", 0)) > 0]
        assert len([client for client in subscribers if int(client["sub"]) >= 150]) == 1
        await bus.publish("room:77", AnnounceNotice(1))
        assert await asyncio.wait_for(anext(streams[77]), 2) == AnnounceNotice(1)
    finally:
        for context in reversed(contexts):
            await context.__aexit__(None, None, None)
