"""``analyse``: the engine's verdict on one position, in the terms of the records (hole numbers, move tokens).

Everything here is picklable (positions, limits, results; the clock may be ``time.monotonic``), so a web layer
can run :func:`analyse` in a process pool without blocking its event loop.

>>> import itertools
>>> from toreshi.togyz import Position
>>> ticks = itertools.count()
>>> result = analyse(Position(), Limits(depth=3), clock=lambda: next(ticks) / 1000)
>>> result.depth, result.best_move in range(1, 10), len(result.pv) >= 1
(3, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from toreshi.togyz.engine.board import State, state_of
from toreshi.togyz.engine.endgame import ENDGAME_KUMALAKS, ENDGAME_NODES, board_kumalaks, solve
from toreshi.togyz.engine.search import WIN, Iteration, Limits, Searcher, decided_in
from toreshi.togyz.engine.weights import SEARCH_LOGIT_PER_CENTI
from toreshi.togyz.fen import to_fen
from toreshi.togyz.notation import MoveToken, format_token
from toreshi.togyz.position import HOLES, Position, Side

__all__ = ["Analysis", "Limits", "analyse", "expected_score", "line_tokens"]


@dataclass(frozen=True)
class Analysis:
    """The search's verdict; moves are hole numbers (1-9) of the side to move, scores centi-kumalaks.

    ``score`` is for the side to move, ``white_score`` the same for White. ``decided_in`` is set when the
    result is certain: plies until the game is over or decided (positive when the side to move wins).
    ``white_expectation`` is White's expected score (1 win, ½ draw, 0 loss), calibrated on the PlayOK games.
    """

    fen: str
    best_move: int
    score: int
    white_score: int
    decided_in: int | None
    draw: bool
    pv: tuple[int, ...]
    pv_tokens: tuple[str, ...]
    depth: int
    nodes: int
    seconds: float
    solved: bool
    """True when the endgame solver proved the result (the line is then only its first move)."""
    stopped: bool
    root_scores: tuple[tuple[int, int], ...] = ()
    """``(hole, score)`` of the root moves scored exactly (see ``Limits.spread``), best first."""

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    @property
    def white_expectation(self) -> float:
        return expected_score(self.white_score, draw=self.draw)


def expected_score(score: int, *, draw: bool = False) -> float:
    """The expected game score for the player a search ``score`` is for: a logistic curve fitted on the corpus
    (``weights.SEARCH_LOGIT_PER_CENTI``); a certain result is 1 or 0, a proven draw ½."""
    if draw:
        return 0.5
    if decided_in(score) is not None:
        return 1.0 if score > 0 else 0.0
    return 1.0 / (1.0 + math.exp(-SEARCH_LOGIT_PER_CENTI * score))


def line_tokens(position: Position, holes: tuple[int, ...]) -> tuple[str, ...]:
    """The canonical record tokens of a line of hole numbers from ``position`` (stops at an illegal move)."""
    board = position.copy()
    tokens = []
    for hole in holes:
        if not board.is_legal(hole):
            break
        tokens.append(format_token(MoveToken.from_played(board.play(hole))))
    return tuple(tokens)


def _hole(origin: int) -> int:
    return origin % HOLES + 1


def analyse(
    position: Position,
    limits: Limits,
    *,
    clock: Callable[[], float],
    stop: Callable[[], bool] | None = None,
    progress: Callable[[Iteration], None] | None = None,
    endgame: bool = True,
) -> Analysis:
    """Search ``position`` (not finished) within ``limits``.

    With at most ``ENDGAME_KUMALAKS`` on the board the endgame solver tries first, within a node budget; a
    proven result is returned as such. ``progress`` gets each completed depth; ``stop`` returning True ends
    the search with the last completed depth.
    """
    state = state_of(position)
    started = clock()
    if endgame and board_kumalaks(state) <= ENDGAME_KUMALAKS:
        budget = ENDGAME_NODES if limits.nodes is None else min(ENDGAME_NODES, limits.nodes)
        if limits.depth is not None:  # a shallow search (a weak level) gets no deep endgame knowledge either
            budget = min(budget, 500 * 3**limits.depth)
        if limits.movetime is not None:
            budget = min(budget, max(1_000, int(limits.movetime * 100_000)))
        solution = solve(state, budget)
        if solution is not None:
            score = 0 if solution.result == 0 else solution.result * (WIN - solution.plies)
            move = _hole(solution.best)
            return _verdict(
                position,
                state,
                score,
                solution.result == 0,
                (move,),
                solution.plies,
                solution.nodes,
                clock() - started,
                solved=True,
                stopped=False,
                root_scores=((move, score),),
            )
        if limits.movetime is not None:  # the solver's time counts against the limit
            limits = replace(limits, movetime=max(limits.movetime - (clock() - started), 0.001))
    result = Searcher(clock, stop, progress).run(state, limits)
    holes = tuple(_hole(origin) for origin in result.pv)
    if not holes or holes[0] != _hole(result.best):  # a line cut short by the table: keep the move
        holes = (_hole(result.best),)
    return _verdict(
        position,
        state,
        result.score,
        False,
        holes,
        result.depth,
        result.nodes,
        clock() - started,
        solved=False,
        stopped=result.stopped,
        root_scores=tuple((_hole(origin), score) for origin, score in result.root_scores),
    )


def _verdict(
    position: Position,
    state: State,
    score: int,
    draw: bool,
    holes: tuple[int, ...],
    depth: int,
    nodes: int,
    seconds: float,
    *,
    solved: bool,
    stopped: bool,
    root_scores: tuple[tuple[int, int], ...],
) -> Analysis:
    tokens = line_tokens(position, holes)
    white = score if state[22] == Side.WHITE else -score
    return Analysis(
        fen=to_fen(position),
        best_move=holes[0],
        score=score,
        white_score=white,
        decided_in=decided_in(score),
        draw=draw,
        pv=holes[: len(tokens)],
        pv_tokens=tokens,
        depth=depth,
        nodes=nodes,
        seconds=seconds,
        solved=solved,
        stopped=stopped,
        root_scores=root_scores,
    )
