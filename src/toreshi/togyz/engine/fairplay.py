"""Fair-play figures: how often a player's moves were the engine's first choice, and what they cost on average.

A game's figures come from the post-game review (:func:`~toreshi.togyz.engine.review.review`: the same searches,
so one game costs what its review costs). Not every move says something about the player: the first
:data:`BOOK_PLIES` plies (the openings every player knows), forced moves (one legal move) and moves played once the
result was certain (the engine's score proves a win or a loss, or the endgame solver proved it) are left out.
For the moves counted, per side: how many, how many equal the engine's first choice, and the kumalaks they gave
away against it (the review's ``loss``, centi-kumalaks).

:func:`summarise` adds the games of each player, the same figures for the whole field, and marks the players
whose share of the engine's moves stands out (:func:`outliers`) — for a human to look at, never a verdict: a
strong player plays many engine moves, a short game says little, and the engine at this depth is not perfect.

>>> import itertools
>>> ticks = itertools.count()
>>> figures = game_figures([7, 7, 2, 3, 9, 1, 5, 4, 6, 8, 2, 3], Limits(depth=2), clock=lambda: next(ticks) / 1e6)
>>> figures.white.moves + figures.black.moves  # 12 plies, the first 8 of them book-like
4
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from toreshi.togyz.engine.review import review
from toreshi.togyz.engine.search import Limits
from toreshi.togyz.position import Position, Side

__all__ = [
    "BOOK_PLIES",
    "MIN_MOVES",
    "GameFigures",
    "PlayerFigures",
    "SideFigures",
    "game_figures",
    "outliers",
    "summarise",
]

BOOK_PLIES = 8
"""The opening plies (four moves each) that are not counted: book-like, every club player knows them."""
MIN_MOVES = 20
"""Counted moves a player needs before the report compares them with the field."""
OUTLIER_SPREAD = 2.0
"""A player stands out whose share of engine moves is this many standard deviations above the field's."""
MIN_FIELD = 4
"""Players (with :data:`MIN_MOVES`) the field needs before anyone is compared with it."""

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class SideFigures:
    """One player's counted moves: how many, how many equal the engine's first choice, their total loss."""

    moves: int = 0
    matches: int = 0
    loss: int = 0
    """Centi-kumalaks given away against the engine's first choice, over the counted moves."""

    def __add__(self, other: SideFigures) -> SideFigures:
        return SideFigures(self.moves + other.moves, self.matches + other.matches, self.loss + other.loss)

    @property
    def share(self) -> float | None:
        """The share (0-1) of counted moves equal to the engine's first choice; None without a counted move."""
        return self.matches / self.moves if self.moves else None

    @property
    def average_loss(self) -> float | None:
        """Kumalaks given away per counted move; None without a counted move."""
        return self.loss / self.moves / 100 if self.moves else None


@dataclass(frozen=True)
class GameFigures:
    white: SideFigures
    black: SideFigures
    plies: int
    seconds: float
    """Engine seconds the game took (the clock given)."""


def game_figures(
    moves: Sequence[int],
    limits: Limits,
    *,
    clock: Callable[[], float],
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameFigures:
    """The figures of a game given as hole numbers from the initial position (reviewed within ``limits``)."""
    started = clock()
    result = review(moves, limits, clock=clock, stop=stop, progress=progress)
    position = Position()
    sides = {Side.WHITE: SideFigures(), Side.BLACK: SideFigures()}
    for move, before in zip(result.moves, result.analyses, strict=False):
        forced = len(position.legal_moves()) == 1
        position.play(move.hole)
        if move.ply <= BOOK_PLIES or forced or before is None or before.decided_in is not None or before.solved:
            continue
        matched = move.hole == move.best_move
        sides[move.side] += SideFigures(1, int(matched), move.loss)
    return GameFigures(sides[Side.WHITE], sides[Side.BLACK], len(moves), clock() - started)


@dataclass(frozen=True)
class PlayerFigures:
    """A player's figures over the games of the report (``games``: how many had a counted move)."""

    games: int
    figures: SideFigures
    outlier: bool = False


def outliers(shares: Mapping[K, float]) -> set[K]:
    """The keys whose share is :data:`OUTLIER_SPREAD` standard deviations above the mean of ``shares`` (none
    when fewer than :data:`MIN_FIELD` are given, or when they do not spread)."""
    if len(shares) < MIN_FIELD:
        return set()
    mean = statistics.fmean(shares.values())
    spread = statistics.pstdev(shares.values())
    if spread <= 0 or math.isnan(spread):
        return set()
    return {key for key, share in shares.items() if share - mean >= OUTLIER_SPREAD * spread}


def summarise(games: Sequence[tuple[K, K, GameFigures]]) -> tuple[dict[K, PlayerFigures], SideFigures]:
    """Per player (White's key, Black's key, the game's figures): the totals and whether the player stands out
    among those with :data:`MIN_MOVES` counted moves; and the field's totals."""
    totals: dict[K, SideFigures] = {}
    counts: dict[K, int] = {}
    for white, black, figures in games:
        for key, side in ((white, figures.white), (black, figures.black)):
            totals[key] = totals.get(key, SideFigures()) + side
            counts[key] = counts.get(key, 0) + (1 if side.moves else 0)
    shares = {key: figures.matches / figures.moves for key, figures in totals.items() if figures.moves >= MIN_MOVES}
    marked = outliers(shares)
    field = sum(totals.values(), SideFigures())
    return {key: PlayerFigures(counts[key], totals[key], key in marked) for key in totals}, field
