"""Time controls: one or more periods, then increment or delay (TK-C3, TK-C4, TK-C16).

A period is "N moves in T" or, for the final period, "the rest of the game in T". Time left when a period's
moves are completed carries over into the next period (TK-C16): the next period's time is *added* to what
remains, never substituted for it.

>>> control = TimeControl.of(Period(40, minutes(120)), Period(None, minutes(60)))
>>> str(control)
'40 moves in 120 min, then the rest in 60 min'
>>> control.total_ms // 60_000
180
"""

from __future__ import annotations

from dataclasses import dataclass

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


class TimeControlError(ValueError):
    """A time control that cannot be played: no period, a negative time, a final period with a move count…"""


def _format_ms(ms: int) -> str:
    if ms % MS_PER_MINUTE == 0:
        return f"{ms // MS_PER_MINUTE} min"
    if ms % MS_PER_SECOND == 0:
        return f"{ms // MS_PER_SECOND} s"
    return f"{ms} ms"


@dataclass(frozen=True, slots=True)
class Period:
    """``moves`` moves in ``time_ms``; ``moves=None`` means the rest of the game (only the final period)."""

    moves: int | None
    time_ms: int

    def __post_init__(self) -> None:
        if self.time_ms <= 0:
            raise TimeControlError(f"a period needs a positive time, not {self.time_ms} ms")
        if self.moves is not None and self.moves <= 0:
            raise TimeControlError(f"a period needs a positive number of moves, not {self.moves}")

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

    periods: tuple[Period, ...]
    increment_ms: int = 0
    delay_ms: int = 0

    def __post_init__(self) -> None:
        if not self.periods:
            raise TimeControlError("a time control needs at least one period")
        *leading, final = self.periods
        for index, period in enumerate(leading, start=1):
            if period.moves is None:
                raise TimeControlError(f"period {index} is not the last one, so it needs a number of moves")
        if final.moves is not None:
            raise TimeControlError("the final period covers the rest of the game: give it no move count")
        if self.increment_ms < 0 or self.delay_ms < 0:
            raise TimeControlError("increment and delay cannot be negative")
        if self.increment_ms and self.delay_ms:
            raise TimeControlError("choose an increment or a delay, not both")

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
        return {
            "periods": [{"moves": p.moves, "time_ms": p.time_ms} for p in self.periods],
            "increment_ms": self.increment_ms,
            "delay_ms": self.delay_ms,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> TimeControl:
        """Read :meth:`to_dict` output; raises :class:`TimeControlError` on a malformed dict."""
        try:
            raw_periods = data["periods"]
            if not isinstance(raw_periods, list):
                raise TimeControlError("'periods' must be a list")
            periods = []
            for raw in raw_periods:
                moves, time_ms = raw["moves"], raw["time_ms"]
                if not (moves is None or isinstance(moves, int)) or not isinstance(time_ms, int):
                    raise TimeControlError(f"a period needs integer moves and time_ms, not {raw!r}")
                periods.append(Period(moves, time_ms))
            increment, delay = data.get("increment_ms", 0), data.get("delay_ms", 0)
            if not isinstance(increment, int) or not isinstance(delay, int):
                raise TimeControlError("increment_ms and delay_ms must be integers")
        except (KeyError, TypeError) as error:
            raise TimeControlError(f"malformed time control {data!r}: {error}") from None
        return cls(tuple(periods), increment, delay)


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
        raise TimeControlError(f"elapsed time cannot be negative, not {elapsed_ms} ms")
    left_for_both = max(0, 2 * control.total_ms - elapsed_ms)
    return max(left_for_both // 2, minimum_ms)
