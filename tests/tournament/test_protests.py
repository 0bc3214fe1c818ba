"""Protests TK-P1..P9 with an injected clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

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
    Protest,
    ProtestDesk,
    ProtestError,
    ProtestSettings,
    ProtestStatus,
    apply_decision,
    score_sheet_warnings,
)

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


def file(d: ProtestDesk, facts: GameFacts | None = None, fee: int = 1000) -> Protest:
    return d.file("P-1", facts or game(), "Serik", FilerRole.REPRESENTATIVE, "Kumalaks were miscounted.", "Astana", fee)


def test_tk_p1_only_representatives_and_coaches_file_within_30_minutes() -> None:
    d, _ = desk(minutes_after_end=30)
    protest = file(d)
    assert protest.status is ProtestStatus.ACCEPTED  # exactly 30 minutes is still in time
    late, _ = desk(minutes_after_end=30.5)
    refused = file(late)
    assert refused.status is ProtestStatus.NOT_ACCEPTED
    assert refused.fee is FeeStatus.REFUNDED
    assert "30.5 min after the end of the game; the limit is 30 min (TK-P1)" in refused.log[-1].detail
    with pytest.raises(ProtestError, match="not a team representative or coach"):
        d.file("P-2", game(), "A spectator", FilerRole.COACH, "I saw it.")
    with pytest.raises(ProtestError, match="has not ended yet"):
        desk(minutes_after_end=-5)[0].file("P-3", game(), "Aigul", FilerRole.COACH, "Early.")
    with pytest.raises(ProtestError, match="text is empty"):
        d.file("P-4", game(), "Aigul", FilerRole.COACH, "   ")


def test_tk_p2_signed_result_is_accepted_but_not_considered() -> None:
    d, _ = desk()
    signed = game(white_signed_at=GAME_END + timedelta(minutes=2), black_signed_at=GAME_END + timedelta(minutes=3))
    protest = file(d, signed)
    assert protest.status is ProtestStatus.ACCEPTED_NOT_CONSIDERED
    assert protest.status.closed
    assert "signed by both players (TK-P2)" in protest.log[-1].detail
    # One signature is not "written and signed".
    half = game(white_signed_at=GAME_END + timedelta(minutes=2))
    assert file(d, half).status is ProtestStatus.ACCEPTED


def test_tk_p3_filed_after_the_next_pairing_is_not_accepted() -> None:
    d, _ = desk(minutes_after_end=20)
    paired = game(next_round_paired_at=GAME_END + timedelta(minutes=15))
    protest = file(d, paired)
    assert protest.status is ProtestStatus.NOT_ACCEPTED
    assert "next round (TK-P3)" in protest.log[-1].detail
    not_yet = game(next_round_paired_at=GAME_END + timedelta(minutes=25))
    assert file(d, not_yet).status is ProtestStatus.ACCEPTED


def test_tk_p4_fee_is_a_setting_and_unpaid_protests_are_not_considered() -> None:
    d, clock = desk()
    protest = file(d, fee=0)
    assert protest.status is ProtestStatus.AWAITING_FEE and protest.fee is FeeStatus.UNPAID
    assert (protest.fee_amount, protest.fee_currency) == (1000, "KZT")
    with pytest.raises(ProtestError, match="the fee is 1000 KZT, got 500 KZT"):
        d.pay_fee(protest, 500, "KZT", "Serik")
    with pytest.raises(ProtestError, match="got 1000 USD"):
        d.pay_fee(protest, 1000, "USD", "Serik")
    clock.advance(40)
    closed = d.convene(protest, ["Kairat"], ["Marat"])
    assert closed.status is ProtestStatus.NOT_CONSIDERED_UNPAID
    assert "fee was not paid (TK-P4)" in closed.log[-1].detail
    paid = d.pay_fee(protest, 1000, "KZT", "Serik")
    assert paid.status is ProtestStatus.ACCEPTED and paid.fee is FeeStatus.PAID
    # Another organiser charges 2000 tenge.
    dear = ProtestDesk(FakeClock(GAME_END), ProtestSettings(fee_amount=2000), filers=("Serik",))
    with pytest.raises(ProtestError, match="the fee is 2000 KZT, got 1000"):
        dear.file("P-9", game(), "Serik", FilerRole.REPRESENTATIVE, "Text", fee_paid=1000)
    with pytest.raises(ProtestError, match="paid in KZT, not EUR"):
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
        ("filed", timedelta(minutes=10)),
        ("accepted", timedelta(minutes=10)),
        ("meeting", timedelta(minutes=30)),
        ("upheld", timedelta(minutes=45)),
        ("notified", timedelta(minutes=50)),
    ]
    with pytest.raises(ProtestError, match="final \\(TK-P8\\)"):
        d.appeal(protest, "Serik")
    with pytest.raises(ProtestError, match="is notified; cannot decide"):
        d.decide(protest, upheld=False, members=["Kairat"], reasons="again")


def test_rejected_protest_fee_goes_to_the_arbiters() -> None:
    d, _ = desk()
    protest = d.convene(file(d), ["Saule"], ["Yerbol"])
    protest = d.decide(protest, upheld=False, members=["Saule", "Yerbol"], reasons="The count was right.")
    assert protest.fee is FeeStatus.TRANSFERRED
    assert "fee to the arbiters" in protest.log[-1].detail


def test_meeting_and_decision_members_are_checked() -> None:
    d, _ = desk()
    protest = file(d)
    with pytest.raises(ProtestError, match="chief arbiters' board must be present"):
        d.convene(protest, [], ["Marat"])
    with pytest.raises(ProtestError, match="Bolat not a member of the appeals committee"):
        d.convene(protest, ["Kairat"], ["Bolat"])
    met = d.convene(protest, ["Kairat"], ["Marat"])
    with pytest.raises(ProtestError, match="Saule did not attend"):
        d.decide(met, upheld=True, members=["Saule"], reasons="x")
    with pytest.raises(ProtestError, match="names the members"):
        d.decide(met, upheld=True, members=[], reasons="x")
    with pytest.raises(ProtestError, match="gives its reasons"):
        d.decide(met, upheld=True, members=["Kairat"], reasons=" ")
    with pytest.raises(ProtestError, match="only an upheld protest changes the result"):
        d.decide(met, upheld=False, members=["Kairat"], reasons="no", corrected_result=GameResult.DRAW)
    with pytest.raises(ProtestError, match="cannot notify"):
        d.notify(met)
    with pytest.raises(ProtestError, match="cannot convene"):
        d.convene(met, ["Kairat"], ["Marat"])


def test_clock_and_game_times_must_be_aware() -> None:
    with pytest.raises(ProtestError, match="aware"):
        game(ended_at=datetime(2026, 5, 1, 15, 0))
    naive = ProtestDesk(lambda: datetime(2026, 5, 1, 15, 10))
    with pytest.raises(ProtestError, match="aware"):
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
    with pytest.raises(ProtestError, match="no recorded end time"):
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
