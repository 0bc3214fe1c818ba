"""Protests TK-P1..P9 with an injected clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from toreshi.tournament.codes import ProtestCode as Code
from toreshi.tournament.model import (
    GameResult,
    Officials,
    Participant,
    Team,
    Tournament,
    TournamentSystem,
)
from toreshi.tournament.protests import (
    FeeStatus,
    FilerRole,
    GameFacts,
    ProtestAction,
    ProtestCase,
    ProtestDesk,
    ProtestError,
    ProtestSettings,
    ProtestStatus,
    apply_decision,
    score_sheet_warnings,
)

from .refusals import refused as refused_step

GAME_END = datetime(2026, 5, 1, 15, 0, tzinfo=UTC)
OFFICIALS = Officials(
    chief_arbiter="Kairat",
    chief_arbiters_board=("Kairat", "Saule"),
    appeals_committee=("Marat", "Gulnara", "Yerbol"),
)


class FakeClock:
    """Time stands still until the test moves it."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


def game(
    ended_at: datetime = GAME_END,
    white_signed_at: datetime | None = None,
    black_signed_at: datetime | None = None,
    next_round_paired_at: datetime | None = None,
) -> GameFacts:
    """Round 3, board 2: player 5 (Astana) against player 8 (Almaty)."""
    return GameFacts(3, 2, 5, 8, ended_at, white_signed_at, black_signed_at, next_round_paired_at, "Astana", "Almaty")


def desk(minutes_after_end: float = 10) -> tuple[ProtestDesk, FakeClock]:
    clock = FakeClock(GAME_END + timedelta(minutes=minutes_after_end))
    return ProtestDesk(clock, officials=OFFICIALS, filers=("Serik", "Aigul")), clock


def file(d: ProtestDesk, facts: GameFacts | None = None, fee: int = 1000) -> ProtestCase:
    return d.file("P-1", facts or game(), "Serik", FilerRole.REPRESENTATIVE, "Kumalaks were miscounted.", "Astana", fee)


def test_a_refusal_is_a_protest_error() -> None:
    with pytest.raises(ProtestError):
        desk()[0].file("P-4", game(), "Aigul", FilerRole.COACH, "")


def test_tk_p1_only_representatives_and_coaches_file_within_30_minutes() -> None:
    d, _ = desk(minutes_after_end=30)
    protest = file(d)
    assert protest.status is ProtestStatus.ACCEPTED  # exactly 30 minutes is still in time
    late, _ = desk(minutes_after_end=30.5)
    refused = file(late)
    assert refused.status is ProtestStatus.NOT_ACCEPTED
    assert refused.fee is FeeStatus.REFUNDED
    last = refused.log[-1]
    assert last.action is ProtestAction.NOT_ACCEPTED and not last.actor
    assert dict(last.params) == {"clause": "TK-P1", "minutes": 31, "limit": 30}  # 30.5 minutes: past the limit
    with refused_step(Code.NOT_A_FILER, person="A spectator"):
        d.file("P-2", game(), "A spectator", FilerRole.COACH, "I saw it.")
    with refused_step(Code.GAME_NOT_OVER):
        desk(minutes_after_end=-5)[0].file("P-3", game(), "Aigul", FilerRole.COACH, "Early.")
    with refused_step(Code.TEXT_EMPTY):
        d.file("P-4", game(), "Aigul", FilerRole.COACH, "   ")


def test_tk_p2_signed_result_is_accepted_but_not_considered() -> None:
    d, _ = desk()
    signed = game(white_signed_at=GAME_END + timedelta(minutes=2), black_signed_at=GAME_END + timedelta(minutes=3))
    protest = file(d, signed)
    assert protest.status is ProtestStatus.ACCEPTED_NOT_CONSIDERED
    assert protest.status.closed
    assert (protest.log[-1].action, dict(protest.log[-1].params)) == (
        ProtestAction.ACCEPTED_NOT_CONSIDERED,
        {"clause": "TK-P2"},
    )
    # One signature is not "written and signed".
    half = game(white_signed_at=GAME_END + timedelta(minutes=2))
    assert file(d, half).status is ProtestStatus.ACCEPTED


def test_tk_p3_filed_after_the_next_pairing_is_not_accepted() -> None:
    d, _ = desk(minutes_after_end=20)
    paired = game(next_round_paired_at=GAME_END + timedelta(minutes=15))
    protest = file(d, paired)
    assert protest.status is ProtestStatus.NOT_ACCEPTED
    assert (protest.log[-1].action, dict(protest.log[-1].params)) == (ProtestAction.NOT_ACCEPTED, {"clause": "TK-P3"})
    not_yet = game(next_round_paired_at=GAME_END + timedelta(minutes=25))
    assert file(d, not_yet).status is ProtestStatus.ACCEPTED


def test_tk_p4_fee_is_a_setting_and_unpaid_protests_are_not_considered() -> None:
    d, clock = desk()
    protest = file(d, fee=0)
    assert protest.status is ProtestStatus.AWAITING_FEE and protest.fee is FeeStatus.UNPAID
    assert (protest.fee_amount, protest.fee_currency) == (1000, "KZT")
    with refused_step(Code.FEE_AMOUNT, amount=1000, currency="KZT", given=500, given_currency="KZT"):
        d.pay_fee(protest, 500, "KZT", "Serik")
    with refused_step(Code.FEE_AMOUNT, given=1000, given_currency="USD"):
        d.pay_fee(protest, 1000, "USD", "Serik")
    clock.advance(40)
    closed = d.convene(protest, ["Kairat"], ["Marat"])
    assert closed.status is ProtestStatus.NOT_CONSIDERED_UNPAID
    assert (closed.log[-1].action, dict(closed.log[-1].params)) == (ProtestAction.NOT_CONSIDERED, {"clause": "TK-P4"})
    assert closed.log[-1].action.by_board
    paid = d.pay_fee(protest, 1000, "KZT", "Serik")
    assert paid.status is ProtestStatus.ACCEPTED and paid.fee is FeeStatus.PAID
    # Another organiser charges 2000 tenge.
    dear = ProtestDesk(FakeClock(GAME_END), ProtestSettings(fee_amount=2000), filers=("Serik",))
    with refused_step(Code.FEE_AMOUNT, amount=2000, currency="KZT", given=1000):
        dear.file("P-9", game(), "Serik", FilerRole.REPRESENTATIVE, "Text", fee_paid=1000)
    with refused_step(Code.FEE_CURRENCY, currency="KZT", given="EUR"):
        d.file("P-9", game(), "Serik", FilerRole.REPRESENTATIVE, "Text", fee_paid=1000, fee_currency="EUR")


def test_upheld_protest_full_cycle_with_audit_log() -> None:
    d, clock = desk()
    protest = file(d)
    clock.advance(20)
    protest = d.convene(protest, ["Kairat", "Saule"], ["Marat", "Gulnara"])
    assert protest.status is ProtestStatus.UNDER_CONSIDERATION
    clock.advance(15)
    protest = d.decide(
        protest,
        upheld=True,
        members=["Kairat", "Marat", "Gulnara"],
        reasons="The arbiter's count shows 82 for Black.",
        corrected_result=GameResult.BLACK_WINS,
    )
    assert protest.status is ProtestStatus.DECIDED
    assert protest.fee is FeeStatus.REFUNDED  # TK-P5
    assert protest.decision is not None and protest.decision.members == ("Kairat", "Marat", "Gulnara")
    clock.advance(5)
    protest = d.notify(protest)
    assert protest.status is ProtestStatus.NOTIFIED
    assert protest.notification is not None and protest.notification.recipient == "Serik"  # TK-P7
    assert [(e.action, e.at - GAME_END) for e in protest.log] == [
        (ProtestAction.FILED, timedelta(minutes=10)),
        (ProtestAction.ACCEPTED, timedelta(minutes=10)),
        (ProtestAction.MEETING, timedelta(minutes=30)),
        (ProtestAction.UPHELD, timedelta(minutes=45)),
        (ProtestAction.NOTIFIED, timedelta(minutes=50)),
    ]
    assert protest.log[0].actor == "Serik" and dict(protest.log[0].params) == {
        "round": 3, "board": 2, "role_term": "protest.representative"}  # fmt: skip
    assert dict(protest.log[2].params) == {"board": "Kairat, Saule", "committee": "Marat, Gulnara"}
    assert dict(protest.log[3].params) == {"members": "Kairat, Marat, Gulnara", "fee_term": "protest.fee.refunded",
                                           "result": "0-1"}  # fmt: skip
    assert dict(protest.log[4].params) == {"recipient": "Serik"}
    with refused_step(Code.FINAL, protest="P-1", person="Serik"):
        d.appeal(protest, "Serik")
    with refused_step(Code.WRONG_STATUS, protest="P-1", status_term="protest.notified",
                      step_term="protest.step.decide"):  # fmt: skip
        d.decide(protest, upheld=False, members=["Kairat"], reasons="again")


def test_rejected_protest_fee_goes_to_the_arbiters() -> None:
    d, _ = desk()
    protest = d.convene(file(d), ["Saule"], ["Yerbol"])
    protest = d.decide(protest, upheld=False, members=["Saule", "Yerbol"], reasons="The count was right.")
    assert protest.fee is FeeStatus.TRANSFERRED
    assert protest.log[-1].action is ProtestAction.REJECTED
    assert protest.log[-1].params["fee_term"] == "protest.fee.transferred"


def test_meeting_and_decision_members_are_checked() -> None:
    d, _ = desk()
    protest = file(d)
    with refused_step(Code.BODY_ABSENT, body_term="protest.board"):
        d.convene(protest, [], ["Marat"])
    with refused_step(Code.NOT_MEMBERS, members="Bolat", body_term="protest.committee"):
        d.convene(protest, ["Kairat"], ["Bolat"])
    met = d.convene(protest, ["Kairat"], ["Marat"])
    with refused_step(Code.ABSENT_MEMBERS, members="Saule"):
        d.decide(met, upheld=True, members=["Saule"], reasons="x")
    with refused_step(Code.NO_MEMBERS):
        d.decide(met, upheld=True, members=[], reasons="x")
    with refused_step(Code.NO_REASONS):
        d.decide(met, upheld=True, members=["Kairat"], reasons=" ")
    with refused_step(Code.ONLY_UPHELD_CORRECTS):
        d.decide(met, upheld=False, members=["Kairat"], reasons="no", corrected_result=GameResult.DRAW)
    with refused_step(Code.WRONG_STATUS, status_term="protest.under_consideration", step_term="protest.step.notify"):
        d.notify(met)
    with refused_step(Code.WRONG_STATUS, step_term="protest.step.convene"):
        d.convene(met, ["Kairat"], ["Marat"])


def test_clock_and_game_times_must_be_aware() -> None:
    # A naive time is a programming error (the service stamps aware times), not a refusal.
    with pytest.raises(ValueError, match="aware"):
        game(ended_at=datetime(2026, 5, 1, 15, 0))
    naive = ProtestDesk(lambda: datetime(2026, 5, 1, 15, 10))
    with pytest.raises(ValueError, match="aware"):
        file(naive)


def test_upheld_decision_changes_the_result_in_the_tournament() -> None:
    t = Tournament(
        name="Team cup",
        system=TournamentSystem.SWISS,
        rounds_planned=3,
        officials=OFFICIALS,
        teams=(Team("Astana", representatives=("Serik",)), Team("Almaty", coaches=("Aigul",))),
    )
    t = t.with_participant(Participant(1, "Abenov", team="Astana")).with_participant(
        Participant(2, "Bekov", team="Almaty")
    )
    t = t.add_round([(1, 2)], paired_at=GAME_END - timedelta(hours=2))
    t = t.record_result(1, 1, GameResult.WHITE_WINS, kazans=(82, 70), ended_at=GAME_END)
    clock = FakeClock(GAME_END + timedelta(minutes=5))
    d = ProtestDesk.for_tournament(t, clock)
    facts = GameFacts.from_tournament(t, 1, 1)
    assert (facts.white_team, facts.black_team, facts.next_round_paired_at) == ("Astana", "Almaty", None)
    protest = d.file("P-7", facts, "Aigul", FilerRole.COACH, "Black had 82 first.", "Almaty", 1000)
    protest = d.convene(protest, ["Kairat"], ["Marat"])
    rejected = d.decide(protest, upheld=False, members=["Kairat"], reasons="No.")
    assert apply_decision(t, rejected) is t
    upheld = d.decide(protest, upheld=True, members=["Kairat"], reasons="Yes.", corrected_result=GameResult.DRAW)
    corrected = apply_decision(t, upheld)
    assert corrected.round(1).game(1).result is GameResult.DRAW
    assert corrected.round(1).game(1).ended_at == GAME_END
    # After round 2 is paired, the pairing time closes protests about round 1 (TK-P3).
    t2 = corrected.add_round([(2, 1)], paired_at=GAME_END + timedelta(minutes=20))
    assert GameFacts.from_tournament(t2, 1, 1).next_round_paired_at == GAME_END + timedelta(minutes=20)
    with refused_step(Code.NO_END_TIME, round=2, board=1):
        GameFacts.from_tournament(t2, 2, 1)


def test_tk_p9_warning_for_unsigned_score_sheets() -> None:
    facts = game(white_signed_at=GAME_END + timedelta(minutes=10))
    # Before the 30 minutes are over nobody is warned.
    assert score_sheet_warnings(facts, [], GAME_END + timedelta(minutes=29)) == []
    # Black (8) neither signed nor protested.
    assert score_sheet_warnings(facts, [], GAME_END + timedelta(minutes=31)) == [8]
    # A protest by Black's team (Almaty) within the window spares Black the warning.
    d, _ = desk(minutes_after_end=12)
    protest = d.file("P-5", facts, "Aigul", FilerRole.COACH, "Miscount", "Almaty", 1000)
    assert score_sheet_warnings(facts, [protest], GAME_END + timedelta(minutes=31)) == []
    # A protest by the other team does not.
    other = d.file("P-6", facts, "Serik", FilerRole.REPRESENTATIVE, "Miscount", "Astana", 1000)
    assert score_sheet_warnings(facts, [other], GAME_END + timedelta(minutes=31)) == [8]
    # Signing late is still not signing within 30 minutes.
    late = game(white_signed_at=GAME_END + timedelta(minutes=45), black_signed_at=GAME_END)
    assert score_sheet_warnings(late, [], GAME_END + timedelta(minutes=50)) == [5]
