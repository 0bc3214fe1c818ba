"""Issue 28: every practice level answers within about a second, by a budget of nodes that holds whatever the clock.

Not a timed test (the machine is shared): it checks what bounds each level's search and that the search stops by
that bound. The reply times themselves are printed by ``benchmarks/engine_web.py``.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from toreshi.togyz import Position
from toreshi.togyz.engine import LEVELS, choose_move
from toreshi.togyz.engine.levels import MOVE_SECONDS

C_NODES_PER_SECOND = 1_500_000
"""A cautious speed of the C search on a loaded 2-core machine (benchmarks/engine.py measures about 2.2 million)."""
MIDDLEGAME = [7, 3, 9, 9, 2, 5, 6, 4, 1, 8, 3, 6, 5, 2]


def middlegame() -> Position:
    position = Position()
    for hole in MIDDLEGAME:
        position.play(hole)
    return position


@pytest.mark.parametrize("number", sorted(LEVELS))
def test_every_level_has_a_budget_of_about_a_second(number: int) -> None:
    level = LEVELS[number]
    assert level.limits.nodes == level.nodes and level.nodes <= MOVE_SECONDS * C_NODES_PER_SECOND * 2
    assert level.movetime is None or level.movetime <= MOVE_SECONDS
    if level.depth is not None:
        assert level.movetime is None  # a depth level replays from its seed: no clock decides its move


@pytest.mark.parametrize("number", sorted(LEVELS))
def test_a_level_stops_by_its_node_budget_when_the_clock_stands_still(number: int) -> None:
    # No depth and a clock that never moves: only the level's node budget can end the search.
    level = replace(LEVELS[number], depth=None)
    choice = choose_move(middlegame(), level, random.Random(number), clock=lambda: 0.0)
    assert choice.analysis.stopped and choice.analysis.nodes <= level.nodes
    assert 1 <= choice.hole <= 9


def test_the_levels_keep_their_order_of_strength() -> None:
    # Each level sees at least as deep and strays no further from its best move than the one below it.
    ordered = [LEVELS[number] for number in sorted(LEVELS)]
    for weaker, stronger in itertools.pairwise(ordered):
        assert stronger.spread <= weaker.spread and stronger.temperature <= weaker.temperature
        assert stronger.nodes >= weaker.nodes
        if weaker.depth is not None and stronger.depth is not None:
            assert stronger.depth > weaker.depth
        if weaker.movetime is not None and stronger.movetime is not None:
            assert stronger.movetime > weaker.movetime
