"""A tiny room logic for testing the live machinery: a shared counter with an alarm."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from toreshi.kit.refusal import Common, Refused
from toreshi.live.bus import Message
from toreshi.live.protocol import EventFrame
from toreshi.live.room import Actor, Command, Decided, Payload


class CounterRoom:
    kind = "counter"

    def __init__(self) -> None:
        self.total = 0
        self.alarm_at: int | None = None
        self.rang = 0
        self.secret = ""
        self.over = False

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        if command.actor.role == "spectator":
            raise Refused(Common.FORBIDDEN, command=command.type, role="spectator")
        if command.type == "add":
            amount = int(command.data.get("n", 0))
            if amount <= 0:
                raise Refused(Common.FIELD_TOO_SMALL, field="n", minimum=1)
            return [Decided("added", {"n": amount, "by": command.actor.name})]
        if command.type == "add_ones":  # several events from one command
            count = int(command.data.get("count", 0))
            if count <= 0:
                raise Refused(Common.FIELD_TOO_SMALL, field="count", minimum=1)
            return [Decided("added", {"n": 1, "by": command.actor.name}) for _ in range(count)]
        if command.type == "alarm":
            return [Decided("alarm_set", {"at": now_ms + int(command.data["in_ms"])})]
        if command.type == "whisper":
            return [Decided("whispered", {"secret": str(command.data["text"])})]
        if command.type == "finish":  # the last event of the room, with one before it
            return [Decided("added", {"n": 1, "by": command.actor.name}), Decided("ended", {})]
        raise Refused(Common.UNKNOWN_COMMAND, command=command.type)

    def apply(self, event: Decided, at_ms: int) -> None:
        if event.type == "added":
            self.total += int(event.payload["n"])
        elif event.type == "alarm_set":
            self.alarm_at = int(event.payload["at"])
        elif event.type == "rang":
            self.alarm_at = None
            self.rang += 1
        elif event.type == "whispered":
            self.secret = str(event.payload["secret"])
        elif event.type == "ended":
            self.over = True

    def is_finished(self) -> bool:
        return self.over

    def finishes(self, events: Sequence[Decided]) -> bool:
        return self.over or any(event.type == "ended" for event in events)

    def deadline_ms(self) -> int | None:
        return self.alarm_at

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        if self.alarm_at is not None and now_ms >= self.alarm_at:
            return [Decided("rang", {"late_ms": now_ms - self.alarm_at})]
        return []

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        seen: Payload = {"total": self.total, "rang": self.rang, "alarm_at": self.alarm_at}
        if actor is not None and actor.role == "arbiter":
            seen["secret"] = self.secret
        return seen

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        if event.type == "whispered":
            return {}
        return dict(event.payload)


async def next_event(messages: AsyncIterator[Message], timeout: float) -> EventFrame:
    """The next message of a room's channel, which must be an event frame."""
    message = await asyncio.wait_for(anext(messages), timeout)
    assert isinstance(message, EventFrame), message
    return message
