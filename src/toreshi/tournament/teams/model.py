"""A team competition: teams of N boards with a fixed board order and reserves, rounds of matches, board results.

A match is played on N boards. The **first-named team** of a match plays White (бастаушы) on the odd boards
(1, 3, …) and Black on the even ones; the other team the opposite (FIDE's team colours, board 1 and 3 one colour,
2 and 4 the other). Which team is named first comes from the pairing: in a round robin the Berger table's White,
in a Swiss the Dutch engine's White, so it alternates from round to round as an individual's colour does.

A team's list is its players in the fixed board order; the first N are its regular boards, the rest reserves (up to
6, and 14 players in all, as the TRF's team records hold).
A line-up for a round is N places of that list in increasing order (a reserve moves up, nobody jumps ahead).

Scores are exact :class:`~fractions.Fraction` values. A board gives game points (1, ½, 0; a forfeit win 1, a
forfeit loss 0); the match gives match points by comparing the two teams' game points (2 / 1 / 0 by default,
configurable). The pairing-allocated bye (an odd number of teams) gives the bye's match points and game points
(by default a won match with every board won, as an individual's PAB is a win).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from enum import Enum
from fractions import Fraction

from toreshi.kit.refusal import Refused
from toreshi.tournament.berger import berger_rounds
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.model import GameResult
from toreshi.tournament.teams.codes import TeamCode
from toreshi.tournament.tiebreak_rules import TieBreakRules

MIN_BOARDS = 1
MAX_BOARDS = 12
MAX_RESERVES = 6
MAX_LIST = 14
"""The most players a team lists, boards and reserves together: TRF's team records hold 14."""


class TeamSystem(Enum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class PrimaryScore(Enum):
    """What ranks the teams first: match points (``MP``) or game points (``GP``), TieBreakServer's names."""

    MATCH = "MP"
    GAME = "GP"


@dataclass(frozen=True)
class MatchPoints:
    """Match points for a won, drawn and lost match (default 2 / 1 / 0; TRF-2026 record 362 ``TW TD TL``)."""

    win: Fraction = Fraction(2)
    draw: Fraction = Fraction(1)
    loss: Fraction = Fraction(0)

    def check(self) -> MatchPoints:
        if not (self.win > self.draw >= self.loss >= 0):
            raise Refused(TeamCode.POINTS_ORDER, win=str(self.win), draw=str(self.draw), loss=str(self.loss))
        return self


@dataclass(frozen=True)
class TeamSettings:
    name: str
    system: TeamSystem
    boards: int
    rounds: int
    """Planned rounds of a Swiss; 0 for a round robin (one per opponent, fixed when round 1 is paired)."""
    primary: PrimaryScore = PrimaryScore.MATCH
    points: MatchPoints = MatchPoints()
    tiebreaks: tuple[str, ...] = ()
    board_prize_min_games: int = 0
    """Board prizes go to players with at least this many games on the board (0: half the rounds, rounded up)."""
    start: str = ""
    """The start date (ISO): the TRF's, and which C.07 applies."""
    tiebreak_rules: TieBreakRules | None = None
    """The C.07 version named in the settings; None: the one in force on the start date."""

    def check(self) -> TeamSettings:
        if not MIN_BOARDS <= self.boards <= MAX_BOARDS:
            raise Refused(TeamCode.BOARDS_OUT_OF_RANGE, boards=self.boards, minimum=MIN_BOARDS, maximum=MAX_BOARDS)
        self.points.check()
        if self.start:
            try:
                date.fromisoformat(self.start)
            except ValueError:
                raise Refused(TournamentCode.NOT_A_DATE, field="start") from None
        from toreshi.tournament.teams.tiebreaks import parse_tiebreak  # the codes live with their computation

        for code in self.tiebreaks:
            parse_tiebreak(code)
        return self


@dataclass(frozen=True)
class TeamPlayer:
    name: str
    rating: int | None = None


@dataclass(frozen=True)
class Team:
    """A team: ``number`` is its starting rank (1, 2, …), ``players`` its list in the fixed board order."""

    number: int
    name: str
    players: tuple[TeamPlayer, ...]
    representatives: tuple[str, ...] = ()
    """The team's representatives (TK-P1): they may file protests for the team."""

    def strength(self, boards: int) -> int:
        """The average rating of the first ``boards`` players (unrated count 0), for seeding and TRF 310."""
        ratings = [p.rating or 0 for p in self.players[:boards]]
        return round(sum(ratings) / len(ratings)) if ratings else 0


def check_team(team: Team, boards: int, others: Sequence[Team]) -> Team:
    if any(t.name.casefold() == team.name.casefold() for t in others):
        raise Refused(TeamCode.TEAM_NAME_TAKEN, team=team.name)
    if len(team.players) < boards:
        raise Refused(TeamCode.TOO_FEW_PLAYERS, team=team.name, boards=boards, players=len(team.players))
    most = min(boards + MAX_RESERVES, MAX_LIST)
    if len(team.players) > most:
        raise Refused(TeamCode.TOO_MANY_PLAYERS, team=team.name, maximum=most)
    seen: set[str] = set()
    for p in team.players:
        key = p.name.casefold()
        if key in seen:
            raise Refused(TeamCode.PLAYER_TWICE, team=team.name, player=p.name)
        seen.add(key)
    for other in others:
        for p in other.players:
            if p.name.casefold() in seen:
                raise Refused(TeamCode.PLAYER_IN_OTHER_TEAM, player=p.name, team=other.name)
    return team


def first_team_white(board: int) -> bool:
    """Does the first-named team of a match play White on ``board`` (1-based)? Odd boards yes, even no."""
    return board % 2 == 1


GAME_POINTS: dict[GameResult, tuple[Fraction, Fraction]] = {
    GameResult.WHITE_WINS: (Fraction(1), Fraction(0)),
    GameResult.BLACK_WINS: (Fraction(0), Fraction(1)),
    GameResult.DRAW: (Fraction(1, 2), Fraction(1, 2)),
    GameResult.WHITE_FORFEIT_WIN: (Fraction(1), Fraction(0)),
    GameResult.BLACK_FORFEIT_WIN: (Fraction(0), Fraction(1)),
    GameResult.DOUBLE_FORFEIT: (Fraction(0), Fraction(0)),
}


@dataclass(frozen=True)
class Match:
    """One match of a round: ``first`` plays White on board 1; ``second`` is None for the bye.

    ``lineups`` hold each side's places on its team's list (0-based) by board; ``results`` one
    :class:`GameResult` per board, from that board's White's side, or empty while the match is not entered."""

    number: int
    first: int
    second: int | None
    first_lineup: tuple[int, ...] = ()
    second_lineup: tuple[int, ...] = ()
    results: tuple[GameResult, ...] = ()

    @property
    def is_bye(self) -> bool:
        return self.second is None

    @property
    def finished(self) -> bool:
        return self.is_bye or bool(self.results)

    def side_of(self, team: int) -> int:
        """0 for the first team, 1 for the second."""
        if team == self.first:
            return 0
        if team == self.second:
            return 1
        raise ValueError(f"team {team} does not play match {self.number}")

    def opponent_of(self, team: int) -> int | None:
        return self.second if team == self.first else self.first

    def lineup_of(self, team: int) -> tuple[int, ...]:
        return self.first_lineup if self.side_of(team) == 0 else self.second_lineup

    def game_points(self) -> tuple[Fraction, Fraction]:
        """Game points of (first, second) over the entered boards."""
        first = second = Fraction(0)
        for board, result in enumerate(self.results, start=1):
            white, black = GAME_POINTS[result]
            if first_team_white(board):
                first, second = first + white, second + black
            else:
                first, second = first + black, second + white
        return first, second

    def played(self) -> bool:
        """A match counts as played (for the rematch ban, colours, Buchholz) when one of its boards was played over
        the board; a match won by forfeit on every board was not (as an individual's forfeit is not a game)."""
        return not self.is_bye and any(r.played for r in self.results)

    def nobody_came(self) -> bool:
        """Every board a double forfeit: neither team gets anything."""
        return bool(self.results) and all(r is GameResult.DOUBLE_FORFEIT for r in self.results)


@dataclass(frozen=True)
class TeamRound:
    number: int
    matches: tuple[Match, ...]

    def match(self, number: int) -> Match:
        for m in self.matches:
            if m.number == number:
                return m
        raise Refused(TeamCode.UNKNOWN_MATCH, round=self.number, match=number)

    def match_of(self, team: int) -> Match | None:
        for m in self.matches:
            if team in (m.first, m.second):
                return m
        return None

    @property
    def finished(self) -> bool:
        return all(m.finished for m in self.matches)

    def with_match(self, match: Match) -> TeamRound:
        return replace(self, matches=tuple(match if m.number == match.number else m for m in self.matches))


@dataclass(frozen=True)
class TeamTournament:
    settings: TeamSettings
    teams: tuple[Team, ...] = ()
    rounds: tuple[TeamRound, ...] = field(default=())

    def team(self, number: int) -> Team:
        for t in self.teams:
            if t.number == number:
                return t
        raise Refused(TeamCode.UNKNOWN_TEAM, team=number)

    def round(self, number: int) -> TeamRound:
        for r in self.rounds:
            if r.number == number:
                return r
        raise Refused(TeamCode.UNKNOWN_ROUND, round=number)

    @property
    def rounds_planned(self) -> int:
        if self.settings.system is TeamSystem.ROUND_ROBIN:
            return berger_rounds(len(self.teams))
        return self.settings.rounds

    def with_round(self, round_: TeamRound) -> TeamTournament:
        kept = tuple(r for r in self.rounds if r.number != round_.number)
        return replace(self, rounds=tuple(sorted((*kept, round_), key=lambda r: r.number)))

    def default_lineup(self) -> tuple[int, ...]:
        return tuple(range(self.settings.boards))


def check_lineup(team: Team, boards: int, lineup: Sequence[int]) -> tuple[int, ...]:
    if len(lineup) != boards:
        raise Refused(TeamCode.LINEUP_SIZE, team=team.name, boards=boards, given=len(lineup))
    for place in lineup:
        if not 0 <= place < len(team.players):
            raise Refused(TeamCode.LINEUP_UNKNOWN_PLAYER, team=team.name, player=place + 1)
    if any(b <= a for a, b in itertools.pairwise(lineup)):
        raise Refused(TeamCode.LINEUP_ORDER, team=team.name)
    return tuple(lineup)
