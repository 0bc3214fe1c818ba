"""What one connection, and one person across their connections, may cost the server: commands per second and
sockets per room."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from toreshi.live.room import Actor

COMMANDS_PER_SECOND = 20
"""Per connection, and per person (role and name) in a room across all of their connections."""
CONNECTIONS_PER_ACTOR = 6
"""A player, a team, a host may hold this many sockets to one room at once (phones, a reconnect overlapping the old
socket, a second device); one code opening hundreds of sockets must not multiply its share of the server."""


@dataclass
class RateLimit:
    """A token bucket: ``rate`` commands per second, bursts up to ``rate``."""

    rate: float
    tokens: float = 0.0
    last: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.rate

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class ActorSockets:
    """The sockets each person (role and name) holds in each room, and one command budget per person per room
    shared by those sockets: opening more connections with one code gains no more of the server."""

    def __init__(self, per_actor: int = CONNECTIONS_PER_ACTOR, rate: float = COMMANDS_PER_SECOND) -> None:
        self.per_actor = per_actor
        self.rate = rate
        self._open: dict[tuple[str, str, str], int] = {}
        self._limits: dict[tuple[str, str, str], RateLimit] = {}

    def enter(self, room_id: str, actor: Actor) -> bool:
        """Count one more socket of ``actor`` in the room; ``False`` (and nothing counted) over the cap.
        Spectators are not counted: they hold no code and send nothing."""
        if actor.role == "spectator":
            return True
        key = (room_id, actor.role, actor.name)
        if self._open.get(key, 0) >= self.per_actor:
            return False
        self._open[key] = self._open.get(key, 0) + 1
        self._limits.setdefault(key, RateLimit(self.rate))
        return True

    def leave(self, room_id: str, actor: Actor) -> None:
        key = (room_id, actor.role, actor.name)
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)
            self._limits.pop(key, None)

    def allow(self, room_id: str, actor: Actor) -> bool:
        limit = self._limits.get((room_id, actor.role, actor.name))
        return limit is None or limit.allow()
