"""Team tie-breaks of FIDE C.07 (team section), named as TieBreakServer names them.

A code is ``NAME`` or ``NAME:PS`` where ``PS`` is the point system it is computed on, ``MP`` (match points) or
``GP`` (game points); without it, the tournament's primary score.

- ``MPVGP`` — the other score: game points when match points rank first, match points when game points do;
- ``MPTS`` / ``GPTS`` — match points / game points (``MP`` and ``GP`` are accepted for them);
- ``BH`` — Buchholz: Σ of the opponents' scores, one value per round. A round the team did not play (the bye, a
  match forfeited on every board) counts, in a Swiss, a dummy opponent with the team's own score (C.07 §16, the
  2024 rules); under the rules amended from 2026-03-01 that value is capped (§16.4): for a forfeit at the scheduled
  opponent's score, for the bye at a drawn match in every round. Which version applies is the individual
  tournament's rule (:mod:`toreshi.tournament.tiebreak_rules`): the one in force on the start date, the newest
  without a date, or the one the settings name. In a round robin an unplayed round counts nothing;
- ``SB`` — Sonneborn–Berger: Σ over rounds of the opponent's score × the team's own score in that match, on the
  same point system (so with 2 / 1 / 0 match points a won match counts the opponent's match points twice, as
  TieBreakServer computes ``SB:MP``);
- ``DE`` — direct encounter, on the primary score: applied to each group of teams still tied; if all of them met
  (always in a round robin) they are ranked by the points scored against each other (repeated meetings averaged),
  re-applied to any sub-group still tied; if not (a Swiss), a team goes ahead only when its score in the group
  exceeds the most any other could still reach winning its missing matches. Its value is the team's place in
  its tied group (1 is best).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from toreshi.kit.refusal import Refused
from toreshi.tournament.teams.codes import TeamCode
from toreshi.tournament.teams.model import PrimaryScore, TeamSystem, TeamTournament
from toreshi.tournament.teams.scoring import TeamRoundScore, team_rounds, totals
from toreshi.tournament.tiebreak_rules import TieBreakRules, choose_rules

NAMES = ("MPVGP", "MPTS", "GPTS", "BH", "SB", "DE")
_ALIASES = {"MP": "MPTS", "GP": "GPTS"}

DEFAULT_SWISS = ("MPVGP", "BH", "SB", "DE")
DEFAULT_ROUND_ROBIN = ("MPVGP", "DE", "SB")


@dataclass(frozen=True)
class TeamTiebreak:
    name: str
    points: PrimaryScore | None = None
    """The point system it is computed on; None: the primary score."""

    def __str__(self) -> str:
        return self.name if self.points is None else f"{self.name}:{self.points.value}"


def parse_tiebreak(code: str) -> TeamTiebreak:
    raw = code.strip().upper()
    name, _, system = raw.partition(":")
    name = _ALIASES.get(name, name)
    if name not in NAMES or (system and system not in ("MP", "GP")) or (system and name in ("MPVGP", "MPTS", "GPTS")):
        raise Refused(TeamCode.UNKNOWN_TIEBREAK, tiebreak=code[:16])
    return TeamTiebreak(name, PrimaryScore(system) if system else None)


def _other(kind: PrimaryScore) -> PrimaryScore:
    return PrimaryScore.GAME if kind is PrimaryScore.MATCH else PrimaryScore.MATCH


@dataclass(frozen=True)
class TeamStandingRow:
    rank: int
    team: int
    match_points: Fraction
    game_points: Fraction
    values: tuple[Fraction, ...]
    """One value per tie-break, in the tournament's order."""

    def primary(self, kind: PrimaryScore) -> Fraction:
        return self.match_points if kind is PrimaryScore.MATCH else self.game_points


def rules_of(t: TeamTournament) -> TieBreakRules:
    """The C.07 version the competition is ranked by."""
    start = date.fromisoformat(t.settings.start) if t.settings.start else None
    return choose_rules(t.settings.tiebreak_rules, start)


@dataclass(frozen=True)
class TeamStandings:
    rules: TieBreakRules
    """The C.07 version used."""
    primary: PrimaryScore
    tiebreaks: tuple[TeamTiebreak, ...]
    rows: tuple[TeamStandingRow, ...]


class _Calc:
    def __init__(self, t: TeamTournament, upto: int | None) -> None:
        self.t = t
        self.rr = t.settings.system is TeamSystem.ROUND_ROBIN
        self.primary = t.settings.primary
        self.rows: Mapping[int, tuple[TeamRoundScore, ...]] = team_rounds(t, upto)
        self.score = {kind: totals(self.rows, kind) for kind in PrimaryScore}
        self.rules = rules_of(t)
        self.rounds = max((len(rows) for rows in self.rows.values()), default=0)

    def draw(self, kind: PrimaryScore) -> Fraction:
        """A drawn match's score on ``kind``."""
        return self.t.settings.points.draw if kind is PrimaryScore.MATCH else Fraction(self.t.settings.boards, 2)

    def kind(self, tb: TeamTiebreak) -> PrimaryScore:
        return tb.points or self.primary

    def value(self, tb: TeamTiebreak, team: int) -> Fraction:
        if tb.name == "MPVGP":
            return self.score[_other(self.primary)][team]
        if tb.name == "MPTS":
            return self.score[PrimaryScore.MATCH][team]
        if tb.name == "GPTS":
            return self.score[PrimaryScore.GAME][team]
        kind = self.kind(tb)
        own_total = self.score[kind][team]
        total = Fraction(0)
        for r in self.rows[team]:
            if r.played and r.opponent is not None:
                opponent = self.score[kind][r.opponent]
            elif self.rr:
                continue
            else:
                opponent = own_total  # the dummy opponent of an unplayed round (C.07 §16, 2024)
                if self.rules.caps_dummy_opponents:  # §16.4.1 a forfeit, §16.4.2 no opponent
                    cap = self.score[kind][r.opponent] if r.opponent is not None else self.draw(kind) * self.rounds
                    opponent = min(opponent, cap)
            total += opponent * r.score(kind) if tb.name == "SB" else opponent
        return total

    def direct_encounter(self, group: Sequence[int]) -> list[list[int]]:
        """The group split by direct encounter, best first (sub-groups still tied stay together)."""
        members = set(group)
        scored: dict[int, Fraction] = {}
        met_all = True
        most: dict[int, Fraction] = {}
        win = self.t.settings.points.win if self.primary is PrimaryScore.MATCH else Fraction(self.t.settings.boards)
        for team in group:
            per_opponent: dict[int, list[Fraction]] = {}
            for r in self.rows[team]:
                if r.played and r.opponent in members:
                    per_opponent.setdefault(r.opponent, []).append(r.score(self.primary))
            scored[team] = sum((sum(v, Fraction(0)) / len(v) for v in per_opponent.values()), Fraction(0))
            missing = len(group) - 1 - len(per_opponent)
            if missing and not self.rr:
                met_all = False
            most[team] = scored[team] + missing * win if not self.rr else scored[team]
        if met_all:
            ordered = sorted(group, key=lambda x: (-scored[x], x))
            parts: list[list[int]] = []
            for team in ordered:
                if parts and scored[parts[-1][0]] == scored[team]:
                    parts[-1].append(team)
                else:
                    parts.append([team])
            if len(parts) == 1:
                return parts
            # Re-apply to every sub-group still tied.
            return [piece for part in parts for piece in (self.direct_encounter(part) if len(part) > 1 else [part])]
        ordered = sorted(group, key=lambda x: (-scored[x], -most[x], x))
        parts = []
        for i, team in enumerate(ordered):
            rest = ordered[i + 1 :]
            if rest and all(len(p) == 1 for p in parts) and scored[team] > max(most[x] for x in rest):
                parts.append([team])
            else:
                parts.append(ordered[i:])
                break
        return parts


def team_standings(t: TeamTournament, upto: int | None = None) -> TeamStandings:
    """The standings after round ``upto`` (default: every finished match): primary score, then the tie-breaks."""
    codes = t.settings.tiebreaks or (DEFAULT_ROUND_ROBIN if t.settings.system is TeamSystem.ROUND_ROBIN
                                     else DEFAULT_SWISS)  # fmt: skip
    tiebreaks = tuple(parse_tiebreak(code) for code in codes)
    calc = _Calc(t, upto)
    numbers = [team.number for team in t.teams]
    values: dict[int, list[Fraction]] = {n: [] for n in numbers}
    groups: list[list[int]] = []
    primary = calc.score[calc.primary]
    for n in sorted(numbers, key=lambda x: (-primary[x], x)):
        if groups and primary[groups[-1][0]] == primary[n]:
            groups[-1].append(n)
        else:
            groups.append([n])
    for tb in tiebreaks:
        if tb.name == "DE":
            split: list[list[int]] = []
            for g in groups:
                parts = calc.direct_encounter(g) if len(g) > 1 else [g]
                for place, part in enumerate(parts, start=1):
                    for n in part:
                        values[n].append(Fraction(place))
                split.extend(parts)
            groups = split
            continue
        got = {n: calc.value(tb, n) for n in numbers}
        for n in numbers:
            values[n].append(got[n])
        split = []
        for g in groups:
            ordered = sorted(g, key=lambda x: (-got[x], x))
            for n in ordered:
                if split and split[-1][0] in g and got[split[-1][0]] == got[n]:
                    split[-1].append(n)
                else:
                    split.append([n])
        groups = split
    rows = []
    position = 1
    for g in groups:
        for n in sorted(g):
            mp, gp = calc.score[PrimaryScore.MATCH][n], calc.score[PrimaryScore.GAME][n]
            rows.append(TeamStandingRow(position, n, mp, gp,
                                        tuple(values[n])))  # fmt: skip
        position += len(g)
    return TeamStandings(calc.rules, calc.primary, tiebreaks, tuple(rows))
