"""Tie-break values against examples worked out by hand (the working is in the comments)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.tournament.model import Colour, Participant, Record, ResultCode, RoundEntry, Scoring, build_record
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.tournament.tiebreaks import (
    TieBreak,
    TieBreakCode,
    TieBreakError,
    adjusted_scores,
    average_rating,
    compute,
    direct_encounter_ranks,
    dummy_score,
    is_voluntarily_unplayed,
    rating_difference,
)

W, B = Colour.WHITE, Colour.BLACK
WIN, DRAW, LOSS = ResultCode.WIN, ResultCode.DRAW, ResultCode.LOSS
F = Fraction


def swiss_example() -> Record:
    """Five players, three rounds, with a PAB every round, a forfeit and an absence.

    R1: 1–2 1-0 (kazans 95:40), 3–4 ½-½ (81:81), 5 PAB
    R2: 3–1 0-1 (60:82), 2–5 + − (5 did not come), 4 PAB
    R3: 1–4 ½-½ (81:81), 2–3 0-1 (50:90), 5 absent (Z)
    Scores: 1 → 2½, 2 → 1, 3 → 1½, 4 → 2, 5 → 1. Ratings 2000, 1800, 1900, 1700, unrated.
    """
    people = [
        Participant(1, "Abenov", 2000),
        Participant(2, "Bekov", 1800),
        Participant(3, "Dauletov", 1900),
        Participant(4, "Ermekov", 1700),
        Participant(5, "Zhanov"),
    ]
    entries = {
        1: [RoundEntry(1, WIN, 2, W, 95), RoundEntry(2, WIN, 3, B, 82), RoundEntry(3, DRAW, 4, W, 81)],
        2: [
            RoundEntry(1, LOSS, 1, B, 40),
            RoundEntry(2, ResultCode.FORFEIT_WIN, 5, W),
            RoundEntry(3, LOSS, 3, W, 50),
        ],
        3: [RoundEntry(1, DRAW, 4, W, 81), RoundEntry(2, LOSS, 1, W, 60), RoundEntry(3, WIN, 2, B, 90)],
        4: [RoundEntry(1, DRAW, 3, B, 81), RoundEntry(2, ResultCode.PAIRING_BYE), RoundEntry(3, DRAW, 1, B, 81)],
        5: [
            RoundEntry(1, ResultCode.PAIRING_BYE),
            RoundEntry(2, ResultCode.FORFEIT_LOSS, 2, B),
            RoundEntry(3, ResultCode.ZERO_BYE),
        ],
    }
    return build_record(people, 3, entries)


def values(
    code: str, record: Record | None = None, rules: TieBreakRules = TieBreakRules.C07_2024
) -> dict[int, Fraction | None]:
    """The worked examples below are for the 2024 rules unless a test says otherwise."""
    return compute(TieBreak.parse(code), record or swiss_example(), rules)


def test_voluntarily_unplayed_rounds() -> None:
    # Forfeit wins, full-point byes and the PAB bring a win's points: not voluntary (C.07 16.2).
    assert not is_voluntarily_unplayed(RoundEntry(1, ResultCode.FORFEIT_WIN, 2, W))
    assert not is_voluntarily_unplayed(RoundEntry(1, ResultCode.PAIRING_BYE))
    assert not is_voluntarily_unplayed(RoundEntry(1, ResultCode.FULL_BYE))
    assert not is_voluntarily_unplayed(RoundEntry(1, DRAW, 2, W))
    for code in (ResultCode.HALF_BYE, ResultCode.ZERO_BYE):
        assert is_voluntarily_unplayed(RoundEntry(1, code))
    assert is_voluntarily_unplayed(RoundEntry(1, ResultCode.FORFEIT_LOSS, 2, W))


def test_adjusted_scores_count_rounds_after_leaving_as_draws() -> None:
    # Player 5: R1 PAB (1, not a VUR), R2 forfeit loss (VUR with an opponent: keeps its 0),
    # R3 absent (VUR without an opponent after the last non-VUR round R1: counts as a draw) → 1 + 0 + ½.
    adjusted = adjusted_scores(swiss_example())
    assert adjusted == {1: F(5, 2), 2: F(1), 3: F(3, 2), 4: F(2), 5: F(3, 2)}


def test_buchholz() -> None:
    # 1: opponents 2 (1), 3 (1½), 4 (2) → 4½
    # 2: opponent 1 (2½) + forfeit win → dummy with own score 1 + opponent 3 (1½) → 5
    # 3: 4 (2) + 1 (2½) + 2 (1) → 5½
    # 4: 3 (1½) + PAB → own score 2 + 1 (2½) → 6
    # 5: PAB, forfeit loss, absence → three dummies with own score 1 → 3
    assert values("BH") == {1: F(9, 2), 2: F(5), 3: F(11, 2), 4: F(6), 5: F(3)}


def test_buchholz_cut_one_drops_voluntarily_unplayed_rounds_first() -> None:
    # 5's contributions are 1 (PAB), 1 (VUR), 1 (VUR): a VUR goes → 2. Everyone else drops the lowest.
    assert values("BH/C1") == {1: F(7, 2), 2: F(4), 3: F(9, 2), 4: F(9, 2), 5: F(2)}


def test_buchholz_cut_one_prefers_a_vur_even_when_it_is_not_the_lowest() -> None:
    # R1: 1 beats 2, 3 gets the PAB. R2: 1 takes a half-point bye, 3 beats 2.
    # Scores: 1 → 1½, 2 → 0, 3 → 2.
    # BH(1) = opponent 2 (0) + dummy with own score 1½ for the bye (a VUR) = 1½. Cut-1 drops the VUR
    # first, although the played opponent's 0 is lower → 0.
    # BH(2) = 1½ + 2 = 3½, cut-1 → 2.  BH(3) = PAB dummy 2 (not a VUR) + opponent 2 (0) = 2, cut-1 → 2.
    people = [Participant(1, "A"), Participant(2, "B"), Participant(3, "C")]
    record = build_record(
        people,
        2,
        {
            1: [RoundEntry(1, WIN, 2, W), RoundEntry(2, ResultCode.HALF_BYE)],
            2: [RoundEntry(1, LOSS, 1, B), RoundEntry(2, LOSS, 3, W)],
            3: [RoundEntry(1, ResultCode.PAIRING_BYE), RoundEntry(2, WIN, 2, B)],
        },
    )
    assert values("BH", record) == {1: F(3, 2), 2: F(7, 2), 3: F(2)}
    assert values("BH/C1", record) == {1: F(0), 2: F(2), 3: F(2)}


# --- the 2026 amendment: capped dummy opponents (C.07 16.4 as in force from 2026-03-01) ----------------------


def test_2026_caps_the_dummy_of_a_bye_at_a_draw_in_every_round() -> None:
    # Same worked example. Only player 4's PAB changes: its dummy opponent had 4's own score 2 (2024); from 2026
    # it is at most a draw in each of the 3 rounds, 1½ (16.4.2). BH(4) = 1½ (3) + 1½ (dummy) + 2½ (1) = 5½.
    # Player 5's dummies stay at 5's own score 1 (below both caps: 1½ for rounds without an opponent, and the
    # forfeit opponent 2's adjusted score 1); player 2's forfeit win: min(own 1, adjusted(5) = 1½) = 1.
    assert values("BH", rules=TieBreakRules.C07_2026) == {1: F(9, 2), 2: F(5), 3: F(11, 2), 4: F(11, 2), 5: F(3)}
    # SB(4) = 1½ × ½ (drew 3) + 1½ × 1 (PAB) + 2½ × ½ (drew 1) = ¾ + 1½ + 1¼ = 3½ (2024: 4).
    assert values("SB", rules=TieBreakRules.C07_2026)[4] == F(7, 2)
    assert values("SB", rules=TieBreakRules.C07_2024)[4] == F(4)


def forfeit_example() -> Record:
    """Four players, three rounds; player 3 does not come to round 2 and loses it by forfeit.

    R1: 1–2 1-0, 3–4 1-0.  R2: 1–3 + − (3 absent), 2–4 ½-½.  R3: 4–1 0-1, 2–3 0-1.
    Scores: 1 → 3, 2 → ½, 3 → 2, 4 → ½. Nobody withdrew, so adjusted scores are the scores.
    """
    people = [Participant(n, f"P{n}") for n in (1, 2, 3, 4)]
    entries = {
        1: [RoundEntry(1, WIN, 2, W), RoundEntry(2, ResultCode.FORFEIT_WIN, 3, W), RoundEntry(3, WIN, 4, B)],
        2: [RoundEntry(1, LOSS, 1, B), RoundEntry(2, DRAW, 4, W), RoundEntry(3, LOSS, 3, W)],
        3: [RoundEntry(1, WIN, 4, W), RoundEntry(2, ResultCode.FORFEIT_LOSS, 1, B), RoundEntry(3, WIN, 2, B)],
        4: [RoundEntry(1, LOSS, 3, B), RoundEntry(2, DRAW, 2, B), RoundEntry(3, LOSS, 1, W)],
    }
    return build_record(people, 3, entries)


def test_2026_caps_the_dummy_of_a_forfeit_at_the_opponents_adjusted_score() -> None:
    record = forfeit_example()
    assert adjusted_scores(record) == {1: F(3), 2: F(1, 2), 3: F(2), 4: F(1, 2)}
    # 1's forfeit win over 3. 2024: a dummy with 1's own score 3 → BH(1) = ½ + 3 + ½ = 4, SB the same (all wins).
    # 2026 (16.4.1): at most the forfeiting opponent's adjusted score, min(3, 2) = 2 → BH(1) = SB(1) = 3.
    assert values("BH", record)[1] == F(4)
    assert values("BH", record, TieBreakRules.C07_2026)[1] == F(3)
    assert values("SB", record)[1] == F(4)
    assert values("SB", record, TieBreakRules.C07_2026)[1] == F(3)
    # Cut-1 (2026): the contributions are ½, 2 (the forfeit win, not voluntary) and ½ → drop a ½ → 2½.
    assert values("BH/C1", record, TieBreakRules.C07_2026)[1] == F(5, 2)
    # 3's forfeit loss: the cap is min(own 2, adjusted(1) 3) = 2, 3's own score, as in 2024:
    # BH(3) = ½ (4) + 2 + ½ (2) = 3 both times; SB(3) = ½ + 0 × 2 + ½ = 1.
    for rules in TieBreakRules:
        assert values("BH", record, rules)[3] == F(3)
        assert values("SB", record, rules)[3] == F(1)


def test_dummy_score_by_version() -> None:
    record = forfeit_example()
    adjusted = adjusted_scores(record)
    forfeit = record.entries[1][2]
    bye = RoundEntry(2, ResultCode.HALF_BYE)
    assert dummy_score(record, forfeit, adjusted, F(3), TieBreakRules.C07_2024) == 3
    assert dummy_score(record, forfeit, adjusted, F(3), TieBreakRules.C07_2026) == 2
    # Without an opponent the cap is a draw in each of the record's 3 rounds: 1½; a lower own score stays.
    assert dummy_score(record, bye, adjusted, F(5, 2), TieBreakRules.C07_2026) == F(3, 2)
    assert dummy_score(record, bye, adjusted, F(1), TieBreakRules.C07_2026) == 1
    assert dummy_score(record, bye, adjusted, F(5, 2), TieBreakRules.C07_2024) == F(5, 2)


def test_the_newest_rules_are_the_default() -> None:
    assert compute(TieBreak.parse("BH"), forfeit_example())[1] == F(3)


def test_median_buchholz() -> None:
    # Drop the lowest and the highest: 1 → 1½, 2 → (2½, 1, 1½) → 1½, 3 → 2, 4 → 2, 5 → 1.
    assert values("BH/M1") == {1: F(3, 2), 2: F(3, 2), 3: F(2), 4: F(2), 5: F(1)}


def test_sonneborn_berger() -> None:
    # 1: 1×1 (beat 2) + 1½×1 (beat 3) + 2×½ (drew 4) → 3½
    # 2: lost to 1 → 0; forfeit win → own score 1 × 1; lost to 3 → 0 → 1
    # 3: drew 4 → 2×½; lost to 1; beat 2 → 1×1 → 2
    # 4: drew 3 → 1½×½; PAB → own 2 × 1; drew 1 → 2½×½ → ¾ + 2 + 1¼ = 4
    # 5: PAB → own 1 × 1; forfeit loss and absence → 0 → 1
    assert values("SB") == {1: F(7, 2), 2: F(1), 3: F(2), 4: F(4), 5: F(1)}


def test_progressive_score() -> None:
    # Running scores: 1 → 1, 2, 2½ = 5½; 2 → 0, 1, 1 = 2; 3 → ½, ½, 1½ = 2½; 4 → ½, 1½, 2 = 4; 5 → 1, 1, 1 = 3
    assert values("PS") == {1: F(11, 2), 2: F(2), 3: F(5, 2), 4: F(4), 5: F(3)}
    # Cut-1 leaves out the first round's running score.
    assert values("PS/C1") == {1: F(9, 2), 2: F(2), 3: F(2), 4: F(7, 2), 5: F(2)}


def test_counting_tiebreaks() -> None:
    # WIN counts rounds worth a win's points, played or not: 2's forfeit win, 4's and 5's PAB.
    assert values("WIN") == {1: 2, 2: 1, 3: 1, 4: 1, 5: 1}
    assert values("WON") == {1: 2, 2: 0, 3: 1, 4: 0, 5: 0}
    # Black over the board only: 5's forfeited Black game does not count.
    assert values("BPG") == {1: 1, 2: 1, 3: 1, 4: 2, 5: 0}
    assert values("BWG") == {1: 1, 2: 0, 3: 1, 4: 0, 5: 0}
    # Points as қостаушы: 1 won as Black (1), 3 won as Black (1), 4 drew twice as Black (½ + ½).
    assert values("BPTS") == {1: 1, 2: 0, 3: 1, 4: 1, 5: 0}


def test_koya_counts_points_against_opponents_on_half_the_maximum() -> None:
    # Limit: 50 % of 3 rounds × 1 = 1½; players 1 (2½), 3 (1½), 4 (2) qualify.
    # 1: beat 2 (1 point, below the limit: not counted), beat 3 → 1, drew 4 → ½: 1½; 2: lost to 1 and 3 → 0;
    # 3: drew 4 → ½, lost to 1;
    # 4: drew 3 and 1 → 1; 5: only opponent is 2 (1 point) → 0.
    assert values("KS") == {1: F(3, 2), 2: 0, 3: F(1, 2), 4: 1, 5: 0}
    # With the limit at 70 % (2.1 points) only player 1 qualifies.
    assert values("KS/L70") == {1: 0, 2: 0, 3: 0, 4: F(1, 2), 5: 0}


def test_average_rating_of_opponents_and_performance() -> None:
    # 1 played 1800, 1900, 1700 → ARO 1800; 2½/3 = .83 → dp 273 → TPR 2073.
    # 2 played 2000 and 1900 (the forfeit is not a game) → 1950; 0/2 → dp −800 → 1150.
    # 3 played 1700, 2000, 1800 → 1833.3 → 1833; 1½/3 = .50 → 1833.
    # 4 played 1900, 2000 → 1950; 1/2 → 1950. 5 played no game → no value.
    assert values("ARO") == {1: 1800, 2: 1950, 3: 1833, 4: 1950, 5: None}
    assert values("TPR") == {1: 2073, 2: 1150, 3: 1833, 4: 1950, 5: None}
    # ARO cut-1 leaves out the lowest-rated opponent: 1 → (1800 + 1900) / 2 = 1850.
    assert values("ARO/C1")[1] == 1850


def test_unrated_opponents_count_with_the_configured_rating() -> None:
    people = [Participant(1, "A", 2000), Participant(2, "B")]
    record = build_record(people, 1, {1: [RoundEntry(1, DRAW, 2, W)], 2: [RoundEntry(1, DRAW, 1, B)]})
    assert compute(TieBreak(TieBreakCode.ARO), record)[1] is None
    assert compute(TieBreak(TieBreakCode.ARO, unrated_rating=1400), record)[1] == 1400
    assert compute(TieBreak(TieBreakCode.TPR, unrated_rating=1400), record)[2] == 2000


def test_total_kumalaks_captured() -> None:
    # Final kazans of games played out; 2's forfeit win adds nothing.
    assert values("KUM") == {1: 95 + 82 + 81, 2: 40 + 50, 3: 81 + 60 + 90, 4: 81 + 81, 5: 0}


def test_fide_rating_difference_table() -> None:
    # FIDE 8.1(a): .83 → 273, .50 → 0, .17 → −273 (symmetric), 0 → −800; p is rounded to 2 decimals first.
    assert rating_difference(F(83, 100)) == 273
    assert rating_difference(F(17, 100)) == -273
    assert rating_difference(F(0)) == -800
    assert rating_difference(F(2, 3)) == 125  # .6667 → .67
    for hundredths in range(101):
        assert rating_difference(F(hundredths, 100)) == -rating_difference(F(100 - hundredths, 100))
    with pytest.raises(TieBreakError):
        rating_difference(F(3, 2))


def test_average_rating_rounds_half_up() -> None:
    assert average_rating([1800, 1801]) == 1801
    assert average_rating([1800, 1800, 1801]) == 1800


def test_parse_and_print() -> None:
    assert TieBreak.parse("BH/C2") == TieBreak(TieBreakCode.BH, cut_lowest=2)
    assert str(TieBreak.parse("SB/M1")) == "SB/M1"
    with pytest.raises(TieBreakError, match="unknown tie-break 'XYZ'"):
        TieBreak.parse("XYZ")
    with pytest.raises(TieBreakError, match="no median form"):
        TieBreak.parse("PS/M1")
    with pytest.raises(TieBreakError, match="takes no cut"):
        TieBreak.parse("WIN/C1")
    with pytest.raises(TieBreakError, match="cannot read"):
        TieBreak.parse("BH//")
    with pytest.raises(TieBreakError, match="only Koya"):
        TieBreak.parse("BH/L50")


def round_robin(results: dict[tuple[int, int], ResultCode], n: int = 4) -> Record:
    """A single round robin from (white, black) → White's code; round numbers are just a running count."""
    people = [Participant(i, f"P{i}", 1500 + 10 * i) for i in range(1, n + 1)]
    entries: dict[int, list[RoundEntry]] = {i: [] for i in range(1, n + 1)}
    slot: dict[int, int] = dict.fromkeys(range(1, n + 1), 0)
    for (white, black), code in results.items():
        rnd = max(slot[white], slot[black]) + 1
        slot[white] = slot[black] = rnd
        reply = ResultCode.FORFEIT_WIN if code is ResultCode.FORFEIT_LOSS else code.reversed
        entries[white].append(RoundEntry(rnd, code, black, W))
        entries[black].append(RoundEntry(rnd, reply, white, B))
    rounds = max(slot.values())
    return build_record(people, rounds, entries, round_robin=True)


def test_direct_encounter_round_robin() -> None:
    # 1 beats 2, 2 beats 3, 1 draws 3; everyone beats 4.
    # Against the group {1, 2, 3}: 1 → 1½, 2 → 1, 3 → ½.
    record = round_robin(
        {(1, 2): WIN, (2, 3): WIN, (3, 1): DRAW, (4, 1): LOSS, (4, 2): LOSS, (3, 4): WIN},
    )
    assert direct_encounter_ranks(record, [1, 2, 3]) == {1: 1, 2: 2, 3: 3}


def test_direct_encounter_cycle_cannot_separate() -> None:
    # 1 beats 2, 2 beats 3, 3 beats 1: each has 1 point in the group; nobody is separated.
    record = round_robin({(1, 2): WIN, (2, 3): WIN, (3, 1): WIN, (4, 1): LOSS, (4, 2): LOSS, (4, 3): LOSS})
    assert direct_encounter_ranks(record, [1, 2, 3]) == {1: 1, 2: 1, 3: 1}


def test_direct_encounter_re_applies_to_a_sub_group() -> None:
    # Group {1, 2, 3, 4}: 1 beat everyone (3), 2 and 3 drew each other and both beat 4, so 2 and 3 tie at 1½
    # in the group and are re-compared on their own game: still ½ each → they share second place.
    record = round_robin({(1, 2): WIN, (1, 3): WIN, (1, 4): WIN, (2, 3): DRAW, (2, 4): WIN, (3, 4): WIN})
    assert direct_encounter_ranks(record, [1, 2, 3, 4]) == {1: 1, 2: 2, 3: 2, 4: 4}
    # Only 2 and 3 tied: their mutual draw does not separate them either.
    assert direct_encounter_ranks(record, [2, 3]) == {2: 1, 3: 1}


def test_direct_encounter_averages_repeated_meetings() -> None:
    # Double round robin of two: 1 won one game, the other was drawn → average ¾ against ¼.
    people = [Participant(1, "A"), Participant(2, "B")]
    record = build_record(
        people,
        2,
        {
            1: [RoundEntry(1, WIN, 2, W), RoundEntry(2, DRAW, 2, B)],
            2: [RoundEntry(1, LOSS, 1, B), RoundEntry(2, DRAW, 1, W)],
        },
        round_robin=True,
    )
    assert direct_encounter_ranks(record, [1, 2]) == {1: 1, 2: 2}


def test_direct_encounter_swiss_needs_an_unreachable_lead() -> None:
    # Swiss: 1 beat both 2 and 3 (2 points in the group); 2 and 3 never met: 0 each, at most 1 with the
    # missing game won → 1 is ahead; 2 and 3 cannot be separated.
    people = [Participant(i, f"P{i}") for i in (1, 2, 3)]
    record = build_record(
        people,
        2,
        {
            1: [RoundEntry(1, WIN, 2, W), RoundEntry(2, WIN, 3, B)],
            2: [RoundEntry(1, LOSS, 1, B), RoundEntry(2, ResultCode.PAIRING_BYE)],
            3: [RoundEntry(1, ResultCode.PAIRING_BYE), RoundEntry(2, LOSS, 1, W)],
        },
    )
    assert direct_encounter_ranks(record, [1, 2, 3]) == {1: 1, 2: 2, 3: 2}
    # 2 and 5 in the worked Swiss example only met by forfeit: not a game, so DE cannot split them.
    assert direct_encounter_ranks(swiss_example(), [2, 5]) == {2: 1, 5: 1}


def test_round_robin_forfeit_counts_as_played_for_sonneborn_berger() -> None:
    # 4 players; 4 forfeits to 1 (− +). In a round robin the scheduled game counts: 1 gets 4's score × 1.
    record = round_robin(
        {(1, 2): DRAW, (3, 1): LOSS, (4, 1): ResultCode.FORFEIT_LOSS, (2, 3): WIN, (4, 2): LOSS, (3, 4): DRAW}
    )
    points = {p: record.points(p) for p in record.participants}
    # 1: ½ + 1 + 1; 2: ½ + 1 (beat 3) + 1 (beat 4); 3: 0 + 0 + ½; 4: 0 + 0 + ½.
    assert points == {1: F(5, 2), 2: F(5, 2), 3: F(1, 2), 4: F(1, 2)}
    sb = compute(TieBreak(TieBreakCode.SB), record)
    # 1: drew 2 → ½ × 2½; beat 3 → ½; forfeit win over 4 → ½ (as if played) → 2¼.
    assert sb[1] == F(9, 4)


@st.composite
def complete_round_robins(draw: st.DrawFn) -> Record:
    n = draw(st.integers(min_value=3, max_value=7))
    codes = st.sampled_from([WIN, DRAW, LOSS])
    return round_robin({pair: draw(codes) for pair in combinations(range(1, n + 1), 2)}, n)


@given(complete_round_robins())
def test_round_robin_buchholz_is_everyone_elses_points(record: Record) -> None:
    # In a complete round robin everyone met everyone once: BH(p) = total points − p's points, and the
    # total is one point per game.
    n = len(record.participants)
    total = sum((record.points(p) for p in record.participants), F(0))
    assert total == F(n * (n - 1), 2)
    bh = compute(TieBreak(TieBreakCode.BH), record)
    assert all(bh[p] == total - record.points(p) for p in record.participants)
    # SB never exceeds BH, and wins as White plus wins as Black make all wins.
    sb = compute(TieBreak(TieBreakCode.SB), record)
    assert all(v is not None and v <= (bh[p] or 0) for p, v in sb.items())
    won, bwg = compute(TieBreak(TieBreakCode.WON), record), compute(TieBreak(TieBreakCode.BWG), record)
    assert all((bwg[p] or 0) <= (won[p] or 0) for p in record.participants)


def test_other_point_systems_are_respected() -> None:
    # 3 / 1 / 0 scoring: 1 beat 2 (3 points), then drew 3 (1 point); 2 got the PAB (3 points) in round 2.
    scoring = Scoring(win=F(3), draw=F(1), forfeit_win=F(3), pairing_bye=F(3), full_bye=F(3), half_bye=F(1))
    people = [Participant(1, "A"), Participant(2, "B"), Participant(3, "C")]
    record = build_record(
        people,
        2,
        {
            1: [RoundEntry(1, WIN, 2, W), RoundEntry(2, DRAW, 3, B)],
            2: [RoundEntry(1, LOSS, 1, B), RoundEntry(2, ResultCode.PAIRING_BYE)],
            3: [RoundEntry(1, ResultCode.PAIRING_BYE), RoundEntry(2, DRAW, 1, W)],
        },
        scoring=scoring,
    )
    assert {p: record.points(p) for p in (1, 2, 3)} == {1: 4, 2: 3, 3: 4}
    # WIN counts rounds worth a win's 3 points: 1's win, 2's and 3's PAB; a 1-point draw is not one.
    assert values("WIN", record) == {1: 1, 2: 1, 3: 1}
    # SB: 1 → 3 × points(2) + 1 × points(3) = 9 + 4 = 13.
    assert values("SB", record)[1] == 13
