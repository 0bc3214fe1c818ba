"""Protests in the journal: each step an event, carried out by the protest desk
(:class:`~toreshi.tournament.protests.ProtestDesk`) at the event's own time, so a replay decides as it did."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from types import MappingProxyType

from toreshi.kit.refusal import Refused
from toreshi.tournament.codes import ProtestCode
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import (
    ConveneProtest,
    DecideProtest,
    FileProtest,
    NotifyProtest,
    PayProtestFee,
)
from toreshi.tournament.journal.events import (
    ProtestConvened,
    ProtestDecided,
    ProtestFeePaid,
    ProtestFiled,
    ProtestNotified,
    Stamp,
)
from toreshi.tournament.journal.state import ResultOrigin, ResultSource, TournamentState
from toreshi.tournament.journal.values import game_result
from toreshi.tournament.model import Team
from toreshi.tournament.protests import FilerRole, GameFacts, ProtestCase, ProtestDesk, ProtestStatus, apply_decision

ProtestEvent = ProtestFiled | ProtestFeePaid | ProtestConvened | ProtestDecided | ProtestNotified
ProtestCommand = FileProtest | PayProtestFee | ConveneProtest | DecideProtest | NotifyProtest


_NOT_IN_ROLE = {FilerRole.REPRESENTATIVE: ProtestCode.NOT_REPRESENTATIVE, FilerRole.COACH: ProtestCode.NOT_COACH}
"""The refusal of a protest filed in a role its filer does not hold."""


def _people(team: Team, role: FilerRole) -> tuple[str, ...]:
    """The team's people who file in ``role``."""
    return team.representatives if role is FilerRole.REPRESENTATIVE else team.coaches


def _desk(state: TournamentState, at: datetime) -> ProtestDesk:
    return ProtestDesk.for_tournament(state.t, lambda: at, state.protest_settings)


def _stored(state: TournamentState, protest: ProtestCase) -> TournamentState:
    others = tuple(p for p in state.protests if p.id != protest.id)
    return replace(state, protests=tuple(sorted((*others, protest), key=lambda p: (p.filed_at, p.id))))


def _check_filer_role(state: TournamentState, command: FileProtest) -> None:
    """A coach files as a coach, a representative as a representative (TK-P1 names both; the record says which).

    Checked when the protest is decided, not when its event is applied, so that logs written before stay valid."""
    teams, person = state.t.teams, command.filed_by
    other = FilerRole.COACH if command.role is FilerRole.REPRESENTATIVE else FilerRole.REPRESENTATIVE
    if any(person in _people(t, other) for t in teams) and not any(person in _people(t, command.role) for t in teams):
        raise Refused(_NOT_IN_ROLE[command.role], person=person)


def decide_protest(state: TournamentState, command: ProtestCommand, stamp: Stamp) -> list[ProtestEvent]:
    at, by = stamp.at, stamp.by
    match command:
        case FileProtest():
            if command.for_team:
                state.t.team(command.for_team)  # an unknown team is refused as such
            else:
                _check_filer_role(state, command)
            return [ProtestFiled(
                at=at, by=by, id=command.id or f"P{len(state.protests) + 1}", round=command.round,
                board=command.board, filed_by=by if command.for_team else command.filed_by, role=command.role,
                text=command.text, for_team=command.for_team,
                fee_paid=command.fee_paid, currency=command.currency or None,
                white_signed_at=command.white_signed_at, black_signed_at=command.black_signed_at,
            )]  # fmt: skip
        case PayProtestFee():
            return [ProtestFeePaid(at=at, by=by, id=command.id, amount=command.amount, currency=command.currency)]
        case ConveneProtest():
            if not command.board and not command.committee:
                state.protest(command.id)  # an unknown protest is refused as such first
                raise Refused(ProtestCode.MEETING_NO_NAMES)
            protest = state.protest(command.id)
            if protest.status is ProtestStatus.AWAITING_FEE and not command.unpaid_confirmed:
                # TK-P4: the meeting would close the protest without considering it; the arbiter is told first.
                raise Refused(ProtestCode.CONVENE_UNPAID, protest=protest.id, clause="TK-P4")
            return [ProtestConvened(at=at, by=by, id=command.id, board=command.board, committee=command.committee)]
        case DecideProtest():
            corrected = game_result(command.corrected_result, "corrected_result") if command.corrected_result else None
            return [ProtestDecided(at=at, by=by, id=command.id, upheld=command.upheld, members=command.members,
                                   reasons=command.reasons, corrected_result=corrected)]  # fmt: skip
        case NotifyProtest():
            return [ProtestNotified(at=at, by=by, id=command.id, recipient=command.recipient)]


def apply_protest(state: TournamentState, event: ProtestEvent) -> TournamentState:
    desk = _desk(state, event.at)
    match event:
        case ProtestFiled():
            if any(p.id == event.id for p in state.protests):
                raise Refused(Code.PROTEST_EXISTS, protest=event.id)
            t = state.t
            facts = GameFacts.from_tournament(t, event.round, event.board, event.white_signed_at,
                                              event.black_signed_at)  # fmt: skip
            filer = event.filed_by
            team = event.for_team or next((x.name for x in t.teams if filer in x.filers), None)
            if event.for_team:
                # The arbiter files for the team: the filer is not one of the team's people (TK-P1's check is
                # the arbiter's own, who received the team's protest in writing).
                desk = ProtestDesk(desk.now, desk.settings, desk.officials, filers=None)
            protest = desk.file(event.id, facts, filer, event.role, event.text, team=team, fee_paid=event.fee_paid,
                                fee_currency=event.currency)  # fmt: skip
            return _stored(state, protest)
        case ProtestFeePaid():
            protest = state.protest(event.id)
            currency = event.currency.upper() or protest.fee_currency
            return _stored(state, desk.pay_fee(protest, event.amount, currency, event.by))
        case ProtestConvened():
            return _stored(state, desk.convene(state.protest(event.id), event.board, event.committee))
        case ProtestDecided():
            decided = desk.decide(state.protest(event.id), event.upheld, event.members, event.reasons,
                                  event.corrected_result)  # fmt: skip
            state = _stored(state, decided)
            tournament = apply_decision(state.t, decided)
            if tournament is state.t:
                return state
            key = (decided.game.round, decided.game.board)
            sources = {**state.result_sources, key: ResultOrigin(ResultSource.PROTEST, decided.id)}
            return replace(state, tournament=tournament, result_sources=MappingProxyType(sources))
        case ProtestNotified():
            return _stored(state, desk.notify(state.protest(event.id), event.recipient or None))
