"""The tournament's commands: what an arbiter (a team's link, the service) asks, as typed values.

A client's JSON becomes one of these at the edge through :data:`COMMANDS` (``COMMANDS.read(name, data)``), every
field checked by the kit's readers (lengths, one-line names, bounds) with a refusal that names the field; the
journal's :func:`~toreshi.tournament.journal.decide.decide` then only meets well-formed commands. The wall time
and the actor are not in a command: the server brings them (``Context``).

>>> COMMANDS.read("add_participant", {"name": "  Абай  ", "rating": 1650})
AddParticipant(name='Абай', rating=1650, club='', team='', federation_id='', federation='', title='', sex='', \
birth_date='', confirmed=False, reason='')
>>> COMMANDS.read("withdraw", {"number": 0})
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_too_small (field='number', minimum=1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any, ClassVar

from toreshi.clock.timecontrol import TimeControl
from toreshi.kit.codec import Codec, spec
from toreshi.tournament.journal.state import Acceleration
from toreshi.tournament.journal.values import CONVERTERS, FileLanguage, FirstColour
from toreshi.tournament.model import TournamentSystem
from toreshi.tournament.protests import FilerRole
from toreshi.tournament.tiebreak_rules import TieBreakRules

ARBITER = "arbiter"
"""The role that runs a tournament."""
TEAM = "team"
"""A team's representatives and coaches, by the team's secret link (``Actor("team", team)``): they file protests."""
SYSTEM = "system"
"""The service, reporting the result of a finished linked game room."""
PLAYER = "player"
"""A player, by the player's own secret tournament link (``Actor("player", "12")``: the pairing number): checks in
before a round and reports the result of a game on a physical board (issue 28)."""

MAX_PLAYERS = 10_000
MAX_ROUNDS = 1_000

_NUMBER = spec(minimum=1, maximum=MAX_PLAYERS)
_ROUND = spec(minimum=1, maximum=MAX_ROUNDS)
_PERSON = spec(name=True, max_length=80)
_PEOPLE = spec(name=True, max_length=80, max_items=50)
_REASON = spec(max_length=500)
_COUNT = spec(minimum=0, maximum=MAX_ROUNDS)
_MONEY = spec(minimum=0, maximum=10**12)
_CURRENCY = spec(max_length=3)
_PROTEST_ID = spec(name=True, max_length=32)


class Setting(Enum):
    """A setting that can be set to "none" (no date, never expel, no limit), named in ``Configure.cleared``."""

    START = "start"
    END = "end"
    EXPEL_AFTER = "expel_after"
    MAX_HALF_BYES = "max_half_byes"
    LATE_ENTRY_UNTIL = "late_entry_until"
    LAST_HALF_BYE_ROUND = "last_half_bye_round"
    TIEBREAK_RULES = "tiebreak_rules"
    """Cleared: the version of C.07 in force on the start date."""


class ByeKind(Enum):
    """A bye a player may ask for (TRF letters)."""

    HALF = "H"
    ZERO = "Z"


@dataclass(frozen=True, kw_only=True)
class _Settings:
    """The settings a command changes; ``None`` leaves one as it is, ``cleared`` sets the listed ones to none, and
    an empty text clears a text (venue, time control, chief arbiter)."""

    name: str | None = field(default=None, metadata=spec(name=True, max_length=120))
    system: TournamentSystem | None = None
    rounds: int | None = field(default=None, metadata=_COUNT)
    """0 for a round robin: one round per opponent, set when round 1 is paired."""
    venue: str | None = field(default=None, metadata=spec(max_length=120))
    time_control: str | None = field(default=None, metadata=spec(max_length=40))
    """A time-control preset's key (``rapid``, ``blitz`` …)."""
    control: TimeControl | None = None
    """A custom control (periods with an increment or a delay, TK-C4); given, it replaces a preset's key."""
    currency: str | None = field(default=None, metadata=_CURRENCY)
    chief_arbiter: str | None = field(default=None, metadata=spec(max_length=80))
    start: str | None = field(default=None, metadata=spec(max_length=10))
    end: str | None = field(default=None, metadata=spec(max_length=10))
    tiebreaks: tuple[str, ...] | None = field(default=None, metadata=spec(name=True, max_length=16, max_items=20))
    arbiters: tuple[str, ...] | None = field(default=None, metadata=_PEOPLE)
    deputies: tuple[str, ...] | None = field(default=None, metadata=_PEOPLE)
    """The deputy chief arbiters (the TRF's ``112`` lines, the printed crosstable)."""
    board: tuple[str, ...] | None = field(default=None, metadata=_PEOPLE)
    """The chief arbiters' board (TK-P6)."""
    committee: tuple[str, ...] | None = field(default=None, metadata=_PEOPLE)
    """The appeals committee (TK-P6)."""
    fee: int | None = field(default=None, metadata=_MONEY)
    """The protest fee (TK-P4)."""
    expel_after: int | None = field(default=None, metadata=_COUNT)
    """Games lost by default that expel a player (0: never; TK-R10)."""
    max_half_byes: int | None = field(default=None, metadata=_COUNT)
    late_entry_until: int | None = field(default=None, metadata=_COUNT)
    last_half_bye_round: int | None = field(default=None, metadata=_COUNT)
    initial_colour: FirstColour | None = None
    bye_points: str | None = field(default=None, metadata=spec(max_length=12))
    tiebreak_rules: TieBreakRules | None = None
    """The version of FIDE C.07 to rank by (cleared: the one in force on the start date)."""
    acceleration: Acceleration | None = None
    """Baku acceleration (C.04.5.1) for a Swiss, or none; fixed once round 1 is paired."""
    late_entry_missed: ByeKind | None = None
    """What a late entrant scores for each round missed: ``H`` (a half point) or ``Z`` (nothing)."""
    lots_seed: str | None = field(default=None, metadata=spec(max_length=64))
    """The seed of the drawing of lots (:mod:`toreshi.tournament.lots`), published before the draw."""
    language: FileLanguage | None = None
    """The tournament's language: the TRF's ``122`` is written in it (Kazakh by default)."""
    check_in: bool | None = None
    """Players check in before each round; only those checked in are paired (off: everyone is)."""
    clock_correction_over_s: int | None = field(default=None, metadata=spec(minimum=0, maximum=24 * 3600))
    """An arbiter's clock correction in one of the tournament's game rooms by more than this many seconds is a
    departure (confirmed, with a reason, carried into the tournament); 0: every correction is."""
    report_kazans: bool | None = None
    """Players give the final kazans with the result of a physical board (off: the result alone)."""
    cleared: tuple[Setting, ...] = field(default=(), metadata=spec(max_items=len(Setting)))


@dataclass(frozen=True, kw_only=True)
class Create(_Settings):
    type: ClassVar[str] = "create"
    name: str = field(metadata=spec(name=True, max_length=120))


@dataclass(frozen=True, kw_only=True)
class Configure(_Settings):
    type: ClassVar[str] = "configure"


@dataclass(frozen=True, kw_only=True)
class _Team:
    name: str = field(metadata=_PERSON)
    representatives: tuple[str, ...] = field(default=(), metadata=_PEOPLE)
    coaches: tuple[str, ...] = field(default=(), metadata=_PEOPLE)


@dataclass(frozen=True, kw_only=True)
class AddTeam(_Team):
    type: ClassVar[str] = "add_team"


@dataclass(frozen=True, kw_only=True)
class EditTeam(_Team):
    type: ClassVar[str] = "edit_team"


@dataclass(frozen=True, kw_only=True)
class ParticipantEntry:
    """A participant as a form or a CSV line gives it (the pairing number is the journal's to give)."""

    name: str = field(metadata=_PERSON)
    rating: int | None = field(default=None, metadata=spec(minimum=0, maximum=9_999))
    club: str = field(default="", metadata=spec(max_length=120))
    team: str = field(default="", metadata=spec(max_length=80))
    federation_id: str = field(default="", metadata=spec(max_length=20))
    federation: str = field(default="", metadata=spec(max_length=3))
    title: str = field(default="", metadata=spec(max_length=3))
    sex: str = field(default="", metadata=spec(max_length=1))
    """``m`` or ``w`` (``f`` is read as ``w``); empty if not given."""
    birth_date: str = field(default="", metadata=spec(max_length=10))


@dataclass(frozen=True, kw_only=True)
class AddParticipant(ParticipantEntry):
    type: ClassVar[str] = "add_participant"
    confirmed: bool = False
    """A late entry (round 1 paired) is a departure: the arbiter confirms it and gives the ``reason``
    (journal/departures)."""
    reason: str = field(default="", metadata=_REASON)


@dataclass(frozen=True, kw_only=True)
class EditParticipant(ParticipantEntry):
    type: ClassVar[str] = "edit_participant"
    number: int = field(metadata=_NUMBER)


@dataclass(frozen=True, kw_only=True)
class ImportParticipants:
    """Participants from CSV text with a header row (:mod:`~toreshi.tournament.journal.csv_import`)."""

    type: ClassVar[str] = "import_participants"
    csv: str = field(metadata=spec(max_length=1_000_000, multiline=True))


@dataclass(frozen=True, kw_only=True)
class SeedByRating:
    """Pairing numbers in rating order (only before round 1 is paired)."""

    type: ClassVar[str] = "seed_by_rating"


@dataclass(frozen=True, kw_only=True)
class DrawLots:
    """Pairing numbers and the first-round colour drawn from the published seed (only before round 1 is paired)."""

    type: ClassVar[str] = "draw_lots"


@dataclass(frozen=True, kw_only=True)
class _Leaving:
    number: int = field(metadata=_NUMBER)
    after_round: int | None = field(default=None, metadata=_COUNT)
    """``None``: after the rounds published so far."""
    reason: str = field(default="", metadata=_REASON)
    confirmed: bool = False
    """An expulsion is a departure: confirmed, with the reason (journal/departures)."""


@dataclass(frozen=True, kw_only=True)
class Withdraw(_Leaving):
    type: ClassVar[str] = "withdraw"


@dataclass(frozen=True, kw_only=True)
class Expel(_Leaving):
    type: ClassVar[str] = "expel"


@dataclass(frozen=True, kw_only=True)
class DeleteEntry:
    """An entry made by mistake (or a player who never came) taken off the list before round 1 is paired; after
    that a player only withdraws (the rounds keep their games)."""

    type: ClassVar[str] = "delete_entry"
    number: int = field(metadata=_NUMBER)
    reason: str = field(default="", metadata=_REASON)
    confirmed: bool = False


@dataclass(frozen=True, kw_only=True)
class RequestBye:
    type: ClassVar[str] = "request_bye"
    number: int = field(metadata=_NUMBER)
    round: int | None = field(default=None, metadata=_ROUND)
    """``None``: the next round."""
    code: ByeKind = ByeKind.HALF


@dataclass(frozen=True, kw_only=True)
class PairRound:
    """Pair the next round (Berger tables for a round robin, the FIDE Dutch engine for a Swiss)."""

    type: ClassVar[str] = "pair_round"


@dataclass(frozen=True, kw_only=True)
class OverridePairing:
    """The arbiter's own pairing of the round paired, with the reason (kept in the audit log)."""

    type: ClassVar[str] = "override_pairing"
    pairs: tuple[tuple[int, int], ...] = field(metadata=spec(minimum=1, maximum=MAX_PLAYERS, max_items=MAX_PLAYERS))
    bye: int | None = field(default=None, metadata=_NUMBER)
    reason: str = field(metadata=spec(name=True, max_length=500))
    confirmed: bool = False
    """The arbiter has seen which Dutch criteria the change breaks and keeps it (else such a change is refused
    with the criteria, ``override_breaks_criteria``)."""


@dataclass(frozen=True, kw_only=True)
class DiscardPairing:
    type: ClassVar[str] = "discard_pairing"
    reason: str = field(default="", metadata=_REASON)


@dataclass(frozen=True, kw_only=True)
class PublishRound:
    type: ClassVar[str] = "publish_round"


@dataclass(frozen=True, kw_only=True)
class _OnBoard:
    """A command about one board of one round."""

    round: int = field(metadata=_ROUND)
    board: int = field(metadata=_NUMBER)


@dataclass(frozen=True, kw_only=True)
class LinkGameRoom(_OnBoard):
    type: ClassVar[str] = "link_game_room"
    room_id: str = field(metadata=spec(name=True, max_length=64))


@dataclass(frozen=True, kw_only=True)
class EnterResult(_OnBoard):
    """A result entered (the arbiter) or reported (the service, for a game room that ended: ``ended_at``).

    A correction of a result already there needs its ``reason``."""

    type: ClassVar[str] = "enter_result"
    result: str = field(metadata=spec(name=True, max_length=12))
    kazans: tuple[int, int] | None = field(default=None, metadata=spec(minimum=0, maximum=162, max_items=2))
    reason: str = field(default="", metadata=_REASON)
    ended_at: datetime | None = None
    """When the game ended; only the service gives it (a result the arbiter enters ended when it was entered)."""
    confirmed: bool = False
    """The arbiter confirmed the warning of a forfeit entered by hand (journal/departures)."""


@dataclass(frozen=True, kw_only=True)
class CheckIn:
    """A player is present for the next round (``present``), or is not after all; from the player's own link or by
    the arbiter. Only with the setting ``check_in`` on, and (in a Swiss) until the round is paired."""

    type: ClassVar[str] = "check_in"
    number: int = field(metadata=_NUMBER)
    present: bool = True


@dataclass(frozen=True, kw_only=True)
class ReportResult(_OnBoard):
    """One of the two players of a physical board (no live game room) gives the game's result from their link.
    When both give the same result it waits for the arbiter's confirmation (:class:`ConfirmRound`); when they
    differ the board is flagged for the arbiter."""

    type: ClassVar[str] = "report_result"
    number: int = field(metadata=_NUMBER)
    """The reporting player (a player's link reports only for its own player)."""
    result: str = field(metadata=spec(name=True, max_length=12))
    kazans: tuple[int, int] | None = field(default=None, metadata=spec(minimum=0, maximum=162, max_items=2))
    """The final kazans ``(White, Black)``: given when the setting ``report_kazans`` asks for them, and only then."""


@dataclass(frozen=True, kw_only=True)
class ConfirmRound:
    """The arbiter confirms, in one action, every result of the round both players agree on: they count from now."""

    type: ClassVar[str] = "confirm_round"
    round: int = field(metadata=_ROUND)


@dataclass(frozen=True, kw_only=True)
class RecordClockCorrection(_OnBoard):
    """A clock correction in the board's game room above the tournament's amount, carried into the tournament by
    the service (never typed by hand): the game room asked the arbiter to confirm it and for the reason."""

    type: ClassVar[str] = "record_clock_correction"
    number: int = field(metadata=_NUMBER)
    """The player whose dial was corrected."""
    delta_ms: int = field(metadata=spec(minimum=-(10**9), maximum=10**9))
    at_ms: int = field(metadata=spec(minimum=0, maximum=10**13))
    """The room time of the correction: with the round and board, what makes it one (carried once)."""
    corrected_at: datetime
    """The wall time of the correction."""
    arbiter: str = field(default="", metadata=spec(max_length=80))
    """Who corrected it (the game room's arbiter)."""
    reason: str = field(default="", metadata=_REASON)
    confirmed: bool = False


@dataclass(frozen=True, kw_only=True)
class Warn:
    type: ClassVar[str] = "warn"
    number: int = field(metadata=_NUMBER)
    round: int | None = field(default=None, metadata=_ROUND)
    reason: str = field(metadata=spec(name=True, max_length=500))
    penalty: str = field(default="", metadata=spec(max_length=200))


@dataclass(frozen=True, kw_only=True)
class SetEvaluation:
    """Whether spectators of the event's live games see the engine's evaluation, and after how long (fair play)."""

    type: ClassVar[str] = "set_evaluation"
    shown: bool
    delay_minutes: int = field(default=15, metadata=spec(minimum=0, maximum=24 * 60))


@dataclass(frozen=True, kw_only=True)
class FileProtest(_OnBoard):
    """A written protest received (TK-P1); the signature times come from the game room (TK-P2)."""

    type: ClassVar[str] = "file_protest"
    filed_by: str = field(metadata=_PERSON)
    role: FilerRole = FilerRole.REPRESENTATIVE
    text: str = field(metadata=spec(max_length=4_000, multiline=True))
    fee_paid: int = field(default=0, metadata=_MONEY)
    currency: str = field(default="", metadata=_CURRENCY)
    id: str = field(default="", metadata=spec(max_length=32))
    """Empty: the next free ``P<n>``."""
    white_signed_at: datetime | None = None
    black_signed_at: datetime | None = None
    for_team: str = field(default="", metadata=spec(max_length=80))
    """The arbiter files for this team (one with nobody to file, e.g. imported without representatives): the
    filer is then the arbiter, and ``filed_by`` is ignored. Only the arbiter's desk sets it."""


@dataclass(frozen=True, kw_only=True)
class _ProtestStep:
    """A step in the life of the protest ``id`` (filed before)."""

    id: str = field(metadata=_PROTEST_ID)


@dataclass(frozen=True, kw_only=True)
class PayProtestFee(_ProtestStep):
    type: ClassVar[str] = "pay_protest_fee"
    amount: int = field(metadata=_MONEY)
    currency: str = field(default="", metadata=_CURRENCY)


@dataclass(frozen=True, kw_only=True)
class ConveneProtest(_ProtestStep):
    type: ClassVar[str] = "convene_protest"
    board: tuple[str, ...] = field(default=(), metadata=_PEOPLE)
    committee: tuple[str, ...] = field(default=(), metadata=_PEOPLE)
    unpaid_confirmed: bool = False
    """The arbiter was warned that the fee is unpaid and that the board then closes the protest unconsidered
    (TK-P4), and goes ahead; without it such a meeting is refused (the warning)."""


@dataclass(frozen=True, kw_only=True)
class DecideProtest(_ProtestStep):
    type: ClassVar[str] = "decide_protest"
    upheld: bool
    members: tuple[str, ...] = field(default=(), metadata=_PEOPLE)
    reasons: str = field(metadata=spec(max_length=2_000, multiline=True))
    corrected_result: str | None = field(default=None, metadata=spec(name=True, max_length=12))


@dataclass(frozen=True, kw_only=True)
class NotifyProtest(_ProtestStep):
    type: ClassVar[str] = "notify_protest"
    recipient: str = field(default="", metadata=spec(max_length=80))


@dataclass(frozen=True, kw_only=True)
class Readmit:
    """A Swiss player who withdrew enters again, paired from ``round`` on (``None``: the next round)."""

    type: ClassVar[str] = "readmit"
    number: int = field(metadata=_NUMBER)
    round: int | None = field(default=None, metadata=_ROUND)
    reason: str = field(default="", metadata=_REASON)
    """Required: a re-entry overrides the withdrawal rule (TK-R10), a departure (journal/departures)."""
    confirmed: bool = False


@dataclass(frozen=True, kw_only=True)
class _TwoPlayers:
    """A command about two players, by pairing number."""

    first: int = field(metadata=_NUMBER)
    second: int = field(metadata=_NUMBER)


@dataclass(frozen=True, kw_only=True)
class ForbidPair(_TwoPlayers):
    """Two players the Dutch engine must not pair with each other (by hand: one family, one club …)."""

    type: ClassVar[str] = "forbid_pair"
    reason: str = field(default="", metadata=_REASON)


@dataclass(frozen=True, kw_only=True)
class ForbidSameClub:
    """Every two participants whose club field is the same are kept apart (pairs already forbidden stay)."""

    type: ClassVar[str] = "forbid_same_club"
    reason: str = field(default="", metadata=_REASON)


@dataclass(frozen=True, kw_only=True)
class ImportForbidden:
    """The prohibited pairings of a TRF (``XXP`` and ``260`` records), by pairing number."""

    type: ClassVar[str] = "import_forbidden"
    trf: str = field(metadata=spec(max_length=1_000_000, multiline=True))
    reason: str = field(default="", metadata=_REASON)


@dataclass(frozen=True, kw_only=True)
class AllowPair(_TwoPlayers):
    """A forbidden pairing lifted."""

    type: ClassVar[str] = "allow_pair"


TournamentCommand = (
    Create | Configure | AddTeam | EditTeam | AddParticipant | EditParticipant | ImportParticipants | SeedByRating
    | Withdraw | Expel | RequestBye | PairRound | OverridePairing | DiscardPairing | PublishRound | LinkGameRoom
    | EnterResult | Warn | FileProtest | PayProtestFee | ConveneProtest | DecideProtest | NotifyProtest
    | Readmit | ForbidPair | ForbidSameClub | ImportForbidden | AllowPair | SetEvaluation | DeleteEntry | DrawLots
    | CheckIn | ReportResult | ConfirmRound | RecordClockCorrection
)  # fmt: skip

COMMANDS: Codec[TournamentCommand] = Codec(
    Create, Configure, AddTeam, EditTeam, AddParticipant, EditParticipant, ImportParticipants, SeedByRating,
    Withdraw, Expel, RequestBye, PairRound, OverridePairing, DiscardPairing, PublishRound, LinkGameRoom,
    EnterResult, Warn, FileProtest, PayProtestFee, ConveneProtest, DecideProtest, NotifyProtest,
    Readmit, ForbidPair, ForbidSameClub, ImportForbidden, AllowPair, SetEvaluation, DeleteEntry, DrawLots,
    CheckIn, ReportResult, ConfirmRound, RecordClockCorrection,
    converters=CONVERTERS,
)  # fmt: skip
"""Every tournament command, by its name."""


def command_data(command: TournamentCommand) -> dict[str, Any]:
    """The JSON object of a command without its ``type`` (what a client sends as ``data``)."""
    data = COMMANDS.encode(command)
    del data["type"]
    return data
