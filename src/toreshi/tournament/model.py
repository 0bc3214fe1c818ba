"""The tournament as data: who plays, who arbitrates, the rounds, the games and their results.

Everything here is an immutable value. A :class:`Tournament` changes only by returning a new tournament
(``with_participant``, ``request_bye``, ``add_round``, ``record_result``, ``withdraw``, ``expel``), and each
change is validated first, so a bad input raises a :class:`TournamentError` and loses nothing.

What standings and tie-breaks need is the :class:`Record`: one :class:`RoundEntry` per player and round, in
the vocabulary of the FIDE TRF (result codes ``1 = 0 + - H F U Z``). ``Tournament.record()`` builds it and
applies the withdrawal rules of TK-R10 on the way; a TRF reader can build the same record directly.

Points are :class:`~fractions.Fraction` values so that ties are compared exactly, whatever the point system.

>>> t = Tournament(name="Club cup", system=TournamentSystem.SWISS, rounds_planned=3)
>>> t = t.with_participant(Participant(1, "Abenov")).with_participant(Participant(2, "Bekov"))
>>> t = t.add_round([(1, 2)])
>>> t = t.record_result(1, 1, GameResult.BLACK_WINS)
>>> [(e.code.value, str(t.scoring.points(e.code))) for e in t.record().entries[2].values()]
[('1', '1')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import date, datetime
from enum import Enum
from fractions import Fraction
from functools import cached_property
from types import MappingProxyType
from typing import Any

from toreshi.clock.timecontrol import TimeControl
from toreshi.kit.refusal import Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.tiebreak_rules import TieBreakRules

Points = Fraction


class TournamentError(Refused):
    """A change to a tournament that its state or its regulation does not allow: a
    :class:`~toreshi.tournament.codes.TournamentCode` and its parameters (``TournamentError(NO_BOARD, round=1,
    board=7)``), which a page renders in its reader's language."""


class RecordError(ValueError):
    """A results record that contradicts itself (asymmetric games, unknown players, bad rounds)."""


def format_points(points: Fraction) -> str:
    """Points as people write them: ``4``, ``4.5``, ``0.25``.

    >>> format_points(Fraction(9, 2)), format_points(Fraction(3)), format_points(Fraction(1, 4))
    ('4.5', '3', '0.25')
    """
    if points.denominator == 1:
        return str(points.numerator)
    return format(float(points), "g")


class Colour(Enum):
    """The side a player had. White is the бастаушы (moves first), Black the қостаушы."""

    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class ResultCode(Enum):
    """One player's result in one round, with the FIDE TRF result letters as values."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    UNRATED_WIN = "W"
    """Won a game of less than one move: counts as played for pairing, is not rated."""
    UNRATED_DRAW = "D"
    UNRATED_LOSS = "L"
    HALF_BYE = "H"
    """A requested half-point bye."""
    FULL_BYE = "F"
    PAIRING_BYE = "U"
    """The pairing-allocated bye (PAB)."""
    ZERO_BYE = "Z"
    """A requested zero-point bye or a known absence (also every round after a Swiss withdrawal)."""

    @property
    def played(self) -> bool:
        """A game over the board (forfeits and byes are not)."""
        return self in _PLAYED

    @property
    def rated(self) -> bool:
        return self in (ResultCode.WIN, ResultCode.DRAW, ResultCode.LOSS)

    @property
    def has_opponent(self) -> bool:
        """Whether the TRF entry names an opponent (played games and forfeits)."""
        return self.played or self in (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS)

    @property
    def reversed(self) -> ResultCode:
        """The opponent's code for a game (``1`` ↔ ``0``, ``+`` ↔ ``-``)."""
        return _REVERSED[self]


_PLAYED = frozenset(
    {
        ResultCode.WIN,
        ResultCode.DRAW,
        ResultCode.LOSS,
        ResultCode.UNRATED_WIN,
        ResultCode.UNRATED_DRAW,
        ResultCode.UNRATED_LOSS,
    }
)
_REVERSED = {
    ResultCode.WIN: ResultCode.LOSS,
    ResultCode.LOSS: ResultCode.WIN,
    ResultCode.DRAW: ResultCode.DRAW,
    ResultCode.UNRATED_WIN: ResultCode.UNRATED_LOSS,
    ResultCode.UNRATED_LOSS: ResultCode.UNRATED_WIN,
    ResultCode.UNRATED_DRAW: ResultCode.UNRATED_DRAW,
    ResultCode.FORFEIT_WIN: ResultCode.FORFEIT_LOSS,
    ResultCode.FORFEIT_LOSS: ResultCode.FORFEIT_WIN,
}
_BYE_CODES = frozenset({ResultCode.HALF_BYE, ResultCode.FULL_BYE, ResultCode.PAIRING_BYE, ResultCode.ZERO_BYE})


@dataclass(frozen=True)
class Scoring:
    """The point system. Defaults are TK-R2 and TK-R4: win 1, draw ½, loss 0, forfeit win (+) 1.

    ``pairing_bye`` is what the pairing-allocated bye is worth (a win in a Swiss by C.04.1; a round-robin
    regulation with an odd number of players usually sets 0).
    """

    win: Points = Fraction(1)
    draw: Points = Fraction(1, 2)
    loss: Points = Fraction(0)
    forfeit_win: Points = Fraction(1)
    forfeit_loss: Points = Fraction(0)
    pairing_bye: Points = Fraction(1)
    half_bye: Points = Fraction(1, 2)
    full_bye: Points = Fraction(1)
    zero_bye: Points = Fraction(0)

    def points(self, code: ResultCode) -> Points:
        return self._table[code]

    @cached_property
    def _table(self) -> dict[ResultCode, Points]:
        # Built once per point system: standings ask for points hundreds of thousands of times.
        return {
            ResultCode.WIN: self.win,
            ResultCode.UNRATED_WIN: self.win,
            ResultCode.DRAW: self.draw,
            ResultCode.UNRATED_DRAW: self.draw,
            ResultCode.LOSS: self.loss,
            ResultCode.UNRATED_LOSS: self.loss,
            ResultCode.FORFEIT_WIN: self.forfeit_win,
            ResultCode.FORFEIT_LOSS: self.forfeit_loss,
            ResultCode.PAIRING_BYE: self.pairing_bye,
            ResultCode.HALF_BYE: self.half_bye,
            ResultCode.FULL_BYE: self.full_bye,
            ResultCode.ZERO_BYE: self.zero_bye,
        }


# --- people -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerDetails:
    """What is known of a player, unchecked: a :class:`Participant`'s fields (also those of the journal's events
    that add or edit one)."""

    number: int
    name: str
    rating: int | None = None
    club: str | None = None
    team: str | None = None
    federation_id: str | None = None
    federation: str | None = None
    title: str | None = None
    sex: str | None = None
    birth_date: date | None = None

    def details(self) -> dict[str, Any]:
        """The fields by name, for another kind of details (``ParticipantAdded(**p.details(), at=…, by=…)``)."""
        return {f.name: getattr(self, f.name) for f in fields(PlayerDetails)}


@dataclass(frozen=True)
class Participant(PlayerDetails):
    """A player. ``number`` is the pairing number (TRF starting rank), unique in the tournament."""

    def __post_init__(self) -> None:
        if self.number < 1:
            raise TournamentError(Code.PAIRING_NUMBER_INVALID, number=self.number)
        if not self.name.strip():
            raise TournamentError(Code.NAME_EMPTY, number=self.number)
        if self.rating is not None and self.rating < 0:
            raise TournamentError(Code.RATING_NEGATIVE, number=self.number, rating=self.rating)

    @property
    def label(self) -> str:
        """How pages and messages name the player: ``12. Абай``."""
        return f"{self.number}. {self.name}"


@dataclass(frozen=True)
class Team:
    """A team (or club delegation) and the people who speak for it: they alone may file protests (TK-P1)."""

    name: str
    representatives: tuple[str, ...] = ()
    coaches: tuple[str, ...] = ()

    @property
    def filers(self) -> tuple[str, ...]:
        """Who may file the team's protests (TK-P1): its representatives and its coaches."""
        return (*self.representatives, *self.coaches)


@dataclass(frozen=True)
class Officials:
    """The chief arbiter, the arbiters, the chief arbiters' board (TK-P6) and the appeals committee."""

    chief_arbiter: str | None = None
    arbiters: tuple[str, ...] = ()
    deputy_chief_arbiters: tuple[str, ...] = ()
    chief_arbiters_board: tuple[str, ...] = ()
    appeals_committee: tuple[str, ...] = ()


# --- settings ---------------------------------------------------------------------------------------------


class TournamentSystem(Enum):
    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    SWISS = "swiss_dutch"

    @property
    def is_round_robin(self) -> bool:
        return self is not TournamentSystem.SWISS


@dataclass(frozen=True)
class WithdrawalRules:
    """TK-R10 (the FIDE C.06 defaults the regulation adopts); every number is a setting.

    In a round robin a player who leaves having *played* fewer than ``round_robin_min_share`` of their games
    keeps the results in the record but no points by or against them count (``annul_below_min_share``);
    otherwise their results count and their remaining games are forfeited. In a Swiss their results stand
    and they are simply not paired again. ``expel_after_forfeit_losses`` forfeit losses expel a player
    (``None``: never automatically).
    """

    round_robin_min_share: Fraction = Fraction(1, 2)
    annul_below_min_share: bool = True
    expel_after_forfeit_losses: int | None = 3


@dataclass(frozen=True)
class ByeRules:
    """Requested byes and late entries (Swiss only)."""

    max_half_point_byes: int | None = None
    """How many half-point byes one player may request (``None``: no limit)."""
    last_round_for_half_point_bye: int | None = None
    """Half-point byes may not be requested for later rounds (``None``: any round)."""
    late_entry_until_round: int | None = None
    """A late entrant may join before this round is paired (``None``: no late entries)."""
    late_entry_missed_round: ResultCode = ResultCode.ZERO_BYE
    """What a late entrant gets for each round missed (``Z`` or ``H``)."""


# --- rounds and games -------------------------------------------------------------------------------------


class GameResult(Enum):
    """A game's result from White's side; forfeits as in TK-R4 (``+`` present, ``−`` absent)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "½-½"
    WHITE_FORFEIT_WIN = "+ −"
    BLACK_FORFEIT_WIN = "− +"
    DOUBLE_FORFEIT = "− −"

    @property
    def codes(self) -> tuple[ResultCode, ResultCode]:
        """The (White, Black) result codes."""
        return _GAME_CODES[self]

    @property
    def played(self) -> bool:
        return self in (GameResult.WHITE_WINS, GameResult.BLACK_WINS, GameResult.DRAW)


_GAME_CODES = {
    GameResult.WHITE_WINS: (ResultCode.WIN, ResultCode.LOSS),
    GameResult.BLACK_WINS: (ResultCode.LOSS, ResultCode.WIN),
    GameResult.DRAW: (ResultCode.DRAW, ResultCode.DRAW),
    GameResult.WHITE_FORFEIT_WIN: (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
    GameResult.BLACK_FORFEIT_WIN: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_WIN),
    GameResult.DOUBLE_FORFEIT: (ResultCode.FORFEIT_LOSS, ResultCode.FORFEIT_LOSS),
}


KUMALAKS = 162
"""The kumalaks of a game: the two kazans together hold at most all of them."""


def check_kazans(round_number: int, board: int, result: GameResult, kazans: tuple[int, int]) -> None:
    """Whether the final kazans ``(White, Black)`` can go with ``result``: a game played out (a forfeit has none),
    each kazan 0 or more and both together at most 162; raises :class:`TournamentError` naming the board."""
    if not result.played:
        raise TournamentError(Code.FORFEIT_HAS_NO_KAZANS, round=round_number, board=board)
    if min(kazans) < 0 or sum(kazans) > KUMALAKS:
        raise TournamentError(Code.IMPOSSIBLE_KAZANS, round=round_number, board=board, white=kazans[0],
                              black=kazans[1])  # fmt: skip


@dataclass(frozen=True)
class PairedGame:
    """One pairing on one board. ``kazans`` are the final kazans (White, Black) of a game played out."""

    round: int
    board: int
    white: int
    black: int
    result: GameResult | None = None
    kazans: tuple[int, int] | None = None
    ended_at: datetime | None = None


@dataclass(frozen=True)
class Bye:
    """A player not paired in a round: the PAB, a requested bye, or an absence."""

    player: int
    code: ResultCode

    def __post_init__(self) -> None:
        if self.code not in _BYE_CODES:
            raise ValueError(f"{self.code.value!r} is not a bye code (H, F, U or Z)")  # a programming error


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[PairedGame, ...]
    byes: tuple[Bye, ...] = ()
    paired_at: datetime | None = None
    """When the pairing was published: a protest about the previous round filed later is void (TK-P3)."""

    def game(self, board: int) -> PairedGame:
        for game in self.games:
            if game.board == board:
                return game
        raise TournamentError(Code.NO_BOARD, round=self.number, board=board)

    @property
    def complete(self) -> bool:
        return all(game.result is not None for game in self.games)


class Departure(Enum):
    WITHDRAWN = "withdrawn"
    EXPELLED = "expelled"


@dataclass(frozen=True)
class Leaving:
    """A player leaving the competition after ``after_round`` (0: before the first round).

    ``back_for_round``: a Swiss player who withdrew and re-entered is paired again from that round on (the rounds
    between are absences, ``Z``); None while they stay away.
    """

    player: int
    after_round: int
    kind: Departure
    reason: str = ""
    forfeit_losses: int | None = None
    """Set when the rules expelled the player for this many games lost by default (TK-R10); ``reason`` is empty
    then, the page says why in its own language."""
    back_for_round: int | None = None
    """Set when the player entered again (a re-entry): away only from ``after_round + 1`` to this round."""

    def away_in(self, round_number: int) -> bool:
        return self.after_round < round_number and (self.back_for_round is None or round_number < self.back_for_round)


# --- the record: what standings are computed from ---------------------------------------------------------


@dataclass(frozen=True)
class RoundEntry:
    """One player's round, as a TRF round block: opponent, colour, result code, and kumalaks captured."""

    round: int
    code: ResultCode
    opponent: int | None = None
    colour: Colour | None = None
    kumalaks: int | None = None

    def __post_init__(self) -> None:
        if self.code.has_opponent and self.opponent is None:
            raise RecordError(f"round {self.round}: result {self.code.value!r} needs an opponent")
        if not self.code.has_opponent and self.opponent is not None:
            raise RecordError(f"round {self.round}: bye {self.code.value!r} cannot have an opponent")


@dataclass(frozen=True)
class Record:
    """The results of a tournament, player by player and round by round.

    ``entries[player][round]``; a round missing for a player counts for nothing at all (it is how the games
    of an annulled round-robin withdrawal disappear from their opponents' records). ``excluded`` players are
    kept for the crosstable but are not ranked (TK-R10, round robin, under half the games played).
    """

    participants: Mapping[int, Participant]
    rounds: int
    entries: Mapping[int, Mapping[int, RoundEntry]]
    scoring: Scoring = field(default_factory=Scoring)
    round_robin: bool = False
    excluded: frozenset[int] = frozenset()
    cycles: int = 1
    """Round-robin cycles (2 for a double round robin): how many games each pair plays."""

    def __post_init__(self) -> None:
        for number, rounds in self.entries.items():
            if number not in self.participants:
                raise RecordError(f"results for unknown player {number}")
            for rnd, entry in rounds.items():
                if rnd != entry.round or not 1 <= rnd <= self.rounds:
                    raise RecordError(f"player {number}: round {rnd} is outside 1..{self.rounds}")
                if entry.opponent is None:
                    continue
                if number in self.excluded:
                    continue  # the annulled player's own line keeps games their opponents no longer count
                if entry.opponent not in self.participants:
                    raise RecordError(f"player {number}, round {rnd}: unknown opponent {entry.opponent}")
                back = self.entries.get(entry.opponent, {}).get(rnd)
                if back is None or back.opponent != number:
                    raise RecordError(f"round {rnd}: {number} met {entry.opponent} but not the other way round")
                if back.code not in _possible_replies(entry.code):
                    raise RecordError(
                        f"round {rnd}: {number} scored {entry.code.value!r} against {entry.opponent}, "
                        f"who scored {back.code.value!r}"
                    )

    def points(self, player: int, up_to_round: int | None = None) -> Points:
        if up_to_round is None:
            return self._totals.get(player, Fraction(0))
        return self._points(player, up_to_round)

    @cached_property
    def _totals(self) -> dict[int, Points]:
        return {player: self._points(player, self.rounds) for player in self.participants}

    def _points(self, player: int, last: int) -> Points:
        return sum(
            (self.scoring.points(e.code) for r, e in self.entries.get(player, {}).items() if r <= last),
            Fraction(0),
        )

    def ranked_players(self) -> list[int]:
        return sorted(n for n in self.participants if n not in self.excluded)

    def rounds_of(self, player: int) -> list[RoundEntry]:
        entries = self.entries.get(player, {})
        return [entries[r] for r in sorted(entries)]


def _possible_replies(code: ResultCode) -> tuple[ResultCode, ...]:
    # A double forfeit is "-" on both sides (TRF); every other game mirrors.
    if code is ResultCode.FORFEIT_LOSS:
        return (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS)
    return (code.reversed,)


def freeze_entries(entries: Mapping[int, Mapping[int, RoundEntry]]) -> Mapping[int, Mapping[int, RoundEntry]]:
    """Read-only copies, so a record cannot change under the standings computed from it."""
    return MappingProxyType({p: MappingProxyType(dict(r)) for p, r in entries.items()})


# --- the tournament ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ByeRequest:
    """A requested bye for a future round (half-point ``H`` or zero-point ``Z``)."""

    player: int
    round: int
    code: ResultCode


@dataclass(frozen=True)
class Tournament:
    """A tournament and everything that happened in it so far."""

    name: str
    system: TournamentSystem
    rounds_planned: int
    start: date | None = None
    end: date | None = None
    venue: str | None = None
    time_control: str | None = None
    """A time-control preset's key (or, in older logs, a text typed); None for a custom control."""
    control: TimeControl | None = None
    """The control the round's game rooms get: the preset's, or a custom one (periods, increment or delay)."""
    officials: Officials = field(default_factory=Officials)
    scoring: Scoring = field(default_factory=Scoring)
    tiebreaks: tuple[str, ...] = ()
    """Tie-break order as FIDE codes with modifiers, e.g. ``("DE", "BPTS")`` (see :mod:`.tiebreaks`)."""
    tiebreak_rules: TieBreakRules | None = None
    """The version of FIDE C.07 to rank by; None: the one in force on ``start`` (see :mod:`.tiebreak_rules`)."""
    withdrawal_rules: WithdrawalRules = field(default_factory=WithdrawalRules)
    bye_rules: ByeRules = field(default_factory=ByeRules)
    participants: tuple[Participant, ...] = ()
    teams: tuple[Team, ...] = ()
    rounds: tuple[Round, ...] = ()
    entered_round: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    """Late entrants: the first round each one could be paired in."""
    bye_requests: tuple[ByeRequest, ...] = ()
    leavings: tuple[Leaving, ...] = ()

    def __post_init__(self) -> None:
        if self.rounds_planned < 1:
            raise TournamentError(Code.NO_ROUNDS)
        if self.start and self.end and self.end < self.start:
            raise TournamentError(Code.ENDS_BEFORE_START, start=self.start.isoformat(), end=self.end.isoformat())

    # -- look-ups

    def participant(self, number: int) -> Participant:
        for p in self.participants:
            if p.number == number:
                return p
        raise TournamentError(Code.UNKNOWN_PLAYER, number=number)

    def label(self, number: int) -> str:
        """``12. Абай`` for a participant, the bare number for anyone else (messages name people)."""
        for p in self.participants:
            if p.number == number:
                return p.label
        return str(number)

    def labels(self, numbers: Iterable[int]) -> str:
        return ", ".join(self.label(number) for number in numbers)

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise TournamentError(Code.ROUND_NOT_PAIRED, round=number, paired=len(self.rounds))
        return self.rounds[number - 1]

    def team(self, name: str) -> Team:
        for t in self.teams:
            if t.name == name:
                return t
        raise TournamentError(Code.UNKNOWN_TEAM, team=name)

    def leaving(self, player: int) -> Leaving | None:
        """The player's latest leaving (a re-entered player may leave again)."""
        for leaving in reversed(self.leavings):
            if leaving.player == player:
                return leaving
        return None

    def protest_filers(self) -> frozenset[str]:
        """Everyone allowed to file a protest: team representatives and coaches (TK-P1)."""
        return frozenset(name for t in self.teams for name in t.filers)

    def players_to_pair(self, round_number: int) -> list[int]:
        """Players the pairing of ``round_number`` must include: entered, still in, no requested bye."""
        requested = {b.player for b in self.bye_requests if b.round == round_number}
        return [
            p.number
            for p in self.participants
            if self.entered_round.get(p.number, 1) <= round_number
            and p.number not in requested
            and not self._gone_before(p.number, round_number)
        ]

    def _gone_before(self, player: int, round_number: int) -> bool:
        return any(lv.player == player and lv.away_in(round_number) for lv in self.leavings)

    def _is_out(self, player: int) -> bool:
        """Left and not (yet) back."""
        leaving = self.leaving(player)
        return leaving is not None and leaving.back_for_round is None

    # -- changes

    def with_participant(self, participant: Participant) -> Tournament:
        """Enter a player. After round 1 has been paired this is a late entry, allowed only by the rules."""
        if any(p.number == participant.number for p in self.participants):
            raise TournamentError(Code.NUMBER_TAKEN, number=participant.number)
        if participant.team is not None and self.teams and participant.team not in {t.name for t in self.teams}:
            raise TournamentError(Code.PLAYER_TEAM_UNKNOWN, player=participant.name, team=participant.team)
        entered = dict(self.entered_round)
        if self.rounds:
            next_round = len(self.rounds) + 1
            limit = self.bye_rules.late_entry_until_round
            if self.system.is_round_robin:
                raise TournamentError(Code.ROUND_ROBIN_CLOSED)
            # The refusal names the setting that refuses (the arbiter changes it on the settings page).
            if limit is None:
                raise TournamentError(Code.LATE_ENTRIES_OFF, round=next_round)
            if next_round > limit:
                raise TournamentError(Code.LATE_ENTRY_CLOSED, round=next_round, until=limit)
            if next_round > self.rounds_planned:
                raise TournamentError(Code.ENTRIES_CLOSED)
            entered[participant.number] = next_round
        return replace(
            self,
            participants=(*self.participants, participant),
            entered_round=MappingProxyType(entered),
        )

    def with_team(self, team: Team) -> Tournament:
        if any(t.name == team.name for t in self.teams):
            raise TournamentError(Code.TEAM_EXISTS, team=team.name)
        return replace(self, teams=(*self.teams, team))

    def request_bye(self, player: int, round_number: int, code: ResultCode = ResultCode.HALF_BYE) -> Tournament:
        """A player asks to sit out a round that has not been paired yet, for a half or zero point."""
        self.participant(player)
        if self.system.is_round_robin:
            raise TournamentError(Code.BYES_SWISS_ONLY)
        if code not in (ResultCode.HALF_BYE, ResultCode.ZERO_BYE):
            raise TournamentError(Code.BYE_NOT_REQUESTABLE, code=code.value)
        if round_number <= len(self.rounds):
            raise TournamentError(Code.ROUND_ALREADY_PAIRED, round=round_number)
        if round_number > self.rounds_planned:
            raise TournamentError(Code.NO_SUCH_ROUND, round=round_number, rounds=self.rounds_planned)
        if self._gone_before(player, round_number):
            raise TournamentError(Code.PLAYER_GONE, player=self.label(player))
        if any(b.player == player and b.round == round_number for b in self.bye_requests):
            raise TournamentError(Code.BYE_TAKEN, player=self.label(player), round=round_number)
        rules = self.bye_rules
        if code is ResultCode.HALF_BYE:
            if rules.last_round_for_half_point_bye is not None and round_number > rules.last_round_for_half_point_bye:
                raise TournamentError(Code.HALF_BYE_TOO_LATE, round=rules.last_round_for_half_point_bye)
            taken = sum(1 for b in self.bye_requests if b.player == player and b.code is ResultCode.HALF_BYE)
            if rules.max_half_point_byes is not None and taken >= rules.max_half_point_byes:
                raise TournamentError(Code.HALF_BYES_USED, player=self.label(player), count=rules.max_half_point_byes)
        return replace(self, bye_requests=(*self.bye_requests, ByeRequest(player, round_number, code)))

    def add_round(
        self,
        pairs: Sequence[tuple[int, int]],
        pairing_bye: int | None = None,
        paired_at: datetime | None = None,
    ) -> Tournament:
        """Publish the next round: ``(white, black)`` pairs on boards 1, 2, … and at most one PAB.

        Requested byes and absences are filled in from the requests and the leavings; every player who
        must be paired has to appear exactly once.
        """
        number = len(self.rounds) + 1
        if number > self.rounds_planned:
            raise TournamentError(Code.ALL_ROUNDS_PAIRED, rounds=self.rounds_planned)
        if self.rounds and not self.rounds[-1].complete and not self.system.is_round_robin:
            raise TournamentError(Code.ROUND_INCOMPLETE, round=number - 1)
        if paired_at is not None and paired_at.tzinfo is None:
            raise ValueError("paired_at must be an aware datetime")  # a programming error
        expected = set(self.players_to_pair(number))
        seen: list[int] = [p for pair in pairs for p in pair]
        if pairing_bye is not None:
            seen.append(pairing_bye)
        for player in seen:
            self.participant(player)
        duplicates = sorted({p for p in seen if seen.count(p) > 1})
        if duplicates:
            raise TournamentError(Code.PAIRED_TWICE, round=number, players=self.labels(duplicates))
        if self.system.is_round_robin:
            # The round-robin schedule still pairs players who have left; their games become forfeits.
            expected |= {lv.player for lv in self.leavings}
        if set(seen) != expected:
            missing, extra = sorted(expected - set(seen)), sorted(set(seen) - expected)
            if not extra:
                raise TournamentError(Code.NOT_PAIRED, round=number, players=self.labels(missing))
            if not missing:
                raise TournamentError(Code.WRONGLY_PAIRED, round=number, players=self.labels(extra))
            raise TournamentError(
                Code.PAIRING_MISMATCH, round=number, missing=self.labels(missing), extra=self.labels(extra)
            )
        games = tuple(PairedGame(number, board, w, b) for board, (w, b) in enumerate(pairs, start=1))
        byes = [Bye(pairing_bye, ResultCode.PAIRING_BYE)] if pairing_bye is not None else []
        byes += [Bye(b.player, b.code) for b in self.bye_requests if b.round == number]
        new_round = Round(number, games, tuple(byes), paired_at)
        return replace(self, rounds=(*self.rounds, new_round))

    def record_result(
        self,
        round_number: int,
        board: int,
        result: GameResult,
        kazans: tuple[int, int] | None = None,
        ended_at: datetime | None = None,
    ) -> Tournament:
        """Enter (or correct) the result on one board. Three forfeit losses may expel (TK-R10 setting)."""
        rnd = self.round(round_number)
        game = rnd.game(board)
        if kazans is not None:
            check_kazans(round_number, board, result, kazans)
        if ended_at is not None and ended_at.tzinfo is None:
            raise ValueError("ended_at must be an aware datetime")  # a programming error
        new_game = replace(game, result=result, kazans=kazans, ended_at=ended_at)
        games = tuple(new_game if g.board == board else g for g in rnd.games)
        rounds = list(self.rounds)
        rounds[round_number - 1] = replace(rnd, games=games)
        updated = replace(self, rounds=tuple(rounds))
        return updated._expel_for_forfeits(round_number)

    def _expel_for_forfeits(self, round_number: int) -> Tournament:
        limit = self.withdrawal_rules.expel_after_forfeit_losses
        if limit is None:
            return self
        result = self
        for player, count in self._forfeit_losses().items():
            if count >= limit and not result._is_out(player):
                expelled = Leaving(player, round_number, Departure.EXPELLED, forfeit_losses=count)
                result = result._leave(expelled)
        return result

    def _forfeit_losses(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for rnd in self.rounds:
            for game in rnd.games:
                if game.result is None:
                    continue
                for player, code in zip((game.white, game.black), game.result.codes, strict=True):
                    if code is ResultCode.FORFEIT_LOSS and not self._gone_before(player, rnd.number):
                        counts[player] = counts.get(player, 0) + 1
        return counts

    def withdraw(self, player: int, after_round: int, reason: str = "") -> Tournament:
        return self._leave(Leaving(player, after_round, Departure.WITHDRAWN, reason))

    def expel(self, player: int, after_round: int, reason: str = "") -> Tournament:
        return self._leave(Leaving(player, after_round, Departure.EXPELLED, reason))

    def readmit(self, player: int, round_number: int) -> Tournament:
        """A Swiss player who withdrew enters again and is paired from ``round_number`` on (a re-entry).

        Allowed as late entries are (``ByeRules.late_entry_until_round``), for a round not yet paired; the rounds
        missed are absences (``Z``). Expelled players do not come back.
        """
        leaving = self.leaving(player)
        if leaving is None or leaving.back_for_round is not None:
            raise TournamentError(Code.NOT_LEFT, player=self.label(player))
        if self.system.is_round_robin:
            raise TournamentError(Code.NO_REENTRY_IN_ROUND_ROBIN)
        if leaving.kind is Departure.EXPELLED:
            raise TournamentError(Code.EXPELLED_CANNOT_REENTER, player=self.label(player))
        limit = self.bye_rules.late_entry_until_round
        if limit is None or round_number > limit:
            raise TournamentError(Code.REENTRY_CLOSED, round=round_number)
        if round_number <= len(self.rounds) or round_number > self.rounds_planned:
            raise TournamentError(Code.ROUND_NOT_TO_BE_PAIRED, round=round_number)
        if round_number <= leaving.after_round:
            raise TournamentError(Code.REENTRY_BEFORE_LEAVING, player=self.label(player), round=leaving.after_round)
        leavings = tuple(replace(lv, back_for_round=round_number) if lv is leaving else lv for lv in self.leavings)
        return replace(self, leavings=leavings)

    def _leave(self, leaving: Leaving) -> Tournament:
        self.participant(leaving.player)
        if self._is_out(leaving.player):
            raise TournamentError(Code.ALREADY_LEFT, player=self.label(leaving.player))
        back = previous.back_for_round if (previous := self.leaving(leaving.player)) is not None else None
        if back is not None and leaving.after_round < back - 1:
            raise TournamentError(Code.BACK_ONLY_FROM_ROUND, player=self.label(leaving.player), round=back)
        if not 0 <= leaving.after_round <= self.rounds_planned:
            raise TournamentError(Code.CANNOT_LEAVE_AFTER, round=leaving.after_round)
        if not self.system.is_round_robin and leaving.after_round < len(self.rounds):
            raise TournamentError(Code.SWISS_LEAVES_AFTER_PAIRED_ROUND, round=leaving.after_round + 1)
        return replace(self, leavings=(*self.leavings, leaving))

    # -- the record

    def record(self, up_to_round: int | None = None) -> Record:
        """The results as a :class:`Record`, with the withdrawal rules of TK-R10 applied.

        ``up_to_round`` gives the record (and so the standings) after that round.
        """
        numbers = {p.number: p for p in self.participants}
        entries: dict[int, dict[int, RoundEntry]] = {n: {} for n in numbers}
        forfeited = self._round_robin_forfeits()
        last = len(self.rounds) if up_to_round is None else up_to_round
        for rnd in self.rounds[:last]:
            for game in rnd.games:
                result = forfeited.get((rnd.number, game.board), game.result)
                if result is None:
                    continue
                white_kum, black_kum = game.kazans if game.kazans is not None else (None, None)
                w_code, b_code = result.codes
                entries[game.white][rnd.number] = RoundEntry(rnd.number, w_code, game.black, Colour.WHITE, white_kum)
                entries[game.black][rnd.number] = RoundEntry(rnd.number, b_code, game.white, Colour.BLACK, black_kum)
            for bye in rnd.byes:
                entries[bye.player][rnd.number] = RoundEntry(rnd.number, bye.code)
            if not self.system.is_round_robin and rnd.complete:
                # Swiss: everyone not in this round (left, or not yet entered) is an absence ("0000 - Z").
                for number in numbers:
                    if rnd.number not in entries[number]:
                        late = self.entered_round.get(number, 1) > rnd.number
                        code = self.bye_rules.late_entry_missed_round if late else ResultCode.ZERO_BYE
                        entries[number][rnd.number] = RoundEntry(rnd.number, code)
        excluded = self._annulled_withdrawals()
        for gone in excluded:
            for entry in entries[gone].values():
                if entry.opponent is not None:
                    entries[entry.opponent].pop(entry.round, None)
        rounds_done = max((r for e in entries.values() for r in e), default=0)
        return Record(
            participants=MappingProxyType(numbers),
            rounds=max(rounds_done, len([r for r in self.rounds[:last] if r.complete])),
            entries=freeze_entries(entries),
            scoring=self.scoring,
            round_robin=self.system.is_round_robin,
            excluded=frozenset(excluded),
            cycles=2 if self.system is TournamentSystem.DOUBLE_ROUND_ROBIN else 1,
        )

    def _round_robin_forfeits(self) -> dict[tuple[int, int], GameResult]:
        """Scheduled round-robin games after a player left: − for the player who left, + for the opponent."""
        if not self.system.is_round_robin:
            return {}
        forfeits: dict[tuple[int, int], GameResult] = {}
        for rnd in self.rounds:
            for game in rnd.games:
                if game.result is not None:
                    continue
                white_gone = self._gone_before(game.white, rnd.number)
                black_gone = self._gone_before(game.black, rnd.number)
                if white_gone and black_gone:
                    forfeits[(rnd.number, game.board)] = GameResult.DOUBLE_FORFEIT
                elif white_gone:
                    forfeits[(rnd.number, game.board)] = GameResult.BLACK_FORFEIT_WIN
                elif black_gone:
                    forfeits[(rnd.number, game.board)] = GameResult.WHITE_FORFEIT_WIN
        return forfeits

    def _annulled_withdrawals(self) -> set[int]:
        """Round-robin leavers who played fewer than the minimum share of their games (TK-R10 (1))."""
        rules = self.withdrawal_rules
        if not self.system.is_round_robin or not rules.annul_below_min_share:
            return set()
        scheduled = self.scheduled_games_per_player()
        annulled = set()
        for leaving in self.leavings:
            played = sum(
                1
                for rnd in self.rounds
                for g in rnd.games
                if leaving.player in (g.white, g.black) and g.result is not None and g.result.played
            )
            if Fraction(played, max(scheduled, 1)) < rules.round_robin_min_share:
                annulled.add(leaving.player)
        return annulled

    def scheduled_games_per_player(self) -> int:
        """Games each player is due to play: all opponents once per cycle in a round robin, else the rounds."""
        if not self.system.is_round_robin:
            return self.rounds_planned
        cycles = 2 if self.system is TournamentSystem.DOUBLE_ROUND_ROBIN else 1
        return (len(self.participants) - 1) * cycles


def build_record(
    participants: Iterable[Participant],
    rounds: int,
    entries: Mapping[int, Iterable[RoundEntry]],
    scoring: Scoring | None = None,
    round_robin: bool = False,
    cycles: int = 1,
) -> Record:
    """A record from per-player entry lists (what a TRF reader or a test has at hand)."""
    by_number = {p.number: p for p in participants}
    table = {number: {e.round: e for e in player_entries} for number, player_entries in entries.items()}
    return Record(
        participants=MappingProxyType(by_number),
        rounds=rounds,
        entries=freeze_entries(table),
        scoring=scoring or Scoring(),
        round_robin=round_robin,
        cycles=cycles,
    )
