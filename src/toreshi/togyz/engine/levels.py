"""Practice levels: a depth or time limit plus controlled randomness among the near-best moves.

A level searches with ``Limits.spread`` so that every root move within ``spread`` centi-kumalaks of the best
gets an exact score, then draws one of them with weights ``exp(-(best - score) / temperature)``: a weak level
sees little and often prefers a merely good move, the strongest always plays its best move. The random
generator is passed in, so a game against a level replays exactly from its seed (with a depth-limited level,
or with a time-limited one and the same injected clock).

>>> import itertools, random
>>> from toreshi.togyz import Position
>>> ticks = itertools.count()
>>> choice = choose_move(Position(), LEVELS[1], random.Random(7), clock=lambda: next(ticks) / 1000)
>>> choice.hole in range(1, 10)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from toreshi.togyz.engine.analysis import Analysis, analyse
from toreshi.togyz.engine.search import Limits
from toreshi.togyz.position import Position

__all__ = ["LEVELS", "Choice", "Level", "choose_move"]


@dataclass(frozen=True)
class Level:
    """A practice partner's strength: how far it looks and how freely it strays from its best move."""

    number: int
    depth: int | None
    movetime: float | None
    spread: int
    """Moves within this many centi-kumalaks of the best are candidates."""
    temperature: int
    """Centi-kumalaks per factor e in the candidates' weights (0: always the best)."""
    nodes: int
    """The most nodes the level's search (and its endgame solver) may visit, whatever its depth or its clock:
    a depth that happens to be costly in some position, or a clock that does not advance, still ends in about a
    second (the C search visits about 2 million nodes a second, the pure-Python one and the solver some 50 000)."""

    @property
    def limits(self) -> Limits:
        return Limits(depth=self.depth, movetime=self.movetime, nodes=self.nodes, spread=self.spread)


LEVELS: dict[int, Level] = {
    level.number: level
    for level in (
        Level(1, depth=1, movetime=None, spread=1500, temperature=600, nodes=5_000),
        Level(2, depth=2, movetime=None, spread=900, temperature=300, nodes=10_000),
        Level(3, depth=4, movetime=None, spread=500, temperature=150, nodes=20_000),
        Level(4, depth=6, movetime=None, spread=200, temperature=60, nodes=40_000),
        Level(5, depth=None, movetime=0.5, spread=60, temperature=20, nodes=1_500_000),
        Level(6, depth=None, movetime=0.9, spread=0, temperature=0, nodes=2_500_000),
    )
}
"""Levels 1 (a beginner) to 6 (the engine at full strength, under a second a move): every level answers within
about a second (issue 28). Levels 1-4 are bounded by depth and nodes only (no clock), so a game against them
replays exactly from its seed. Their strengths are measured in ``benchmarks/engine.py`` (a match between levels
and against a one-ply greedy player), their reply times in ``benchmarks/engine_web.py``."""

MOVE_SECONDS = 1.0
"""What a practice partner's reply may take on a 2-core club server, search and endgame solver together."""


@dataclass(frozen=True)
class Choice:
    hole: int
    analysis: Analysis
    candidates: tuple[tuple[int, int], ...]
    """``(hole, score)`` of the moves the level chose among, best first."""


def choose_move(
    position: Position,
    level: Level,
    rng: random.Random,
    *,
    clock: Callable[[], float],
    stop: Callable[[], bool] | None = None,
) -> Choice:
    """The level's move in ``position`` (which must not be finished)."""
    analysis = analyse(position, level.limits, clock=clock, stop=stop)
    best = analysis.score
    candidates = tuple((hole, score) for hole, score in analysis.root_scores if score >= best - level.spread) or (
        (analysis.best_move, best),
    )
    if level.temperature <= 0 or len(candidates) == 1 or analysis.decided_in is not None:
        return Choice(candidates[0][0], analysis, candidates)
    weights = [math.exp(-(best - score) / level.temperature) for _, score in candidates]
    hole = rng.choices([hole for hole, _ in candidates], weights=weights)[0]
    return Choice(hole, analysis, candidates)
