from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.clock import LagCompensation, TimeControl, minutes, reported_lag, seconds


def test_gain_follows_the_lichess_formula() -> None:
    # 3+0: 150 ms + 4 ms × 180 s = 870 ms; anything longer than about 3.5 minutes is capped at 1 s.
    blitz3 = LagCompensation.for_control(TimeControl.sudden_death(minutes(3)))
    assert (blitz3.gain_ms, blitz3.initial_ms, blitz3.max_ms) == (870, 2610, 6090)
    with_increment = LagCompensation.for_control(TimeControl.sudden_death(minutes(1), increment_ms=seconds(2)))
    assert with_increment.gain_ms == 150 + 4 * (60 + 80)
    assert LagCompensation.for_control(TimeControl.sudden_death(minutes(20))).gain_ms == 1000


def test_compensation_is_bounded_by_the_quota() -> None:
    lag = LagCompensation(gain_ms=1000, initial_ms=3000, max_ms=7000)
    assert lag.compensate(quota_ms=500, lag_ms=2000) == (500, 1000)
    assert lag.compensate(quota_ms=6800, lag_ms=0) == (0, 7000)
    assert lag.flag_grace(5000) == 2000 and lag.flag_grace(700) == 700


def test_reported_lag_is_server_time_minus_client_think_time() -> None:
    assert reported_lag(1500, 1200) == 300
    assert reported_lag(1000, 1200) == 0


def test_bad_lag_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        LagCompensation(-1, 0, 0)
    with pytest.raises(ValueError, match="exceeds"):
        LagCompensation(100, 800, 700)


@given(st.lists(st.integers(min_value=0, max_value=20_000), max_size=200))
def test_a_lying_client_gains_at_most_the_refill_per_move_plus_the_bank(lags: list[int]) -> None:
    lag = LagCompensation(gain_ms=1000, initial_ms=3000, max_ms=7000)
    quota, total = lag.initial_ms, 0
    for claimed in lags:
        granted, quota = lag.compensate(quota, claimed)
        assert 0 <= granted <= claimed
        assert 0 <= quota <= lag.max_ms
        total += granted
    assert total <= lag.initial_ms + lag.gain_ms * len(lags)
