"""Exact endgames: with few kumalaks on the board, prove the result (win, draw or loss) to the end of the game.

The solver is an iterative-deepening AND/OR search on game results only (no evaluation): at depth ``d`` it
proves a win when the side to move can force the end of the game — a kazan at 82, an atsyz ending, or a
*decided* position where the other player can no longer reach 82 — within ``d`` plies, a loss when every move
loses within ``d``, and a draw when every line within ``d`` ends and none better than 81:81 can be forced.
A position is unresolved at ``d`` when some line is still going on; togyz has no repetition rule, so kumalaks
can circle for ever and a few positions are never resolved: the solver then gives up at its node budget and
the evaluation-based search takes over. Depth-limited proofs depend only on the state and the depth, so the
memo is exact (no path dependence).

The number of kumalaks on the board at which solving pays, and the budget, were decided by measurement
(``docs/decisions.md``, "Togyz engine").

>>> from toreshi.togyz import Position
>>> solved = solve(state_of(Position.from_parts([0] * 8 + [1], [1] + [0] * 8, (80, 80))), 10_000)
>>> solved is not None and (solved.result, solved.plies, solved.best)
(1, 1, 8)
"""

from __future__ import annotations

from dataclasses import dataclass

from toreshi.togyz.engine.board import State, capture_of, make, origins, state_of, terminal_score

ENDGAME_KUMALAKS = 12
"""At most this many kumalaks on the board: the search asks the solver first (measured, see the decisions)."""
ENDGAME_NODES = 50_000
"""The solver's default node budget."""

__all__ = ["ENDGAME_KUMALAKS", "ENDGAME_NODES", "Solution", "board_kumalaks", "solve", "state_of"]


@dataclass(frozen=True)
class Solution:
    """A proven result for the side to move: +1 win, 0 draw, -1 loss, within ``plies``; ``best`` a move that
    achieves it (a ring index; for a loss, the move that resists longest), ``nodes`` the positions visited."""

    result: int
    plies: int
    best: int
    nodes: int


class _BudgetSpentError(Exception):
    pass


def board_kumalaks(s: State) -> int:
    return 162 - s[18] - s[19]


def _settled(s: State) -> int | None:
    """The result for the side to move if the game is over or decided, else ``None``."""
    finished = terminal_score(s)
    if finished is not None:
        return finished
    me = s[22]
    board = board_kumalaks(s)
    if s[19 - me] + board < 81:
        return 1
    if s[18 + me] + board < 81:
        return -1
    return None


class _Solver:
    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.nodes = 0
        # key -> (depth searched, value, complete); a complete value holds at any depth.
        self.memo: dict[tuple[int, ...], tuple[int, int, bool]] = {}

    def prove(self, s: State, depth: int) -> tuple[int, bool]:
        """(value, complete): the best result the side to move can force within ``depth``; incomplete when
        some line is still open at the horizon (the value is then only what the finished lines show)."""
        self.nodes += 1
        if self.nodes > self.budget:
            raise _BudgetSpentError
        settled = _settled(s)
        if settled is not None:
            return settled, True
        if depth == 0:
            return 0, False
        key = tuple(s)
        known = self.memo.get(key)
        if known is not None and (known[2] or known[0] >= depth):
            return known[1], known[2]
        moves = sorted(origins(s), key=lambda origin: -capture_of(s, origin))
        best = -1
        complete = True
        for origin in moves:
            value, done = self.prove(make(s, origin), depth - 1)
            value = -value
            if value == 1 and done:
                best, complete = 1, True
                break
            complete = complete and done
            best = max(best, value)
        self.memo[key] = (depth, best, complete)
        return best, complete


def solve(s: State, budget: int = ENDGAME_NODES, max_plies: int = 200) -> Solution | None:
    """Prove the result of ``s`` within ``budget`` nodes, or ``None`` (the game is not over in ``s``)."""
    if _settled(s) is not None or not origins(s):
        return None
    solver = _Solver(budget)
    try:
        for depth in range(1, max_plies + 1):
            value, complete = solver.prove(s, depth)
            if complete:
                best = _best_move(solver, s, depth, value)
                return Solution(value, depth, best, solver.nodes)
    except _BudgetSpentError:
        return None
    return None


def _best_move(solver: _Solver, s: State, depth: int, value: int) -> int:
    """A root move that achieves ``value``: the fastest win, a draw, or the slowest loss."""
    moves = origins(s)
    if value == -1:
        # Each move loses; resist longest: the move whose loss needs the most plies to prove.
        def resistance(origin: int) -> int:
            child = make(s, origin)
            for d in range(depth):
                child_value, done = solver.prove(child, d)
                if done and child_value == 1:
                    return d
            return depth

        return max(moves, key=resistance)
    for origin in moves:
        child_value, done = solver.prove(make(s, origin), depth - 1)
        if done and -child_value == value:
            return origin
    return moves[0]  # unreachable when ``value`` came from a complete proof at ``depth``
