"""One client's clock, as the socket's pings measure it: the offset to send back (``offset``) and the link profile a
quiz room's buzzer arbitration needs (docs/realtime.md §4.2)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from toreshi.quiz.buzzer import BuzzerError, PingSample
from toreshi.quiz.buzzer import ClockSync as LinkProfile

PING_SAMPLES = 16
PING_MAX_AGE_MS = 60_000


def server_ms() -> int:
    return time.monotonic_ns() // 1_000_000


@dataclass
class ClockSync:
    """NTP-style offset estimate of one client's clock (docs/realtime.md §4.2): keep the minimum-RTT sample."""

    samples: list[tuple[int, int]] = field(default_factory=list)  # (rtt, offset)
    sent: dict[int, int] = field(default_factory=dict)
    pings: list[PingSample] = field(default_factory=list)
    """The raw exchanges (server monotonic ms, client ms) behind :meth:`profile`: the last 16, none over 60 s old."""

    def on_pong(self, ping_id: int, client_ms: float, received_ms: int) -> tuple[int, int] | None:
        sent = self.sent.pop(ping_id, None)
        if sent is None:
            return None
        rtt = received_ms - sent
        offset = round(client_ms - (sent + rtt / 2))
        self.samples = [*self.samples[-15:], (rtt, offset)]
        fresh = [p for p in self.pings[-(PING_SAMPLES - 1) :] if received_ms - p.received_ms <= PING_MAX_AGE_MS]
        self.pings = [*fresh, PingSample(sent, round(client_ms), received_ms)]
        return min(self.samples)

    def profile(self, room_delta_ms: int) -> LinkProfile | None:
        """The client's offset and latency profile against room time (``room = monotonic + room_delta_ms``),
        for buzzer arbitration (docs/realtime.md §4.2); ``None`` before the first pong."""
        if not self.pings:
            return None
        delta = room_delta_ms
        shifted = [PingSample(p.sent_ms + delta, p.client_ms, p.received_ms + delta) for p in self.pings]
        try:
            return LinkProfile.from_samples(shifted)
        except BuzzerError:
            return None
