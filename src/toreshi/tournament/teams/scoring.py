"""Each team's rounds reduced to scores: match points, game points, opponent, board-1 colour."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from toreshi.tournament.model import Colour
from toreshi.tournament.teams.model import Match, MatchPoints, PrimaryScore, TeamTournament


@dataclass(frozen=True)
class TeamRoundScore:
    """One finished round of a team."""

    round: int
    opponent: int | None
    """None for the bye."""
    colour: Colour | None
    """The team's colour on board 1 (None for the bye)."""
    played: bool
    match_points: Fraction
    game_points: Fraction
    opponent_game_points: Fraction

    def score(self, kind: PrimaryScore) -> Fraction:
        return self.match_points if kind is PrimaryScore.MATCH else self.game_points


def match_points_of(own: Fraction, theirs: Fraction, points: MatchPoints) -> Fraction:
    if own > theirs:
        return points.win
    if own == theirs:
        return points.draw
    return points.loss


def bye_score(t: TeamTournament, round_number: int, team: int) -> TeamRoundScore:
    """The pairing-allocated bye: a won match with every board won (see :mod:`.model`)."""
    return TeamRoundScore(round_number, None, None, False, t.settings.points.win, Fraction(t.settings.boards),
                          Fraction(0))  # fmt: skip


def score_of(t: TeamTournament, round_number: int, match: Match, team: int) -> TeamRoundScore:
    if match.second is None:
        return bye_score(t, round_number, team)
    gp = match.game_points()
    side = match.side_of(team)
    own, theirs = gp[side], gp[1 - side]
    colour = Colour.WHITE if side == 0 else Colour.BLACK
    mp = match_points_of(own, theirs, t.settings.points)
    if match.nobody_came():
        mp = t.settings.points.loss
    return TeamRoundScore(round_number, match.opponent_of(team), colour, match.played(), mp, own, theirs)


def team_rounds(t: TeamTournament, upto: int | None = None) -> Mapping[int, tuple[TeamRoundScore, ...]]:
    """Every team's finished rounds (matches with a result and byes), in round order, up to round ``upto``."""
    rows: dict[int, list[TeamRoundScore]] = {team.number: [] for team in t.teams}
    for r in t.rounds:
        if upto is not None and r.number > upto:
            continue
        for m in r.matches:
            if not m.finished:
                continue
            for team in (m.first, m.second):
                if team is not None:
                    rows[team].append(score_of(t, r.number, m, team))
    return {k: tuple(v) for k, v in rows.items()}


def totals(rows: Mapping[int, tuple[TeamRoundScore, ...]], kind: PrimaryScore) -> dict[int, Fraction]:
    return {team: sum((r.score(kind) for r in rounds), Fraction(0)) for team, rounds in rows.items()}
