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
actor. An upheld protest may carry a corrected result; :func:`apply_decision` enters it in the tournament.
TK-P9 (a player who neither signed within 30 minutes nor protested is warned) is :func:`score_sheet_warnings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import Enum

from toreshi.tournament.model import GameResult, Officials, Tournament

Clock = Callable[[], datetime]


class ProtestError(ValueError):
    """A step the protest's state or the regulation does not allow."""


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
                raise ProtestError("game times must be aware datetimes")

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
            raise ProtestError(f"round {round_number}, board {board} has no recorded end time")
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


@dataclass(frozen=True)
class AuditEntry:
    at: datetime
    actor: str
    action: str
    detail: str = ""


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
    at: datetime
    recipient: str
    by: str


@dataclass(frozen=True)
class Protest:
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

    def _step(self, at: datetime, actor: str, action: str, detail: str = "", **changes: object) -> Protest:
        entry = AuditEntry(at, actor, action, detail)
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
            raise ProtestError("the clock must give aware datetimes")
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
    ) -> Protest:
        """Receive a written protest and decide at once whether it is accepted (TK-P1..P4)."""
        now = self.now()
        if not text.strip():
            raise ProtestError("a protest must be written: the text is empty")
        if self.filers is not None and filed_by not in self.filers:
            raise ProtestError(f"{filed_by!r} is not a team representative or coach and cannot file a protest (TK-P1)")
        if now < game.ended_at:
            raise ProtestError("the game has not ended yet; a protest is filed after the end of the game")
        if fee_paid < 0:
            raise ProtestError("a fee cannot be negative")
        currency = fee_currency or self.settings.fee_currency
        if fee_paid and currency != self.settings.fee_currency:
            raise ProtestError(f"the fee is paid in {self.settings.fee_currency}, not {currency}")
        paid = fee_paid >= self.settings.fee_amount
        if fee_paid and not paid:
            raise ProtestError(f"the fee is {self.settings.fee_amount} {self.settings.fee_currency}, got {fee_paid}")
        protest = Protest(
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
        protest = protest._step(now, filed_by, "filed", f"round {game.round}, board {game.board}; {role.value}")
        refund = FeeStatus.REFUNDED if paid else FeeStatus.UNPAID
        if game.next_round_paired_at is not None and game.next_round_paired_at <= now:
            reason = "filed after the pairing of the next round (TK-P3)"
            return protest._step(now, "system", "not accepted", reason, status=ProtestStatus.NOT_ACCEPTED, fee=refund)
        deadline = game.ended_at + self.settings.filing_window
        if now > deadline:
            reason = (
                f"filed {_minutes(now - game.ended_at)} after the end of the game; the limit is "
                + _minutes(self.settings.filing_window)
                + " (TK-P1)"
            )
            return protest._step(now, "system", "not accepted", reason, status=ProtestStatus.NOT_ACCEPTED, fee=refund)
        if game.signed_by_both(now):
            reason = "the result was written and signed by both players (TK-P2)"
            return protest._step(
                now,
                "system",
                "accepted, not considered",
                reason,
                status=ProtestStatus.ACCEPTED_NOT_CONSIDERED,
                fee=refund,
            )
        if paid:
            detail = f"fee {fee_paid} {currency} paid"
            return protest._step(now, "system", "accepted", detail, status=ProtestStatus.ACCEPTED)
        return protest._step(now, "system", "awaiting fee", f"{self.settings.fee_amount} {self.settings.fee_currency}")

    def pay_fee(self, protest: Protest, amount: int, currency: str, by: str) -> Protest:
        now = self.now()
        self._require(protest, ProtestStatus.AWAITING_FEE, "pay the fee")
        if currency != protest.fee_currency or amount < protest.fee_amount:
            raise ProtestError(f"the fee is {protest.fee_amount} {protest.fee_currency}, got {amount} {currency}")
        return protest._step(
            now, by, "fee paid", f"{amount} {currency}", status=ProtestStatus.ACCEPTED, fee=FeeStatus.PAID
        )

    def convene(self, protest: Protest, board_members: Iterable[str], committee_members: Iterable[str]) -> Protest:
        """The board and the committee meet (TK-P6). An unpaid protest is closed instead (TK-P4)."""
        now = self.now()
        if protest.status is ProtestStatus.AWAITING_FEE:
            return protest._step(
                now, "chief arbiters' board", "not considered", "the fee was not paid (TK-P4)",
                status=ProtestStatus.NOT_CONSIDERED_UNPAID,
            )  # fmt: skip
        self._require(protest, ProtestStatus.ACCEPTED, "convene the board")
        board = tuple(board_members)
        committee = tuple(committee_members)
        _check_members("chief arbiters' board", board, self.officials.chief_arbiters_board)
        _check_members("appeals committee", committee, self.officials.appeals_committee)
        meeting = Meeting(now, board, committee)
        detail = f"board: {', '.join(board)}; committee: {', '.join(committee)}"
        return protest._step(
            now, "chief arbiters' board", "meeting", detail, status=ProtestStatus.UNDER_CONSIDERATION, meeting=meeting
        )

    def decide(
        self,
        protest: Protest,
        upheld: bool,
        members: Iterable[str],
        reasons: str,
        corrected_result: GameResult | None = None,
    ) -> Protest:
        """The decision, with the members who took it; the fee is refunded or transferred (TK-P5)."""
        now = self.now()
        self._require(protest, ProtestStatus.UNDER_CONSIDERATION, "decide")
        assert protest.meeting is not None
        deciding = tuple(members)
        present = {*protest.meeting.board_members, *protest.meeting.committee_members}
        if not deciding:
            raise ProtestError("a decision names the members who took it")
        absent = [m for m in deciding if m not in present]
        if absent:
            raise ProtestError(f"{', '.join(absent)} did not attend the meeting")
        if not reasons.strip():
            raise ProtestError("a decision gives its reasons")
        if corrected_result is not None and not upheld:
            raise ProtestError("only an upheld protest changes the result")
        decision = Decision(now, upheld, deciding, reasons, corrected_result)
        fee = FeeStatus.REFUNDED if upheld else FeeStatus.TRANSFERRED
        verdict = "upheld" if upheld else "rejected"
        if protest.fee is not FeeStatus.PAID:  # pragma: no cover - ACCEPTED implies a paid fee
            raise ProtestError("the fee has not been paid")
        detail = f"{verdict} by {', '.join(deciding)}; fee {'refunded' if upheld else 'to the arbiters'}"
        if corrected_result is not None:
            detail += f"; result corrected to {corrected_result.value}"
        return protest._step(
            now, "chief arbiters' board", verdict, detail, status=ProtestStatus.DECIDED, decision=decision, fee=fee
        )

    def notify(self, protest: Protest, recipient: str | None = None) -> Protest:
        """The board tells the representative or coach the decision (TK-P7)."""
        now = self.now()
        self._require(protest, ProtestStatus.DECIDED, "notify")
        to = recipient or protest.filed_by
        note = Notification(now, to, "chief arbiters' board")
        return protest._step(
            now, "chief arbiters' board", "notified", to, status=ProtestStatus.NOTIFIED, notification=note
        )

    def appeal(self, protest: Protest, by: str) -> Protest:
        """There is no appeal: the board's decision is final (TK-P8)."""
        raise ProtestError(f"protest {protest.id}: the board's decision is final (TK-P8); {by} cannot appeal")

    @staticmethod
    def _require(protest: Protest, status: ProtestStatus, action: str) -> None:
        if protest.status is not status:
            raise ProtestError(f"protest {protest.id} is {protest.status.value}; cannot {action}")


def _check_members(body: str, present: tuple[str, ...], configured: tuple[str, ...]) -> None:
    if not present:
        raise ProtestError(f"the {body} must be present at the meeting (TK-P6)")
    if configured:
        strangers = [m for m in present if m not in configured]
        if strangers:
            raise ProtestError(f"{', '.join(strangers)} not a member of the {body}")


def _minutes(delta: timedelta) -> str:
    return f"{delta.total_seconds() / 60:g} min"


def apply_decision(tournament: Tournament, protest: Protest) -> Tournament:
    """The tournament with an upheld protest's corrected result entered (unchanged otherwise)."""
    decision = protest.decision
    if decision is None or not decision.upheld or decision.corrected_result is None:
        return tournament
    game = tournament.round(protest.game.round).game(protest.game.board)
    if (game.white, game.black) != (protest.game.white, protest.game.black):
        raise ProtestError(f"protest {protest.id} is about another game than board {game.board}")
    return tournament.record_result(protest.game.round, protest.game.board, decision.corrected_result,
                                    ended_at=game.ended_at)  # fmt: skip


def score_sheet_warnings(
    game: GameFacts,
    protests: Iterable[Protest],
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
