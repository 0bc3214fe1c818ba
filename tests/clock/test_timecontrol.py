from __future__ import annotations

import pytest

from toreshi.clock import (
    BLITZ,
    CLASSICAL_40_2H_1H,
    CLASSICAL_60,
    CLASSICAL_90,
    PRESETS,
    RAPID,
    Period,
    TimeControl,
    TimeControlError,
    late_clock_allowance,
    minutes,
    seconds,
)


def test_presets_match_the_regulation() -> None:
    # TK-B3: blitz 7 min, rapid 20 min per player; TK-C4: classical examples.
    assert BLITZ.initial_ms == minutes(7) and BLITZ.periods == (Period(None, minutes(7)),)
    assert RAPID.initial_ms == minutes(20)
    assert CLASSICAL_60.total_ms == minutes(60)
    assert CLASSICAL_90.total_ms == minutes(90)
    assert CLASSICAL_40_2H_1H.periods == (Period(40, minutes(120)), Period(None, minutes(60)))
    assert set(PRESETS) == {"blitz", "rapid", "classical-60", "classical-90", "classical-40-2h-1h"}


def test_time_control_describes_itself() -> None:
    control = TimeControl.of(Period(40, minutes(90)), Period(None, minutes(30)), increment_ms=seconds(30))
    assert str(control) == "40 moves in 90 min, then the rest in 30 min + 30 s per move"
    assert str(TimeControl.sudden_death(minutes(5), delay_ms=seconds(5))) == "5 min for the game, 5 s delay"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: TimeControl(()), "at least one period"),
        (lambda: TimeControl.of(Period(None, minutes(60)), Period(None, minutes(30))), "needs a number of moves"),
        (lambda: TimeControl.of(Period(40, minutes(60))), "no move count"),
        (lambda: Period(None, 0), "positive time"),
        (lambda: Period(0, minutes(1)), "positive number of moves"),
        (lambda: TimeControl.sudden_death(minutes(5), increment_ms=1, delay_ms=1), "not both"),
        (lambda: TimeControl.sudden_death(minutes(5), increment_ms=-1), "cannot be negative"),
    ],
)
def test_unplayable_time_controls_are_refused(build: object, message: str) -> None:
    assert callable(build)
    with pytest.raises(TimeControlError, match=message):
        build()


def test_time_control_round_trips_through_a_dict() -> None:
    control = TimeControl.of(Period(40, minutes(120)), Period(None, minutes(60)), increment_ms=seconds(5))
    assert TimeControl.from_dict(control.to_dict()) == control


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"periods": "x"},
        {"periods": [{"moves": "40", "time_ms": 1}]},
        {"periods": [{"moves": None, "time_ms": 1000}], "increment_ms": "2"},
    ],
)
def test_malformed_time_control_dicts_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(TimeControlError):
        TimeControl.from_dict(data)


def test_late_clock_splits_the_rest_of_the_control_equally() -> None:
    # TK-C11: a 60-minute game played 40 minutes without a clock leaves 80 minutes for both: 40 each.
    assert late_clock_allowance(CLASSICAL_60, minutes(40)) == minutes(40)
    # Near the end each player still gets at least 15 minutes.
    assert late_clock_allowance(CLASSICAL_60, minutes(100)) == minutes(15)
    assert late_clock_allowance(CLASSICAL_60, minutes(100), minimum_ms=minutes(10)) == minutes(10)
    with pytest.raises(TimeControlError, match="negative"):
        late_clock_allowance(CLASSICAL_60, -1)
