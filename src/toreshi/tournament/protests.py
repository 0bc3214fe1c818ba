"""Protests (TK-P1..P9) as a state machine with an audit log; time comes only from an injected clock.

The life of a protest::

    file ──► NOT_ACCEPTED               (TK-P1: more than 30 min after the game; TK-P3: next round already paired)
         ──► ACCEPTED_NOT_CONSIDERED    (TK-P2: the result was written and signed by both players)
         ──► AWAITING_FEE ──pay_fee──► ACCEPTED
         ──► ACCEPTED                   (fee paid with the filing)
    AWAITING_FEE ──convene──► NOT_CONSIDERED_UNPAID            (TK-P4)
    ACCEPTED ──convene──► UNDER_CONSIDERATION                  (TK-P6: chief arbiters' board + appeals committee)
             ──decide──►  DECIDED (upheld: fee refunded; rejected: fee to the arbiters' pay — TK-P5)
             ──notify──►  NOTIFIED                             (TK-P7; the decision is final — TK-P8)

Every step, including a refused one, is written to the protest's audit log with the clock's time and the
actor, as an action and its parameters (the page says it in its reader's language). An upheld protest may carry
a corrected result; :func:`apply_decision` enters it in the tournament.
TK-P9 (a player who neither signed within 30 minutes nor protested is warned) is :func:`score_sheet_warnings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import Enum
from types import MappingProxyType

from toreshi.kit.refusal import ParamValue, Refused
from toreshi.tournament.codes import ProtestCode as Code
from toreshi.tournament.model import GameResult, Officials, Tournament

Clock = Callable[[], datetime]


class ProtestError(Refused):
    """A step the protest's state or the regulation does not allow: a
    :class:`~toreshi.tournament.codes.ProtestCode` and its parameters."""


class FilerRole(Enum):
    REPRESENTATIVE = "representative"
    COACH = "coach"


class ProtestStatus(Enum):
    AWAITING_FEE = "awaiting_fee"
    ACCEPTED = "accepted"
    NOT_ACCEPTED = "not_accepted"
    ACCEPTED_NOT_CONSIDERED = "accepted_not_considered"
    NOT_CONSIDERED_UNPAID = "not_considered_unpaid"
    UNDER_CONSIDERATION = "under_consideration"
    DECIDED = "decided"
    NOTIFIED = "notified"

    @property
    def closed(self) -> bool:
        return self in (
            ProtestStatus.NOT_ACCEPTED,
            ProtestStatus.ACCEPTED_NOT_CONSIDERED,
            ProtestStatus.NOT_CONSIDERED_UNPAID,
            ProtestStatus.NOTIFIED,
        )


class FeeStatus(Enum):
    UNPAID = "unpaid"
    PAID = "paid"
    REFUNDED = "refunded"
    """Returned: the protest was upheld (TK-P5), or it was never considered."""
    TRANSFERRED = "transferred"
    """Went to the arbiters' pay: the protest was rejected (TK-P5)."""


@dataclass(frozen=True)
class ProtestSettings:
    filing_window: timedelta = timedelta(minutes=30)
    """TK-P1: a protest is filed within this time after the end of the game."""
    fee_amount: int = 1000
    fee_currency: str = "KZT"
    """TK-P4: 1000 tenge."""
    signature_window: timedelta = timedelta(minutes=30)
    """TK-P9: time to sign the score sheet."""


@dataclass(frozen=True)
class GameFacts:
    """What the protest rules need to know about the game protested."""

    round: int
    board: int
    white: int
    black: int
    ended_at: datetime
    white_signed_at: datetime | None = None
    black_signed_at: datetime | None = None
    next_round_paired_at: datetime | None = None
    white_team: str | None = None
    black_team: str | None = None

    def __post_init__(self) -> None:
        for moment in (self.ended_at, self.white_signed_at, self.black_signed_at, self.next_round_paired_at):
            if moment is not None and moment.tzinfo is None:
                raise ValueError("game times must be aware datetimes")  # a programming error

    @classmethod
    def from_tournament(
        cls,
        tournament: Tournament,
        round_number: int,
        board: int,
        white_signed_at: datetime | None = None,
        black_signed_at: datetime | None = None,
    ) -> GameFacts:
        game = tournament.round(round_number).game(board)
        if game.ended_at is None:
            raise ProtestError(Code.NO_END_TIME, round=round_number, board=board)
        following = tournament.rounds[round_number] if round_number < len(tournament.rounds) else None
        return cls(
            round_number,
            board,
            game.white,
            game.black,
            game.ended_at,
            white_signed_at,
            black_signed_at,
            following.paired_at if following is not None else None,
            tournament.participant(game.white).team,
            tournament.participant(game.black).team,
        )

    def signed_by_both(self, at: datetime) -> bool:
        return all(s is not None and s <= at for s in (self.white_signed_at, self.black_signed_at))


class ProtestAction(Enum):
    """A step in a protest's audit log."""

    FILED = "filed"
    NOT_ACCEPTED = "not_accepted"
    ACCEPTED_NOT_CONSIDERED = "accepted_not_considered"
    AWAITING_FEE = "awaiting_fee"
    ACCEPTED = "accepted"
    FEE_PAID = "fee_paid"
    NOT_CONSIDERED = "not_considered"
    MEETING = "meeting"
    UPHELD = "upheld"
    REJECTED = "rejected"
    NOTIFIED = "notified"

    @property
    def by_board(self) -> bool:
        """Taken by the chief arbiters' board (the others: by a person, or by the desk applying the rules)."""
        return self in (
            ProtestAction.NOT_CONSIDERED,
            ProtestAction.MEETING,
            ProtestAction.UPHELD,
            ProtestAction.REJECTED,
            ProtestAction.NOTIFIED,
        )


@dataclass(frozen=True)
class AuditEntry:
    """One step: when, what (``action`` and its ``params``: a clause ID, amounts, names) and who, if a person
    (``actor`` is empty when the desk applied the rules or the board acted: ``action.by_board`` says which)."""

    at: datetime
    action: ProtestAction
    actor: str = ""
    params: Mapping[str, ParamValue] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Meeting:
    """The joint meeting of the chief arbiters' board and the appeals committee (TK-P6)."""

    at: datetime
    board_members: tuple[str, ...]
    committee_members: tuple[str, ...]


@dataclass(frozen=True)
class Decision:
    at: datetime
    upheld: bool
    members: tuple[str, ...]
    reasons: str
    corrected_result: GameResult | None = None


@dataclass(frozen=True)
class Notification:
    """The chief arbiters' board told ``recipient`` the decision (TK-P7)."""

    at: datetime
    recipient: str


@dataclass(frozen=True)
class ProtestCase:
    id: str
    game: GameFacts
    filed_by: str
    role: FilerRole
    team: str | None
    text: str
    filed_at: datetime
    status: ProtestStatus
    fee: FeeStatus
    fee_amount: int
    fee_currency: str
    log: tuple[AuditEntry, ...]
    meeting: Meeting | None = None
    decision: Decision | None = None
    notification: Notification | None = None

    def _step(
        self,
        at: datetime,
        action: ProtestAction,
        actor: str = "",
        params: Mapping[str, ParamValue] | None = None,
        **changes: object,
    ) -> ProtestCase:
        entry = AuditEntry(at, action, actor, MappingProxyType(dict(params or {})))
        return replace(self, log=(*self.log, entry), **changes)  # type: ignore[arg-type]


class ProtestDesk:
    """Receives and processes protests for one tournament.

    ``clock`` is the only source of time; ``filers`` are the people allowed to file (team representatives
    and coaches, TK-P1) — ``None`` skips that check; ``officials`` name the board and the committee.
    """

    def __init__(
        self,
        clock: Clock,
        settings: ProtestSettings | None = None,
        officials: Officials | None = None,
        filers: Iterable[str] | None = None,
    ) -> None:
        self._clock = clock
        self.settings = settings or ProtestSettings()
        self.officials = officials or Officials()
        self.filers = frozenset(filers) if filers is not None else None

    @classmethod
    def for_tournament(
        cls, tournament: Tournament, clock: Clock, settings: ProtestSettings | None = None
    ) -> ProtestDesk:
        return cls(clock, settings, tournament.officials, tournament.protest_filers())

    def now(self) -> datetime:
        moment = self._clock()
        if moment.tzinfo is None:
            raise ValueError("the clock must give aware datetimes")  # a programming error
        return moment

    def file(
        self,
        protest_id: str,
        game: GameFacts,
        filed_by: str,
        role: FilerRole,
        text: str,
        team: str | None = None,
        fee_paid: int = 0,
        fee_currency: str | None = None,
    ) -> ProtestCase:
        """Receive a written protest and decide at once whether it is accepted (TK-P1..P4)."""
        now = self.now()
        if not text.strip():
            raise ProtestError(Code.TEXT_EMPTY)
        if self.filers is not None and filed_by not in self.filers:
            raise ProtestError(Code.NOT_A_FILER, person=filed_by)
        if now < game.ended_at:
            raise ProtestError(Code.GAME_NOT_OVER)
        if fee_paid < 0:
            raise ProtestError(Code.FEE_NEGATIVE)
        currency = fee_currency or self.settings.fee_currency
        if fee_paid and currency != self.settings.fee_currency:
            raise ProtestError(Code.FEE_CURRENCY, currency=self.settings.fee_currency, given=currency)
        paid = fee_paid >= self.settings.fee_amount
        if fee_paid and not paid:
            raise _fee_refused(self.settings.fee_amount, self.settings.fee_currency, fee_paid, currency)
        protest = ProtestCase(
            protest_id,
            game,
            filed_by,
            role,
            team,
            text,
            now,
            ProtestStatus.AWAITING_FEE,
            FeeStatus.PAID if paid else FeeStatus.UNPAID,
            self.settings.fee_amount,
            self.settings.fee_currency,
            (),
        )
        filed: dict[str, ParamValue] = {"round": game.round, "board": game.board, "role_term": f"protest.{role.value}"}
        protest = protest._step(now, ProtestAction.FILED, filed_by, filed)
        refund = FeeStatus.REFUNDED if paid else FeeStatus.UNPAID
        not_accepted = ProtestStatus.NOT_ACCEPTED
        if game.next_round_paired_at is not None and game.next_round_paired_at <= now:
            return protest._step(now, ProtestAction.NOT_ACCEPTED, params={"clause": "TK-P3"}, status=not_accepted,
                                 fee=refund)  # fmt: skip
        deadline = game.ended_at + self.settings.filing_window
        if now > deadline:
            late: dict[str, ParamValue] = {"clause": "TK-P1", "minutes": _minutes(now - game.ended_at),
                    "limit": _minutes(self.settings.filing_window)}  # fmt: skip
            return protest._step(now, ProtestAction.NOT_ACCEPTED, params=late, status=not_accepted, fee=refund)
        if game.signed_by_both(now):
            return protest._step(
                now,
                ProtestAction.ACCEPTED_NOT_CONSIDERED,
                params={"clause": "TK-P2"},
                status=ProtestStatus.ACCEPTED_NOT_CONSIDERED,
                fee=refund,
            )
        if paid:
            fee = _money(fee_paid, currency)
            return protest._step(now, ProtestAction.ACCEPTED, params=fee, status=ProtestStatus.ACCEPTED)
        due = _money(self.settings.fee_amount, self.settings.fee_currency)
        return protest._step(now, ProtestAction.AWAITING_FEE, params=due)

    def pay_fee(self, protest: ProtestCase, amount: int, currency: str, by: str) -> ProtestCase:
        now = self.now()
        self._require(protest, ProtestStatus.AWAITING_FEE, "pay_fee")
        if currency != protest.fee_currency or amount < protest.fee_amount:
            raise _fee_refused(protest.fee_amount, protest.fee_currency, amount, currency)
        paid = _money(amount, currency)
        return protest._step(now, ProtestAction.FEE_PAID, by, paid, status=ProtestStatus.ACCEPTED, fee=FeeStatus.PAID)

    def convene(
        self, protest: ProtestCase, board_members: Iterable[str], committee_members: Iterable[str]
    ) -> ProtestCase:
        """The board and the committee meet (TK-P6). An unpaid protest is closed instead (TK-P4)."""
        now = self.now()
        if protest.status is ProtestStatus.AWAITING_FEE:
            return protest._step(
                now, ProtestAction.NOT_CONSIDERED, params={"clause": "TK-P4"},
                status=ProtestStatus.NOT_CONSIDERED_UNPAID,
            )  # fmt: skip
        self._require(protest, ProtestStatus.ACCEPTED, "convene")
        board = tuple(board_members)
        committee = tuple(committee_members)
        _check_members("protest.board", board, self.officials.chief_arbiters_board)
        _check_members("protest.committee", committee, self.officials.appeals_committee)
        meeting = Meeting(now, board, committee)
        present = {"board": ", ".join(board), "committee": ", ".join(committee)}
        return protest._step(
            now, ProtestAction.MEETING, params=present, status=ProtestStatus.UNDER_CONSIDERATION, meeting=meeting
        )

    def decide(
        self,
        protest: ProtestCase,
        upheld: bool,
        members: Iterable[str],
        reasons: str,
        corrected_result: GameResult | None = None,
    ) -> ProtestCase:
        """The decision, with the members who took it; the fee is refunded or transferred (TK-P5)."""
        now = self.now()
        self._require(protest, ProtestStatus.UNDER_CONSIDERATION, "decide")
        assert protest.meeting is not None
        deciding = tuple(members)
        present = {*protest.meeting.board_members, *protest.meeting.committee_members}
        if not deciding:
            raise ProtestError(Code.NO_MEMBERS)
        absent = [m for m in deciding if m not in present]
        if absent:
            raise ProtestError(Code.ABSENT_MEMBERS, members=", ".join(absent))
        if not reasons.strip():
            raise ProtestError(Code.NO_REASONS)
        if corrected_result is not None and not upheld:
            raise ProtestError(Code.ONLY_UPHELD_CORRECTS)
        decision = Decision(now, upheld, deciding, reasons, corrected_result)
        fee = FeeStatus.REFUNDED if upheld else FeeStatus.TRANSFERRED
        if protest.fee is not FeeStatus.PAID:  # pragma: no cover - ACCEPTED implies a paid fee
            raise ProtestError(Code.FEE_UNPAID)
        verdict: dict[str, ParamValue] = {"members": ", ".join(deciding), "fee_term": f"protest.fee.{fee.value}"}
        if corrected_result is not None:
            verdict["result"] = corrected_result.value
        action = ProtestAction.UPHELD if upheld else ProtestAction.REJECTED
        return protest._step(now, action, params=verdict, status=ProtestStatus.DECIDED, decision=decision, fee=fee)

    def notify(self, protest: ProtestCase, recipient: str | None = None) -> ProtestCase:
        """The board tells the representative or coach the decision (TK-P7)."""
        now = self.now()
        self._require(protest, ProtestStatus.DECIDED, "notify")
        to = recipient or protest.filed_by
        note = Notification(now, to)
        return protest._step(
            now, ProtestAction.NOTIFIED, params={"recipient": to}, status=ProtestStatus.NOTIFIED, notification=note
        )

    def appeal(self, protest: ProtestCase, by: str) -> ProtestCase:
        """There is no appeal: the board's decision is final (TK-P8)."""
        raise ProtestError(Code.FINAL, protest=protest.id, person=by)

    @staticmethod
    def _require(protest: ProtestCase, status: ProtestStatus, step: str) -> None:
        if protest.status is not status:
            raise ProtestError(
                Code.WRONG_STATUS,
                protest=protest.id,
                status_term=f"protest.{protest.status.value}",
                step_term=f"protest.step.{step}",
            )


def _check_members(body: str, present: tuple[str, ...], configured: tuple[str, ...]) -> None:
    if not present:
        raise ProtestError(Code.BODY_ABSENT, body_term=body)
    if configured:
        strangers = [m for m in present if m not in configured]
        if strangers:
            raise ProtestError(Code.NOT_MEMBERS, members=", ".join(strangers), body_term=body)


def _money(amount: int, currency: str) -> dict[str, ParamValue]:
    """A sum of money as an audit step's parameters."""
    return {"amount": amount, "currency": currency}


def _fee_refused(amount: int, currency: str, given: int, given_currency: str) -> ProtestError:
    """The refusal of a fee that is not the fee due (TK-P4): too little, or in another currency."""
    return ProtestError(Code.FEE_AMOUNT, amount=amount, currency=currency, given=given, given_currency=given_currency)


def _minutes(delta: timedelta) -> int:
    """Whole minutes, rounded up: 30 min 20 s after the game is 31 minutes, past a 30-minute limit."""
    return -int(-delta.total_seconds() // 60)


def apply_decision(tournament: Tournament, protest: ProtestCase) -> Tournament:
    """The tournament with an upheld protest's corrected result entered (unchanged otherwise)."""
    decision = protest.decision
    if decision is None or not decision.upheld or decision.corrected_result is None:
        return tournament
    game = tournament.round(protest.game.round).game(protest.game.board)
    if (game.white, game.black) != (protest.game.white, protest.game.black):
        raise ProtestError(Code.OTHER_GAME, protest=protest.id, board=game.board)
    return tournament.record_result(protest.game.round, protest.game.board, decision.corrected_result,
                                    ended_at=game.ended_at)  # fmt: skip


def score_sheet_warnings(
    game: GameFacts,
    protests: Iterable[ProtestCase],
    now: datetime,
    settings: ProtestSettings | None = None,
) -> list[int]:
    """TK-P9: players who did not sign within the window after the game and whose side filed no protest."""
    window = (settings or ProtestSettings()).signature_window
    deadline = game.ended_at + window
    if now <= deadline:
        return []
    about_game = [p for p in protests if (p.game.round, p.game.board) == (game.round, game.board)]
    warned = []
    for player, signed, team in (
        (game.white, game.white_signed_at, game.white_team),
        (game.black, game.black_signed_at, game.black_team),
    ):
        if signed is not None and signed <= deadline:
            continue
        protested = any(p.filed_at <= deadline and (team is None or p.team == team) for p in about_game)
        if not protested:
            warned.append(player)
    return warned
