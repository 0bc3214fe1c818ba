"""Pairing a small team Swiss (the Dutch engine on match points) and a team round robin, worked out by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.kit.refusal import Refused
from toreshi.tournament.model import GameResult as G
from toreshi.tournament.teams.boards import board_prizes, rated_games
from toreshi.tournament.teams.model import PrimaryScore, Team, TeamPlayer, TeamSettings, TeamSystem, TeamTournament
from toreshi.tournament.teams.pairing import pair_next_round
from toreshi.tournament.teams.scoring import team_rounds, totals

FIRST_WINS = (G.WHITE_WINS, G.BLACK_WINS, G.WHITE_WINS, G.BLACK_WINS)
"""On 4 boards the first-named team has White on 1 and 3: it wins every board."""
SECOND_WINS = (G.BLACK_WINS, G.WHITE_WINS, G.BLACK_WINS, G.WHITE_WINS)


def _tournament(n: int, system: TeamSystem = TeamSystem.SWISS, rounds: int = 3) -> TeamTournament:
    teams = tuple(Team(i, f"T{i}", tuple(TeamPlayer(f"P{i}.{j}") for j in range(5))) for i in range(1, n + 1))
    return TeamTournament(TeamSettings("Cup", system, 4, rounds), teams)


def _play(t: TeamTournament, results: dict[tuple[int, int], tuple[G, ...]]) -> TeamTournament:
    r = pair_next_round(t)
    for m in r.matches:
        if m.second is not None:
            r = r.with_match(replace(m, results=results[(m.first, m.second)]))
    return t.with_round(r)


def _pairs(t: TeamTournament, number: int) -> list[tuple[int, int | None]]:
    return [(m.first, m.second) for m in t.round(number).matches]


def test_a_five_team_swiss_by_hand() -> None:
    """Round 1: S1 = {1, 2}, S2 = {3, 4}, team 5 (lowest) gets the bye; 1 has White on board 1 and the colours
    alternate down the round: 1–3, 4–2.
    Round 2 (1 and 4 won, 5 had the bye): scoregroup 2 MP = {1, 4, 5} is odd, one team floats down. 5 must not:
    its bye was a downfloat last round (C.04.3 1.4.3, the float criteria), so 1–5 and 4 floats to 3 (4 has met 2).
    Colours: 1 had White, so Black; 5 has none, so White: 5–1. 3 had Black, 4 White: 3–4. 2 gets the bye.
    """
    t = _tournament(5)
    t = _play(t, {(1, 3): FIRST_WINS, (4, 2): FIRST_WINS})
    assert _pairs(t, 1) == [(1, 3), (4, 2), (5, None)]
    t = _play(t, {(5, 1): SECOND_WINS, (3, 4): SECOND_WINS})
    assert _pairs(t, 2) == [(5, 1), (3, 4), (2, None)]
    mp = totals(team_rounds(t), PrimaryScore.MATCH)
    assert mp == {1: 4, 2: 2, 3: 0, 4: 4, 5: 2}
    # Round 3: 1 and 4 (4 MP) have not met: 1–4; both had W then B and are due White: the higher ranked (1) gets
    # it. 2 and 5 (2 MP) have not met: 2 played Black once (due White), 5 White once (due Black): 2–5.
    # 3 (0 MP) is the only team without a bye: it gets it.
    r3 = pair_next_round(t)
    assert [(m.first, m.second) for m in r3.matches] == [(1, 4), (2, 5), (3, None)]
    assert all(m.first_lineup == (0, 1, 2, 3) for m in r3.matches)  # every team's first four players


def test_no_team_meets_another_team_twice_and_a_finished_swiss_refuses_more_rounds() -> None:
    t = _tournament(4, rounds=3)
    met: set[frozenset[int]] = set()
    for _ in range(3):
        r = pair_next_round(t)
        for m in r.matches:
            assert m.second is not None
            pair = frozenset((m.first, m.second))
            assert pair not in met
            met.add(pair)
        t = t.with_round(replace(r, matches=tuple(replace(m, results=FIRST_WINS) for m in r.matches)))
    with pytest.raises(Refused) as refused:
        pair_next_round(t)
    assert refused.value.code == "teams_all_rounds_paired"


def test_round_robin_follows_berger_and_needs_finished_rounds() -> None:
    t = _tournament(4, TeamSystem.ROUND_ROBIN, rounds=0)
    r1 = pair_next_round(t)
    assert [(m.first, m.second) for m in r1.matches] == [(1, 4), (2, 3)]  # Berger table for 4, round 1
    t = t.with_round(r1)
    with pytest.raises(Refused) as refused:
        pair_next_round(t)
    assert refused.value.code == "teams_round_incomplete" and refused.value.params["round"] == 1


def test_board_prizes_by_percentage_with_a_minimum_of_games() -> None:
    t = _tournament(4, rounds=2)
    t = _play(t, {(1, 3): FIRST_WINS, (4, 2): (G.DRAW,) * 4})
    prizes = board_prizes(t)  # the minimum: half of 2 rounds = 1 game
    # Board 1: team 1's first player won (100 %); the others 0 % or 50 %.
    assert [(p.team, p.place, str(p.percentage)) for p in prizes[1]] == [(1, 0, "100")]
    assert len(rated_games(t)) == 8


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list(G)), min_size=4 * 3 * 3, max_size=4 * 3 * 3))
def test_match_points_of_a_match_sum_to_a_win_and_a_loss_or_two_draws(results: list[G]) -> None:
    """Invariants over random board results: in every match the two teams' match points are win + loss (2) or
    draw + draw (2), or nothing when nobody came; game points are the boards minus the double forfeits; and the
    Swiss keeps its absolute criteria round after round."""
    t = _tournament(7, rounds=3)
    it = iter(results)
    for _ in range(3):
        r = pair_next_round(t)
        r = replace(
            r,
            matches=tuple(
                replace(m, results=tuple(next(it) for _ in range(4))) if m.second is not None else m for m in r.matches
            ),
        )
        t = t.with_round(r)
    rows = team_rounds(t)
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for r in t.rounds:
        # The absolute criteria: every team paired once, one bye at most (odd teams), no team meets another twice
        # over the board, no team gets the bye twice.
        teams = [x for m in r.matches for x in (m.first, m.second) if x is not None]
        assert sorted(teams) == list(range(1, 8)) and sum(m.second is None for m in r.matches) == 1
        for m in r.matches:
            if m.second is None:
                assert m.first not in byes
                byes.append(m.first)
            elif m.played():
                pair = frozenset((m.first, m.second))
                assert pair not in met
                met.add(pair)
    for r in t.rounds:
        for m in r.matches:
            if m.second is None:
                continue
            a = next(x for x in rows[m.first] if x.round == r.number)
            b = next(x for x in rows[m.second] if x.round == r.number)
            expected = 0 if m.nobody_came() else 2
            assert a.match_points + b.match_points == expected
            assert a.game_points + b.game_points == 4 - sum(1 for g in m.results if g is G.DOUBLE_FORFEIT)
