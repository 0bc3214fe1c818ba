"""Departures from the regulation: the arbiter's actions that the rules or the engine would not have taken, each
with a warning level (issue 29, "a regulation mode an arbiter can be audited on").

:func:`departure_of` says whether a command departs, how (:class:`DepartureKind`) and how seriously
(:class:`Level`, one table: :data:`LEVELS`):

- ``info`` — allowed, shown and logged; nothing is asked (a withdrawal at the player's request, a draft pairing
  thrown away);
- ``warning`` and ``serious`` — done only once the arbiter has confirmed the warning, with the level shown
  (``confirmed``), *and* written the reason: a late entry, a forfeit entered by hand, a result corrected, a manual
  pairing change, a clock corrected by more than the tournament's amount (``warning``); a forced bye, a result
  changed after the next round was paired, an expulsion, a withdrawn player paired again against TK-R10
  (``serious``).

:func:`~toreshi.tournament.journal.decide.decide` refuses a departure without what its level asks
(``departure_unconfirmed``, then ``departure_needs_reason``) and records an allowed one as a
:class:`~toreshi.tournament.journal.events.DepartureRecorded` before the action's own events: who, when, the kind,
the level and the reason land in the audit log, the printed report and the TRF's ``###`` lines.

>>> from toreshi.tournament.journal.commands import DeleteEntry
>>> from toreshi.tournament.journal.state import TournamentState
>>> departure_of(TournamentState(), DeleteEntry(number=1, reason="entered twice"))
Departure(kind=<DepartureKind.ENTRY_DELETED: 'entry_deleted'>, level=<Level.WARNING: 'warning'>, \
reason='entered twice', round=None, board=None, player=1, name='')
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
    """How serious a departure is, in rising order: ``info`` is only logged; ``warning`` and ``serious`` each ask
    the arbiter to confirm the warning (the level shown) and to write the reason."""

    INFO = "info"
    WARNING = "warning"
    SERIOUS = "serious"

    @classmethod
    def _missing_(cls, value: object) -> Level | None:
        # Logs written before the levels were severities (issue 29's first cut) name what the level asked:
        # "confirm" (the lighter departures) and "reason" (the heavier ones).
        return {"confirm": cls.WARNING, "reason": cls.SERIOUS}.get(str(value))

    @property
    def asks(self) -> bool:
        """Whether the arbiter must confirm and give a reason (every level above ``info``)."""
        return self is not Level.INFO


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
    FORCED_BYE = "forced_bye"
    """The arbiter's pairing gives the pairing bye to another player than the engine's did (or gives one the
    engine did not)."""
    WITHDRAWN = "withdrawn"
    EXPELLED = "expelled"
    READMITTED = "readmitted"
    """The override of the withdrawal rule (TK-R10: a Swiss player who left is not paired again): a withdrawn
    player paired again from a later round."""
    ENTRY_DELETED = "entry_deleted"
    CLOCK_CORRECTED = "clock_corrected"
    """A game room's clock corrected by the arbiter by more than the tournament's amount
    (``clock_correction_over_s``), confirmed with a reason in the game room and carried into the tournament."""


LEVELS: dict[DepartureKind, Level] = {
    DepartureKind.PAIRING_DISCARDED: Level.INFO,
    DepartureKind.WITHDRAWN: Level.INFO,
    DepartureKind.LATE_ENTRY: Level.WARNING,
    DepartureKind.FORFEIT_ENTERED: Level.WARNING,
    DepartureKind.ENTRY_DELETED: Level.WARNING,
    DepartureKind.RESULT_CORRECTED: Level.WARNING,
    DepartureKind.PAIRING_CHANGED: Level.WARNING,
    DepartureKind.CLOCK_CORRECTED: Level.WARNING,
    DepartureKind.FORCED_BYE: Level.SERIOUS,
    DepartureKind.RESULT_AFTER_NEXT_PAIRING: Level.SERIOUS,
    DepartureKind.EXPELLED: Level.SERIOUS,
    DepartureKind.READMITTED: Level.SERIOUS,
}
"""The level of each kind of departure (one table: the tests and the docs read it)."""

CLAUSES: dict[DepartureKind, str] = {
    DepartureKind.FORFEIT_ENTERED: "TK-R4",
    DepartureKind.RESULT_CORRECTED: "TK-R3",
    DepartureKind.RESULT_AFTER_NEXT_PAIRING: "TK-P3",
    DepartureKind.PAIRING_CHANGED: "TK-B1",
    DepartureKind.PAIRING_DISCARDED: "TK-B1",
    DepartureKind.FORCED_BYE: "TK-B1",
    DepartureKind.CLOCK_CORRECTED: "TK-B3",
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
    name: str = ""
    """A late entrant's name (the number is the one it will get)."""


def _departure(
    kind: DepartureKind,
    reason: str = "",
    *,
    round: int | None = None,
    board: int | None = None,
    player: int | None = None,
    name: str = "",
) -> Departure:
    return Departure(kind, LEVELS[kind], reason.strip(), round=round, board=board, player=player, name=name)


def _later_round_paired(state: TournamentState, round_number: int) -> bool:
    t = state.t
    return len(t.rounds) > round_number or (state.draft is not None and state.draft.round > round_number)


def _result(state: TournamentState, command: c.EnterResult) -> Departure | None:
    game = state.t.round(command.round).game(command.board)
    result = game_result(command.result, "result")
    if game.result is result and game.kazans == command.kazans:
        return None  # the same result again changes nothing
    kind = None
    if _later_round_paired(state, command.round):
        kind = DepartureKind.RESULT_AFTER_NEXT_PAIRING
    elif game.result is not None:
        kind = DepartureKind.RESULT_CORRECTED
    elif not result.played:
        kind = DepartureKind.FORFEIT_ENTERED
    if kind is not None:
        return _departure(kind, command.reason, round=command.round, board=command.board)
    return None


def departure_of(state: TournamentState, command: c.TournamentCommand) -> Departure | None:
    """How ``command``, given by the arbiter, departs from the regulation; None when it does not."""
    match command:
        case c.AddParticipant() if state.tournament is not None and (state.t.rounds or state.draft is not None):
            number = max((p.number for p in state.t.participants), default=0) + 1  # the number it will get
            return _departure(DepartureKind.LATE_ENTRY, command.reason, name=command.name, player=number)
        case c.EnterResult():
            return _result(state, command)
        case c.OverridePairing():
            draft = state.draft
            if draft is not None and set(command.pairs) == set(draft.pairs) and command.bye == draft.bye:
                return None  # the pairing as it stands, typed again: nothing is changed
            engine_bye = draft.engine_bye if draft is not None else None
            if command.bye is not None and command.bye != engine_bye:
                return _departure(DepartureKind.FORCED_BYE, command.reason, round=state.next_round, player=command.bye)
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
        case c.RecordClockCorrection():
            return _departure(DepartureKind.CLOCK_CORRECTED, command.reason, round=command.round,
                              board=command.board, player=command.number)  # fmt: skip
    return None


def require(departure: Departure, command: c.TournamentCommand) -> None:
    """Refuse ``command`` unless it brings what ``departure``'s level asks: above ``info``, the confirmation and
    a written reason. The refusal names the departure (its ``term``) and its level, for the page's warning."""
    if not departure.level.asks:
        return
    term, level = f"departure.{departure.kind.value}", departure.level.value
    if not getattr(command, "confirmed", False):
        raise Refused(Code.DEPARTURE_UNCONFIRMED, term=term, level=level)
    if not departure.reason:
        raise Refused(Code.DEPARTURE_NEEDS_REASON, term=term, level=level)
