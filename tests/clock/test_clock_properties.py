"""Invariants of the game clock under random command sequences."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.clock import ClockError, ClockState, GameClock, LagCompensation, Period, TimeControl
from toreshi.togyz import BLACK, WHITE

controls = st.one_of(
    st.builds(
        lambda t, inc: TimeControl.sudden_death(t, increment_ms=inc),
        st.integers(1, 600_000),
        st.integers(0, 10_000),
    ),
    st.builds(
        lambda moves, first, rest, delay: TimeControl.of(Period(moves, first), Period(None, rest), delay_ms=delay),
        st.integers(1, 5),
        st.integers(1, 120_000),
        st.integers(1, 60_000),
        st.integers(0, 5_000),
    ),
)
actions = st.lists(
    st.tuples(
        st.sampled_from(["press", "press_wrong", "pause", "resume", "add", "set"]),
        st.integers(0, 90_000),
        st.integers(-60_000, 60_000),
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(controls, st.booleans(), actions)
def test_clock_times_are_never_negative_and_only_the_running_dial_moves(
    control: TimeControl, with_lag: bool, steps: list[tuple[str, int, int]]
) -> None:
    lag = LagCompensation.for_control(control) if with_lag else None
    clock = GameClock.new(control, lag).start(now_ms=0)
    now = 0
    for action, advance, amount in steps:
        before = clock
        now += advance
        for side in (WHITE, BLACK):
            assert clock.remaining(side, now) >= 0
        idle = BLACK if clock.running_side is WHITE else WHITE
        if clock.running_side is not None:
            # The dial that is not running keeps its time.
            assert clock.remaining(idle, now) == before.remaining(idle, now - advance)
        try:
            if action == "press" and clock.running_side is not None:
                mover = clock.running_side
                shown = clock.remaining(mover, now)
                press = clock.press(mover, now_ms=now, lag_ms=abs(amount) // 10)
                clock = press.clock
                left = clock.remaining(mover, now)
                bonus = control.increment_ms + max(period.time_ms for period in control.periods)
                assert left <= shown + press.compensation_ms + bonus + control.delay_ms
                assert press.flagged == (left == 0)
                assert clock.running_side is mover.other
            elif action == "press_wrong" and clock.running_side is not None:
                clock.press(clock.running_side.other, now_ms=now)
                raise AssertionError("the side whose dial is not running pressed")
            elif action == "pause":
                clock = clock.pause(now_ms=now)
            elif action == "resume":
                clock = clock.resume(now_ms=now)
            elif action == "add":
                clock = clock.add_time(WHITE, amount, now_ms=now)
            elif action == "set":
                clock = clock.set_times(abs(amount), abs(amount) + 1, now_ms=now)
        except ClockError:
            assert clock is before  # a refused operation changes nothing
        assert (clock.running_side is not None) == (clock.state is ClockState.RUNNING)
        for side in (WHITE, BLACK):
            assert clock.remaining(side, now) >= 0
            assert clock.side(side).used_ms >= 0
