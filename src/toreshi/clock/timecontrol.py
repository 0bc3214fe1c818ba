"""Time controls: one or more periods, then increment or delay (TK-C3, TK-C4, TK-C16).

A period is "N moves in T" or, for the final period, "the rest of the game in T". Time left when a period's
moves are completed carries over into the next period (TK-C16): the next period's time is *added* to what
remains, never substituted for it.

>>> control = TimeControl.of(Period(40, minutes(120)), Period(None, minutes(60)))
>>> str(control)
'40 moves in 120 min, then the rest in 60 min'
>>> control.total_ms // 60_000
180

A control that cannot be played is refused with a :class:`~toreshi.clock.codes.ClockCode` (the web layer says why
in the reader's language; ``str(control)`` is English, for logs and the command line):

>>> TimeControl.sudden_death(minutes(5), increment_ms=1, delay_ms=1)
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: increment_and_delay (clause='TK-C4')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toreshi.clock.codes import ClockCode
from toreshi.kit.codec import spec
from toreshi.kit.refusal import Refused

MS_PER_SECOND = 1_000
MS_PER_MINUTE = 60_000


def minutes(count: int) -> int:
    """Whole minutes as integer milliseconds.

    >>> minutes(7)
    420000
    """
    return count * MS_PER_MINUTE


def seconds(count: int) -> int:
    """Whole seconds as integer milliseconds."""
    return count * MS_PER_SECOND


MAX_PERIOD_MS = 24 * 60 * MS_PER_MINUTE
"""The longest period a client may describe (a day): beyond it a number is a mistake, not a time control."""
MAX_MOVES = 1_000
MAX_INCREMENT_MS = MS_PER_MINUTE * 60


def _format_ms(ms: int) -> str:
    if ms % MS_PER_MINUTE == 0:
        return f"{ms // MS_PER_MINUTE} min"
    if ms % MS_PER_SECOND == 0:
        return f"{ms // MS_PER_SECOND} s"
    return f"{ms} ms"


@dataclass(frozen=True, slots=True)
class Period:
    """``moves`` moves in ``time_ms``; ``moves=None`` means the rest of the game (only the final period)."""

    moves: int | None = field(metadata=spec(minimum=1, maximum=MAX_MOVES))
    time_ms: int = field(metadata=spec(minimum=1, maximum=MAX_PERIOD_MS))

    def __post_init__(self) -> None:
        if self.time_ms <= 0:
            raise Refused(ClockCode.PERIOD_TIME_NOT_POSITIVE)
        if self.moves is not None and self.moves <= 0:
            raise Refused(ClockCode.PERIOD_MOVES_NOT_POSITIVE)

    def __str__(self) -> str:
        if self.moves is None:
            return f"the rest in {_format_ms(self.time_ms)}"
        return f"{self.moves} moves in {_format_ms(self.time_ms)}"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """The periods of a game, plus a Fischer increment *or* a delay per move (never both).

    ``increment_ms`` is added after every completed move made in time; ``delay_ms`` is the part of every turn
    that is not charged at all (the "US delay").
    """

    periods: tuple[Period, ...] = field(metadata=spec(max_items=10))
    increment_ms: int = field(default=0, metadata=spec(minimum=0, maximum=MAX_INCREMENT_MS))
    delay_ms: int = field(default=0, metadata=spec(minimum=0, maximum=MAX_INCREMENT_MS))

    def __post_init__(self) -> None:
        if not self.periods:
            raise Refused(ClockCode.NO_PERIOD)
        *leading, final = self.periods
        for index, period in enumerate(leading, start=1):
            if period.moves is None:
                raise Refused(ClockCode.PERIOD_NEEDS_MOVES, period=index)
        if final.moves is not None:
            raise Refused(ClockCode.FINAL_PERIOD_HAS_MOVES)
        if self.increment_ms < 0 or self.delay_ms < 0:
            raise Refused(ClockCode.NEGATIVE_INCREMENT)
        if self.increment_ms and self.delay_ms:
            raise Refused(ClockCode.INCREMENT_AND_DELAY, clause="TK-C4")

    @classmethod
    def of(cls, *periods: Period, increment_ms: int = 0, delay_ms: int = 0) -> TimeControl:
        return cls(tuple(periods), increment_ms, delay_ms)

    @classmethod
    def sudden_death(cls, time_ms: int, *, increment_ms: int = 0, delay_ms: int = 0) -> TimeControl:
        """One period for the whole game, e.g. blitz 7 min (TK-B3).

        >>> str(TimeControl.sudden_death(minutes(7), increment_ms=seconds(2)))
        '7 min for the game + 2 s per move'
        """
        return cls((Period(None, time_ms),), increment_ms, delay_ms)

    @property
    def initial_ms(self) -> int:
        """Time on each clock at the start: the first period's time."""
        return self.periods[0].time_ms

    @property
    def total_ms(self) -> int:
        """All periods' time for one player, increments not counted."""
        return sum(period.time_ms for period in self.periods)

    def __str__(self) -> str:
        if len(self.periods) == 1:
            text = f"{_format_ms(self.periods[0].time_ms)} for the game"
        else:
            text = ", then ".join(str(period) for period in self.periods)
        if self.increment_ms:
            text += f" + {_format_ms(self.increment_ms)} per move"
        if self.delay_ms:
            text += f", {_format_ms(self.delay_ms)} delay"
        return text

    def to_dict(self) -> dict[str, object]:
        """The control as a JSON object (what a ``create`` command carries, what ``game_created`` stores)."""
        return {
            "periods": [{"moves": p.moves, "time_ms": p.time_ms} for p in self.periods],
            "increment_ms": self.increment_ms,
            "delay_ms": self.delay_ms,
        }


def late_clock_allowance(control: TimeControl, elapsed_ms: int, *, minimum_ms: int = minutes(15)) -> int:
    """Each player's time when a clock is set on a game that started without one (TK-C11).

    The time left of the whole control for both players together is divided equally; near the end each player
    gets at least ``minimum_ms`` (15 minutes by the regulation).

    >>> late_clock_allowance(TimeControl.sudden_death(minutes(60)), minutes(30)) // MS_PER_MINUTE
    45
    >>> late_clock_allowance(TimeControl.sudden_death(minutes(60)), minutes(110)) // MS_PER_MINUTE
    15
    """
    if elapsed_ms < 0:
        raise Refused(ClockCode.NEGATIVE_ELAPSED)
    left_for_both = max(0, 2 * control.total_ms - elapsed_ms)
    return max(left_for_both // 2, minimum_ms)
