"""Team tie-breaks worked by hand (MPVGP, BH, SB, DE on match points 2 / 1 / 0), and the bye's dummy opponent."""

from __future__ import annotations

import pytest

from toreshi.kit.refusal import Refused
from toreshi.tournament.model import GameResult as G
from toreshi.tournament.teams.model import (
    Match,
    PrimaryScore,
    Team,
    TeamPlayer,
    TeamRound,
    TeamSettings,
    TeamSystem,
    TeamTournament,
)
from toreshi.tournament.teams.tiebreaks import parse_tiebreak, team_standings
from toreshi.tournament.tiebreak_rules import TieBreakRules

L = (0, 1)


def _teams(n: int, boards: int = 2) -> tuple[Team, ...]:
    return tuple(Team(i, f"T{i}", tuple(TeamPlayer(f"P{i}.{j}") for j in range(boards))) for i in range(1, n + 1))


def _example(tiebreaks: tuple[str, ...], primary: PrimaryScore = PrimaryScore.MATCH) -> TeamTournament:
    """Four teams, two boards, three rounds. The first-named team has White on board 1, Black on board 2.

    R1: 1–2 2:0 (1 wins both boards), 3–4 1:1.  R2: 1–3 1:1, 2–4 1½:½.  R3: 4–1 2:0, 2–3 ½:1½.
    Match points: T1 2+1+0 = 3, T2 0+2+0 = 2, T3 1+1+2 = 4, T4 1+0+2 = 3.
    Game points:  T1 2+1+0 = 3, T2 0+1½+½ = 2, T3 1+1+1½ = 3½, T4 1+½+2 = 3½.
    """
    settings = TeamSettings("Cup", TeamSystem.SWISS, 2, 3, primary=primary, tiebreaks=tiebreaks)
    rounds = (
        TeamRound(1, (Match(1, 1, 2, L, L, (G.WHITE_WINS, G.BLACK_WINS)), Match(2, 3, 4, L, L, (G.DRAW, G.DRAW)))),
        TeamRound(2, (Match(1, 1, 3, L, L, (G.DRAW, G.DRAW)), Match(2, 2, 4, L, L, (G.WHITE_WINS, G.DRAW)))),
        TeamRound(
            3, (Match(1, 4, 1, L, L, (G.WHITE_WINS, G.BLACK_WINS)), Match(2, 2, 3, L, L, (G.BLACK_WINS, G.DRAW)))
        ),
    )
    return TeamTournament(settings, _teams(4), rounds)


def _table(t: TeamTournament) -> list[tuple[int, int, str, str, list[str]]]:
    return [(r.rank, r.team, str(r.match_points), str(r.game_points), [str(v) for v in r.values])
            for r in team_standings(t).rows]  # fmt: skip


def test_match_and_game_points_by_hand() -> None:
    rows = _table(_example(()))
    assert [(team, mp, gp) for _, team, mp, gp, _ in rows] == [
        (3, "4", "7/2"), (4, "3", "7/2"), (1, "3", "3"), (2, "2", "2")]  # fmt: skip


def test_buchholz_and_sonneborn_berger_on_match_points_by_hand() -> None:
    # BH: T1 meets T2 (2), T3 (4), T4 (3) = 9; T4 meets T3, T2, T1 = 4+2+3 = 9; T2: 3+3+4 = 10; T3: 3+3+2 = 8.
    # SB = Σ opponent's MP × own MP in that match: T1 2·2 + 4·1 + 3·0 = 8; T4 4·1 + 2·0 + 3·2 = 10;
    # T2 3·0 + 3·2 + 4·0 = 6; T3 3·1 + 3·1 + 2·2 = 10.
    rows = _table(_example(("BH", "SB")))
    assert rows == [
        (1, 3, "4", "7/2", ["8", "10"]),
        (2, 4, "3", "7/2", ["9", "10"]),  # BH ties T1 at 9; SB 10 > 8 puts T4 ahead
        (3, 1, "3", "3", ["9", "8"]),
        (4, 2, "2", "2", ["10", "6"]),
    ]


def test_buchholz_on_game_points_by_hand() -> None:
    # BH:GP of T1 = GP of T2 + T3 + T4 = 2 + 3½ + 3½ = 9; of T4 = 3½ + 2 + 3 = 17/2.
    rows = {team: values for _, team, _, _, values in _table(_example(("BH:GP",)))}
    assert rows[1] == ["9"] and rows[4] == ["17/2"] and rows[3] == ["17/2"] and rows[2] == ["10"]


def test_direct_encounter_breaks_the_tie_of_the_teams_that_met() -> None:
    # T1 and T4 tie on 3 MP; they met in round 3 and T4 won 2:0, so DE puts T4 first (1) and T1 second (2),
    # before MPVGP is looked at. The others are alone in their groups (1).
    rows = _table(_example(("DE", "MPVGP")))
    assert [(rank, team, values) for rank, team, _, _, values in rows] == [
        (1, 3, ["1", "7/2"]), (2, 4, ["1", "7/2"]), (3, 1, ["2", "3"]), (4, 2, ["1", "2"])]  # fmt: skip


def test_mpvgp_is_the_other_score() -> None:
    by_mp = {team: values for _, team, _, _, values in _table(_example(("MPVGP",)))}
    assert by_mp[4] == ["7/2"]  # game points, when match points rank first
    by_gp = _table(_example(("MPVGP",), PrimaryScore.GAME))
    # Game points first: T3 and T4 tie on 3½; MPVGP (match points) 4 > 3 puts T3 first.
    assert [(rank, team, values) for rank, team, _, _, values in by_gp][:2] == [(1, 3, ["4"]), (2, 4, ["3"])]


def test_bye_counts_a_dummy_opponent_with_the_teams_own_score_in_a_swiss_and_nothing_in_a_round_robin() -> None:
    rounds = (TeamRound(1, (Match(1, 1, 2, L, L, (G.WHITE_WINS, G.BLACK_WINS)), Match(2, 3, None))),)
    swiss = TeamTournament(TeamSettings("S", TeamSystem.SWISS, 2, 2, tiebreaks=("BH",), start="2025-06-01"), _teams(3),
                           rounds)  # fmt: skip
    rows = {team: (mp, gp, values) for _, team, mp, gp, values in _table(swiss)}
    # The bye is a won match with every board won: 2 MP, 2 GP; its BH is its own 2 MP (C.07 §16, 2024).
    assert rows[3] == ("2", "2", ["2"])
    assert rows[1] == ("2", "2", ["0"])  # its opponent T2 has 0
    assert rows[2] == ("0", "0", ["2"])
    rr = TeamTournament(TeamSettings("R", TeamSystem.ROUND_ROBIN, 2, 0, tiebreaks=("BH",)), _teams(3), rounds)
    assert {team: values for _, team, _, _, values in _table(rr)}[3] == ["0"]


def test_a_match_lost_by_forfeit_on_every_board_gives_match_points_but_is_not_played() -> None:
    rounds = (TeamRound(1, (Match(1, 1, 2, L, L, (G.WHITE_FORFEIT_WIN, G.BLACK_FORFEIT_WIN)),)),)
    t = TeamTournament(TeamSettings("S", TeamSystem.SWISS, 2, 3, tiebreaks=("BH",), start="2025-06-01"), _teams(2),
                       rounds)  # fmt: skip
    rows = {team: (mp, values) for _, team, mp, _, values in _table(t)}
    # Unplayed: each side's BH counts a dummy opponent with its own score (T1 2, T2 0).
    assert rows == {1: ("2", ["2"]), 2: ("0", ["0"])}


def test_the_2026_rules_cap_the_dummy_opponent_by_the_start_date() -> None:
    """C.07 §16.4 from 2026-03-01. The bye of T3 after one round: its own score is 2 MP, capped at a drawn match per
    round (1 × 1 = 1); T1's forfeit win over T2: its own 2 MP capped at T2's score, 0."""
    bye = (TeamRound(1, (Match(1, 1, 2, L, L, (G.WHITE_WINS, G.BLACK_WINS)), Match(2, 3, None))),)
    forfeit = (TeamRound(1, (Match(1, 1, 2, L, L, (G.WHITE_FORFEIT_WIN, G.BLACK_FORFEIT_WIN)),)),)

    def bh(rounds: tuple[TeamRound, ...], teams: int, start: str) -> dict[int, list[str]]:
        settings = TeamSettings("S", TeamSystem.SWISS, 2, 3, tiebreaks=("BH", "BH:GP"), start=start)
        return {team: values for _, team, _, _, values in _table(TeamTournament(settings, _teams(teams), rounds))}

    assert bh(bye, 3, "2026-03-01")[3] == ["1", "1"]  # BH:GP: own 2 GP capped at a drawn match's 1 GP
    assert bh(bye, 3, "2026-02-28")[3] == ["2", "2"]
    assert bh(bye, 3, "")[3] == ["1", "1"]  # no start date: the rules in force now
    assert bh(forfeit, 2, "2026-12-01")[1] == ["0", "0"]
    assert bh(forfeit, 2, "2024-12-01")[1] == ["2", "2"]
    latest = TeamTournament(TeamSettings("S", TeamSystem.SWISS, 2, 3, start="2026-03-01"))
    assert team_standings(latest).rules is TieBreakRules.C07_2026
    # The settings may name a version: the 2024 rules for this 2026 event leave the dummy uncapped.
    named = TeamSettings("S", TeamSystem.SWISS, 2, 3, tiebreaks=("BH",), start="2026-12-01",
                         tiebreak_rules=TieBreakRules.C07_2024)  # fmt: skip
    rows = team_standings(TeamTournament(named, _teams(3), bye)).rows
    assert {r.team: [str(v) for v in r.values] for r in rows}[3] == ["2"]


def test_unknown_tiebreak_is_refused_with_its_code() -> None:
    with pytest.raises(Refused) as refused:
        parse_tiebreak("XYZ")
    assert refused.value.code == "teams_unknown_tiebreak" and refused.value.params["tiebreak"] == "XYZ"
    assert str(parse_tiebreak("bh:gp")) == "BH:GP" and str(parse_tiebreak("gp")) == "GPTS"


def test_direct_encounter_in_a_swiss_separates_only_a_team_out_of_reach() -> None:
    """Six teams, three rounds, every match won 2:0 (FW: the first-named team wins, SW: the second).

    R1 1–2 FW, 3–6 FW, 4–5 SW.  R2 1–3 FW, 2–5 FW, 4–6 SW.  R3 4–1 FW, 2–6 FW, 3–5 FW.
    Match points: T1, T2, T3 4 each; T4, T5, T6 2 each.
    Group {1, 2, 3}: T1 beat both (4 MP in the group, nothing missing); T2 and T3 lost to T1 and have not met, so
    each could still reach 0 + 2 = 2 < 4: T1 is first (DE 1); T2's 0 does not exceed T3's reachable 2: they share
    (DE 2, rank 2). Group {4, 5, 6}: T5 and T6 beat T4 and have not met: 2 each, each could reach 4, so nobody is
    out of reach — all three share (DE 1, rank 4), T4 too, though it has lost both (TieBreakServer's rule: once
    two are level, the rest share).
    """
    fw, sw = (G.WHITE_WINS, G.BLACK_WINS), (G.BLACK_WINS, G.WHITE_WINS)
    rounds = (
        TeamRound(1, (Match(1, 1, 2, L, L, fw), Match(2, 3, 6, L, L, fw), Match(3, 4, 5, L, L, sw))),
        TeamRound(2, (Match(1, 1, 3, L, L, fw), Match(2, 2, 5, L, L, fw), Match(3, 4, 6, L, L, sw))),
        TeamRound(3, (Match(1, 4, 1, L, L, fw), Match(2, 2, 6, L, L, fw), Match(3, 3, 5, L, L, fw))),
    )
    t = TeamTournament(TeamSettings("S", TeamSystem.SWISS, 2, 3, tiebreaks=("DE",)), _teams(6), rounds)
    assert [(rank, team, mp, values) for rank, team, mp, _, values in _table(t)] == [
        (1, 1, "4", ["1"]), (2, 2, "4", ["2"]), (2, 3, "4", ["2"]),
        (4, 4, "2", ["1"]), (4, 5, "2", ["1"]), (4, 6, "2", ["1"]),
    ]  # fmt: skip
