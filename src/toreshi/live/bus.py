"""The event bus: fans room messages out to every subscriber, in this process or (with Redis) on every instance.

Delivery is at-most-once, as with Redis pub/sub: the database is the record, and a subscriber that sees a version
gap asks the owner for the missing events (:class:`~toreshi.live.history.History`) or a snapshot.

>>> import asyncio
>>> from toreshi.live.protocol import AnnounceNotice
>>> async def demo() -> list[Message]:
...     bus = InProcessBus()
...     async with bus.subscribe("room:1") as messages:
...         await bus.publish("room:1", AnnounceNotice(1))
...         return [await anext(messages)]
>>> asyncio.run(demo())
[AnnounceNotice(v=1)]
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol

from toreshi.live.protocol import BusMessage

Message = BusMessage
"""A room's event frame, or a notice between the server's parts (:mod:`toreshi.live.protocol`)."""

SUBSCRIBER_QUEUE = 1_000
"""Messages a slow subscriber may lag behind before it is dropped from the channel (and must resync)."""


class Bus(Protocol):
    """Publish to a channel; subscribe to a channel as an async iterator of messages."""

    async def publish(self, channel: str, message: Message) -> None: ...

    async def publish_many(self, channel: str, messages: list[Message]) -> None:
        """The messages of one command, in order (a bus across instances sends them as one)."""
        ...

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[AsyncIterator[Message]]: ...

    async def close(self) -> None: ...


class SubscriberOverflowError(Exception):
    """Raised in a subscriber's iterator when it fell too far behind; it should resync."""


Queue = asyncio.Queue[Message | None]


class LocalSubscribers:
    """This process's subscribers by channel, each with a bounded queue; shared by every bus.

    A subscriber that lets its queue fill up is dropped from the channel and finds
    :class:`SubscriberOverflowError` when it reads on: it has missed messages and must resync.
    """

    def __init__(self, queue_size: int = SUBSCRIBER_QUEUE) -> None:
        self.queue_size = queue_size
        self.channels: dict[str, set[Queue]] = {}

    def add(self, channel: str) -> tuple[Queue, bool]:
        """A new subscriber's queue, and whether it is the channel's first one here."""
        queue: Queue = asyncio.Queue(self.queue_size)
        subscribers = self.channels.setdefault(channel, set())
        subscribers.add(queue)
        return queue, len(subscribers) == 1

    def remove(self, channel: str, queue: Queue) -> bool:
        """Forget a subscriber; returns whether the channel has none left here."""
        subscribers = self.channels.get(channel)
        if subscribers is None:
            return False
        subscribers.discard(queue)
        if subscribers:
            return False
        del self.channels[channel]
        return True

    def deliver(self, channel: str, message: Message) -> None:
        for queue in list(self.channels.get(channel, ())):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self.channels[channel].discard(queue)
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)  # tells the reader it overflowed

    def count(self, channel: str) -> int:
        return len(self.channels.get(channel, ()))

    @staticmethod
    async def messages(channel: str, queue: Queue) -> AsyncIterator[Message]:
        while True:
            message = await queue.get()
            if message is None:
                raise SubscriberOverflowError(f"subscriber of {channel!r} fell behind; resync")
            yield message


class InProcessBus:
    """The embedded bus: per-channel queues in this process, no server needed."""

    def __init__(self, queue_size: int = SUBSCRIBER_QUEUE) -> None:
        self._local = LocalSubscribers(queue_size)

    async def publish(self, channel: str, message: Message) -> None:
        self._local.deliver(channel, message)

    async def publish_many(self, channel: str, messages: list[Message]) -> None:
        for message in messages:
            self._local.deliver(channel, message)

    def subscribers(self, channel: str) -> int:
        return self._local.count(channel)

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[AsyncIterator[Message]]:
        queue, _ = self._local.add(channel)
        try:
            yield self._local.messages(channel, queue)
        finally:
            self._local.remove(channel, queue)

    async def close(self) -> None:
        self._local.channels.clear()
