"""The tournament's events: what happened, typed, as the log stores them.

Every event names who did it (``by``) and when (``at``, the server's aware wall time). :func:`encode_event` gives
the ``(type, payload)`` the log stores; :func:`decode_event` reads one back strictly (an unknown field or a wrong
type is a :class:`~toreshi.kit.codec.CodecError`: a corrupt log, never a polite refusal).

Logs written before the events were typed still replay: :func:`decode_event` first brings their payloads to
today's shape (:data:`LEGACY`) — settings cleared by a ``null`` become ``cleared``, and a protest's numbers typed
into a form (``"1"``) become numbers.

>>> at = datetime.fromisoformat("2026-11-30T09:00:00+00:00")
>>> kind, payload = encode_event(RoundPublished(at=at, by="chief", round=1))
>>> kind, payload
('round_published', {'at': '2026-11-30T09:00:00+00:00', 'by': 'chief', 'round': 1})
>>> decode_event(kind, payload).round
1
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction
from typing import Any, ClassVar

from toreshi.clock.timecontrol import TimeControl
from toreshi.kit.codec import Codec
from toreshi.tournament.journal.commands import Setting
from toreshi.tournament.journal.departures import DepartureKind, Level
from toreshi.tournament.journal.state import Acceleration, ForbidSource, PairingMethod, ResultSource
from toreshi.tournament.journal.values import CONVERTERS, FileLanguage, FirstColour
from toreshi.tournament.model import GameResult, Participant, PlayerDetails, ResultCode, TournamentSystem
from toreshi.tournament.protests import FilerRole
from toreshi.tournament.tiebreak_rules import TieBreakRules

Payload = dict[str, Any]


@dataclass(frozen=True)
class Stamp:
    """When a command was given (the server's aware wall time) and by whom: every event of it carries both."""

    at: datetime
    by: str


@dataclass(frozen=True, kw_only=True)
class Stamped:
    """The base of every journal event (the tournament's and the team competition's): its wall time and who."""

    at: datetime
    by: str


@dataclass(frozen=True, kw_only=True)
class _SettingsChanged(Stamped):
    """The settings given (``None``: unchanged; ``cleared``: set to none; an empty text clears a text)."""

    name: str | None = None
    system: TournamentSystem | None = None
    rounds: int | None = None
    venue: str | None = None
    time_control: str | None = None
    control: TimeControl | None = None
    currency: str | None = None
    chief_arbiter: str | None = None
    start: date | None = None
    end: date | None = None
    tiebreaks: tuple[str, ...] | None = None
    arbiters: tuple[str, ...] | None = None
    deputies: tuple[str, ...] | None = None
    board: tuple[str, ...] | None = None
    committee: tuple[str, ...] | None = None
    fee: int | None = None
    expel_after: int | None = None
    max_half_byes: int | None = None
    late_entry_until: int | None = None
    last_half_bye_round: int | None = None
    initial_colour: FirstColour | None = None
    bye_points: Fraction | None = None
    tiebreak_rules: TieBreakRules | None = None
    acceleration: Acceleration | None = None
    late_entry_missed: ResultCode | None = None
    lots_seed: str | None = None
    language: FileLanguage | None = None
    check_in: bool | None = None
    clock_correction_over_s: int | None = None
    report_kazans: bool | None = None
    cleared: tuple[Setting, ...] = ()


@dataclass(frozen=True, kw_only=True)
class TournamentCreated(_SettingsChanged):
    type: ClassVar[str] = "tournament_created"


@dataclass(frozen=True, kw_only=True)
class TournamentConfigured(_SettingsChanged):
    type: ClassVar[str] = "tournament_configured"


@dataclass(frozen=True, kw_only=True)
class _TeamEvent(Stamped):
    name: str
    representatives: tuple[str, ...] = ()
    coaches: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class TeamAdded(_TeamEvent):
    type: ClassVar[str] = "team_added"


@dataclass(frozen=True, kw_only=True)
class TeamEdited(_TeamEvent):
    type: ClassVar[str] = "team_edited"


@dataclass(frozen=True, kw_only=True)
class ParticipantFields(PlayerDetails):
    """A participant as the log keeps it: the model's :class:`~toreshi.tournament.model.Participant` fields."""

    def participant(self) -> Participant:
        return Participant(**self.details())


@dataclass(frozen=True, kw_only=True)
class ParticipantAdded(Stamped, ParticipantFields):
    type: ClassVar[str] = "participant_added"


@dataclass(frozen=True, kw_only=True)
class ParticipantEdited(Stamped, ParticipantFields):
    type: ClassVar[str] = "participant_edited"


@dataclass(frozen=True, kw_only=True)
class ImportedParticipant(ParticipantFields):
    line: int
    """The CSV line it came from."""


@dataclass(frozen=True, kw_only=True)
class ParticipantsImported(Stamped):
    """One chunk of a CSV import (a large file is several of these, appended together)."""

    type: ClassVar[str] = "participants_imported"
    participants: tuple[ImportedParticipant, ...]


@dataclass(frozen=True, kw_only=True)
class ParticipantsRenumbered(Stamped):
    type: ClassVar[str] = "participants_renumbered"
    order: tuple[int, ...]
    """The old pairing numbers, in the order of the new ones (1, 2, …)."""


@dataclass(frozen=True, kw_only=True)
class LotsDrawn(Stamped):
    """The lots drawn from ``seed``: the new pairing numbers (``order`` as in ``participants_renumbered``) and the
    first-round colour; anyone re-derives both from the seed and the entries (:mod:`toreshi.tournament.lots`)."""

    type: ClassVar[str] = "lots_drawn"
    seed: str
    order: tuple[int, ...]
    initial_colour: FirstColour


@dataclass(frozen=True, kw_only=True)
class EntryDeleted(Stamped):
    """An entry taken off the list before round 1 was paired; ``name`` keeps who it was for the audit log."""

    type: ClassVar[str] = "entry_deleted"
    number: int
    name: str
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class _Left(Stamped):
    number: int
    after_round: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class ParticipantWithdrawn(_Left):
    type: ClassVar[str] = "participant_withdrawn"


@dataclass(frozen=True, kw_only=True)
class ParticipantExpelled(_Left):
    type: ClassVar[str] = "participant_expelled"


@dataclass(frozen=True, kw_only=True)
class ByeRequested(Stamped):
    type: ClassVar[str] = "bye_requested"
    number: int
    round: int
    code: ResultCode


@dataclass(frozen=True, kw_only=True)
class RoundPaired(Stamped):
    type: ClassVar[str] = "round_paired"
    round: int
    method: PairingMethod
    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
    absent: tuple[int, ...] = ()
    """With check-in on, in a Swiss: the players to pair who had not checked in — not paired, absent (``Z``)."""


@dataclass(frozen=True, kw_only=True)
class PairingOverridden(Stamped):
    type: ClassVar[str] = "pairing_overridden"
    round: int
    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None
    reason: str
    criteria: tuple[str, ...] = ()
    """The Dutch criteria the change breaks (the arbiter confirmed it), e.g. ``("C12",)``."""


@dataclass(frozen=True, kw_only=True)
class PairingDiscarded(Stamped):
    type: ClassVar[str] = "pairing_discarded"
    round: int
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class RoundPublished(Stamped):
    type: ClassVar[str] = "round_published"
    round: int


@dataclass(frozen=True, kw_only=True)
class _OnBoard(Stamped):
    """An event about one board of one round."""

    round: int
    board: int


@dataclass(frozen=True, kw_only=True)
class GameRoomLinked(_OnBoard):
    type: ClassVar[str] = "game_room_linked"
    room_id: str


@dataclass(frozen=True, kw_only=True)
class ResultEntered(_OnBoard):
    type: ClassVar[str] = "result_entered"
    result: GameResult
    source: ResultSource = ResultSource.ARBITER
    kazans: tuple[int, int] | None = None
    ended_at: datetime | None = None


@dataclass(frozen=True, kw_only=True)
class ResultCorrected(ResultEntered):
    type: ClassVar[str] = "result_corrected"
    previous: GameResult
    reason: str


@dataclass(frozen=True, kw_only=True)
class CheckedIn(Stamped):
    """A player checked in (``present``) for round ``round``, or out again; by the player's link or the arbiter."""

    type: ClassVar[str] = "checked_in"
    number: int
    round: int
    present: bool = True


@dataclass(frozen=True, kw_only=True)
class ResultReported(_OnBoard):
    """A player of a physical board gave its result (awaiting the other player and the arbiter)."""

    type: ClassVar[str] = "result_reported"
    number: int
    result: GameResult
    kazans: tuple[int, int] | None = None
    """The final kazans ``(White, Black)`` the player gave (when the tournament asks for them)."""


@dataclass(frozen=True, kw_only=True)
class RoundConfirmed(Stamped):
    """The arbiter confirmed the players' agreed results of ``boards`` (each then a ``result_entered``)."""

    type: ClassVar[str] = "round_confirmed"
    round: int
    boards: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class WarningIssued(Stamped):
    type: ClassVar[str] = "warning_issued"
    number: int
    round: int | None = None
    reason: str
    penalty: str = ""


@dataclass(frozen=True, kw_only=True)
class EvaluationSet(Stamped):
    """The arbiter's fair-play setting of the broadcast's evaluation bar."""

    type: ClassVar[str] = "evaluation_set"
    shown: bool
    delay_minutes: int


@dataclass(frozen=True, kw_only=True)
class _ProtestStep(Stamped):
    """A step in the life of the protest ``id``."""

    id: str


@dataclass(frozen=True, kw_only=True)
class ProtestFiled(_ProtestStep):
    type: ClassVar[str] = "protest_filed"
    round: int
    board: int
    filed_by: str
    role: FilerRole = FilerRole.REPRESENTATIVE
    text: str
    fee_paid: int = 0
    currency: str | None = None
    white_signed_at: datetime | None = None
    black_signed_at: datetime | None = None
    for_team: str = ""
    """Filed by the arbiter (``filed_by``) for this team; empty: by a team's representative or coach."""


@dataclass(frozen=True, kw_only=True)
class ProtestFeePaid(_ProtestStep):
    type: ClassVar[str] = "protest_fee_paid"
    amount: int
    currency: str = ""


@dataclass(frozen=True, kw_only=True)
class ProtestConvened(_ProtestStep):
    type: ClassVar[str] = "protest_convened"
    board: tuple[str, ...] = ()
    committee: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ProtestDecided(_ProtestStep):
    type: ClassVar[str] = "protest_decided"
    upheld: bool
    members: tuple[str, ...] = ()
    reasons: str
    corrected_result: GameResult | None = None


@dataclass(frozen=True, kw_only=True)
class ProtestNotified(_ProtestStep):
    type: ClassVar[str] = "protest_notified"
    recipient: str = ""


@dataclass(frozen=True, kw_only=True)
class ParticipantReadmitted(Stamped):
    type: ClassVar[str] = "participant_readmitted"
    number: int
    round: int
    """The first round the player is paired in again."""


@dataclass(frozen=True, kw_only=True)
class PairsForbidden(Stamped):
    type: ClassVar[str] = "pairs_forbidden"
    pairs: tuple[tuple[int, int], ...]
    """``(low, high)`` pairing numbers."""
    reason: str = ""
    source: ForbidSource = ForbidSource.HAND


@dataclass(frozen=True, kw_only=True)
class PairsAllowed(Stamped):
    type: ClassVar[str] = "pairs_allowed"
    pairs: tuple[tuple[int, int], ...]


@dataclass(frozen=True, kw_only=True)
class DepartureRecorded(Stamped):
    """The arbiter departed from the regulation (journal/departures): the kind, its warning level, the reason given
    (empty for a level that needs none) and where; stored just before the action's own events."""

    type: ClassVar[str] = "departure_recorded"
    kind: DepartureKind
    level: Level
    reason: str = ""
    round: int | None = None
    board: int | None = None
    player: int | None = None
    name: str = ""
    """The player's name where the tournament does not know the number yet (a late entrant, added just after)."""


@dataclass(frozen=True, kw_only=True)
class ClockCorrected(Stamped):
    """A clock correction in the board's game room above the tournament's amount (``at``: when it was made,
    ``by``: the room's arbiter), after its :class:`DepartureRecorded`; ``at_ms`` is the room's time of it."""

    type: ClassVar[str] = "clock_corrected"
    round: int
    board: int
    number: int
    delta_ms: int
    at_ms: int
    reason: str = ""


TournamentEvent = (
    TournamentCreated | TournamentConfigured | TeamAdded | TeamEdited | ParticipantAdded | ParticipantEdited
    | ParticipantsImported | ParticipantsRenumbered | ParticipantWithdrawn | ParticipantExpelled | ByeRequested
    | RoundPaired | PairingOverridden | PairingDiscarded | RoundPublished | GameRoomLinked | ResultEntered
    | ResultCorrected | WarningIssued | ProtestFiled | ProtestFeePaid | ProtestConvened | ProtestDecided
    | ProtestNotified | ParticipantReadmitted | PairsForbidden | PairsAllowed | EvaluationSet | EntryDeleted | LotsDrawn
    | CheckedIn | ResultReported | RoundConfirmed
    | DepartureRecorded | ClockCorrected
)  # fmt: skip

EVENTS: Codec[TournamentEvent] = Codec(
    TournamentCreated, TournamentConfigured, TeamAdded, TeamEdited, ParticipantAdded, ParticipantEdited,
    ParticipantsImported, ParticipantsRenumbered, ParticipantWithdrawn, ParticipantExpelled, ByeRequested,
    RoundPaired, PairingOverridden, PairingDiscarded, RoundPublished, GameRoomLinked, ResultEntered,
    ResultCorrected, WarningIssued, ProtestFiled, ProtestFeePaid, ProtestConvened, ProtestDecided, ProtestNotified,
    ParticipantReadmitted, PairsForbidden, PairsAllowed, EvaluationSet, EntryDeleted, LotsDrawn,
    CheckedIn, ResultReported, RoundConfirmed, DepartureRecorded, ClockCorrected,
    converters=CONVERTERS,
)  # fmt: skip
EVENT_TYPES = frozenset(EVENTS.names)


# --- logs written before the events were typed ----------------------------------------------------------------

_CLEARABLE = tuple(setting.value for setting in Setting)


def _legacy_settings(payload: Mapping[str, object]) -> Payload:
    """Settings of an untyped log: a ``null`` set a setting to none (``cleared`` now) and a ``null`` fee changed
    nothing. A payload with ``cleared`` is today's."""
    out = dict(payload)
    if "cleared" in out:
        return out
    cleared = [key for key in _CLEARABLE if key in out and out[key] is None]
    for key in cleared:
        del out[key]
    if "fee" in out and out["fee"] is None:
        del out["fee"]
    out["cleared"] = cleared
    return out


def _whole(value: object) -> object:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return value


def _legacy_protest(payload: Mapping[str, object]) -> Payload:
    """A protest of an untyped log kept the form's texts: ``"1"`` for round 1, ``""`` for no currency or role."""
    out = {key: _whole(value) if key in ("round", "board", "fee_paid") else value for key, value in payload.items()}
    for key in ("role", "currency", "white_signed_at", "black_signed_at"):
        if out.get(key) == "":
            del out[key]
    return out


LEGACY: Mapping[str, Callable[[Mapping[str, object]], Payload]] = {
    TournamentCreated.type: _legacy_settings,
    TournamentConfigured.type: _legacy_settings,
    ProtestFiled.type: _legacy_protest,
}
"""Per event type, what brings a payload of an untyped log to today's shape (and leaves today's as it is)."""


def decode_event(kind: str, payload: Mapping[str, object]) -> TournamentEvent:
    """The event stored as ``(kind, payload)``; raises :class:`~toreshi.kit.codec.CodecError` for a corrupt one."""
    upgrade = LEGACY.get(kind)
    return EVENTS.decode(upgrade(payload) if upgrade is not None else payload, name=kind)


def encode_event(event: TournamentEvent) -> tuple[str, Payload]:
    """``(type, payload)`` as the log stores it (the payload without its ``type``)."""
    return EVENTS.encode_apart(event)
