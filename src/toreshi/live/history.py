"""A bounded history of a room's recent events, for clients that reconnect (after lila-ws's ``History``).

>>> from toreshi.live.protocol import EventFrame
>>> history = History(capacity=3)
>>> for version in range(1, 6):
...     history.add(version, EventFrame("g-1", version, "moved", {}, ts=version * 1000))
>>> history.since(5)
[]
>>> [event.v for event in history.since(3) or []]
[4, 5]
>>> history.since(1) is None   # versions 2 is gone: the client needs a full snapshot
True
"""

from __future__ import annotations

from collections import deque

from toreshi.live.protocol import EventFrame


class History:
    """The last ``capacity`` broadcast events of a room, keyed by their version."""

    def __init__(self, capacity: int = 50) -> None:
        if capacity < 1:
            raise ValueError("a history holds at least one event")
        self._events: deque[tuple[int, EventFrame]] = deque(maxlen=capacity)

    def add(self, version: int, message: EventFrame) -> None:
        if self._events and version != self._events[-1][0] + 1:
            self._events.clear()  # a gap (e.g. a resync): older entries no longer connect to the new ones
        self._events.append((version, message))

    @property
    def last_version(self) -> int | None:
        return self._events[-1][0] if self._events else None

    def since(self, version: int) -> list[EventFrame] | None:
        """Events after ``version`` in order; ``[]`` if the client is current; ``None`` if they are not all here."""
        last = self.last_version
        if last is None:
            return None if version > 0 else []
        if version >= last:
            return [] if version == last else None
        first = self._events[0][0]
        if version + 1 < first:
            return None
        return [message for v, message in self._events if v > version]
