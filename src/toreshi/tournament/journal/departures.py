"""Departures from the regulation: the arbiter's actions that the rules or the engine would not have taken, each
with a warning level (issue 29, "a regulation mode an arbiter can be audited on").

:func:`departure_of` says whether a command departs, how (:class:`DepartureKind`) and how much
(:class:`Level`):

- ``info`` — allowed, shown and logged (a withdrawal, a draft pairing thrown away);
- ``confirm`` — done only once the arbiter has confirmed the warning (``confirmed``: a late entry, a forfeit
  entered by hand, an entry deleted);
- ``reason`` — done only with a written reason (a manual pairing change, a result corrected, a result changed
  after the next round was paired, an expulsion, a re-entry).

:func:`~toreshi.tournament.journal.decide.decide` refuses a departure without what its level asks
(``departure_unconfirmed``, ``departure_needs_reason``) and records an allowed one as a
:class:`~toreshi.tournament.journal.events.DepartureRecorded` before the action's own events: who, when, the kind,
the level and the reason land in the audit log and the printed report.

>>> from toreshi.tournament.journal.commands import DeleteEntry
>>> from toreshi.tournament.journal.state import TournamentState
>>> departure_of(TournamentState(), DeleteEntry(number=1, reason="entered twice"))
Departure(kind=<DepartureKind.ENTRY_DELETED: 'entry_deleted'>, level=<Level.CONFIRM: 'confirm'>, \
reason='entered twice', round=None, board=None, player=1)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from toreshi.kit.refusal import Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal import commands as c
from toreshi.tournament.journal.state import TournamentState
from toreshi.tournament.journal.values import game_result

__all__ = ["CLAUSES", "Departure", "DepartureKind", "Level", "departure_of", "require"]


class Level(Enum):
    """How much a departure asks of the arbiter, in rising order."""

    INFO = "info"
    CONFIRM = "confirm"
    REASON = "reason"


class DepartureKind(Enum):
    LATE_ENTRY = "late_entry"
    """A participant added once round 1 has been paired (within the late-entry setting)."""
    FORFEIT_ENTERED = "forfeit_entered"
    """A game scored by default (TK-R4) by the arbiter's hand rather than by the game room."""
    RESULT_CORRECTED = "result_corrected"
    """A result replaced while its round is the last one paired."""
    RESULT_AFTER_NEXT_PAIRING = "result_after_next_pairing"
    """A result entered or changed once a later round has been paired: that pairing was made on other scores
    (TK-P3 closes protests at that moment)."""
    PAIRING_CHANGED = "pairing_changed"
    """The engine's pairing replaced by the arbiter's (with the Dutch criteria it breaks, if any)."""
    PAIRING_DISCARDED = "pairing_discarded"
    WITHDRAWN = "withdrawn"
    EXPELLED = "expelled"
    READMITTED = "readmitted"
    ENTRY_DELETED = "entry_deleted"


LEVELS: dict[DepartureKind, Level] = {
    DepartureKind.LATE_ENTRY: Level.CONFIRM,
    DepartureKind.FORFEIT_ENTERED: Level.CONFIRM,
    DepartureKind.ENTRY_DELETED: Level.CONFIRM,
    DepartureKind.RESULT_CORRECTED: Level.REASON,
    DepartureKind.RESULT_AFTER_NEXT_PAIRING: Level.REASON,
    DepartureKind.PAIRING_CHANGED: Level.REASON,
    DepartureKind.EXPELLED: Level.REASON,
    DepartureKind.READMITTED: Level.REASON,
    DepartureKind.PAIRING_DISCARDED: Level.INFO,
    DepartureKind.WITHDRAWN: Level.INFO,
}
"""The level of each kind of departure (one table: the tests and the docs read it)."""

CLAUSES: dict[DepartureKind, str] = {
    DepartureKind.FORFEIT_ENTERED: "TK-R4",
    DepartureKind.RESULT_CORRECTED: "TK-R3",
    DepartureKind.RESULT_AFTER_NEXT_PAIRING: "TK-P3",
    DepartureKind.PAIRING_CHANGED: "TK-B1",
    DepartureKind.PAIRING_DISCARDED: "TK-B1",
    DepartureKind.WITHDRAWN: "TK-R10",
    DepartureKind.EXPELLED: "TK-R10",
    DepartureKind.READMITTED: "TK-R10",
}
"""The regulation clause a departure sets aside, where the togyz regulation has one."""


@dataclass(frozen=True)
class Departure:
    kind: DepartureKind
    level: Level
    reason: str = ""
    round: int | None = None
    board: int | None = None
    player: int | None = None


def _departure(kind: DepartureKind, reason: str = "", **where: int | None) -> Departure:
    return Departure(kind, LEVELS[kind], reason.strip(), **where)


def _later_round_paired(state: TournamentState, round_number: int) -> bool:
    t = state.t
    return len(t.rounds) > round_number or (state.draft is not None and state.draft.round > round_number)


def _result(state: TournamentState, command: c.EnterResult) -> Departure | None:
    game = state.t.round(command.round).game(command.board)
    result = game_result(command.result, "result")
    if game.result is result and game.kazans == command.kazans:
        return None  # the same result again changes nothing
    where = {"round": command.round, "board": command.board}
    if _later_round_paired(state, command.round):
        return _departure(DepartureKind.RESULT_AFTER_NEXT_PAIRING, command.reason, **where)
    if game.result is not None:
        return _departure(DepartureKind.RESULT_CORRECTED, command.reason, **where)
    if not result.played:
        return _departure(DepartureKind.FORFEIT_ENTERED, command.reason, **where)
    return None


def departure_of(state: TournamentState, command: c.TournamentCommand) -> Departure | None:
    """How ``command``, given by the arbiter, departs from the regulation; None when it does not."""
    match command:
        case c.AddParticipant() if state.tournament is not None and (state.t.rounds or state.draft is not None):
            return _departure(DepartureKind.LATE_ENTRY)
        case c.EnterResult():
            return _result(state, command)
        case c.OverridePairing():
            return _departure(DepartureKind.PAIRING_CHANGED, command.reason, round=state.next_round)
        case c.DiscardPairing() if state.draft is not None:
            return _departure(DepartureKind.PAIRING_DISCARDED, command.reason, round=state.draft.round)
        case c.Withdraw() | c.Expel():
            kind = DepartureKind.WITHDRAWN if isinstance(command, c.Withdraw) else DepartureKind.EXPELLED
            after = command.after_round if command.after_round is not None else len(state.t.rounds)
            return _departure(kind, command.reason, round=after, player=command.number)
        case c.Readmit():
            back = command.round if command.round is not None else state.next_round
            return _departure(DepartureKind.READMITTED, command.reason, round=back, player=command.number)
        case c.DeleteEntry():
            return _departure(DepartureKind.ENTRY_DELETED, command.reason, player=command.number)
    return None


def require(departure: Departure, command: c.TournamentCommand) -> None:
    """Refuse ``command`` unless it brings what ``departure``'s level asks: a written reason, or the
    confirmation. The refusal names the departure (its ``term``) and its level, for the page's warning."""
    term, level = f"departure.{departure.kind.value}", departure.level.value
    if departure.level is Level.REASON and not departure.reason:
        raise Refused(Code.DEPARTURE_NEEDS_REASON, term=term, level=level)
    if departure.level is Level.CONFIRM and not getattr(command, "confirmed", False):
        raise Refused(Code.DEPARTURE_UNCONFIRMED, term=term, level=level)
