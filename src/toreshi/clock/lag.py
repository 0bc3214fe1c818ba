"""Lag compensation for online play: a bounded allowance per move (the lichess "lag bank").

Each player has a quota. When a move arrives, the network lag the client reported is forgiven up to the quota,
and the quota is refilled by a fixed gain per move, capped at a maximum. A client that lies about its lag gains
at most the refill per move plus what was banked, so the allowance is bounded; an honest player on a slow link
gets back what the network took. Moves entered on the arbiter's console get no compensation (lag 0).

>>> from toreshi.clock.timecontrol import minutes
>>> lag = LagCompensation.for_control(TimeControl.sudden_death(minutes(60)))
>>> lag.gain_ms, lag.initial_ms, lag.max_ms
(1000, 3000, 7000)
>>> lag.compensate(quota_ms=3000, lag_ms=400)
(400, 3600)
"""

from __future__ import annotations

from dataclasses import dataclass

from toreshi.clock.timecontrol import TimeControl


def reported_lag(server_elapsed_ms: int, client_think_ms: int) -> int:
    """The lag of one move: what the server measured minus what the client says it thought (never negative).

    >>> reported_lag(2_300, 2_000)
    300
    """
    return max(0, server_elapsed_ms - client_think_ms)


@dataclass(frozen=True, slots=True)
class LagCompensation:
    """The settings of the lag bank, in milliseconds; ``flag_grace_max_ms`` caps the grace at a flag check."""

    gain_ms: int
    initial_ms: int
    max_ms: int
    flag_grace_max_ms: int = 2_000

    def __post_init__(self) -> None:
        if min(self.gain_ms, self.initial_ms, self.max_ms, self.flag_grace_max_ms) < 0:
            raise ValueError("lag compensation settings cannot be negative")
        if self.initial_ms > self.max_ms:
            raise ValueError(f"the initial quota {self.initial_ms} ms exceeds the maximum {self.max_ms} ms")

    @classmethod
    def for_control(cls, control: TimeControl) -> LagCompensation:
        """Lichess's defaults: gain = min(1 s, 150 ms + 4 ms × estimated game seconds); quota 3× gain, cap 7×.

        The estimated game length is the first period plus 40 increments.

        >>> from toreshi.clock.timecontrol import minutes
        >>> LagCompensation.for_control(TimeControl.sudden_death(minutes(3))).gain_ms
        870
        """
        estimated_s = (control.initial_ms + 40 * control.increment_ms) // 1_000
        gain = min(1_000, 150 + 4 * estimated_s)
        return cls(gain, 3 * gain, 7 * gain)

    def compensate(self, quota_ms: int, lag_ms: int) -> tuple[int, int]:
        """(compensation granted for this move, quota after the refill)."""
        granted = min(max(lag_ms, 0), quota_ms)
        return granted, min(quota_ms + self.gain_ms - granted, self.max_ms)

    def flag_grace(self, quota_ms: int) -> int:
        """How much of a running turn is forgiven when checking for a flag fall."""
        return min(quota_ms, self.flag_grace_max_ms)


NO_LAG_COMPENSATION = LagCompensation(0, 0, 0, 0)
"""Over-the-board play: nothing is ever forgiven."""
