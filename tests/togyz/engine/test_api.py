"""The API the web layer calls: analyse, review, choose_move; picklable, deterministic for a seed and depth."""

from __future__ import annotations

import itertools
import pickle
import random
from collections.abc import Callable

import pytest

from toreshi.togyz import Position
from toreshi.togyz.engine import LEVELS, Limits, analyse, choose_move, expected_score, review, review_game
from toreshi.togyz.engine.board import position_of
from toreshi.togyz.engine.search import WIN
from toreshi.togyz.pgn import read_game

from .helpers import play_out


def fake_clock() -> Callable[[], float]:
    ticks = itertools.count()
    return lambda: next(ticks) / 1000


def test_analyse_gives_a_legal_line_and_pickles() -> None:
    position = play_out([2, 7, 1, 8, 2, 8])
    result = analyse(position, Limits(depth=4), clock=fake_clock())
    assert result.best_move in position.legal_moves()
    assert result.pv[0] == result.best_move and len(result.pv_tokens) == len(result.pv)
    assert result.depth == 4 and result.nodes > 0
    assert pickle.loads(pickle.dumps(result)) == result
    assert pickle.loads(pickle.dumps((position, Limits(depth=4)))) == (position, Limits(depth=4))
    white = result.score if position.turn == 0 else -result.score
    assert result.white_score == white
    assert 0 < result.white_expectation < 1


def test_a_small_endgame_is_solved() -> None:
    # White 80: hole 9's kumalak makes Black's hole 1 even (1 → 2) and takes it: 82.
    position = Position.from_parts([0] * 8 + [1], [1] + [0] * 8, (80, 80))
    result = analyse(position, Limits(depth=2), clock=fake_clock())
    assert result.solved and result.best_move == 9 and result.decided_in == 1
    assert result.score == WIN - 1 and result.white_expectation == 1.0


def test_expected_score_is_a_monotone_curve() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(500) > 0.5 > expected_score(-500)
    assert expected_score(WIN - 3) == 1.0 and expected_score(0, draw=True) == 0.5


def test_choose_move_is_legal_and_repeats_for_a_seed() -> None:
    position = play_out([5, 3, 8, 1])
    picks = {choose_move(position, LEVELS[2], random.Random(seed), clock=fake_clock()).hole for seed in range(12)}
    assert picks <= set(position.legal_moves())
    assert len(picks) > 1  # a weak level does not always play the same move
    again = [choose_move(position, LEVELS[2], random.Random(4), clock=fake_clock()).hole for _ in range(3)]
    assert len(set(again)) == 1
    strongest = choose_move(position, LEVELS[4], random.Random(1), clock=fake_clock())
    assert strongest.candidates[0][1] == strongest.analysis.score


def test_a_level_chooses_only_among_near_best_moves() -> None:
    position = play_out([1, 1, 4, 2])
    level = LEVELS[3]
    choice = choose_move(position, level, random.Random(9), clock=fake_clock())
    best = choice.analysis.score
    assert all(score >= best - level.spread for _, score in choice.candidates)
    assert choice.hole in {hole for hole, _ in choice.candidates}


def test_review_finds_a_blunder() -> None:
    # From the start, White's 1 (19) is the only opening move that takes nothing: it must cost something.
    result = review([1, 7, 7], Limits(depth=3), clock=fake_clock())
    assert len(result.white_scores) == len(result.white_expectation) == 4
    first = result.moves[0]
    assert first.hole == 1 and first.best_move != 1 and first.loss > 0
    assert first in result.worst
    assert result.worst == tuple(sorted(result.worst, key=lambda move: -move.expectation_loss))
    assert pickle.loads(pickle.dumps(result)) == result


def test_review_game_reads_a_record_and_reports_progress() -> None:
    import io

    game = read_game(io.StringIO("1. 76(10) 98 2. 11 1-0\n"))
    assert game is not None
    seen: list[tuple[int, int]] = []
    result = review_game(
        game, Limits(depth=2), clock=fake_clock(), progress=lambda done, total: seen.append((done, total))
    )
    assert [move.token for move in result.moves] == ["76(10)", "98", "11"]
    assert seen[-1] == (4, 4)


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="depth"):
        Limits(depth=0)
    with pytest.raises(ValueError, match="movetime"):
        Limits(movetime=-1)


def test_analyse_keeps_to_the_time_limit_in_endgames() -> None:
    from .helpers import random_endgame

    rng = random.Random(2)
    for _ in range(5):
        position = position_of(random_endgame(rng, 12))
        result = analyse(position, Limits(movetime=0.2), clock=fake_clock())
        assert result.seconds <= 0.2 * 1.1
