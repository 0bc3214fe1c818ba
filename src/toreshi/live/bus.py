"""The event bus: fans room messages out to every subscriber, in this process or (with Redis) on every instance.

Delivery is at-most-once, as with Redis pub/sub: the database is the record, and a subscriber that sees a version
gap asks the owner for the missing events (:class:`~toreshi.live.history.History`) or a snapshot.

>>> import asyncio
>>> async def demo() -> list[dict[str, object]]:
...     bus = InProcessBus()
...     async with bus.subscribe("room:1") as messages:
...         await bus.publish("room:1", {"v": 1})
...         return [await anext(messages)]
>>> asyncio.run(demo())
[{'v': 1}]
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Protocol

Message = dict[str, Any]

SUBSCRIBER_QUEUE = 1_000
"""Messages a slow subscriber may lag behind before it is dropped from the channel (and must resync)."""


class Bus(Protocol):
    """Publish to a channel; subscribe to a channel as an async iterator of messages."""

    async def publish(self, channel: str, message: Message) -> None: ...

    def subscribe(self, channel: str) -> AbstractAsyncContextManager[AsyncIterator[Message]]: ...

    async def close(self) -> None: ...


class SubscriberOverflowError(Exception):
    """Raised in a subscriber's iterator when it fell too far behind; it should resync."""


class InProcessBus:
    """The embedded bus: per-channel queues in this process, no server needed."""

    def __init__(self, queue_size: int = SUBSCRIBER_QUEUE) -> None:
        self._queue_size = queue_size
        self._channels: dict[str, set[asyncio.Queue[Message | None]]] = {}

    async def publish(self, channel: str, message: Message) -> None:
        for queue in list(self._channels.get(channel, ())):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self._drop(channel, queue)

    def _drop(self, channel: str, queue: asyncio.Queue[Message | None]) -> None:
        self._channels.get(channel, set()).discard(queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)  # tells the reader it overflowed

    def subscribers(self, channel: str) -> int:
        return len(self._channels.get(channel, ()))

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[AsyncIterator[Message]]:
        queue: asyncio.Queue[Message | None] = asyncio.Queue(self._queue_size)
        self._channels.setdefault(channel, set()).add(queue)

        async def messages() -> AsyncIterator[Message]:
            while True:
                message = await queue.get()
                if message is None:
                    raise SubscriberOverflowError(f"subscriber of {channel!r} fell behind; resync")
                yield message

        try:
            yield messages()
        finally:
            subscribers = self._channels.get(channel)
            if subscribers is not None:
                subscribers.discard(queue)
                if not subscribers:
                    del self._channels[channel]

    async def close(self) -> None:
        self._channels.clear()
