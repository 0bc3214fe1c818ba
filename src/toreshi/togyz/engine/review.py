"""Post-game review: the evaluation after every ply, White's expected-score curve and the worst moves.

Each position of the game is analysed once (the curve); a move other than the engine's choice is valued by
searching the position it led to one ply shallower, so that the best move's score and the played move's score
have the same horizon; the move's cost (for its player) is the difference. The worst moves are ranked by
how much of the mover's expected score they gave away (a slip in a decided game costs little), as 9qum.com's
review does; each comes with the better move and its line.

>>> import itertools
>>> ticks = itertools.count()
>>> result = review([7, 7, 2], Limits(depth=2), clock=lambda: next(ticks) / 1000)
>>> len(result.white_scores), len(result.moves)
(4, 3)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from toreshi.togyz.engine.analysis import Analysis, analyse, expected_score
from toreshi.togyz.engine.board import state_of, terminal_score
from toreshi.togyz.engine.search import WIN, Limits
from toreshi.togyz.fen import to_fen
from toreshi.togyz.notation import MoveToken, format_token
from toreshi.togyz.pgn import PgnGame
from toreshi.togyz.position import Position, Side
from toreshi.togyz.replay import start_position

__all__ = ["MoveReview", "Review", "review", "review_game"]

WORST_MOVES = 8


@dataclass(frozen=True)
class MoveReview:
    """One ply: who played what, what the engine preferred and what the move cost its player."""

    ply: int
    """1-based, counted from the review's start position."""
    side: Side
    hole: int
    token: str
    best_move: int
    best_line: tuple[str, ...]
    """The engine's line from the position before the move, as record tokens."""
    loss: int
    """Centi-kumalaks the move gave away against the best move (0 when it was the best)."""
    expectation_loss: float
    """The mover's expected score (0-1) given away."""


@dataclass(frozen=True)
class Review:
    start_fen: str
    white_scores: tuple[int, ...]
    """White's evaluation of the start position and after every ply (centi-kumalaks)."""
    white_expectation: tuple[float, ...]
    """White's expected score at the same points (the win-probability curve)."""
    moves: tuple[MoveReview, ...]
    worst: tuple[MoveReview, ...]
    """Up to eight moves that gave away the most expected score, worst first; only moves that cost something."""
    analyses: tuple[Analysis | None, ...]
    """The analysis of each position (``None`` once the game is over), for a board view beside the curve."""


def _white(score: int, side: Side) -> int:
    return score if side is Side.WHITE else -score


def review(
    moves: Sequence[int],
    limits: Limits,
    *,
    start: Position | None = None,
    clock: Callable[[], float],
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a game given as hole numbers from ``start`` (the initial position by default).

    ``progress(done, total)`` is called after each analysed position; raises ``IllegalMoveError`` (a
    ``ValueError``) on an illegal move.
    """
    position = (start or Position()).copy()
    start_fen = to_fen(position)
    boards = [position.copy()]
    played = []
    for hole in moves:
        played.append(position.play(hole))
        boards.append(position.copy())
    analyses: list[Analysis | None] = []
    white_scores: list[int] = []
    draws: list[bool] = []
    for index, board in enumerate(boards):
        finished = terminal_score(state_of(board))
        if finished is not None:
            analyses.append(None)
            white_scores.append(_white(finished * WIN, board.turn))
            draws.append(finished == 0)
        else:
            analysis = analyse(board, limits, clock=clock, stop=stop)
            analyses.append(analysis)
            white_scores.append(analysis.white_score)
            draws.append(analysis.draw)
        if progress is not None:
            progress(index + 1, len(boards))
    expectations = [expected_score(score, draw=draw) for score, draw in zip(white_scores, draws, strict=True)]
    reviewed = []
    for ply, (hole, facts) in enumerate(zip(moves, played, strict=True), start=1):
        before = analyses[ply - 1]
        assert before is not None  # a move was played from it, so the game was not over
        side = facts.side
        sign = 1 if side is Side.WHITE else -1
        best_value = sign * white_scores[ply - 1]
        played_value = sign * white_scores[ply]
        after = analyses[ply]
        if hole != before.best_move and after is not None and limits.depth is not None and limits.depth > 1:
            # The same horizon as the best move's score: the position after the move one ply shallower
            # (comparing depth d with depth d from one ply further on swings with who captures last).
            shallower = analyse(boards[ply], replace(limits, depth=limits.depth - 1), clock=clock, stop=stop)
            played_value = -shallower.score
        loss = 0 if hole == before.best_move else max(0, best_value - played_value)
        mover_before = expected_score(best_value, draw=draws[ply - 1])
        mover_after = expected_score(played_value, draw=draws[ply] and played_value == 0)
        expectation_loss = 0.0 if hole == before.best_move else max(0.0, mover_before - mover_after)
        reviewed.append(
            MoveReview(
                ply=ply,
                side=side,
                hole=hole,
                token=format_token(MoveToken.from_played(facts)),
                best_move=before.best_move,
                best_line=before.pv_tokens,
                loss=loss,
                expectation_loss=expectation_loss,
            )
        )
    costly = [move for move in reviewed if move.expectation_loss > 0 or move.loss > 0]
    costly.sort(key=lambda move: (-move.expectation_loss, -move.loss, move.ply))
    return Review(
        start_fen=start_fen,
        white_scores=tuple(white_scores),
        white_expectation=tuple(expectations),
        moves=tuple(reviewed),
        worst=tuple(costly[:WORST_MOVES]),
        analyses=tuple(analyses),
    )


def review_game(
    game: PgnGame,
    limits: Limits,
    *,
    clock: Callable[[], float],
    stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review a record read by :mod:`toreshi.togyz.pgn` (from its ``FEN`` tag or the initial position)."""
    return review(
        [move.hole for move in game.moves],
        limits,
        start=start_position(game),
        clock=clock,
        stop=stop,
        progress=progress,
    )
