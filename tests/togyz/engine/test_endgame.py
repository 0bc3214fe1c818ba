"""The endgame solver against a plain minimax over finished games."""

from __future__ import annotations

import random

from toreshi.togyz import Position
from toreshi.togyz.engine.board import make, state_of
from toreshi.togyz.engine.endgame import solve

from .helpers import game_value, random_endgame


def test_the_solver_agrees_with_brute_force_on_small_endgames() -> None:
    rng = random.Random(11)
    compared = 0
    for _ in range(150):
        state = random_endgame(rng, rng.randint(2, 5))
        exact = game_value(state, 14)
        if exact is None:
            continue  # some line goes on past the brute force's horizon
        solution = solve(state, 200_000)
        assert solution is not None
        assert solution.result == exact
        # the solver's move keeps the result: the child is worth the opposite for the other side
        assert game_value(make(state, solution.best), 14) == -exact
        compared += 1
    assert compared >= 40


def test_a_finished_or_decided_position_is_not_solved() -> None:
    decided = Position.from_parts([0] * 9, [1] * 9, (150, 3))
    assert solve(state_of(decided)) is None


def test_a_budget_too_small_gives_no_answer() -> None:
    rng = random.Random(3)
    state = random_endgame(rng, 14)
    assert solve(state, 5) is None
