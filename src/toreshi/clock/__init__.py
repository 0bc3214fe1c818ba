"""Time controls and the game clock: pure values in integer milliseconds with an injected monotonic time.

>>> from toreshi.clock import BLITZ, GameClock
>>> clock = GameClock.new(BLITZ).start(now_ms=0)
>>> clock.remaining(clock.active, 60_000)
360000
"""

from toreshi.clock.codes import ClockCode
from toreshi.clock.flag import FlagCheck, FlagMode, check_required_moves
from toreshi.clock.gameclock import ClockError, ClockState, GameClock, PressOutcome, SideTime
from toreshi.clock.lag import NO_LAG_COMPENSATION, LagCompensation, reported_lag
from toreshi.clock.presets import BLITZ, CLASSICAL_40_2H_1H, CLASSICAL_60, CLASSICAL_90, PRESETS, RAPID
from toreshi.clock.timecontrol import (
    Period,
    TimeControl,
    late_clock_allowance,
    minutes,
    seconds,
)
from toreshi.clock.timesource import FakeTime, TimeSource, monotonic_ms

__all__ = [
    "BLITZ",
    "CLASSICAL_40_2H_1H",
    "CLASSICAL_60",
    "CLASSICAL_90",
    "NO_LAG_COMPENSATION",
    "PRESETS",
    "RAPID",
    "ClockCode",
    "ClockError",
    "ClockState",
    "FakeTime",
    "FlagCheck",
    "FlagMode",
    "GameClock",
    "LagCompensation",
    "Period",
    "PressOutcome",
    "SideTime",
    "TimeControl",
    "TimeSource",
    "check_required_moves",
    "late_clock_allowance",
    "minutes",
    "monotonic_ms",
    "reported_lag",
    "seconds",
]
