"""The room itself, as a client receives it: one event, a command's events, the whole room, "you fell behind".

An :class:`EventFrame` is made once by the room's owner (or a replica) and reaches every connection of the room as
the same object on the bus; a player's or an arbiter's connection replaces its ``state`` with the room as that role
sees it (:meth:`EventFrame.with_state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toreshi.kit.codec import spec
from toreshi.live.protocol.base import Direction, Frame, since


@dataclass(frozen=True, slots=True)
class EventFrame(Frame):
    """One room event at version ``v`` and room time ``ts``: what everyone may see of it (``data``)."""

    t: ClassVar[str] = "event"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    room: str
    v: int
    type: str
    data: Mapping[str, Any]
    ts: int
    more: bool = field(default=False, metadata=since(2, **spec(omit_default=True)))
    """More events of the same command follow in this frame, and ``data`` has no ``state``."""

    def with_state(self, state: Mapping[str, Any]) -> EventFrame:
        """The same event with ``state`` in place of the public one (a player's or an arbiter's own view)."""
        return EventFrame(self.room, self.v, self.type, {**self.data, "state": state}, self.ts, self.more)

    @property
    def has_state(self) -> bool:
        return "state" in self.data


@dataclass(frozen=True, slots=True)
class EventsFrame(Frame):
    """Several events in version order, applied one by one: a command's events, or those a client missed."""

    t: ClassVar[str] = "events"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    since: ClassVar[int] = 2
    room: str
    events: tuple[EventFrame, ...]


@dataclass(frozen=True, slots=True)
class SnapshotFrame(Frame):
    """The whole room as one role may see it, at version ``v`` and room time ``ts``."""

    t: ClassVar[str] = "snapshot"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    room: str
    kind: str
    v: int
    ts: int
    data: Mapping[str, Any]
    protocol: int


@dataclass(frozen=True, slots=True)
class ResyncFrame(Frame):
    """The client fell behind (its connection's queue overflowed): it sends ``hello`` again."""

    t: ClassVar[str] = "resync"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
