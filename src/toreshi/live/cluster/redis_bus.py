"""The bus across instances: Redis pub/sub (redis-py's asyncio client).

At-most-once, like the in-process bus: the event log is the record and subscribers repair gaps by version. Messages
are frames of the room protocol, written and read by its codec (:data:`toreshi.live.protocol.FRAMES`); what another
program put on a channel and the codec cannot read is dropped.
One pub/sub connection per instance carries every channel this instance listens to; a reader task hands each
message to the local subscribers' queues, so a thousand sockets cost one Redis connection, not a thousand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import orjson
from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from toreshi.kit.codec import CodecError
from toreshi.live.bus import SUBSCRIBER_QUEUE, LocalSubscribers, Message
from toreshi.live.cluster.tasks import stop
from toreshi.live.protocol import FRAMES, AccessNotice, AnnounceNotice, EventFrame

PREFIX = "toreshi:"
log = logging.getLogger(__name__)


class RedisBus:
    """Publish and subscribe through a Redis server given by URL (``redis://127.0.0.1:6379/0``)."""

    def __init__(self, url: str, *, prefix: str = PREFIX, queue_size: int = SUBSCRIBER_QUEUE) -> None:
        self.url = url
        self.prefix = prefix
        self.redis: Redis = Redis.from_url(url)
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._local = LocalSubscribers(queue_size)
        self._lock = asyncio.Lock()

    async def publish(self, channel: str, message: Message) -> None:
        await self.redis.publish(self.prefix + channel, orjson.dumps(FRAMES.encode(message)))

    async def publish_many(self, channel: str, messages: list[Message]) -> None:
        """One ``PUBLISH`` of the list (one encoding, one round trip); every subscriber gets the messages in order."""
        if messages:
            await self.redis.publish(self.prefix + channel, orjson.dumps([FRAMES.encode(m) for m in messages]))

    async def _ensure_reader(self) -> PubSub:
        if self._pubsub is None:
            self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(self._read(self._pubsub))
        return self._pubsub

    async def _read(self, pubsub: PubSub) -> None:
        while True:
            if not pubsub.subscribed:
                await asyncio.sleep(0.01)
                continue
            try:
                raw = await pubsub.get_message(timeout=1.0)
            except (ConnectionError, OSError, RuntimeError) as error:
                log.warning("redis bus: %s; listening again", error)
                await asyncio.sleep(0.5)
                continue
            if raw is None:
                continue
            channel, data = raw.get("channel"), raw.get("data")
            if isinstance(channel, bytes):
                channel = channel.decode()
            if not isinstance(channel, str) or not isinstance(data, bytes | str):
                continue
            try:
                decoded = orjson.loads(data)
            except ValueError:
                continue
            name = channel.removeprefix(self.prefix)
            for raw_message in decoded if isinstance(decoded, list) else [decoded]:
                message = read_bus_message(raw_message)
                if message is not None:
                    self._local.deliver(name, message)

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[AsyncIterator[Message]]:
        async with self._lock:
            pubsub = await self._ensure_reader()
            queue, first = self._local.add(channel)
            if first:
                await pubsub.subscribe(self.prefix + channel)
        try:
            yield self._local.messages(channel, queue)
        finally:
            async with self._lock:
                if self._local.remove(channel, queue) and self._pubsub is not None:
                    with contextlib.suppress(Exception):
                        await self._pubsub.unsubscribe(self.prefix + channel)

    async def close(self) -> None:
        await stop(self._reader)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2
        self._local.channels.clear()
        await self.redis.aclose()


def read_bus_message(raw: object) -> Message | None:
    """The frame of a JSON object read from a channel, if it is one that travels on a room's channel."""
    if not isinstance(raw, dict):
        return None
    try:
        frame = FRAMES.decode(raw)
    except CodecError as error:
        log.warning("redis bus: unreadable message dropped (%s)", error)
        return None
    return frame if isinstance(frame, EventFrame | AccessNotice | AnnounceNotice) else None


async def wait_until_subscribed(bus: RedisBus, channel: str, subscribers: int = 1, timeout: float = 5.0) -> None:
    """Wait until Redis counts ``subscribers`` on a channel (pub/sub drops messages sent before that).

    Every local subscription of one bus shares its connection, so Redis counts one subscriber per bus.
    """
    async with asyncio.timeout(timeout):
        while True:
            counts = await bus.redis.pubsub_numsub(bus.prefix + channel)
            if counts and counts[0][1] >= subscribers:
                return
            await asyncio.sleep(0.01)
