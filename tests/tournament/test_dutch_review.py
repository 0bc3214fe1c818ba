"""The criteria a manual pairing breaks, on tournaments worked by hand (notation WHITE-BLACK).

Colour preferences after round 1: a player who had White wants Black and the other way round; with a colour
difference of 1 that preference is strong (C13 as well as C12). Scores in the messages are in tenths.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toreshi.tournament.dutch import PairingInputError, pair_trf
from toreshi.tournament.dutch.checker import recorded_round
from toreshi.tournament.dutch.review import Criterion, Violation, manual_pairing, review_pairing
from toreshi.tournament.trf import TrfFile, parse_trf

from .builders import R, tournament

# Round 1 of eight players by seed: 1-5 6-2 3-7 8-4, the higher seeds win. Scores 1 2 3 4 → 1, 5 6 7 8 → 0.
# The engine's round 2: {1 2 3 4}: 1-3 and 2-4 would each cost one player his colour (1 and 3 both had White,
# 2 and 4 Black), the transposition 1-4 2-3 costs nothing: 4-1, 2-3; below, likewise, 5-8, 7-6.
ROUND_1 = [(1, 5, R.WIN), (6, 2, R.LOSS), (3, 7, R.WIN), (8, 4, R.LOSS)]


def eight() -> TrfFile:
    return tournament(["XXR 5", "XXC white1"], [ROUND_1])


def review(trf: TrfFile, number: int, boards: list[tuple[int, int]], bye: int | None = None) -> list[Violation]:
    return list(review_pairing(trf, number, manual_pairing(boards, bye)).violations)


def codes(found: list[Violation]) -> dict[str, tuple[int, ...]]:
    return {v.criterion.value: v.players for v in found}


def test_the_engines_own_pairing_breaks_nothing() -> None:
    assert pair_trf(eight(), 2).bbp_lines() == ["4", "4 1", "2 3", "5 8", "7 6"]
    result = review_pairing(eight(), 2, manual_pairing([(4, 1), (2, 3), (5, 8), (7, 6)]))
    assert result.violations == () and result.same_as_engine


def test_the_seeding_order_costs_four_players_their_colour() -> None:
    # 3-1 4-2 5-7 8-6: 1 gets Black (wants it), 3 White (wanted Black); 4 White (fine), 2 Black (wanted White);
    # 5 White (fine), 7 Black (wanted White); 8 White (wanted Black), 6 Black (fine): 2, 3, 7, 8 lose out, all
    # strong preferences. Nobody floats, nobody meets twice.
    found = review(eight(), 2, [(3, 1), (4, 2), (5, 7), (8, 6)])
    assert found == [Violation(Criterion.C12, (2, 3, 7, 8), 4, 0), Violation(Criterion.C13, (2, 3, 7, 8), 4, 0)]


def test_swapping_the_colours_of_one_board() -> None:
    # The engine's 4-1 turned round: 1 gets White (wanted Black), 4 Black (wanted White).
    assert codes(review(eight(), 2, [(1, 4), (2, 3), (5, 8), (7, 6)])) == {"C12": (1, 4), "C13": (1, 4)}


def test_a_rematch_and_downfloaters() -> None:
    # 1-5 again (C1, absolute) and two pairs of different scores: 1 (1) meets 5 (0) and 4 (1) meets 6 (0):
    # two downfloaters of score 1 where the engine has none (C6, C7: 2 × 10 tenths).
    found = review(eight(), 2, [(1, 5), (2, 3), (4, 6), (7, 8)])
    assert found[:3] == [
        Violation(Criterion.C1, (1, 5), 1, 0),
        Violation(Criterion.C6, (1, 4), 2, 0),
        Violation(Criterion.C7, (1, 4), 20, 0),
    ]
    assert Criterion.C1.absolute and not Criterion.C6.absolute


def test_a_prohibited_pair_is_c1() -> None:
    trf = tournament(["XXR 5", "XXC white1", "XXP 1 4"], [ROUND_1])
    # The engine now pairs 1 otherwise; the arbiter's 4-1 pairs two club mates.
    assert "4 1" not in pair_trf(trf, 2).bbp_lines()
    assert codes(review(trf, 2, [(4, 1), (2, 3), (5, 8), (7, 6)]))["C1"] == (1, 4)


def test_players_left_out_are_c4() -> None:
    # A board dropped: 6 and 8 are not paired (one could be the bye; two cannot).
    assert codes(review(eight(), 2, [(4, 1), (2, 3), (5, 7)]))["C4"] == (6, 8)


def test_two_absolute_preferences_for_one_colour_are_c3() -> None:
    # R1 1-5 2-6 3-7 4-8 (White wins), R2 1-3 2-4 5-7 6-8 all drawn: 1 and 2 had White twice (both must have
    # Black), 7 and 8 Black twice (both must have White). Pairing 1-2 and 7-8 in round 3 of 5 is forbidden (C3).
    rounds = [
        [(1, 5, R.WIN), (2, 6, R.WIN), (3, 7, R.WIN), (4, 8, R.WIN)],
        [(1, 3, R.DRAW), (2, 4, R.DRAW), (5, 7, R.DRAW), (6, 8, R.DRAW)],
    ]
    found = codes(review(tournament(["XXR 5", "XXC white1"], rounds), 3, [(1, 2), (3, 4), (5, 6), (7, 8)]))
    assert found["C3"] == (1, 2, 7, 8)
    # And 1, 4, 5, 8 do not get their colour (4 and 5 have mild preferences: C12 only, 1 and 8 absolute but met
    # an absolute opponent, so not C13 either).
    assert found["C12"] == (1, 4, 5, 8) and "C13" not in found


def test_the_bye_to_the_wrong_player() -> None:
    # Seven players: R1 1-4 5-2 3-6 (higher seeds win), 7 the pairing-allocated bye. Scores 1 2 3 7 → 1, others 0.
    # The engine's round 2 gives the bye to 6 (lowest score, C5). Giving it to 7 again breaks C2 (absolute);
    # giving it to 1 (score 1) breaks C5 (10 tenths where the engine's bye has 0).
    trf = tournament(["XXR 5", "XXC white1"], [[(1, 4, R.WIN), (5, 2, R.LOSS), (3, 6, R.WIN), (7, 0, R.PAIRING_BYE)]],
                     players=7)  # fmt: skip
    assert pair_trf(trf, 2).bye == 6
    again = codes(review(trf, 2, [(1, 2), (3, 4), (5, 6)], bye=7))
    assert again["C2"] == (7,)
    top = review(trf, 2, [(7, 2), (3, 4), (5, 6)], bye=1)
    assert Violation(Criterion.C5, (1,), 10, 0) in top


def six_after_two_rounds() -> TrfFile:
    # R1 1-4 1-0, 5-2 0-1, 3-6 1-0. R2 (the engine's) 2-1 1-0, 4-3 0-1, 6-5 ½-½: 3 (1 point) floated down to
    # meet 4 (0), so 3 had a downfloat and 4 an upfloat in round 2. Scores: 2 → 2, 3 → 2, 1 → 1, 5 → ½, 6 → ½,
    # 4 → 0. The engine's round 3: 3-2, 1-6, 5-4.
    return tournament(["XXR 5", "XXC white1"], [[(1, 4, R.WIN), (5, 2, R.LOSS), (3, 6, R.WIN)],
                                               [(2, 1, R.WIN), (4, 3, R.LOSS), (6, 5, R.DRAW)]], players=6)  # fmt: skip


def test_the_same_downfloat_twice_is_c14_and_c18() -> None:
    trf = six_after_two_rounds()
    assert pair_trf(trf, 3).bbp_lines() == ["3", "3 2", "1 6", "5 4"]
    # 3-1 2-6 5-4: 3 floats down again (2 against 1: C14, and its score difference 10 tenths, C18); three
    # downfloaters instead of the engine's two (1 → ½ and ½ → 0).
    found = codes(review(trf, 3, [(3, 1), (2, 6), (5, 4)]))
    assert found["C14"] == (3,) and found["C18"] == (3,) and found["C6"] == (2, 3, 5)


def test_a_bigger_repeated_upfloat_is_c19() -> None:
    # 3-2 4-1 6-5: 4 upfloats again, as in the engine's 5-4, so C15 is no worse — but against 1 (1 point, 10
    # tenths above 4) instead of 5 (½): C19 10 against 5. 4-1 and 6-5 are also rematches (C1).
    found = review(six_after_two_rounds(), 3, [(3, 2), (4, 1), (6, 5)])
    assert Violation(Criterion.C19, (4,), 10, 5) in found
    assert codes(found)["C1"] == (1, 4, 5, 6) and "C15" not in codes(found)


def test_reviewing_a_pairing_that_names_strangers_is_an_input_error() -> None:
    with pytest.raises(PairingInputError, match="not to be paired"):
        review(eight(), 2, [(1, 9), (2, 3), (4, 5), (6, 7)])
    with pytest.raises(PairingInputError, match="twice"):
        review(eight(), 2, [(1, 2), (1, 3), (4, 5), (6, 7)])


def test_reference_rounds_review_clean(shared_data: Path) -> None:
    trf = parse_trf((shared_data / "pairings" / "dutch-2025" / "t003-n9-r6.trf").read_bytes().decode())
    for number in range(1, 7):
        result = review_pairing(trf, number, recorded_round(trf, number))
        assert result.same_as_engine and result.violations == (), number
