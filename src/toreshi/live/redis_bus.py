"""The bus across instances: Redis pub/sub (redis-py's asyncio client).

At-most-once, like the in-process bus: the event log is the record and subscribers repair gaps by version.
Each subscription has its own pub/sub connection, so a slow reader never holds up others; messages are JSON.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from redis.asyncio import Redis

from toreshi.live.bus import Message

PREFIX = "toreshi:"


class RedisBus:
    """Publish and subscribe through a Redis server given by URL (``redis://127.0.0.1:6379/0``)."""

    def __init__(self, url: str, *, prefix: str = PREFIX) -> None:
        self.url = url
        self.prefix = prefix
        self.redis: Redis = Redis.from_url(url)

    async def publish(self, channel: str, message: Message) -> None:
        await self.redis.publish(self.prefix + channel, json.dumps(message, separators=(",", ":")))

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[AsyncIterator[Message]]:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(self.prefix + channel)

        async def messages() -> AsyncIterator[Message]:
            while True:
                raw = await pubsub.get_message(timeout=None)
                if raw is None:
                    continue
                data = raw.get("data")
                if isinstance(data, bytes | str):
                    decoded = json.loads(data)
                    if isinstance(decoded, dict):
                        yield decoded

        try:
            yield messages()
        finally:
            with contextlib.suppress(Exception):
                await pubsub.unsubscribe()
            await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def close(self) -> None:
        await self.redis.aclose()


async def wait_until_subscribed(bus: RedisBus, channel: str, subscribers: int = 1, timeout: float = 5.0) -> None:
    """Wait until Redis counts ``subscribers`` on a channel (pub/sub drops messages sent before that)."""
    async with asyncio.timeout(timeout):
        while True:
            counts = await bus.redis.pubsub_numsub(bus.prefix + channel)
            if counts and counts[0][1] >= subscribers:
                return
            await asyncio.sleep(0.01)
