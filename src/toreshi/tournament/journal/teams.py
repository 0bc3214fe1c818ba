"""A team competition as an event log: typed commands and events, ``decide`` and ``evolve`` (the journal style
of the individual tournament, in a module of its own).

The arbiter creates the competition, registers teams (a form, or a CSV list), pairs each round, may change a
team's line-up for a round (keeping the board order), and enters each match's board results **once**, as one
command: the match's result and every individual game follow from it (:mod:`toreshi.tournament.teams.boards`).
A correction re-enters the whole match with a reason. Every event names who (``by``) and when (``at``).

>>> from datetime import datetime
>>> from toreshi.kit.core import Actor, Context, fold
>>> at = datetime.fromisoformat("2026-12-01T09:00:00+00:00")
>>> ctx = Context(Actor("arbiter", "chief"), now_ms=0, meta={"at": at})
>>> state = TeamJournalState()
>>> commands = [CreateTeams(name="Cup", system=TeamSystem.ROUND_ROBIN, boards=2),
...             RegisterTeam(name="Алматы", players=("Абай", "Бек")),
...             RegisterTeam(name="Астана", players=("Дана", "Ерлан")),
...             PairTeamRound(), EnterMatch(round=1, match=1, results=(GameResult.WHITE_WINS, GameResult.DRAW))]
>>> for command in commands:
...     state = fold(evolve, state, decide(state, command, ctx))
>>> [(state.t.team(r.team).name, str(r.match_points), str(r.game_points)) for r in team_standings(state.t).rows]
[('Алматы', '2', '3/2'), ('Астана', '0', '1/2')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from fractions import Fraction
from typing import ClassVar

from toreshi.kit.codec import Codec, spec
from toreshi.kit.core import Context, fold, proven
from toreshi.kit.refusal import Refusal, Refused
from toreshi.tournament.journal.decide import wall_time
from toreshi.tournament.journal.events import Stamped
from toreshi.tournament.journal.values import CONVERTERS
from toreshi.tournament.model import GameResult
from toreshi.tournament.protests import FilerRole, GameFacts, ProtestDesk, ProtestSettings, ProtestStatus
from toreshi.tournament.teams.codes import TeamCode
from toreshi.tournament.teams.csv_import import parse_teams
from toreshi.tournament.teams.model import (
    MAX_BOARDS,
    MAX_LIST,
    Match,
    MatchPoints,
    PrimaryScore,
    Team,
    TeamPlayer,
    TeamRound,
    TeamSettings,
    TeamSystem,
    TeamTournament,
    check_lineup,
    check_team,
)
from toreshi.tournament.teams.pairing import pair_next_round
from toreshi.tournament.teams.tiebreaks import team_standings
from toreshi.tournament.tiebreak_rules import TieBreakRules

KIND = "teams"
ARBITER = "arbiter"

_NAME = spec(name=True, max_length=80)
_PEOPLE = spec(name=True, max_length=80, max_items=MAX_LIST)
_ROUND = spec(minimum=1, maximum=100)
_POINTS = spec(minimum=0, maximum=10)

# --- commands ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CreateTeams:
    type: ClassVar[str] = "create_teams"
    name: str = field(metadata=spec(name=True, max_length=120))
    system: TeamSystem
    boards: int = field(metadata=spec(minimum=1, maximum=MAX_BOARDS))
    rounds: int = field(default=0, metadata=spec(minimum=0, maximum=100))
    primary: PrimaryScore = PrimaryScore.MATCH
    match_win: int = field(default=2, metadata=_POINTS)
    match_draw: int = field(default=1, metadata=_POINTS)
    match_loss: int = field(default=0, metadata=_POINTS)
    tiebreaks: tuple[str, ...] = field(default=(), metadata=spec(name=True, max_length=16, max_items=10))
    board_prize_min_games: int = field(default=0, metadata=spec(minimum=0, maximum=100))
    start: str = field(default="", metadata=spec(max_length=10))
    tiebreak_rules: TieBreakRules | None = None
    """The C.07 version; None: the one in force on the start date."""


@dataclass(frozen=True, kw_only=True)
class RegisterTeam:
    type: ClassVar[str] = "register_team"
    name: str = field(metadata=_NAME)
    players: tuple[str, ...] = field(metadata=_PEOPLE)
    """In the fixed board order: the boards first, then the reserves."""
    ratings: tuple[int, ...] = field(default=(), metadata=spec(minimum=0, maximum=4000, max_items=MAX_LIST))
    """0 for an unrated player; fewer ratings than players: the rest unrated."""
    representatives: tuple[str, ...] = field(default=(), metadata=spec(name=True, max_length=80, max_items=5))


@dataclass(frozen=True, kw_only=True)
class ImportTeams:
    type: ClassVar[str] = "import_teams"
    text: str = field(metadata=spec(max_length=200_000, multiline=True))


@dataclass(frozen=True, kw_only=True)
class PairTeamRound:
    type: ClassVar[str] = "pair_team_round"


@dataclass(frozen=True, kw_only=True)
class SetLineup:
    type: ClassVar[str] = "set_lineup"
    round: int = field(metadata=_ROUND)
    team: int = field(metadata=spec(minimum=1, maximum=1000))
    places: tuple[int, ...] = field(metadata=spec(minimum=1, maximum=MAX_LIST, max_items=MAX_BOARDS))
    """Places on the team's list (1-based), one per board, in board order."""


@dataclass(frozen=True, kw_only=True)
class EnterMatch:
    type: ClassVar[str] = "enter_match"
    round: int = field(metadata=_ROUND)
    match: int = field(metadata=spec(minimum=1, maximum=500))
    results: tuple[GameResult, ...] = field(metadata=spec(max_items=MAX_BOARDS))
    """One per board, from that board's White's side."""
    reason: str = field(default="", metadata=spec(max_length=500))
    """Why a match already entered is entered again (the audit log shows it)."""


@dataclass(frozen=True, kw_only=True)
class FileTeamProtest:
    """A written protest handed to the chief arbiter by a team's representative (TK-P1), recorded by the arbiter:
    the arbiter's wall time is the filing time."""

    type: ClassVar[str] = "file_team_protest"
    round: int = field(metadata=_ROUND)
    match: int = field(metadata=spec(minimum=1, maximum=500))
    board: int = field(metadata=spec(minimum=1, maximum=MAX_BOARDS))
    team: int = field(metadata=spec(minimum=1, maximum=1000))
    filed_by: str = field(metadata=_NAME)
    text: str = field(metadata=spec(max_length=4000, multiline=True))
    fee_paid: int = field(default=0, metadata=spec(minimum=0, maximum=10**9))
    by_arbiter: bool = False
    """The arbiter files it for the team (received in writing from a team without recorded representatives): the
    filer is the arbiter, ``filed_by`` is ignored."""


@dataclass(frozen=True, kw_only=True)
class SetTeamRepresentatives:
    """The team's representatives (TK-P1), set or changed at any time: a team imported without them (a CSV with no
    ``representative`` column) could otherwise never file a protest."""

    type: ClassVar[str] = "set_team_representatives"
    team: int = field(metadata=spec(minimum=1, maximum=1000))
    representatives: tuple[str, ...] = field(default=(), metadata=spec(name=True, max_length=80, max_items=5))


TeamCommand = (
    CreateTeams
    | RegisterTeam
    | ImportTeams
    | PairTeamRound
    | SetLineup
    | EnterMatch
    | FileTeamProtest
    | SetTeamRepresentatives
)
COMMANDS: Codec[TeamCommand] = Codec(CreateTeams, RegisterTeam, ImportTeams, PairTeamRound, SetLineup, EnterMatch,
                                     FileTeamProtest, SetTeamRepresentatives, converters=CONVERTERS)  # fmt: skip

# --- events ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TeamsCreated(Stamped):
    type: ClassVar[str] = "teams_created"
    name: str
    system: TeamSystem
    boards: int
    rounds: int
    primary: PrimaryScore
    match_win: Fraction
    match_draw: Fraction
    match_loss: Fraction
    tiebreaks: tuple[str, ...]
    board_prize_min_games: int
    start: str
    tiebreak_rules: TieBreakRules | None = None


@dataclass(frozen=True, kw_only=True)
class TeamRegistered(Stamped):
    type: ClassVar[str] = "team_registered"
    number: int
    name: str
    players: tuple[TeamPlayer, ...]
    representatives: tuple[str, ...] = ()


@dataclass(frozen=True)
class PairedMatch:
    number: int
    first: int
    second: int | None


@dataclass(frozen=True, kw_only=True)
class TeamRoundPaired(Stamped):
    type: ClassVar[str] = "team_round_paired"
    round: int
    matches: tuple[PairedMatch, ...]


@dataclass(frozen=True, kw_only=True)
class LineupSet(Stamped):
    type: ClassVar[str] = "lineup_set"
    round: int
    team: int
    places: tuple[int, ...]
    """0-based places on the team's list."""


@dataclass(frozen=True, kw_only=True)
class MatchEntered(Stamped):
    type: ClassVar[str] = "match_entered"
    round: int
    match: int
    results: tuple[GameResult, ...]
    previous: tuple[GameResult, ...] = ()
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class TeamProtestFiled(Stamped):
    """A protest received, with what the rules said at once (TK-P1 filers and 30 minutes, TK-P3, TK-P4's fee)."""

    type: ClassVar[str] = "team_protest_filed"
    id: str
    round: int
    match: int
    board: int
    team: int
    filed_by: str
    text: str
    fee_paid: int
    status: ProtestStatus
    clause: str = ""
    """The clause that decided a refusal to accept (``TK-P1`` late, ``TK-P3`` next round paired)."""
    minutes: int = 0
    """Minutes after the match's result when it was filed late."""
    by_arbiter: bool = False
    """Filed by the arbiter (``filed_by``) for the team."""


@dataclass(frozen=True, kw_only=True)
class TeamRepresentativesSet(Stamped):
    type: ClassVar[str] = "team_representatives_set"
    team: int
    representatives: tuple[str, ...]


TeamEvent = (
    TeamsCreated
    | TeamRegistered
    | TeamRoundPaired
    | LineupSet
    | MatchEntered
    | TeamProtestFiled
    | TeamRepresentativesSet
)
EVENTS: Codec[TeamEvent] = Codec(TeamsCreated, TeamRegistered, TeamRoundPaired, LineupSet, MatchEntered,
                                 TeamProtestFiled, TeamRepresentativesSet, converters=CONVERTERS)  # fmt: skip


def encode_event(event: TeamEvent) -> tuple[str, dict[str, object]]:
    return EVENTS.encode_apart(event)


def decode_event(name: str, payload: dict[str, object]) -> TeamEvent:
    return EVENTS.decode(payload, name=name)


# --- state -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamJournalState:
    tournament: TeamTournament | None = None
    log: tuple[TeamEvent, ...] = ()
    """Every event, for the audit page (a team competition's log is small)."""

    @property
    def protests(self) -> tuple[TeamProtestFiled, ...]:
        return tuple(e for e in self.log if isinstance(e, TeamProtestFiled))

    def paired_at(self, round_number: int) -> datetime | None:
        found = [e.at for e in self.log if isinstance(e, TeamRoundPaired) and e.round == round_number]
        return found[-1] if found else None

    def entered_at(self, round_number: int, match: int) -> datetime | None:
        """When the match's result was first entered: the end of its games for the protest rules."""
        found = [e.at for e in self.log if isinstance(e, MatchEntered) and (e.round, e.match) == (round_number, match)]
        return found[0] if found else None

    @property
    def t(self) -> TeamTournament:
        if self.tournament is None:
            raise Refused(TeamCode.NOT_CREATED)
        return self.tournament


# --- decide ------------------------------------------------------------------------------------------------


def _settings(command: CreateTeams) -> TeamSettings:
    return TeamSettings(
        name=command.name, system=command.system, boards=command.boards,
        rounds=command.rounds if command.system is TeamSystem.SWISS else 0, primary=command.primary,
        points=MatchPoints(Fraction(command.match_win), Fraction(command.match_draw), Fraction(command.match_loss)),
        tiebreaks=command.tiebreaks, board_prize_min_games=command.board_prize_min_games, start=command.start,
        tiebreak_rules=command.tiebreak_rules,
    ).check()  # fmt: skip


def _events(state: TeamJournalState, command: TeamCommand, at: datetime, by: str) -> list[TeamEvent]:
    match command:
        case CreateTeams():
            if state.tournament is not None:
                raise Refused(TeamCode.ALREADY_CREATED)
            s = _settings(command)
            if s.system is TeamSystem.SWISS and s.rounds < 1:
                raise Refused(TeamCode.NO_ROUNDS)
            return [TeamsCreated(at=at, by=by, name=s.name, system=s.system, boards=s.boards, rounds=s.rounds,
                                 primary=s.primary, match_win=s.points.win, match_draw=s.points.draw,
                                 match_loss=s.points.loss, tiebreaks=s.tiebreaks,
                                 board_prize_min_games=s.board_prize_min_games, start=s.start,
                                 tiebreak_rules=s.tiebreak_rules)]  # fmt: skip
        case RegisterTeam() | ImportTeams():
            t = state.t
            if t.rounds:
                raise Refused(TeamCode.REGISTRATION_CLOSED)
            known = list(t.teams)
            for team in _new_teams(command, len(t.teams) + 1):
                known.append(check_team(team, t.settings.boards, known))
            return [_registered(team, at, by) for team in known[len(t.teams) :]]
        case PairTeamRound():
            r = pair_next_round(state.t)
            matches = tuple(PairedMatch(m.number, m.first, m.second) for m in r.matches)
            return [TeamRoundPaired(at=at, by=by, round=r.number, matches=matches)]
        case SetLineup():
            t = state.t
            team = t.team(command.team)
            m = _match_of(t, command.round, command.team)
            if m.results:
                raise Refused(TeamCode.LINEUP_AFTER_RESULT, round=command.round, team=team.name)
            places = check_lineup(team, t.settings.boards, [p - 1 for p in command.places])
            if places == m.lineup_of(team.number):
                return []
            return [LineupSet(at=at, by=by, round=command.round, team=team.number, places=places)]
        case EnterMatch():
            t = state.t
            m = t.round(command.round).match(command.match)
            if m.is_bye:
                raise Refused(TeamCode.BYE_HAS_NO_RESULT, round=command.round, match=command.match)
            if len(command.results) != t.settings.boards:
                raise Refused(TeamCode.WRONG_RESULT_COUNT, round=command.round, match=command.match,
                              boards=t.settings.boards, given=len(command.results))  # fmt: skip
            if m.results == command.results:
                return []
            if m.results and not command.reason:
                raise Refused(TeamCode.CORRECTION_NEEDS_REASON, round=command.round, match=command.match)
            return [MatchEntered(at=at, by=by, round=command.round, match=command.match, results=command.results,
                                 previous=m.results, reason=command.reason)]  # fmt: skip
        case FileTeamProtest():
            return [_protest(state, command, at, by)]
        case SetTeamRepresentatives():
            team = state.t.team(command.team)
            if team.representatives == command.representatives:
                return []
            return [TeamRepresentativesSet(at=at, by=by, team=team.number, representatives=command.representatives)]
    raise TypeError(f"not a team command: {command!r}")  # pragma: no cover - the codec reads only these


def _new_teams(command: RegisterTeam | ImportTeams, first_number: int) -> list[Team]:
    """The teams a command registers (numbered from ``first_number``): the one of the form, or a CSV list's."""
    if isinstance(command, ImportTeams):
        return parse_teams(command.text, first_number)
    ratings = list(command.ratings) + [0] * (len(command.players) - len(command.ratings))
    players = tuple(TeamPlayer(name, r or None) for name, r in zip(command.players, ratings, strict=False))
    return [Team(first_number, command.name, players, command.representatives)]


def _registered(team: Team, at: datetime, by: str) -> TeamRegistered:
    return TeamRegistered(at=at, by=by, number=team.number, name=team.name, players=team.players,
                          representatives=team.representatives)  # fmt: skip


def _protest(state: TeamJournalState, command: FileTeamProtest, at: datetime, by: str) -> TeamProtestFiled:
    """TK-P1 (the team's representatives, within 30 minutes of the match's result), TK-P3 (before the next round is
    paired) and TK-P4 (the fee) through the individual tournament's protest desk."""
    t = state.t
    team = t.team(command.team)
    m = t.round(command.round).match(command.match)
    if command.team not in (m.first, m.second):
        raise Refused(TeamCode.NOT_IN_MATCH, round=command.round, team=team.name)
    if not 1 <= command.board <= t.settings.boards:
        raise Refused(TeamCode.UNKNOWN_BOARD, round=command.round, match=command.match, board=command.board)
    ended = state.entered_at(command.round, command.match)
    if ended is None or m.second is None:
        raise Refused(TeamCode.MATCH_NOT_ENTERED, round=command.round, match=command.match)
    facts = GameFacts(command.round, command.board, m.first, m.second, ended,
                      next_round_paired_at=state.paired_at(command.round + 1),
                      white_team=t.team(m.first).name, black_team=t.team(m.second).name)  # fmt: skip
    filed_by = by if command.by_arbiter else command.filed_by
    desk = ProtestDesk(lambda: at, ProtestSettings(), filers=None if command.by_arbiter else team.representatives)
    protest = desk.file(f"P{len(state.protests) + 1}", facts, filed_by, FilerRole.REPRESENTATIVE, command.text,
                        team=team.name, fee_paid=command.fee_paid)  # fmt: skip
    last = protest.log[-1].params
    clause = str(last.get("clause", "")) if protest.status is ProtestStatus.NOT_ACCEPTED else ""
    minutes = last.get("minutes", 0)
    return TeamProtestFiled(at=at, by=by, id=protest.id, round=command.round, match=command.match,
                            board=command.board, team=team.number, filed_by=filed_by, text=protest.text,
                            fee_paid=command.fee_paid, status=protest.status, clause=clause,
                            minutes=minutes if isinstance(minutes, int) else 0,
                            by_arbiter=command.by_arbiter)  # fmt: skip


def _match_of(t: TeamTournament, round_number: int, team: int) -> Match:
    m = t.round(round_number).match_of(team)
    if m is None or m.is_bye:
        raise Refused(TeamCode.NOT_IN_MATCH, round=round_number, team=t.team(team).name)
    return m


def decide(state: TeamJournalState, command: TeamCommand, context: Context) -> Sequence[TeamEvent] | Refusal:
    """The events of ``command`` (:func:`~toreshi.kit.core.proven`), or why not;
    ``context.meta["at"]`` is the server's aware wall time."""
    return proven(evolve, state, lambda: _events(state, command, wall_time(context), context.actor.name))


# --- evolve ------------------------------------------------------------------------------------------------


def evolve(state: TeamJournalState, event: TeamEvent) -> TeamJournalState:
    log = (*state.log, event)
    match event:
        case TeamsCreated():
            settings = TeamSettings(
                name=event.name, system=event.system, boards=event.boards, rounds=event.rounds, primary=event.primary,
                points=MatchPoints(event.match_win, event.match_draw, event.match_loss), tiebreaks=event.tiebreaks,
                board_prize_min_games=event.board_prize_min_games, start=event.start,
                tiebreak_rules=event.tiebreak_rules,
            )  # fmt: skip
            return TeamJournalState(TeamTournament(settings), log)
        case TeamRegistered():
            t = state.t
            team = Team(event.number, event.name, event.players, event.representatives)
            return TeamJournalState(replace(t, teams=(*t.teams, team)), log)
        case TeamRoundPaired():
            t = state.t
            lineup = t.default_lineup()
            matches = tuple(Match(m.number, m.first, m.second, lineup, lineup if m.second is not None else ())
                            for m in event.matches)  # fmt: skip
            return TeamJournalState(t.with_round(TeamRound(event.round, matches)), log)
        case LineupSet():
            t = state.t
            r = t.round(event.round)
            m = _match_of(t, event.round, event.team)
            changed = (replace(m, first_lineup=event.places) if m.side_of(event.team) == 0
                       else replace(m, second_lineup=event.places))  # fmt: skip
            return TeamJournalState(t.with_round(r.with_match(changed)), log)
        case MatchEntered():
            t = state.t
            r = t.round(event.round)
            m = r.match(event.match)
            return TeamJournalState(t.with_round(r.with_match(replace(m, results=event.results))), log)
        case TeamProtestFiled():
            return TeamJournalState(state.t, log)
        case TeamRepresentativesSet():
            t = state.t
            represented = replace(t.team(event.team), representatives=event.representatives)
            teams = tuple(represented if team.number == event.team else team for team in t.teams)
            return TeamJournalState(replace(t, teams=teams), log)
    raise TypeError(f"not a team event: {event!r}")  # pragma: no cover


def replay(events: Sequence[TeamEvent]) -> TeamJournalState:
    return fold(evolve, TeamJournalState(), events)


__all__ = [
    "ARBITER",
    "COMMANDS",
    "EVENTS",
    "KIND",
    "CreateTeams",
    "EnterMatch",
    "FileTeamProtest",
    "ImportTeams",
    "LineupSet",
    "MatchEntered",
    "PairTeamRound",
    "PairedMatch",
    "RegisterTeam",
    "SetLineup",
    "SetTeamRepresentatives",
    "TeamCommand",
    "TeamEvent",
    "TeamJournalState",
    "TeamProtestFiled",
    "TeamRegistered",
    "TeamRepresentativesSet",
    "TeamRoundPaired",
    "TeamsCreated",
    "decide",
    "decode_event",
    "encode_event",
    "evolve",
    "replay",
    "team_standings",
]
