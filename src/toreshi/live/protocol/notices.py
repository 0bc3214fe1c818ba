"""What travels on a room's channel besides its events, between the server's own parts; never sent to a client."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from toreshi.live.protocol.base import Direction, Frame


@dataclass(frozen=True, slots=True)
class AccessNotice(Frame):
    """A link of ``role`` was revoked (the arbiter reissued it): every socket of that role checks its link again."""

    t: ClassVar[str] = "access"
    direction: ClassVar[Direction] = Direction.BETWEEN_SERVERS
    since: ClassVar[int] = 2
    room: str
    role: str


@dataclass(frozen=True, slots=True)
class AnnounceNotice(Frame):
    """An owner's word to the other instances that the room reached version ``v`` (the events are read from the
    log, which holds what the bus may not carry: a sealed move, a host's answer key)."""

    t: ClassVar[str] = "announce"
    direction: ClassVar[Direction] = Direction.BETWEEN_SERVERS
    since: ClassVar[int] = 2
    v: int
