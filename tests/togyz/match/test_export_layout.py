"""The PGN's movetext is laid out like PlayOK's: numbered moves, lines filled up to the width and never past it."""

from __future__ import annotations

import itertools
import re

import pytest

from toreshi.clock import TimeControl, minutes
from toreshi.togyz.match.export import to_pgn

from .game_fixtures import play, playout, started

HOLES = playout(3)[:30]


def _movetext(columns: int) -> list[str]:
    game, _ = play(started(TimeControl.sudden_death(minutes(20))), HOLES, at=0, step=1_000)
    assert len(game.state.plies) == len(HOLES)
    text = to_pgn(game.state, columns=columns)
    return text.split("\n\n", 1)[1].strip().split("\n")


def _words(line: str) -> list[str]:
    """A clock comment (``{[%clk 0:19:59]}``) is one word, spaces and all."""
    return re.findall(r"\{[^}]*\}|\S+", line)


@pytest.mark.parametrize("columns", [24, 40, 80])
def test_lines_are_filled_up_to_the_width_and_never_past_it(columns: int) -> None:
    lines = _movetext(columns)
    assert all(len(line) <= columns for line in lines)
    for line, following in itertools.pairwise(lines):
        assert len(line) + 1 + len(_words(following)[0]) > columns  # the next word would not have fitted


def test_a_word_that_ends_exactly_at_the_width_stays_on_its_line() -> None:
    lines = _movetext(80)
    first = lines[0]
    exact = _movetext(len(first))
    assert exact[0] == first


def test_every_white_move_is_numbered_in_order() -> None:
    words = _words(" ".join(_movetext(80)))
    numbers = [word for word in words if word.endswith(".") and word[:-1].isdigit()]
    assert numbers == [f"{n}." for n in range(1, len(HOLES) // 2 + 1)]
    assert words.index("2.") > words.index("1.") + 1
