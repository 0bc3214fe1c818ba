"""Room time: one monotonic millisecond timeline per room that survives restarts and takeovers.

The pure cores (clocks, the buzzer, quiz timers) need a monotonic clock, but a process's monotonic clock starts
anew after a restart or on another machine. So each room keeps its own timeline: within a process it advances with
the monotonic clock; when a room is rebuilt from its log, the timeline resumes at the last event's room time plus
the wall-clock time that has passed since that event was written (never less than zero). Time during an outage is
therefore charged like a physical clock that kept running — see docs/decisions.md, "Clock time during a restart".

>>> timeline = RoomTimeline.resume(last_room_ms=60_000, last_wall_ms=1_000_000, now_wall_ms=1_004_000,
...                                now_mono_ms=5)
>>> timeline.room_ms(now_mono_ms=5), timeline.room_ms(now_mono_ms=1_005)
(64000, 65000)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


def monotonic_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class RoomTimeline:
    """``room_ms = origin + (now_mono - mono_at_origin)``: a fixed offset from the process's monotonic clock."""

    offset_ms: int

    @classmethod
    def new(cls, now_mono_ms: int) -> RoomTimeline:
        """A fresh room: room time starts at 0 now."""
        return cls(offset_ms=-now_mono_ms)

    @classmethod
    def resume(cls, last_room_ms: int, last_wall_ms: int, now_wall_ms: int, now_mono_ms: int) -> RoomTimeline:
        """A room rebuilt from its log: continue from its last event plus the wall time since (≥ 0)."""
        gap = max(0, now_wall_ms - last_wall_ms)
        return cls(offset_ms=last_room_ms + gap - now_mono_ms)

    def room_ms(self, now_mono_ms: int) -> int:
        return now_mono_ms + self.offset_ms


@dataclass
class Clocks:
    """The two time sources a room owner reads: monotonic (for room time) and wall (for the record)."""

    monotonic: Callable[[], int] = monotonic_ms
    wall: Callable[[], int] = wall_ms
