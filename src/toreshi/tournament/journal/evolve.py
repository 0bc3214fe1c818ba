"""The fold: each event changes the state (:func:`evolve`); a log folds into the state it describes
(:func:`replay`). Every event also writes one line of the audit log."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from toreshi.kit.core import fold
from toreshi.tournament.journal import events as ev
from toreshi.tournament.journal.audit import audit_params
from toreshi.tournament.journal.check_in import apply_checked_in, apply_confirmed, apply_reported
from toreshi.tournament.journal.csv_import import apply_imported
from toreshi.tournament.journal.events import TournamentEvent, decode_event
from toreshi.tournament.journal.pairing import apply_discarded, apply_overridden, apply_paired, apply_published
from toreshi.tournament.journal.pairing_tools import apply_allowed, apply_forbidden, apply_readmitted
from toreshi.tournament.journal.participants import (
    apply_added,
    apply_bye,
    apply_deleted,
    apply_edited,
    apply_left,
    apply_lots,
    apply_renumbered,
    apply_team,
    apply_warning,
)
from toreshi.tournament.journal.protests import apply_protest
from toreshi.tournament.journal.results import apply_clock_corrected, apply_linked, apply_result
from toreshi.tournament.journal.settings import apply_settings
from toreshi.tournament.journal.state import AuditLine, EvaluationPolicy, TournamentState


def _apply(state: TournamentState, event: TournamentEvent) -> TournamentState:
    match event:
        case ev.TournamentCreated() | ev.TournamentConfigured():
            return apply_settings(state, event)
        case ev.TeamAdded() | ev.TeamEdited():
            return apply_team(state, event)
        case ev.ParticipantAdded():
            return apply_added(state, event)
        case ev.ParticipantEdited():
            return apply_edited(state, event)
        case ev.ParticipantsImported():
            return apply_imported(state, event)
        case ev.ParticipantsRenumbered():
            return apply_renumbered(state, event)
        case ev.LotsDrawn():
            return apply_lots(state, event)
        case ev.ParticipantWithdrawn() | ev.ParticipantExpelled():
            return apply_left(state, event)
        case ev.EntryDeleted():
            return apply_deleted(state, event)
        case ev.ByeRequested():
            return apply_bye(state, event)
        case ev.RoundPaired():
            return apply_paired(state, event)
        case ev.PairingOverridden():
            return apply_overridden(state, event)
        case ev.PairingDiscarded():
            return apply_discarded(state, event)
        case ev.RoundPublished():
            return apply_published(state, event)
        case ev.GameRoomLinked():
            return apply_linked(state, event)
        case ev.ResultEntered():  # and its correction
            return apply_result(state, event)
        case ev.WarningIssued():
            return apply_warning(state, event)
        case ev.EvaluationSet():
            return replace(state, evaluation=EvaluationPolicy(event.shown, event.delay_minutes))
        case (
            ev.ProtestFiled() | ev.ProtestFeePaid() | ev.ProtestConvened() | ev.ProtestDecided() | ev.ProtestNotified()
        ):
            return apply_protest(state, event)
        case ev.ParticipantReadmitted():
            return apply_readmitted(state, event)
        case ev.PairsForbidden():
            return apply_forbidden(state, event)
        case ev.PairsAllowed():
            return apply_allowed(state, event)
        case ev.CheckedIn():
            return apply_checked_in(state, event)
        case ev.ResultReported():
            return apply_reported(state, event)
        case ev.RoundConfirmed():
            return apply_confirmed(state, event)
        case ev.DepartureRecorded():
            return state  # only its audit line
        case ev.ClockCorrected():
            return apply_clock_corrected(state, event)


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    """The state after ``event``. An event that does not apply raises (:class:`~toreshi.kit.refusal.Refused`
    from the rules): :func:`~toreshi.tournament.journal.decide.decide` never lets one into the log."""
    new = _apply(state, event)
    line = AuditLine(event.at, event.by, event.type, audit_params(new.tournament, event))
    return replace(new, audit=(*new.audit, line))


def replay(events: Iterable[TournamentEvent]) -> TournamentState:
    """The state after a log of events."""
    return fold(evolve, TournamentState(), events)


def replay_stored(log: Iterable[tuple[str, Mapping[str, object]]]) -> TournamentState:
    """The state after a stored log of ``(type, payload)`` pairs (today's, or one written before typed events)."""
    return replay(decode_event(kind, payload) for kind, payload in log)
