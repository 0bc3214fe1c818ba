"""Fair-play figures: the engine's own moves match it every time and lose nothing; the worst moves do not; book
plies, forced moves and decided positions are not counted; the field and the outliers."""

from __future__ import annotations

import itertools
import time

from toreshi.togyz.engine import Limits, analyse
from toreshi.togyz.engine.fairplay import (
    BOOK_PLIES,
    MIN_MOVES,
    GameFigures,
    SideFigures,
    game_figures,
    outliers,
    summarise,
)
from toreshi.togyz.position import Position

LIMITS = Limits(depth=3)
PLIES = 30


def _clock() -> float:
    return time.monotonic()


def _engine_game(plies: int) -> list[int]:
    """A game in which every move is the engine's first choice at LIMITS."""
    position, moves = Position(), list[int]()
    while len(moves) < plies and not position.is_game_over():
        best = analyse(position, LIMITS, clock=_clock).best_move
        position.play(best)
        moves.append(best)
    return moves


def _worst_game(plies: int) -> list[int]:
    """A game in which, after the book, every move is the one the engine scores lowest among the legal ones."""
    position, moves = Position(), list[int]()
    while len(moves) < plies and not position.is_game_over():
        legal = position.legal_moves()
        if len(moves) < BOOK_PLIES:
            hole = legal[0]
        else:
            scores = {}
            for candidate in legal:
                after = position.copy()
                after.play(candidate)
                scores[candidate] = 0 if after.is_game_over() else -analyse(after, LIMITS, clock=_clock).score
            hole = min(scores, key=lambda h: (scores[h], h))
        position.play(hole)
        moves.append(hole)
    return moves


def test_the_engines_own_moves_all_match_and_lose_nothing() -> None:
    moves = _engine_game(PLIES)
    figures = game_figures(moves, LIMITS, clock=_clock)
    both = figures.white + figures.black
    assert 0 < both.moves <= len(moves) - BOOK_PLIES  # the book plies are not counted
    assert both.matches == both.moves and both.loss == 0 and both.share == 1.0 and both.average_loss == 0.0
    assert figures.plies == len(moves)


def test_the_worst_moves_rarely_match_and_lose_kumalaks() -> None:
    figures = game_figures(_worst_game(PLIES), LIMITS, clock=_clock)
    both = figures.white + figures.black
    assert both.moves > 0 and both.share is not None and both.share < 0.5
    assert both.average_loss is not None and both.average_loss > 0


def test_book_plies_and_forced_moves_are_not_counted() -> None:
    moves = _engine_game(BOOK_PLIES)
    figures = game_figures(moves, LIMITS, clock=_clock)
    assert figures.white == figures.black == SideFigures()  # all book
    ticks = itertools.count()
    counted = game_figures(_engine_game(BOOK_PLIES + 4), LIMITS, clock=lambda: next(ticks) / 1e6)
    assert (counted.white + counted.black).moves <= 4


def _game(white: SideFigures, black: SideFigures) -> GameFigures:
    return GameFigures(white, black, 60, 1.0)


def test_the_field_and_the_outliers() -> None:
    ordinary = SideFigures(MIN_MOVES, MIN_MOVES // 2, 300 * MIN_MOVES)
    games = [("A", "B", _game(ordinary, ordinary)), ("C", "D", _game(ordinary, SideFigures(MIN_MOVES, 11, 0))),
             ("E", "F", _game(ordinary, SideFigures(MIN_MOVES, 9, 0))),
             ("G", "H", _game(SideFigures(MIN_MOVES, MIN_MOVES, 0), SideFigures(5, 5, 0)))]  # fmt: skip
    players, field = summarise(games)
    assert field.moves == 7 * MIN_MOVES + 5 and field.matches == 4 * (MIN_MOVES // 2) + 11 + 9 + MIN_MOVES + 5
    assert {key for key, figures in players.items() if figures.outlier} == {"G"}  # H: too few moves to compare
    assert players["A"].games == 1 and players["A"].figures == ordinary
    assert outliers({"a": 0.5, "b": 0.5, "c": 0.5}) == set()  # too small a field
    assert outliers({"a": 0.5, "b": 0.5, "c": 0.5, "d": 0.5}) == set()  # no spread
