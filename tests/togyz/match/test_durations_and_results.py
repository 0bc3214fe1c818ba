"""Durations as the dials show them (rounded up to the second), and which result a win or a forfeit gives."""

from __future__ import annotations

import pytest

from toreshi.togyz import BLACK, WHITE
from toreshi.togyz.match.game import format_seconds
from toreshi.togyz.match.result import GameResult


@pytest.mark.parametrize(
    ("ms", "shown"),
    [
        (-5, "0:00"),
        (0, "0:00"),
        (1, "0:01"),
        (1_000, "0:01"),
        (1_001, "0:02"),
        (59_999, "1:00"),
        (600_000, "10:00"),
        (3_599_001, "1:00:00"),
        (3_600_000, "1:00:00"),
        (36_000_000, "10:00:00"),
    ],
)
def test_a_duration_is_shown_to_the_second_above(ms: int, shown: str) -> None:
    assert format_seconds(ms) == shown


def test_a_win_and_a_forfeit_win_go_to_the_side_named() -> None:
    assert (GameResult.win_for(WHITE), GameResult.win_for(BLACK)) == (GameResult.WHITE_WINS, GameResult.BLACK_WINS)
    assert (GameResult.forfeit_win_for(WHITE), GameResult.forfeit_win_for(BLACK)) == (
        GameResult.WHITE_FORFEIT_WIN,
        GameResult.BLACK_FORFEIT_WIN,
    )
