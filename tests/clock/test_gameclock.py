from __future__ import annotations

import pytest

from toreshi.clock import (
    BLITZ,
    CLASSICAL_40_2H_1H,
    ClockError,
    ClockState,
    FakeTime,
    GameClock,
    LagCompensation,
    Period,
    TimeControl,
    minutes,
    monotonic_ms,
    seconds,
)
from toreshi.togyz import BLACK, WHITE


def test_start_runs_the_bastaushy_clock() -> None:
    # TK-C5: at the round start the бастаушы's clock runs.
    clock = GameClock.new(BLITZ).start(now_ms=1000)
    assert clock.running_side is WHITE
    assert clock.remaining(WHITE, 61_000) == minutes(7) - minutes(1)
    assert clock.remaining(BLACK, 61_000) == minutes(7)
    with pytest.raises(ClockError, match="already been started"):
        clock.start(now_ms=2000)


def test_press_charges_the_mover_and_starts_the_opponent() -> None:
    # TK-C7: the player stops their own clock and starts the opponent's.
    time = FakeTime()
    clock = GameClock.new(BLITZ).start(now_ms=time())
    time.advance(12_345)
    press = clock.press(WHITE, now_ms=time())
    assert press.charged_ms == 12_345 and not press.flagged
    clock = press.clock
    assert clock.running_side is BLACK
    assert clock.remaining(WHITE, time()) == minutes(7) - 12_345
    assert clock.side(WHITE).used_ms == 12_345 and clock.side(WHITE).moves == 1


def test_only_the_running_side_may_press() -> None:
    # TK-C9: a player may not start the opponent's clock; only the side whose dial runs presses.
    clock = GameClock.new(BLITZ).start(now_ms=0)
    with pytest.raises(ClockError, match="black cannot press: it is white's clock that runs"):
        clock.press(BLACK, now_ms=10)
    with pytest.raises(ClockError, match="not_started"):
        GameClock.new(BLITZ).press(WHITE, now_ms=0)


def test_time_cannot_go_backwards() -> None:
    clock = GameClock.new(BLITZ).start(now_ms=1000)
    with pytest.raises(ClockError, match="backwards"):
        clock.press(WHITE, now_ms=999)


def test_increment_is_added_after_each_move_in_time() -> None:
    clock = GameClock.new(TimeControl.sudden_death(minutes(3), increment_ms=seconds(2))).start(now_ms=0)
    clock = clock.press(WHITE, now_ms=5000).clock
    assert clock.remaining(WHITE, 5000) == minutes(3) - 5000 + 2000


def test_delay_is_not_charged() -> None:
    clock = GameClock.new(TimeControl.sudden_death(minutes(3), delay_ms=seconds(5))).start(now_ms=0)
    assert clock.remaining(WHITE, 4000) == minutes(3)
    assert clock.remaining(WHITE, 7000) == minutes(3) - 2000
    press = clock.press(WHITE, now_ms=3000)
    assert press.charged_ms == 0 and press.clock.remaining(WHITE, 3000) == minutes(3)
    # A pause does not hand out the delay a second time.
    clock = press.clock.pause(now_ms=6000).resume(now_ms=10_000)
    # Black's turn began at 3 s: 3 s of the 5 s delay were spent before the pause, 2 s remain after it.
    assert clock.remaining(BLACK, 12_000) == minutes(3)
    assert clock.remaining(BLACK, 13_000) == minutes(3) - 1000


def test_unused_time_carries_over_to_the_next_period() -> None:
    # TK-C16: 40 moves in 2 h, then 1 h; White makes 40 moves in 30 minutes and keeps the other 90.
    clock = GameClock.new(CLASSICAL_40_2H_1H).start(now_ms=0)
    now = 0
    for _ in range(40):
        now += 45_000
        clock = clock.press(WHITE, now_ms=now).clock
        clock = clock.press(BLACK, now_ms=now).clock
    white = clock.side(WHITE)
    assert (white.period, white.moves_in_period) == (1, 0)
    assert clock.remaining(WHITE, now) == minutes(120) - minutes(30) + minutes(60)
    assert clock.remaining(BLACK, now) == minutes(120) + minutes(60)


def test_three_periods_each_add_their_time() -> None:
    control = TimeControl.of(Period(2, 10_000), Period(1, 5_000), Period(None, 1_000))
    clock = GameClock.new(control).start(now_ms=0)
    clock = clock.press(WHITE, now_ms=1000).clock.press(BLACK, now_ms=1000).clock.press(WHITE, now_ms=2000).clock
    assert clock.remaining(WHITE, 2000) == 10_000 - 2000 + 5_000
    clock = clock.press(BLACK, now_ms=2000).clock.press(WHITE, now_ms=3000).clock
    assert clock.remaining(WHITE, 3000) == 10_000 - 3000 + 5_000 + 1_000
    assert clock.side(WHITE).period == 2


def test_a_flagged_press_gets_no_increment_and_stays_at_zero() -> None:
    clock = GameClock.new(TimeControl.sudden_death(10_000, increment_ms=5_000)).start(now_ms=0)
    assert clock.flag_deadline_ms() == 10_000
    assert clock.flagged(9_999) is None and clock.flagged(10_000) is WHITE
    press = clock.press(WHITE, now_ms=12_000)
    assert press.flagged and press.charged_ms == 10_000
    assert press.clock.remaining(WHITE, 12_000) == 0 and press.clock.is_out(WHITE, 12_000)


def test_pause_and_resume_keep_the_time() -> None:
    # TK-C15 (a player stops the clock to address the arbiter), TK-C18 (the game continues after a stop).
    clock = GameClock.new(BLITZ).start(now_ms=0).pause(now_ms=10_000)
    assert clock.state is ClockState.PAUSED and clock.running_side is None
    assert clock.remaining(WHITE, 500_000) == minutes(7) - 10_000
    assert clock.flag_deadline_ms() is None and clock.flagged(10**9) is None
    with pytest.raises(ClockError, match="only a running clock"):
        clock.pause(now_ms=20_000)
    clock = clock.resume(now_ms=500_000)
    assert clock.running_side is WHITE
    assert clock.remaining(WHITE, 510_000) == minutes(7) - 20_000
    with pytest.raises(ClockError, match="only a paused clock"):
        clock.resume(now_ms=510_000)


def test_arbiter_sets_and_adds_time() -> None:
    # TK-C10/TK-C11: the arbiter sets both dials; time can be added or taken, never below zero.
    clock = GameClock.new(BLITZ).start(now_ms=0)
    clock = clock.set_times(minutes(15), minutes(16), now_ms=30_000)
    assert clock.remaining(WHITE, 30_000) == minutes(15)
    assert clock.remaining(WHITE, 40_000) == minutes(15) - 10_000
    assert clock.remaining(BLACK, 40_000) == minutes(16)
    clock = clock.add_time(BLACK, -minutes(20), now_ms=40_000)
    assert clock.remaining(BLACK, 40_000) == 0
    with pytest.raises(ClockError, match="negative"):
        clock.set_time(WHITE, -1, now_ms=40_000)


def test_stop_is_final() -> None:
    clock = GameClock.new(BLITZ).start(now_ms=0).stop(now_ms=5000)
    assert clock.state is ClockState.STOPPED and clock.remaining(WHITE, 99_999) == minutes(7) - 5000
    with pytest.raises(ClockError, match="already stopped"):
        clock.stop(now_ms=6000)
    with pytest.raises(ClockError, match="stopped for good"):
        clock.set_time(WHITE, 1, now_ms=6000)


def test_lag_compensation_forgives_reported_lag_within_the_quota() -> None:
    lag = LagCompensation(gain_ms=1000, initial_ms=3000, max_ms=7000)
    clock = GameClock.new(BLITZ, lag).start(now_ms=0)
    press = clock.press(WHITE, now_ms=5000, lag_ms=800)
    assert (press.compensation_ms, press.charged_ms) == (800, 4200)
    assert press.clock.side(WHITE).lag_quota_ms == 3000 + 1000 - 800
    greedy = press.clock.press(BLACK, now_ms=10_000, lag_ms=60_000)
    assert greedy.compensation_ms == 3000 and greedy.charged_ms == 2000
    with pytest.raises(ClockError, match="lag cannot be negative"):
        clock.press(WHITE, now_ms=1, lag_ms=-5)


def test_lag_grace_delays_the_automatic_flag() -> None:
    lag = LagCompensation(gain_ms=1000, initial_ms=3000, max_ms=7000)
    clock = GameClock.new(TimeControl.sudden_death(10_000), lag).start(now_ms=0)
    assert clock.flag_deadline_ms(grace=True) == 12_000
    assert clock.flagged(11_000, grace=True) is None and clock.flagged(11_000) is WHITE


def test_no_compensation_without_lag_settings() -> None:
    press = GameClock.new(BLITZ).start(now_ms=0).press(WHITE, now_ms=5000, lag_ms=800)
    assert press.compensation_ms == 0 and press.charged_ms == 5000


def test_monotonic_source_never_goes_back() -> None:
    first = monotonic_ms()
    assert monotonic_ms() >= first
    fake = FakeTime(10)
    with pytest.raises(ValueError, match="cannot go back"):
        fake.advance(-1)
