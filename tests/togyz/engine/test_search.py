"""The search: forced wins, legal moves only, the same values as a brute-force minimax, limits, determinism."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.togyz import Position
from toreshi.togyz.engine.board import make, origins, state_of
from toreshi.togyz.engine.search import NATIVE, WIN, Iteration, Limits, Searcher, decided_in

from .helpers import brute_force, choices, play_out

CORES = [False, pytest.param(True, marks=pytest.mark.skipif(not NATIVE, reason="the C search is not built"))]


def fake_clock(step: float = 0.001) -> Callable[[], float]:
    """A fake clock: every call is ``step`` seconds after the previous one."""
    ticks = itertools.count()
    return lambda: next(ticks) * step


@pytest.mark.parametrize("native", CORES)
def test_a_capture_that_reaches_82_is_found_and_scored_as_a_win(native: bool) -> None:
    # White 74: hole 9's single kumalak lands in Black's hole 1 (7 → 8, even) and takes 8: 82. Other moves
    # take nothing that wins at once.
    position = Position.from_parts([2, 0, 1, 0, 0, 0, 0, 0, 1], [7, 1, 1, 0, 0, 3, 0, 0, 0], (74, 72))
    result = Searcher(fake_clock(), native=native).run(state_of(position), Limits(depth=4))
    assert result.best == 8
    assert result.score == WIN - 1
    assert decided_in(result.score) == 1


@pytest.mark.parametrize("native", CORES)
def test_a_tuzdyk_that_decides_is_found(native: bool) -> None:
    # White 79 and no tuzdyk: hole 8's four kumalaks end in Black's hole 2 (2 → 3): a tuzdyk, +3 = 82.
    # Hole 9's single kumalak would make Black's hole 1 odd (4 → 5) and take nothing.
    position = Position.from_parts([0, 0, 0, 0, 0, 0, 0, 4, 1], [4, 2, 0, 0, 0, 0, 0, 0, 0], (79, 72))
    result = Searcher(fake_clock(), native=native).run(state_of(position), Limits(depth=3))
    child = make(state_of(position), 7)
    assert child[20] == 10  # White's tuzdyk on Black's hole 2
    assert result.best == 7
    assert result.score == WIN - 1


def test_a_forced_win_two_moves_deep_agrees_with_brute_force() -> None:
    rng = random.Random(5)
    found = 0
    for _ in range(400):
        from .helpers import random_endgame

        state = random_endgame(rng, 7)
        value = brute_force(state, 3)
        if value > WIN - 1000 and WIN - value == 3:  # a win that needs three plies
            result = Searcher(fake_clock()).run(state, Limits(depth=3, spread=0))
            assert result.score == value
            assert brute_force(make(state, result.best), 2, 1) == -value
            found += 1
    assert found >= 3


@settings(max_examples=60, deadline=None)
@given(choices, st.booleans())
def test_the_search_returns_a_legal_move(picks: list[int], native: bool) -> None:
    position = play_out(picks)
    if position.is_game_over():
        return
    result = Searcher(fake_clock(), native=native and NATIVE).run(state_of(position), Limits(depth=3))
    assert result.best in origins(state_of(position))
    assert result.pv[0] == result.best
    state = state_of(position)
    for origin in result.pv:  # every move of the line is legal in turn
        assert origin in origins(state)
        state = make(state, origin)


@pytest.mark.parametrize("native", CORES)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_the_search_agrees_with_brute_force_minimax(depth: int, native: bool) -> None:
    rng = random.Random(depth)
    for _ in range(12):
        position = play_out([rng.randrange(9) for _ in range(rng.randrange(4, 120))])
        if position.is_game_over():
            continue
        state = state_of(position)
        expected = brute_force(state, depth)
        full = Searcher(fake_clock(), quiescence=False, native=native)
        plain = Searcher(fake_clock(), quiescence=False, table=False, ordering=False, aspiration=False, native=native)
        for searcher in (full, plain):
            result = searcher.run(state, Limits(depth=depth))
            assert result.score == expected, position
            assert -brute_force(make(state, result.best), depth - 1, 1) == expected


def test_a_time_limit_is_respected_on_the_injected_clock() -> None:
    clock = fake_clock(0.0005)  # the search looks at the clock every 512 nodes: 0.5 ms a look
    searcher = Searcher(clock)
    result = searcher.run(state_of(Position()), Limits(movetime=0.05))
    assert result.seconds <= 0.05 * 1.1
    assert result.depth >= 1
    assert result.stopped


def test_a_node_limit_and_the_stop_flag_end_the_search() -> None:
    result = Searcher(fake_clock()).run(state_of(Position()), Limits(nodes=3000))
    assert result.nodes <= 3000
    calls = itertools.count()
    stopped = Searcher(fake_clock(), stop=lambda: next(calls) >= 3).run(state_of(Position()), Limits(depth=30))
    assert stopped.stopped and stopped.depth < 30


def test_progress_reports_every_completed_depth() -> None:
    seen: list[Iteration] = []
    Searcher(fake_clock(), progress=seen.append).run(state_of(Position()), Limits(depth=5))
    assert [iteration.depth for iteration in seen] == [1, 2, 3, 4, 5]
    assert all(iteration.pv for iteration in seen)


def test_the_same_depth_gives_the_same_result() -> None:
    position = play_out([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7])
    first = Searcher(fake_clock()).run(state_of(position), Limits(depth=6))
    again = Searcher(time.perf_counter).run(state_of(position), Limits(depth=6))
    assert (first.best, first.score, first.pv, first.nodes) == (again.best, again.score, again.pv, again.nodes)


def test_one_loose_wall_clock_check() -> None:
    started = time.perf_counter()
    Searcher(time.perf_counter).run(state_of(Position()), Limits(movetime=0.2))
    assert time.perf_counter() - started < 0.2 * 1.5


@pytest.mark.parametrize("native", CORES)
def test_a_spread_scores_every_near_best_root_move_exactly(native: bool) -> None:
    position = play_out([4, 4, 2, 7, 1])
    state = state_of(position)
    result = Searcher(fake_clock(), quiescence=False, native=native).run(state, Limits(depth=3, spread=WIN))
    expected = {origin: -brute_force(make(state, origin), 2, 1) for origin in origins(state)}
    assert dict(result.root_scores) == expected
    assert [score for _, score in result.root_scores] == sorted(expected.values(), reverse=True)
