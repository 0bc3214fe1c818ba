"""The C search (``_native.c``) against the pure-Python one: the same moves, the same evaluation, the same search."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings

from toreshi.togyz import Position
from toreshi.togyz.engine.board import make, origins, state_of
from toreshi.togyz.engine.evaluation import FEATURES, evaluate
from toreshi.togyz.engine.search import NATIVE, Limits, Searcher, _capture
from toreshi.togyz.engine.weights import WEIGHTS

from .helpers import choices, play_out

pytestmark = pytest.mark.skipif(not NATIVE, reason="the C search is not built (no C compiler at install time)")


def fake_clock() -> Callable[[], float]:
    ticks = itertools.count()
    return lambda: next(ticks) / 1000


@settings(max_examples=80, deadline=None)
@given(choices)
def test_moves_captures_and_evaluation_match_python(picks: list[int]) -> None:
    from toreshi.togyz.engine import _native

    _native.reset([WEIGHTS[name] for name in FEATURES], True, True, True, 10)
    state = state_of(Position())
    for pick in picks:
        moves = origins(state)
        if not moves:
            break
        assert _native.evaluate(state) == evaluate(state)
        for origin in moves:
            assert _native.capture(state, origin) == _capture(state, origin)
            assert _native.make(state, origin) == make(state, origin)
        state = make(state, moves[pick % len(moves)])


@pytest.mark.parametrize("seed", range(6))
def test_without_a_table_both_searches_visit_the_same_nodes(seed: int) -> None:
    rng = random.Random(seed)
    position = play_out([rng.randrange(9) for _ in range(rng.randrange(0, 90))])
    if position.is_game_over():
        return
    state = state_of(position)
    results = [
        Searcher(fake_clock(), table=False, native=native).run(state, Limits(depth=5, spread=300))
        for native in (False, True)
    ]
    python, native = results
    assert (native.best, native.score, native.pv, native.nodes, native.root_scores) == (
        python.best,
        python.score,
        python.pv,
        python.nodes,
        python.root_scores,
    )


@pytest.mark.parametrize("seed", range(6))
def test_with_the_table_both_searches_agree_on_move_and_score(seed: int) -> None:
    rng = random.Random(100 + seed)
    position = play_out([rng.randrange(9) for _ in range(rng.randrange(0, 90))])
    if position.is_game_over():
        return
    state = state_of(position)
    python = Searcher(fake_clock(), native=False).run(state, Limits(depth=5))
    native = Searcher(fake_clock(), native=True).run(state, Limits(depth=5))
    assert (native.best, native.score) == (python.best, python.score)


def test_the_c_search_reads_the_clock_and_the_stop_flag() -> None:
    calls = itertools.count()
    stopped = Searcher(fake_clock(), stop=lambda: next(calls) >= 5, native=True).run(
        state_of(Position()), Limits(depth=40)
    )
    assert stopped.stopped and stopped.depth < 40
    timed = Searcher(fake_clock(), native=True).run(state_of(Position()), Limits(movetime=0.05))
    assert timed.seconds <= 0.05 * 1.1 and timed.stopped


def test_a_failing_clock_raises_from_the_c_search() -> None:
    calls = itertools.count()

    def broken() -> float:  # fine for the driver's first looks, then fails inside the C search
        if next(calls) >= 2:
            raise ZeroDivisionError
        return 0.0

    searcher = Searcher(broken, native=True)
    with pytest.raises(ZeroDivisionError):
        searcher.run(state_of(Position()), Limits(movetime=1.0))


def test_a_search_started_inside_a_running_c_search_uses_python() -> None:
    inner: list[int] = []

    def progress(_: object) -> None:  # a callback that searches: the C search is busy, so Python runs it
        inner.append(Searcher(fake_clock()).run(state_of(Position()), Limits(depth=2)).best)

    outer = Searcher(fake_clock(), progress=progress, native=True)
    result = outer.run(state_of(Position()), Limits(depth=4))
    again = Searcher(fake_clock(), native=True).run(state_of(Position()), Limits(depth=4))
    assert len(inner) == 4 and outer.native
    assert (result.best, result.score, result.nodes) == (again.best, again.score, again.nodes)
