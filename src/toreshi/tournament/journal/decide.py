"""From a command to its events: :func:`decide`, pure, proven by folding the events into the state.

The wall time of the command and who gives it come from the :class:`~toreshi.kit.core.Context`
(``context.meta["at"]``, an aware datetime the server measured, and ``context.actor``), never from the command.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from toreshi.kit.core import Context, proven
from toreshi.kit.refusal import Refusal, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal import commands as c
from toreshi.tournament.journal.check_in import decide_check_in, decide_confirm, decide_report, player_by
from toreshi.tournament.journal.commands import ARBITER, PLAYER, SYSTEM, TournamentCommand
from toreshi.tournament.journal.csv_import import decide_import
from toreshi.tournament.journal.departures import departure_of, require
from toreshi.tournament.journal.events import DepartureRecorded, EvaluationSet, Stamp, TournamentEvent
from toreshi.tournament.journal.evolve import evolve
from toreshi.tournament.journal.pairing import decide_discard, decide_override, decide_pairing, decide_publish
from toreshi.tournament.journal.pairing_tools import (
    decide_allow,
    decide_forbid,
    decide_import_forbidden,
    decide_readmit,
    decide_same_club,
)
from toreshi.tournament.journal.participants import (
    decide_bye,
    decide_delete,
    decide_leaving,
    decide_lots,
    decide_participant,
    decide_seeding,
    decide_team,
    decide_warning,
)
from toreshi.tournament.journal.protests import decide_protest
from toreshi.tournament.journal.results import decide_clock_correction, decide_link, decide_result
from toreshi.tournament.journal.settings import decide_settings
from toreshi.tournament.journal.state import ResultSource, TournamentState


def wall_time(context: Context) -> datetime:
    """The command's aware wall time, as the server stamped it."""
    at = context.meta.get("at")
    if not isinstance(at, datetime) or at.tzinfo is None:
        raise TypeError("a tournament command's context carries 'at', an aware datetime")  # a programming error
    return at


def _player_only(command: TournamentCommand, role: str, player: int | None) -> None:
    """A player's link gives only its own player's check-in and results; it gives nothing else."""
    if role != PLAYER:
        if isinstance(command, c.ReportResult):
            raise Refused(Code.PLAYER_LINK_ONLY)  # the arbiter enters a result (enter_result), not a player's report
        return
    if not isinstance(command, c.CheckIn | c.ReportResult) or command.number != player:
        raise Refused(Code.PLAYER_LINK_ONLY)


def _events(
    state: TournamentState, command: TournamentCommand, stamp: Stamp, role: str, player: int | None = None
) -> Sequence[TournamentEvent]:
    if state.tournament is None and not isinstance(command, c.Create):
        raise Refused(Code.NOT_CREATED)
    _player_only(command, role, player)
    match command:
        case c.Create() | c.Configure():
            return decide_settings(state, command, stamp)
        case c.AddTeam() | c.EditTeam():
            return decide_team(command, stamp)
        case c.AddParticipant() | c.EditParticipant():
            return decide_participant(state, command, stamp)
        case c.ImportParticipants():
            return decide_import(state, command, stamp)
        case c.SeedByRating():
            return decide_seeding(state, command, stamp)
        case c.DrawLots():
            return decide_lots(state, command, stamp)
        case c.Withdraw() | c.Expel():
            return decide_leaving(state, command, stamp)
        case c.DeleteEntry():
            return decide_delete(state, command, stamp)
        case c.RequestBye():
            return decide_bye(state, command, stamp)
        case c.PairRound():
            return decide_pairing(state, command, stamp)
        case c.OverridePairing():
            return decide_override(state, command, stamp)
        case c.DiscardPairing():
            return decide_discard(state, command, stamp)
        case c.PublishRound():
            return decide_publish(state, command, stamp)
        case c.LinkGameRoom():
            return decide_link(command, stamp)
        case c.EnterResult():
            source = ResultSource.LIVE if role == SYSTEM else ResultSource.ARBITER
            return decide_result(state, command, stamp, source)
        case c.Warn():
            return decide_warning(command, stamp)
        case c.SetEvaluation():
            return [EvaluationSet(at=stamp.at, by=stamp.by, shown=command.shown, delay_minutes=command.delay_minutes)]
        case c.FileProtest() | c.PayProtestFee() | c.ConveneProtest() | c.DecideProtest() | c.NotifyProtest():
            return decide_protest(state, command, stamp)
        case c.Readmit():
            return decide_readmit(state, command, stamp)
        case c.ForbidPair():
            return decide_forbid(state, command, stamp)
        case c.ForbidSameClub():
            return decide_same_club(state, command, stamp)
        case c.ImportForbidden():
            return decide_import_forbidden(state, command, stamp)
        case c.AllowPair():
            return decide_allow(state, command, stamp)
        case c.CheckIn():
            return decide_check_in(state, command, stamp)
        case c.ReportResult():
            return decide_report(state, command, stamp)
        case c.ConfirmRound():
            return decide_confirm(state, command, stamp)
        case c.RecordClockCorrection():
            if role != SYSTEM:
                raise Refused(Code.LIVE_RESULTS_ONLY)  # only the service carries a game room's correction in
            return decide_clock_correction(state, command)


def decide(state: TournamentState, command: TournamentCommand, context: Context) -> Sequence[TournamentEvent] | Refusal:
    """The events of ``command`` (possibly none: the same result entered again), or why it is refused; the events
    are :func:`~toreshi.kit.core.proven`."""
    actor = context.actor
    # The service reporting a game room's result is nobody: its events' ``by`` is empty (a page says "the game");
    # a player's link is the player: ``player:12``.
    player = int(actor.name) if actor.role == PLAYER and actor.name.isdigit() else None
    by = "" if actor.role == SYSTEM else player_by(player) if player is not None else actor.name or actor.role
    stamp = Stamp(wall_time(context), by)
    events = proven(evolve, state, lambda: _events(state, command, stamp, actor.role, player))
    carried = isinstance(command, c.RecordClockCorrection)  # an arbiter's departure made in a game room
    if isinstance(events, Refusal) or not events or (actor.role != ARBITER and not carried):
        return events
    if isinstance(command, c.RecordClockCorrection):
        stamp = Stamp(command.corrected_at, command.arbiter)  # when and by whom it was made in the room
    # The action itself applies; if it departs from the regulation it needs what its level asks, and is recorded.
    departure = departure_of(state, command)
    if departure is None:
        return events
    try:
        require(departure, command)
    except Refused as refused:
        return refused.refusal
    recorded = DepartureRecorded(at=stamp.at, by=stamp.by, kind=departure.kind, level=departure.level,
                                 reason=departure.reason, round=departure.round, board=departure.board,
                                 player=departure.player, name=departure.name)  # fmt: skip
    return [recorded, *events]  # first: the action's own line stays the last of the audit log
