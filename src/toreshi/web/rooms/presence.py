"""Who is connected to a room right now, as the sockets see it: for the quiz host's connection panel (issue 14 §3).

Nothing here is room state: it is not stored, not an event, and it is lost with the process (a restart shows every
phone as lost until it reconnects, which it does within seconds). Each person (role and name) of a room has a count
of open sockets, when the server last heard from any of them, and the round trip last measured on one of them.

>>> presence = Presence()
>>> presence.opened("q-7kdm", "team:1", "Алтын", now_ms=1_000)
>>> presence.heard("q-7kdm", "team:1", "Алтын", now_ms=1_500, rtt_ms=12)
>>> [(p.name, p.status(2_000), p.rtt_ms) for p in presence.of("q-7kdm")]
[('Алтын', 'live', 12)]
>>> presence.closed("q-7kdm", "team:1", "Алтын", now_ms=2_000)
>>> [(p.name, p.status(9_000), p.seen_ms) for p in presence.of("q-7kdm")]
[('Алтын', 'lost', 2000)]
"""

from __future__ import annotations

from dataclasses import dataclass

from toreshi.live.protocol import PersonShown

__all__ = ["LOST_AFTER_MS", "Presence", "Present"]

LOST_AFTER_MS = 2_500
"""A phone not heard from for this long is lost, even with its socket still open (its pongs come every second)."""
MAX_ROOMS = 10_000


@dataclass(slots=True)
class Present:
    role: str
    name: str
    sockets: int = 0
    seen_ms: int = 0
    """When the server last heard from this person (server monotonic ms)."""
    rtt_ms: int | None = None

    def status(self, now_ms: int) -> str:
        """``live`` (a socket open and heard from lately) or ``lost``."""
        return "live" if self.sockets > 0 and now_ms - self.seen_ms <= LOST_AFTER_MS else "lost"

    def shown(self, now_ms: int) -> PersonShown:
        """This person as the host's panel shows them (a ``presence`` frame's entry)."""
        return PersonShown(self.role, self.name, self.status(now_ms), max(0, now_ms - self.seen_ms), self.rtt_ms)


class Presence:
    """The people connected to each room of this process."""

    def __init__(self) -> None:
        self._rooms: dict[str, dict[tuple[str, str], Present]] = {}

    def _entry(self, room_id: str, role: str, name: str) -> Present:
        room = self._rooms.get(room_id)
        if room is None:
            if len(self._rooms) >= MAX_ROOMS:  # rooms long gone: forget the oldest
                self._rooms.pop(next(iter(self._rooms)))
            room = self._rooms[room_id] = {}
        entry = room.get((role, name))
        if entry is None:
            entry = room[(role, name)] = Present(role, name)
        return entry

    def opened(self, room_id: str, role: str, name: str, now_ms: int) -> None:
        entry = self._entry(room_id, role, name)
        entry.sockets += 1
        entry.seen_ms = now_ms

    def heard(self, room_id: str, role: str, name: str, now_ms: int, rtt_ms: int | None = None) -> None:
        entry = self._entry(room_id, role, name)
        entry.seen_ms = max(entry.seen_ms, now_ms)
        if rtt_ms is not None:
            entry.rtt_ms = rtt_ms

    def closed(self, room_id: str, role: str, name: str, now_ms: int) -> None:
        entry = self._entry(room_id, role, name)
        entry.sockets = max(0, entry.sockets - 1)
        entry.seen_ms = max(entry.seen_ms, now_ms)

    def of(self, room_id: str) -> list[Present]:
        return list(self._rooms.get(room_id, {}).values())
