"""Positions and independent reference searches for the engine tests."""

from __future__ import annotations

import random

from toreshi.togyz import Position, Side
from toreshi.togyz.engine.board import State, make, origins, state_of, terminal_score
from toreshi.togyz.engine.evaluation import evaluate

from ..random_games import game_choices, play_out

choices = game_choices(250)
"""Random games of up to 250 plies for the engine tests."""


def random_endgame(rng: random.Random, board: int) -> State:
    """A random position with ``board`` kumalaks on the board, kazans close enough that nothing is decided yet."""
    while True:
        holes = [0] * 18
        for _ in range(board):
            holes[rng.randrange(18)] += 1
        rest = 162 - board
        white = rng.randint(rest // 2 - 3, rest // 2 + 3)
        position = Position.from_parts(holes[:9], holes[9:], (white, rest - white), turn=Side(rng.randrange(2)))
        state = state_of(position)
        if terminal_score(state) is None and origins(state):
            return state


def brute_force(s: State, depth: int, ply: int = 0) -> int:
    """Plain negamax over every move to ``depth``, static evaluation at the leaves; results scored as the
    search scores them (``WIN - ply``), decided positions included."""
    from toreshi.togyz.engine.search import _certain

    certain = _certain(s, ply)
    if certain is not None:
        return certain
    if depth == 0:
        return evaluate(s)
    return max(-brute_force(make(s, origin), depth - 1, ply + 1) for origin in origins(s))


def game_value(s: State, cap: int) -> int | None:
    """The exact result (+1/0/-1 for the side to move) by plain minimax over *finished* games only (no
    'decided' shortcut, no memo), or ``None`` if some line is still going on after ``cap`` plies."""
    finished = terminal_score(s)
    if finished is not None:
        return finished
    if cap == 0:
        return None
    best = -1
    for origin in origins(s):
        value = game_value(make(s, origin), cap - 1)
        if value is None:
            return None
        best = max(best, -value)
        if best == 1:
            return 1
    return best


__all__ = ["brute_force", "choices", "game_value", "play_out", "random_endgame"]
