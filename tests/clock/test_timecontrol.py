from __future__ import annotations

from collections.abc import Callable

import pytest

from toreshi.clock import (
    BLITZ,
    CLASSICAL_40_2H_1H,
    CLASSICAL_60,
    CLASSICAL_90,
    PRESETS,
    RAPID,
    ClockCode,
    Period,
    TimeControl,
    late_clock_allowance,
    minutes,
    seconds,
)
from toreshi.kit.refusal import ParamValue, Refused


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
    ("build", "code", "params"),
    [
        (lambda: TimeControl(()), ClockCode.NO_PERIOD, {}),
        (
            lambda: TimeControl.of(Period(None, minutes(60)), Period(None, minutes(30))),
            ClockCode.PERIOD_NEEDS_MOVES,
            {"period": 1},
        ),
        (lambda: TimeControl.of(Period(40, minutes(60))), ClockCode.FINAL_PERIOD_HAS_MOVES, {}),
        (lambda: Period(None, 0), ClockCode.PERIOD_TIME_NOT_POSITIVE, {}),
        (lambda: Period(0, minutes(1)), ClockCode.PERIOD_MOVES_NOT_POSITIVE, {}),
        (
            lambda: TimeControl.sudden_death(minutes(5), increment_ms=1, delay_ms=1),
            ClockCode.INCREMENT_AND_DELAY,
            {"clause": "TK-C4"},
        ),
        (lambda: TimeControl.sudden_death(minutes(5), increment_ms=-1), ClockCode.NEGATIVE_INCREMENT, {}),
    ],
)
def test_unplayable_time_controls_are_refused(
    build: Callable[[], object], code: ClockCode, params: dict[str, ParamValue]
) -> None:
    with pytest.raises(Refused) as refused:
        build()
    assert (refused.value.refusal.code, dict(refused.value.params)) == (code, params)


def test_time_control_as_a_dict() -> None:
    control = TimeControl.of(Period(40, minutes(120)), Period(None, minutes(60)), increment_ms=seconds(5))
    assert control.to_dict() == {
        "periods": [{"moves": 40, "time_ms": minutes(120)}, {"moves": None, "time_ms": minutes(60)}],
        "increment_ms": 5_000,
        "delay_ms": 0,
    }


def test_late_clock_splits_the_rest_of_the_control_equally() -> None:
    # TK-C11: a 60-minute game played 40 minutes without a clock leaves 80 minutes for both: 40 each.
    assert late_clock_allowance(CLASSICAL_60, minutes(40)) == minutes(40)
    # Near the end each player still gets at least 15 minutes.
    assert late_clock_allowance(CLASSICAL_60, minutes(100)) == minutes(15)
    assert late_clock_allowance(CLASSICAL_60, minutes(100), minimum_ms=minutes(10)) == minutes(10)
    with pytest.raises(Refused) as refused:
        late_clock_allowance(CLASSICAL_60, -1)
    assert refused.value.refusal.code is ClockCode.NEGATIVE_ELAPSED
