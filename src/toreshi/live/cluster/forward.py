"""Commands across instances: a small request/reply over Redis pub/sub.

Each instance subscribes to two channels of its own: ``<prefix>fwd:<instance>`` for requests and
``<prefix>fwd-reply:<instance>`` for the replies to its own requests. A request names the channel to answer on and
an id; the owner handles the command and publishes the outcome there.

``PUBLISH`` answers with the number of subscribers that received the message, which tells the sender something
useful: 0 means the named instance is not listening (it died, or lost its Redis connection) and the command was
certainly not applied, so it is safe to try again elsewhere. The same count (``PUBSUB NUMSUB`` of an instance's
request channel) is how the cluster tells a dead lease holder from a live one without waiting for the lease to lapse.
A request that was delivered but not answered in time may or may not have been applied; the caller is told so.

Commands and replies are JSON: ``{"id", "reply", "body"}`` and ``{"id", "body"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub

from toreshi.live.cluster.tasks import stop

log = logging.getLogger(__name__)

Body = dict[str, Any]
Serve = Callable[[Body], Awaitable[Body]]

FORWARD_TIMEOUT_S = 5.0
"""How long a sender waits for the owner's answer (an append on PostgreSQL takes milliseconds)."""


LIVENESS_CHECK_S = 0.1
"""While waiting for an answer, how often the sender checks that the instance still listens."""


class NotDeliveredError(ConnectionError):
    """Nobody listens on the named instance's channel: the request was not received (so not applied)."""


class NoAnswerError(TimeoutError):
    """The request was delivered but no answer came in time: it may or may not have been applied."""


class Forwarder:
    """Sends requests to other instances and serves the requests sent to this one (through ``serve``)."""

    def __init__(
        self, redis: Redis, instance: str, serve: Serve, *, prefix: str, timeout_s: float = FORWARD_TIMEOUT_S
    ) -> None:
        self.redis = redis
        self.instance = instance
        self.prefix = prefix
        self.timeout_s = timeout_s
        self._serve = serve
        self._pubsub: PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, asyncio.Future[Body]] = {}
        self._serving: set[asyncio.Task[None]] = set()

    def request_channel(self, instance: str) -> str:
        return f"{self.prefix}fwd:{instance}"

    def reply_channel(self, instance: str) -> str:
        return f"{self.prefix}fwd-reply:{instance}"

    async def start(self) -> None:
        """Listen on this instance's channels; returns once Redis has registered the subscriptions."""
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.request_channel(self.instance), self.reply_channel(self.instance))
        self._reader = asyncio.create_task(self._read(self._pubsub))
        async with asyncio.timeout(5):
            while not await self.alive(self.instance):
                await asyncio.sleep(0.01)

    async def alive(self, instance: str) -> bool:
        """Whether ``instance`` listens for requests now (a killed process's subscriptions vanish at once)."""
        counts = await self.redis.pubsub_numsub(self.request_channel(instance))
        return bool(counts) and int(counts[0][1]) > 0

    async def request(self, instance: str, body: Body) -> Body:
        """Send ``body`` to ``instance`` and wait for its answer.

        Raises :class:`NotDeliveredError` if nobody received it and :class:`NoAnswerError` if no answer came in time.
        """
        request_id = uuid.uuid4().hex
        future: asyncio.Future[Body] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            message = {"id": request_id, "reply": self.reply_channel(self.instance), "body": body}
            received = await self.redis.publish(self.request_channel(instance), _dumps(message))
            if not received:
                raise NotDeliveredError(f"instance {instance} is not listening")
            return await self._answer_of(instance, future)
        finally:
            self._pending.pop(request_id, None)

    async def _answer_of(self, instance: str, future: asyncio.Future[Body]) -> Body:
        """Wait for the answer, but give up early if the instance stops listening (it died with the request)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout_s
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise NoAnswerError(f"instance {instance} did not answer within {self.timeout_s} s")
            done, _ = await asyncio.wait({future}, timeout=min(left, LIVENESS_CHECK_S))
            if done:
                return future.result()
            try:
                gone = not await self.alive(instance)
            except Exception:  # cannot tell: keep waiting (giving up here would invite a blind retry elsewhere)
                gone = False
            if gone:
                raise NoAnswerError(f"instance {instance} went away before answering")

    async def _read(self, pubsub: PubSub) -> None:
        requests, replies = self.request_channel(self.instance), self.reply_channel(self.instance)
        while True:
            try:
                raw = await pubsub.get_message(timeout=None)
            except asyncio.CancelledError:
                raise
            except Exception:  # a dropped connection: redis-py reconnects and subscribes again on the next read
                log.warning("forwarder: Redis read failed; retrying", exc_info=True)
                await asyncio.sleep(0.2)
                continue
            if raw is None:
                continue
            channel = raw.get("channel")
            channel = channel.decode() if isinstance(channel, bytes) else channel
            try:
                message = json.loads(raw["data"])
            except (TypeError, ValueError):
                log.warning("forwarder: unreadable message on %s", channel)
                continue
            if not isinstance(message, dict) or not isinstance(message.get("id"), str):
                continue
            if channel == replies:
                future = self._pending.get(message["id"])
                if future is not None and not future.done() and isinstance(message.get("body"), dict):
                    future.set_result(message["body"])
            elif channel == requests and isinstance(message.get("reply"), str):
                task = asyncio.create_task(self._answer(message["id"], message["reply"], message.get("body")))
                self._serving.add(task)
                task.add_done_callback(self._serving.discard)

    async def _answer(self, request_id: str, reply: str, body: object) -> None:
        try:
            answer = await self._serve(body) if isinstance(body, dict) else {"error": "bad request"}
        except Exception as error:
            log.exception("forwarder: serving a request failed")
            answer = {"error": f"{type(error).__name__}: {error}"}
        try:
            await self.redis.publish(reply, _dumps({"id": request_id, "body": answer}))
        except Exception:
            log.warning("forwarder: could not send an answer on %s", reply, exc_info=True)

    async def close(self) -> None:
        await stop(self._reader)
        for task in list(self._serving):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for future in self._pending.values():
            if not future.done():
                future.cancel()
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe()
            await self._pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2


def _dumps(message: Body) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
