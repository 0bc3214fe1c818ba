"""Teams are split into as few games as possible, sizes differing by at most one with the larger games last (SI-2.1),
and a team is marked on the host's panel only once its phone backdated presses often enough."""

from __future__ import annotations

import pytest

from toreshi.quiz.play.state import Claims
from toreshi.quiz.tournament import Seeding, plan_games


@pytest.mark.parametrize(
    ("teams", "size", "sizes"),
    [
        (10, 4, [3, 3, 4]),
        (11, 4, [3, 4, 4]),
        (12, 4, [4, 4, 4]),
        (13, 4, [3, 3, 3, 4]),
        (5, 4, [2, 3]),
        (7, 3, [2, 2, 3]),
    ],
)
def test_games_are_as_few_as_possible_and_differ_by_at_most_one_the_larger_last(
    teams: int, size: int, sizes: list[int]
) -> None:
    names = [f"T{i}" for i in range(1, teams + 1)]
    games = plan_games(names, size, Seeding.SNAKE)
    assert [len(game) for game in games] == sizes
    assert sorted(team for game in games for team in game) == sorted(names)


@pytest.mark.parametrize(
    ("placed", "backdated", "marked"),
    [(0, 0, False), (1, 1, False), (4, 1, False), (2, 2, True), (8, 2, True), (9, 2, False), (12, 3, True)],
)
def test_a_team_is_marked_after_two_backdated_presses_that_are_a_quarter_of_its_claims(
    placed: int, backdated: int, marked: bool
) -> None:
    assert Claims(placed, backdated).marked is marked
