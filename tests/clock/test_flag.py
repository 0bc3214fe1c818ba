from __future__ import annotations

from toreshi.clock import CLASSICAL_40_2H_1H, FlagMode, GameClock, Period, TimeControl, check_required_moves
from toreshi.togyz import BLACK, WHITE


def test_flag_check_reports_the_period_and_moves_made() -> None:
    # TK-C13: at a flag fall the arbiter checks whether the required number of moves was made.
    clock = GameClock.new(CLASSICAL_40_2H_1H).start(now_ms=0)
    now = 0
    for _ in range(12):
        now += 1000
        clock = clock.press(WHITE, now_ms=now).clock.press(BLACK, now_ms=now).clock
    check = check_required_moves(clock, WHITE)
    assert (check.period, check.moves_required, check.moves_made) == (1, 40, 12)
    assert not check.required_moves_made


def test_final_period_has_no_requirement() -> None:
    clock = GameClock.new(TimeControl.of(Period(1, 1000), Period(None, 1000))).start(now_ms=0)
    clock = clock.press(WHITE, now_ms=10).clock
    check = check_required_moves(clock, WHITE)
    assert (check.period, check.moves_required, check.required_moves_made) == (2, None, False)


def test_flag_modes_name_the_clauses() -> None:
    # TK-B9 (claimed), TK-B10 (automatic at 00:00).
    assert {mode.value for mode in FlagMode} == {"automatic", "claim"}
