"""The two-dial game clock as an immutable value in integer milliseconds (TK-C1, TK-C7, TK-C9, TK-C15, TK-C16).

Every operation takes ``now_ms`` from the caller's monotonic time source and returns a new clock; nothing here
reads the time itself, so a clock is a pure function of the commands applied to it and a replay of recorded
events rebuilds it exactly.

How time is charged: the side whose clock runs is charged ``elapsed − delay − lag compensation`` (never less than
zero) when it presses; its remaining time never goes below zero. A press made with time left counts towards the
period; completing a period's moves adds the next period's time to what is left (carry-over, TK-C16), and the
increment is added after every move made in time.

>>> from toreshi.clock.presets import BLITZ
>>> clock = GameClock.new(BLITZ).start(now_ms=0)
>>> clock.running_side
<Side.WHITE: 0>
>>> press = clock.press(WHITE, now_ms=5_000)
>>> press.clock.remaining(WHITE, 5_000), press.clock.running_side
(415000, <Side.BLACK: 1>)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from toreshi.clock.lag import NO_LAG_COMPENSATION, LagCompensation
from toreshi.clock.timecontrol import TimeControl
from toreshi.side import BLACK, WHITE, Side


class ClockError(ValueError):
    """A clock operation that the rules do not allow (pressing the opponent's clock, resuming a running clock…)."""


class ClockState(Enum):
    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class SideTime:
    """One dial. ``remaining_ms`` is exact whenever the dial is not running; while it runs, it is the time left at
    ``running_since_ms`` (see :meth:`GameClock.remaining`)."""

    remaining_ms: int
    period: int = 0
    """Index of the current period in the time control."""
    moves_in_period: int = 0
    """Moves completed in time in the current period."""
    moves: int = 0
    """Presses made in the whole game."""
    used_ms: int = 0
    """Time charged so far (the "used time" an adjournment envelope records, TK-A3)."""
    lag_quota_ms: int = 0


@dataclass(frozen=True, slots=True)
class PressOutcome:
    """What one press did: the new clock, the time charged and the lag compensation applied (kept for the record)."""

    clock: GameClock
    charged_ms: int
    compensation_ms: int
    flagged: bool
    """The presser's time had run out: no increment, no period bonus."""


@dataclass(frozen=True, slots=True)
class GameClock:
    control: TimeControl
    times: tuple[SideTime, SideTime]
    lag: LagCompensation = NO_LAG_COMPENSATION
    state: ClockState = ClockState.NOT_STARTED
    active: Side = WHITE
    """The side whose dial runs (or would run, when paused)."""
    running_since_ms: int | None = None
    delay_left_ms: int = 0
    """The part of the current turn's delay not yet spent (a pause must not give the delay twice)."""

    @classmethod
    def new(cls, control: TimeControl, lag: LagCompensation | None = None) -> GameClock:
        lag = lag or NO_LAG_COMPENSATION
        side = SideTime(control.initial_ms, lag_quota_ms=lag.initial_ms)
        return cls(control, (side, side), lag, delay_left_ms=control.delay_ms)

    # --- reading ---------------------------------------------------------------------------------

    @property
    def running_side(self) -> Side | None:
        """The side whose dial is running now, or ``None`` when the clock is not running."""
        return self.active if self.state is ClockState.RUNNING else None

    def side(self, side: Side) -> SideTime:
        return self.times[side]

    def _elapsed(self, now_ms: int) -> int:
        assert self.running_since_ms is not None
        elapsed = now_ms - self.running_since_ms
        if elapsed < 0:
            raise ClockError(f"time went backwards: {now_ms} ms is before {self.running_since_ms} ms")
        return elapsed

    def remaining(self, side: Side, now_ms: int) -> int:
        """The time ``side`` has left at ``now_ms``, as a display would show it (never negative)."""
        dial = self.times[side]
        if self.running_side is not side:
            return dial.remaining_ms
        charged = max(0, self._elapsed(now_ms) - self.delay_left_ms)
        return max(0, dial.remaining_ms - charged)

    def used(self, side: Side, now_ms: int) -> int:
        """Time charged to ``side`` so far, the running turn included."""
        dial = self.times[side]
        return dial.used_ms + dial.remaining_ms - self.remaining(side, now_ms)

    def flag_deadline_ms(self, *, grace: bool = False) -> int | None:
        """The monotonic instant at which the running dial reaches 00:00 (plus the lag grace if asked).

        The live room schedules its flag check for this instant; ``None`` when no dial runs.
        """
        if self.state is not ClockState.RUNNING:
            return None
        assert self.running_since_ms is not None
        dial = self.times[self.active]
        extra = self.lag.flag_grace(dial.lag_quota_ms) if grace else 0
        return self.running_since_ms + self.delay_left_ms + dial.remaining_ms + extra

    def flagged(self, now_ms: int, *, grace: bool = False) -> Side | None:
        """The running side if its time has run out at ``now_ms`` (TK-B10), else ``None``."""
        deadline = self.flag_deadline_ms(grace=grace)
        if deadline is None or now_ms < deadline:
            return None
        return self.active

    def is_out(self, side: Side, now_ms: int) -> bool:
        """True when ``side``'s dial shows 00:00, running or not."""
        return self.remaining(side, now_ms) == 0

    # --- transitions -----------------------------------------------------------------------------

    def _with(self, side: Side, dial: SideTime) -> tuple[SideTime, SideTime]:
        return (dial, self.times[1]) if side is WHITE else (self.times[0], dial)

    def _settled(self, now_ms: int) -> GameClock:
        """The same clock with the running turn charged up to ``now_ms`` (so the dial can be read or changed)."""
        if self.state is not ClockState.RUNNING:
            return self
        elapsed = self._elapsed(now_ms)
        dial = self.times[self.active]
        charged = min(dial.remaining_ms, max(0, elapsed - self.delay_left_ms))
        dial = replace(dial, remaining_ms=dial.remaining_ms - charged, used_ms=dial.used_ms + charged)
        return replace(
            self,
            times=self._with(self.active, dial),
            running_since_ms=now_ms,
            delay_left_ms=max(0, self.delay_left_ms - elapsed),
        )

    def start(self, now_ms: int, side: Side = WHITE) -> GameClock:
        """Start ``side``'s dial: the бастаушы's at the round start (TK-C5, TK-B4)."""
        if self.state is not ClockState.NOT_STARTED:
            raise ClockError(f"the clock has already been started (it is {self.state.value})")
        return replace(self, state=ClockState.RUNNING, active=side, running_since_ms=now_ms)

    def press(self, side: Side, now_ms: int, *, lag_ms: int = 0) -> PressOutcome:
        """``side`` stops its own dial and starts the opponent's (TK-C7). Only the running side may press (TK-C9).

        ``lag_ms`` is the network lag the client reported for this move; it is forgiven up to the lag quota.
        """
        if self.state is not ClockState.RUNNING:
            raise ClockError(f"the clock is {self.state.value}: nobody can press it")
        if side is not self.active:
            raise ClockError(f"{side.name.lower()} cannot press: it is {self.active.name.lower()}'s clock that runs")
        if lag_ms < 0:
            raise ClockError(f"lag cannot be negative, not {lag_ms} ms")
        elapsed = self._elapsed(now_ms)
        dial = self.times[side]
        compensation, quota = self.lag.compensate(dial.lag_quota_ms, lag_ms)
        charged = max(0, elapsed - self.delay_left_ms - compensation)
        left = dial.remaining_ms - charged
        flagged = left <= 0
        used = dial.used_ms + min(charged, dial.remaining_ms)
        if flagged:
            dial = replace(dial, remaining_ms=0, moves=dial.moves + 1, used_ms=used, lag_quota_ms=quota)
        else:
            period, in_period = dial.period, dial.moves_in_period + 1
            required = self.control.periods[period].moves
            if required is not None and in_period >= required:
                # The period's moves are made in time: the next period's time is added to what is left (TK-C16).
                period, in_period = period + 1, 0
                left += self.control.periods[period].time_ms
            left += self.control.increment_ms
            dial = SideTime(left, period, in_period, dial.moves + 1, used, quota)
        clock = replace(
            self,
            times=self._with(side, dial),
            active=side.other,
            running_since_ms=now_ms,
            delay_left_ms=self.control.delay_ms,
        )
        return PressOutcome(clock, min(charged, self.times[side].remaining_ms), compensation, flagged)

    def pause(self, now_ms: int) -> GameClock:
        """Stop both dials: an arbiter stop or a player addressing the arbiter (TK-C15), an adjournment (TK-A2)."""
        if self.state is not ClockState.RUNNING:
            raise ClockError(f"only a running clock can be paused; it is {self.state.value}")
        return replace(self._settled(now_ms), state=ClockState.PAUSED, running_since_ms=None)

    def resume(self, now_ms: int, side: Side | None = None) -> GameClock:
        """Restart the dial of ``side`` (by default the one that was running) after a pause (TK-C18, TK-A4)."""
        if self.state is not ClockState.PAUSED:
            raise ClockError(f"only a paused clock can be resumed; it is {self.state.value}")
        active = self.active if side is None else side
        return replace(self, state=ClockState.RUNNING, active=active, running_since_ms=now_ms)

    def stop(self, now_ms: int) -> GameClock:
        """Stop for good at the end of the game."""
        if self.state is ClockState.STOPPED:
            raise ClockError("the clock is already stopped")
        return replace(self._settled(now_ms), state=ClockState.STOPPED, running_since_ms=None)

    def set_time(self, side: Side, remaining_ms: int, now_ms: int) -> GameClock:
        """Set ``side``'s dial to ``remaining_ms`` (an arbiter correction: TK-C10, TK-C11, TK-C14)."""
        if remaining_ms < 0:
            raise ClockError(f"a clock cannot be set to a negative time ({remaining_ms} ms)")
        if self.state is ClockState.STOPPED:
            raise ClockError("the clock has been stopped for good")
        clock = self._settled(now_ms)
        return replace(clock, times=clock._with(side, replace(clock.times[side], remaining_ms=remaining_ms)))

    def set_times(self, white_ms: int, black_ms: int, now_ms: int) -> GameClock:
        """Set both dials at once (TK-C11)."""
        return self.set_time(WHITE, white_ms, now_ms).set_time(BLACK, black_ms, now_ms)

    def add_time(self, side: Side, delta_ms: int, now_ms: int) -> GameClock:
        """Add (or, with a negative delta, take away) time; a dial never goes below zero."""
        return self.set_time(side, max(0, self.remaining(side, now_ms) + delta_ms), now_ms)
