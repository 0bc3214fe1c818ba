"""The pairing tools wired into a live tournament (issue 17 §1 and §3): tie-breaks by the rules in force, forbidden
pairings, a manual change explained by the Dutch criteria, Baku acceleration, re-entries, a double round robin.

Every pairing below is worked out by hand (boards White-Black; S1/S2 the halves of a scoregroup by pairing number;
in round 1 the top seed of board 1 gets White and the boards alternate):

* 4 players, round 1 without rules: S1 = {1, 2}, S2 = {3, 4}: 1-3, 4-2.
* The same with 1-3 forbidden: 1 takes the next of S2 (the transposition 4, 3): 1-4, 3-2.
* 8 players, 5 rounds, Baku: the accelerated group GA is 2 × ⌈8/4⌉ = 4 players (1-4); ⌈5/2⌉ = 3 rounds are
  accelerated, the first ⌈3/2⌉ = 2 with a win's point, the third with a draw's half. In round 1 GA has one
  virtual point, the others none: two scoregroups, {1..4} → 1-3, 4-2 and {5..8} → 5-7, 8-6 (without
  acceleration: 1-5, 6-2, 3-7, 8-4).
* 4 players, 1 and 2 win round 1 (1-3 1-0, 4-2 0-1): in round 2, 1 (White before) wants Black and 2 White, both
  strongly (a colour difference of one): 2-1, then 3 (Black before) - 4. Swapping the colours of board 1
  (1-2) leaves both top players without their colour (C12), and both had a strong preference (C13).
"""

from __future__ import annotations

from fractions import Fraction

from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.journal.commands import (
    AddParticipant,
    AllowPair,
    Configure,
    Create,
    EnterResult,
    ForbidPair,
    ForbidSameClub,
    ImportForbidden,
    OverridePairing,
    PairRound,
    PublishRound,
    Readmit,
    Setting,
    Withdraw,
)
from toreshi.tournament.journal.state import Acceleration, ForbidSource
from toreshi.tournament.journal.trf_records import with_pairing_records
from toreshi.tournament.model import TournamentSystem
from toreshi.tournament.standings import trf_from_standings
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.tournament.trf import format_trf, to_trf2026
from toreshi.tournament.trf_pairing import read_accelerations, read_forbidden

from .test_journal import Desk, round_robin, swiss


def _paired(desk: Desk) -> tuple[tuple[int, int], ...]:
    state = desk.do(PairRound())
    assert state.draft is not None
    return state.draft.pairs


def _play(desk: Desk, results: list[str]) -> None:
    state = desk.do(PublishRound())
    number = len(state.t.rounds)
    for board, result in enumerate(results, start=1):
        desk.do(EnterResult(round=number, board=board, result=result))


# --- tie-breaks by the rules in force -----------------------------------------------------------------------


def _bye_winner(start: str) -> Desk:
    """5 players, 3 rounds, BH only: the round-1 bye goes to 5, who then wins both games (3 points)."""
    desk = swiss(players=5, rounds=3)
    desk.do(Configure(start=start, tiebreaks=("BH",)))
    for _ in range(3):
        state = desk.do(PairRound())
        assert state.draft is not None
        results = ["0-1" if black == 5 else "1-0" for _, black in state.draft.pairs]
        _play(desk, results)
    return desk


def test_the_tiebreak_rules_are_those_in_force_on_the_start_date_unless_the_arbiter_chooses() -> None:
    before, after = _bye_winner("2026-02-28"), _bye_winner("2026-03-01")
    assert before.state.standings().rules is TieBreakRules.C07_2024
    assert after.state.standings().rules is TieBreakRules.C07_2026
    assert before.state.t.round(1).byes[0].player == 5
    assert before.state.standings().row(5).points == 3
    # The bye's dummy opponent: 2024, the player's own 3 points; 2026 (§16.4), a draw in every round, 1.5.
    bh_2024, bh_2026 = before.state.standings().row(5).values[0], after.state.standings().row(5).values[0]
    assert bh_2024 is not None and bh_2026 is not None
    assert bh_2024 - bh_2026 == Fraction(3) - Fraction(3, 2)
    # A setting chooses the other version; clearing it goes back to the start date's.
    state = before.do(Configure(tiebreak_rules=TieBreakRules.C07_2026))
    assert state.standings().rules is TieBreakRules.C07_2026
    assert state.standings().row(5).values[0] == bh_2026
    state = before.do(Configure(cleared=(Setting.TIEBREAK_RULES,)))
    assert state.t.tiebreak_rules is None and state.standings().rules is TieBreakRules.C07_2024


# --- forbidden pairings -------------------------------------------------------------------------------------


def test_the_engine_keeps_a_forbidden_pair_apart() -> None:
    assert _paired(swiss(players=4)) == ((1, 3), (4, 2))
    desk = swiss(players=4)
    state = desk.do(ForbidPair(first=3, second=1, reason="brothers"))
    assert [(p.low, p.high, p.reason, p.source) for p in state.forbidden] == [(1, 3, "brothers", ForbidSource.HAND)]
    assert dict(state.audit[-1].params) == {"pairs": "1–3", "count": 1, "source_term": "forbidden.hand",
                                            "reason": "brothers"}  # fmt: skip
    desk.refused(ForbidPair(first=1, second=3), Code.ALREADY_FORBIDDEN, first="1. Player 1", second="3. Player 3")
    desk.refused(ForbidPair(first=2, second=2), Code.FORBID_ITSELF, player="2. Player 2")
    desk.refused(ForbidPair(first=2, second=9), Code.UNKNOWN_PLAYER, number=9)
    assert _paired(desk) == ((1, 4), (3, 2))


def test_a_lifted_prohibition_pairs_as_before() -> None:
    desk = swiss(players=4)
    desk.do(ForbidPair(first=1, second=3))
    desk.refused(AllowPair(first=2, second=4), Code.NOT_FORBIDDEN, first="2. Player 2", second="4. Player 4")
    state = desk.do(AllowPair(first=3, second=1))
    assert state.forbidden == ()
    assert _paired(desk) == ((1, 3), (4, 2))


def test_players_of_one_club_are_kept_apart_from_their_club_field() -> None:
    desk = Desk()
    desk.do(Create(name="Clubs", system=TournamentSystem.SWISS, rounds=3))
    desk.refused(ForbidSameClub(), Code.NO_CLUB_PAIRS)
    for name, club in (("A", "Тараз"), ("B", "Алматы"), ("C", " тараз"), ("D", "")):
        desk.do(AddParticipant(name=name, club=club))
    state = desk.do(ForbidSameClub(reason="one club"))
    assert [(p.low, p.high, p.source) for p in state.forbidden] == [(1, 3, ForbidSource.CLUB)]
    desk.refused(ForbidSameClub(), Code.NO_CLUB_PAIRS)  # nothing new to forbid
    assert _paired(desk) == ((1, 4), (3, 2))  # the hand-worked pairing with 1-3 kept apart


def test_forbidden_pairs_go_to_the_trf_and_come_back_from_it() -> None:
    desk = swiss(players=6)
    desk.do(ForbidPair(first=1, second=3))
    desk.do(ForbidPair(first=2, second=6))
    state = desk.state
    plain = trf_from_standings(state.standings(), state.t.name, state.t.rounds_planned, "FIDE_DUTCH_2025")
    trf16 = with_pairing_records(plain, state, trf2026=False)
    trf26 = with_pairing_records(to_trf2026(plain), state, trf2026=True)
    assert "XXP 1 3\rXXP 2 6\r" in format_trf(trf16)
    assert [f.players for f in read_forbidden(trf16)] == [(1, 3), (2, 6)] == [f.players for f in read_forbidden(trf26)]
    other = swiss(players=6)
    state = other.do(ImportForbidden(trf=format_trf(trf16), reason="from the entry system"))
    assert [(p.low, p.high, p.source) for p in state.forbidden] == [(1, 3, ForbidSource.TRF), (2, 6, ForbidSource.TRF)]
    other.refused(ImportForbidden(trf=format_trf(trf26)), Code.TRF_NO_FORBIDDEN)  # both there already
    other.refused(ImportForbidden(trf="001 x"), Code.TRF_UNREADABLE)


def test_a_round_that_only_forbidden_pairs_could_pair_is_refused() -> None:
    desk = swiss(players=2)
    desk.do(ForbidPair(first=1, second=2))
    desk.refused(PairRound(), Code.NO_PAIRING_FOUND, round=1)


# --- a manual change of the pairing -------------------------------------------------------------------------


def test_a_changed_pairing_names_the_criteria_it_breaks_and_needs_the_arbiters_confirmation() -> None:
    desk = swiss(players=4, rounds=3)
    assert _paired(desk) == ((1, 3), (4, 2))
    _play(desk, ["1-0", "0-1"])
    assert _paired(desk) == ((2, 1), (3, 4))
    refusal = desk.refused(OverridePairing(pairs=((1, 2), (3, 4)), reason="TV board"), Code.OVERRIDE_BREAKS_CRITERIA,
                           round=2, criteria="C12, C13")  # fmt: skip
    assert [(d.code, d.params["criterion"], d.params["players"]) for d in refusal.details] == [
        (Code.CRITERION_BROKEN, "C12", "1. Player 1, 2. Player 2"),
        (Code.CRITERION_BROKEN, "C13", "1. Player 1, 2. Player 2"),
    ]
    state = desk.do(OverridePairing(pairs=((1, 2), (3, 4)), reason="TV board", confirmed=True))
    assert state.draft is not None and state.draft.pairs == ((1, 2), (3, 4)) and state.draft.overridden
    assert dict(state.audit[-1].params)["criteria"] == "C12, C13"
    # A rematch breaks the absolute C1 as well.
    rematch = desk.refused(OverridePairing(pairs=((1, 3), (4, 2)), reason="x"), Code.OVERRIDE_BREAKS_CRITERIA)
    assert "C1" in str(rematch.params["criteria"]).split(", ")
    state = desk.do(PublishRound())
    trf = with_pairing_records(trf_from_standings(state.standings(), "x", 3), state, trf2026=False)
    assert "### round 2: pairing changed, breaks C12, C13 [warning]: TV board\r" in format_trf(trf)


def test_the_engines_own_pairing_typed_again_breaks_nothing() -> None:
    desk = swiss(players=4, rounds=3)
    _paired(desk)
    _play(desk, ["1-0", "0-1"])
    _paired(desk)
    state = desk.do(OverridePairing(pairs=((2, 1), (3, 4)), reason="typed again"))
    assert "criteria" not in dict(state.audit[-1].params)


# --- Baku acceleration --------------------------------------------------------------------------------------


def test_baku_acceleration_pairs_the_accelerated_group_apart_in_round_one() -> None:
    plain = swiss(players=8, rounds=5)
    assert _paired(plain) == ((1, 5), (6, 2), (3, 7), (8, 4))
    desk = swiss(players=8, rounds=5)
    state = desk.do(Configure(acceleration=Acceleration.BAKU))
    assert state.acceleration is Acceleration.BAKU
    assert _paired(desk) == ((1, 3), (4, 2), (5, 7), (8, 6))
    desk.refused(Configure(acceleration=Acceleration.NONE), Code.ACCELERATION_FIXED)
    state = desk.do(PublishRound())
    trf = with_pairing_records(to_trf2026(trf_from_standings(state.standings(), "x", 5, "FIDE_DUTCH_2025")), state,
                               trf2026=True)  # fmt: skip
    assert [(a.points, a.first_round, a.last_round, a.first_player, a.last_player) for a in read_accelerations(trf)] \
        == [(Fraction(1), 1, 2, 1, 4), (Fraction(1, 2), 3, 3, 1, 4)]  # fmt: skip
    assert trf.system == "FIDE_DUTCH_2025_BAKU"
    trf16 = with_pairing_records(trf_from_standings(state.standings(), "x", 5, "FIDE_DUTCH_2025"), state,
                                 trf2026=False)  # fmt: skip
    assert "XXA    1  1.0  1.0  0.5\r" in format_trf(trf16)
    assert read_accelerations(trf16) != ()


def test_a_round_robin_has_no_acceleration_nor_forbidden_pairs() -> None:
    desk = round_robin(4)
    desk.refused(Configure(acceleration=Acceleration.BAKU), Code.ACCELERATION_SWISS_ONLY)
    desk.refused(ForbidPair(first=1, second=2), Code.FORBIDDEN_SWISS_ONLY)


# --- late entries and re-entries ----------------------------------------------------------------------------


def test_a_withdrawn_player_reenters_by_the_tournaments_rules() -> None:
    desk = swiss(players=5, rounds=4)
    _paired(desk)
    _play(desk, ["1-0", "1-0"])
    desk.do(Withdraw(number=3, reason="ill"))
    desk.refused(Readmit(number=3, round=3), Code.REENTRY_CLOSED, round=3)
    desk.do(Configure(late_entry_until=3))
    desk.refused(Readmit(number=4), Code.NOT_LEFT, player="4. Player 4")
    state = desk.do(Readmit(number=3, round=3, reason="recovered", confirmed=True))
    assert dict(state.audit[-1].params) == {"player": "3. Player 3", "round": 3}
    pairs = _paired(desk)
    assert all(3 not in pair for pair in pairs)  # away in round 2
    _play(desk, ["1-0"] * len(pairs))
    pairs = _paired(desk)
    assert desk.state.draft is not None
    # Back for round 3, with the lowest score (a loss, then an absence): 3 gets the pairing-allocated bye (C5).
    assert desk.state.draft.bye == 3 and all(3 not in pair for pair in pairs)
    assert desk.state.t.record().entries[3][2].code.value == "Z"


def test_a_late_entrant_scores_the_missed_rounds_by_the_setting() -> None:
    from toreshi.tournament.journal.commands import ByeKind

    desk = swiss(players=4, rounds=3)
    desk.do(Configure(late_entry_until=2, late_entry_missed=ByeKind.HALF))
    _paired(desk)
    _play(desk, ["1-0", "1-0"])
    desk.do(AddParticipant(name="Late", confirmed=True, reason="delayed train"))
    assert desk.state.t.record().entries[5][1].code.value == "H"
    assert desk.state.t.record().points(5) == Fraction(1, 2)


# --- a double round robin -----------------------------------------------------------------------------------


def test_a_double_round_robin_plays_the_berger_tables_twice_with_colours_reversed() -> None:
    desk = Desk()
    desk.do(Create(name="Double", system=TournamentSystem.DOUBLE_ROUND_ROBIN))
    for index in range(4):
        desk.do(AddParticipant(name=f"P{index + 1}"))
    games = []
    for _ in range(6):
        pairs = _paired(desk)
        games.append(pairs)
        _play(desk, ["½-½"] * len(pairs))
    assert desk.state.t.rounds_planned == 6
    first = {pair for rnd in games[:3] for pair in rnd}
    second = {pair for rnd in games[3:] for pair in rnd}
    assert len(first) == 6 and second == {(black, white) for white, black in first}
