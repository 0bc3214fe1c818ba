"""Where the clock's "now" comes from: a monotonic source in production, a fake one in tests.

The pure cores never call ``time.*`` themselves; the live room reads a :class:`TimeSource` once per command and
passes the integer milliseconds on, so that every event carries the instant it was decided at and a replay needs
no clock at all.

>>> fake = FakeTime(1_000)
>>> fake.advance(250)
>>> fake()
1250
"""

from __future__ import annotations

import time
from typing import Protocol


class TimeSource(Protocol):
    """A callable returning integer milliseconds from a monotonic origin."""

    def __call__(self) -> int: ...


def monotonic_ms() -> int:
    """The production source: the process's monotonic clock in milliseconds (never jumps back)."""
    return time.monotonic_ns() // 1_000_000


class FakeTime:
    """A time source for tests that moves only when told to."""

    __slots__ = ("now_ms",)

    def __init__(self, start_ms: int = 0) -> None:
        self.now_ms = start_ms

    def __call__(self) -> int:
        return self.now_ms

    def advance(self, ms: int) -> None:
        if ms < 0:
            raise ValueError(f"monotonic time cannot go back ({ms} ms)")
        self.now_ms += ms
