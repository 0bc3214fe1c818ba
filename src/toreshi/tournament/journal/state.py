"""What a tournament room knows: the tournament, the draft pairing, the linked game rooms, the protests, the
warnings and the audit log — the fold of its events (:mod:`~toreshi.tournament.journal.evolve`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from types import MappingProxyType

from toreshi.kit.refusal import ParamValue, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.model import Colour, GameResult, Tournament
from toreshi.tournament.protests import ProtestCase, ProtestSettings
from toreshi.tournament.standings import Standings, standings_for

Board = tuple[int, int]
"""``(round, board)``."""


@dataclass(frozen=True)
class AuditLine:
    """One line of the tournament's audit log, one per event: when, who, what (the event's type) and the
    particulars as parameters (round, board, result, reason …), which the page words in its language."""

    at: datetime
    by: str
    action: str
    params: Mapping[str, ParamValue] = field(default_factory=lambda: MappingProxyType({}))


class PairingMethod(Enum):
    BERGER = "berger"
    DUTCH = "dutch"


class Acceleration(Enum):
    """How the pairing scores of a Swiss are accelerated (virtual points, C.04.5)."""

    NONE = "none"
    BAKU = "baku"
    """FIDE's Baku method (C.04.5.1), written to a TRF as ``250`` records."""


class ForbidSource(Enum):
    """Where a forbidden pairing came from."""

    HAND = "hand"
    CLUB = "club"
    """The players' club field: every two players of one club."""
    TRF = "trf"
    """A TRF's ``XXP`` or ``260`` records."""


def low_high(first: int, second: int) -> tuple[int, int]:
    """Two pairing numbers in the order a forbidden pair keeps them: ``(low, high)``."""
    low, high = sorted((first, second))
    return low, high


@dataclass(frozen=True)
class ForbiddenPair:
    """Two players the Dutch engine must not pair (an absolute criterion, C1), ``low`` < ``high``."""

    low: int
    high: int
    reason: str = ""
    source: ForbidSource = ForbidSource.HAND


@dataclass(frozen=True)
class PairingChange:
    """The arbiter's change of a round's pairing, kept for the TRF: the Dutch criteria it breaks and why."""

    round: int
    by: str
    reason: str
    criteria: tuple[str, ...] = ()


@dataclass(frozen=True)
class DraftRound:
    """The pairing of the next round: made by the engine, possibly overridden, not published yet."""

    round: int
    method: PairingMethod
    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
    overridden: bool = False
    engine_bye: int | None = None
    """The bye the engine's pairing gave (an override giving it to another player is a forced bye)."""


@dataclass(frozen=True)
class PlayerWarning:
    """A warning or penalty given to a player by the arbiter."""

    at: datetime
    by: str
    player: int
    round: int | None
    reason: str
    penalty: str = ""


class ResultSource(Enum):
    """Who entered a game's result."""

    ARBITER = "arbiter"
    LIVE = "live"
    """The game room, when the game ended (pushed by the service)."""
    PROTEST = "protest"
    """An upheld protest's corrected result."""
    PLAYERS = "players"
    """Both players of a physical board gave it from their links, and the arbiter confirmed the round."""
    ABSENT = "absent"
    """With check-in on, a round-robin game of a player who had not checked in when the round was published: lost
    by default (TK-R4)."""


@dataclass(frozen=True)
class GivenResult:
    """What a player of a physical board gave from their link: the result and, when the tournament asks for them,
    the final kazans ``(White, Black)``."""

    result: GameResult
    kazans: tuple[int, int] | None = None


@dataclass(frozen=True)
class ResultOrigin:
    source: ResultSource
    protest: str = ""
    """The protest's id, for :attr:`ResultSource.PROTEST`."""


ARBITER_ENTERED = ResultOrigin(ResultSource.ARBITER)


@dataclass(frozen=True)
class EvaluationPolicy:
    """The broadcast's evaluation bar: shown to spectators of a live game only ``delay_minutes`` after a move
    was played (never to its players), or not at all; a finished game's evaluation is shown when ``shown``."""

    shown: bool = True
    delay_minutes: int = 15


@dataclass(frozen=True)
class TournamentState:
    """Everything a tournament room knows; ``tournament`` is None until the ``tournament_created`` event."""

    tournament: Tournament | None = None
    protest_settings: ProtestSettings = field(default_factory=ProtestSettings)
    initial_colour: Colour = Colour.WHITE
    draft: DraftRound | None = None
    game_rooms: Mapping[Board, str] = field(default_factory=lambda: MappingProxyType({}))
    result_sources: Mapping[Board, ResultOrigin] = field(default_factory=lambda: MappingProxyType({}))
    protests: tuple[ProtestCase, ...] = ()
    warnings: tuple[PlayerWarning, ...] = ()
    audit: tuple[AuditLine, ...] = ()
    forbidden: tuple[ForbiddenPair, ...] = ()
    acceleration: Acceleration = Acceleration.NONE
    pairing_changes: tuple[PairingChange, ...] = ()
    """The arbiter's changes of published rounds' pairings (and of the draft's)."""
    evaluation: EvaluationPolicy = EvaluationPolicy()
    lots_seed: str | None = None
    """The published seed of the drawing of lots (:mod:`toreshi.tournament.lots`); None until one is published."""
    lots_drawn: bool = False
    """The lots have been drawn with ``lots_seed`` (the seed is then fixed)."""
    language: str = "kk"
    """The tournament's language (kk, ru, en): the TRF's ``122`` is written in it."""
    check_in: bool = False
    """Players check in before each round (a setting, off by default)."""
    check_ins: Mapping[int, frozenset[int]] = field(default_factory=lambda: MappingProxyType({}))
    """Per round, the players checked in for it."""
    absences: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: MappingProxyType({}))
    """Per Swiss round, the players not paired because they had not checked in (each a ``Z`` of the round)."""
    report_kazans: bool = False
    """Players give the game's final kazans with its result (a setting, off by default)."""
    reports: Mapping[Board, Mapping[int, GivenResult]] = field(default_factory=lambda: MappingProxyType({}))
    """Per board, the result (and the kazans) each of its players gave from their link (by pairing number)."""
    report_times: Mapping[Board, Mapping[int, datetime]] = field(default_factory=lambda: MappingProxyType({}))
    """Per board, when each of its players last gave a result."""
    clock_correction_over_s: int = 60
    """A clock correction in a game room by more than this is a departure (journal/departures, ``warning``)."""
    clock_corrections: frozenset[tuple[int, int, int]] = frozenset()
    """The game rooms' clock corrections carried into the tournament: ``(round, board, room time)``."""

    @property
    def t(self) -> Tournament:
        """The tournament; refuses while it has not been created."""
        if self.tournament is None:
            raise Refused(Code.NOT_CREATED)
        return self.tournament

    def standings(self) -> Standings:
        return standings_for(self.t)

    def protest(self, protest_id: str) -> ProtestCase:
        for protest in self.protests:
            if protest.id == protest_id:
                return protest
        raise Refused(Code.UNKNOWN_PROTEST, protest=protest_id)

    def room_of(self, round_number: int, board: int) -> str | None:
        return self.game_rooms.get((round_number, board))

    def board_of(self, room_id: str) -> Board | None:
        """The ``(round, board)`` a game room was linked to."""
        for key, linked in self.game_rooms.items():
            if linked == room_id:
                return key
        return None

    def forbidden_pair(self, first: int, second: int) -> ForbiddenPair | None:
        wanted = low_high(first, second)
        for pair in self.forbidden:
            if (pair.low, pair.high) == wanted:
                return pair
        return None

    def origin(self, round_number: int, board: int) -> ResultOrigin:
        return self.result_sources.get((round_number, board), ARBITER_ENTERED)

    @property
    def next_round(self) -> int:
        return len(self.t.rounds) + 1

    def checked_in(self, round_number: int) -> frozenset[int]:
        return self.check_ins.get(round_number, frozenset())
