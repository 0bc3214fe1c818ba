"""What the server tells one connection: who it is, the fate of its commands, the clock, who else is connected,
and what was wrong with a frame."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toreshi.kit.codec import spec
from toreshi.live.protocol.base import Direction, Frame, since


@dataclass(frozen=True, slots=True)
class WelcomeFrame(Frame):
    """The connection's identity in the room, as the server recognised it from its ``hello``."""

    t: ClassVar[str] = "welcome"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    protocol: int
    room: str
    kind: str
    role: str
    name: str
    link: str | None = field(default=None, metadata=since(2, **spec(omit_default=True)))
    """``"refused"`` when the hello's token opens nothing (revoked or mistyped): the page says so."""


@dataclass(frozen=True, slots=True)
class AckFrame(Frame):
    """Command ``id`` was accepted and persisted; the room is at version ``v`` as this connection may see it."""

    t: ClassVar[str] = "ack"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    id: str
    v: int


@dataclass(frozen=True, slots=True)
class RefusalShown:
    """A refusal as a client reads it: the code and parameters for scripts, the sentence for people."""

    code: str
    params: Mapping[str, Any]
    message: str
    details: tuple[RefusalShown, ...] = field(default=(), metadata=spec(omit_default=True))


@dataclass(frozen=True, slots=True)
class RefusedFrame(Frame):
    """Command ``id`` was not allowed, and nothing changed (``moved`` excepted: see docs/protocol.md)."""

    t: ClassVar[str] = "refused"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    id: str
    code: str
    params: Mapping[str, Any]
    message: str
    details: tuple[RefusalShown, ...] = field(default=(), metadata=since(2, **spec(omit_default=True)))
    """Several problems found at once, each a refusal of its own."""

    @classmethod
    def of(cls, command_id: str, shown: RefusalShown) -> RefusedFrame:
        return cls(command_id, shown.code, shown.params, shown.message, shown.details)


@dataclass(frozen=True, slots=True)
class FailedFrame(Frame):
    """The server failed on command ``id`` (a bug, logged there): its fate is unknown, the client resyncs."""

    t: ClassVar[str] = "failed"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    since: ClassVar[int] = 2
    id: str
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class PingFrame(Frame):
    """Clock synchronisation: the client answers ``pong`` at once; ``ts`` is the server's clock."""

    t: ClassVar[str] = "ping"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    id: int
    ts: int


@dataclass(frozen=True, slots=True)
class OffsetFrame(Frame):
    """The server's estimate of the client clock's offset and the round trip; room time = server clock +
    ``room_delta``."""

    t: ClassVar[str] = "offset"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    offset: int
    rtt: int
    room_delta: int


@dataclass(frozen=True, slots=True)
class PersonShown:
    """One person's connections to a room, as the quiz host's panel shows them."""

    role: str
    name: str
    status: str
    """``live`` or ``lost``."""
    seen_ago_ms: int
    rtt_ms: int | None


@dataclass(frozen=True, slots=True)
class PresenceFrame(Frame):
    """To a quiz room's host: each phone's and screen's connection (not room state: nothing of it is stored)."""

    t: ClassVar[str] = "presence"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    since: ClassVar[int] = 2
    people: tuple[PersonShown, ...]


@dataclass(frozen=True, slots=True)
class ErrorFrame(Frame):
    """A malformed message; ``code`` ``closing`` (with its ``reason``) or ``link_revoked``: the socket closes."""

    t: ClassVar[str] = "error"
    direction: ClassVar[Direction] = Direction.TO_CLIENT
    code: str
    message: str
    reason: str | None = field(default=None, metadata=since(2, **spec(omit_default=True)))
