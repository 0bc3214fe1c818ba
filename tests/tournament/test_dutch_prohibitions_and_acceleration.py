"""Prohibited pairings and Baku acceleration in the Dutch engine: tournaments built by hand, the expected pairings
worked out in the comments (and checked against bbpPairings outside the suite), plus bbpPairings-generated
tournaments that our pairings checker must reproduce round by round.

Notation: a board is WHITE-BLACK. Colour rule 5 (nothing else decides): the higher-ranked player gets the initial
colour (White here) if their pairing number is odd, the other colour if it is even.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from toreshi.tournament.dutch import NoValidPairingError, pair_trf, round_states
from toreshi.tournament.dutch.checker import check_trf
from toreshi.tournament.dutch.generator import GeneratorConfig, generate
from toreshi.tournament.dutch.state import DRAW, WIN
from toreshi.tournament.trf import RawLine, TrfFile, parse_trf
from toreshi.tournament.trf_pairing import ForbiddenPairs, baku_accelerations, read_forbidden

from .builders import R, tournament

DATA = Path(__file__).parent / "data"


def boards(trf: TrfFile, number: int) -> set[tuple[int, int]]:
    pairing = pair_trf(trf, number)
    return {(b.white, b.black) for b in pairing.pairs}


# --- prohibited pairings ------------------------------------------------------------------------------------


def test_a_prohibited_pair_takes_the_next_transposition() -> None:
    # Round 1, 8 players: S1 = 1 2 3 4, S2 = 5 6 7 8, normally 1-5 6-2 3-7 8-4. Players 1 and 5 are of one club.
    # The first S2 order, 5 6 7 8, pairs them: forbidden (C1). The next transposition, 6 5 7 8, is allowed:
    # 1-6, 2-5, 3-7, 4-8; by rule 5 the odd-numbered higher players 1 and 3 get White, 2 and 4 Black.
    trf = tournament(["XXR 5", "XXC white1", "XXP 1 5"], [])
    assert boards(trf, 1) == {(1, 6), (5, 2), (3, 7), (8, 4)}
    assert boards(tournament(["XXR 5", "XXC white1"], []), 1) == {(1, 5), (6, 2), (3, 7), (8, 4)}


def test_a_family_of_three_is_kept_apart() -> None:
    # 1, 5 and 6 are one family: S2 orders beginning with 5 or 6 give 1 a relative. The first that does not,
    # in transposition order, is 7 5 6 8: 1-7, 2-5, 3-6, 4-8 (5 and 6 are both in S2, never paired together).
    trf = tournament(["XXR 5", "XXC white1", "260   1   5    1    5    6"], [])
    assert boards(trf, 1) == {(1, 7), (5, 2), (3, 6), (8, 4)}


def test_a_prohibition_for_some_rounds_only() -> None:
    # 1 and 5 are kept apart in rounds 2–3 only: round 1 is the plain pairing (1-5 meet at once).
    trf = tournament(["XXR 5", "XXC white1", "260   2   3    1    5"], [])
    assert boards(trf, 1) == {(1, 5), (6, 2), (3, 7), (8, 4)}


def test_prohibitions_given_by_the_caller_override_the_file() -> None:
    trf = tournament(["XXR 5", "XXC white1", "XXP 1 5"], [])
    pairing = pair_trf(trf, 1, forbidden=[])
    assert {(b.white, b.black) for b in pairing.pairs} == {(1, 5), (6, 2), (3, 7), (8, 4)}
    present, _ = round_states(trf, 1, forbidden=[ForbiddenPairs((2, 6))])
    assert {p.number: p.forbidden for p in present}[2] == {6}


def test_no_pairing_when_the_prohibitions_leave_none() -> None:
    # Four players, 1 kept from 2 and 3, and 4 from 2 and 3: 1 must meet 4, 2 must meet 3 — both forbidden.
    trf = tournament(["XXR 3", "XXP 1 2 3", "XXP 4 2 3"], [], players=4)
    with pytest.raises(NoValidPairingError):
        pair_trf(trf, 1)


def test_generated_tournaments_never_pair_prohibited_players() -> None:
    config = GeneratorConfig(players=24, rounds=7, forbidden=((1, 2), (3, 4, 5), (10, 20)), retired_rate=100)
    for seed in range(5):
        trf = generate(config, random.Random(seed), seed)
        assert read_forbidden(trf) == (
            ForbiddenPairs((1, 2), 1, 7),
            ForbiddenPairs((3, 4, 5), 1, 7),
            ForbiddenPairs((10, 20), 1, 7),
        )
        groups = [{1, 2}, {3, 4, 5}, {10, 20}]
        for p in trf.players:
            for block in p.rounds:
                if block is not None and block.opponent is not None:
                    assert not any({p.number, block.opponent} <= group for group in groups), (seed, p.number)
        assert all(check.agrees for check in check_trf(trf))


# --- Baku acceleration ----------------------------------------------------------------------------------------

BAKU = ["012 Baku example", "XXR 5", "XXC white1", "250       1.0   1   2    1    4", "250       0.5   3   3    1    4"]
"""Eight players, five rounds: GA = 2 × ⌈8 / 4⌉ = players 1–4; three accelerated rounds, one virtual point in
rounds 1–2 and half a point in round 3 (what ``baku_accelerations(range(1, 9), 5)`` writes)."""
ROUND_1 = [(1, 3, R.WIN), (4, 2, R.WIN), (5, 7, R.DRAW), (8, 6, R.WIN)]
ROUND_2 = [(4, 1, R.DRAW), (2, 8, R.WIN), (3, 5, R.LOSS), (7, 6, R.WIN)]


def test_the_baku_records_are_the_methods() -> None:
    assert [line.text for line in tournament(BAKU, []).lines[3:5] if isinstance(line, RawLine)] == [
        "250       1.0   1   2    1    4",
        "250       0.5   3   3    1    4",
    ]
    assert baku_accelerations(range(1, 9), 5)[0].last_player == 4


def test_baku_round_1_pairs_each_group_within_itself() -> None:
    # GA has 1 virtual point, GB none: two brackets. {1 2 3 4}: S1 1 2, S2 3 4 → 1-3, 4-2; {5 6 7 8}: 5-7, 8-6.
    # Without acceleration the top half meets the bottom half (1-5 6-2 3-7 8-4).
    assert boards(tournament(BAKU, []), 1) == {(1, 3), (4, 2), (5, 7), (8, 6)}


def test_baku_round_2() -> None:
    # After 1-3 1-0, 4-2 1-0, 5-7 ½-½, 8-6 1-0 the pairing scores (points + 1 for GA) are
    # 1 → 2, 4 → 2; 2 → 1, 3 → 1, 8 → 1; 5 → ½, 7 → ½; 6 → 0.
    # * {1, 4}: both had White and prefer Black (strong, CD +1); rule 4 gives the higher-ranked 1 his: 4-1.
    # * {2, 3, 8}: one pair and one downfloater. 2-3 would leave one of them without White (both had Black, C12);
    #   2-8 gives both their colour, and either downfloater can meet 5 or 7 below (C8 equal): 2-8, 3 floats.
    # * {3, 5, 7}: 5 and 7 have met; 3-5 gives both their colour (3 wants White, 5 Black), 3-7 would not: 3-5.
    # * {7, 6}: both want White (both had Black); the higher-ranked 7 gets it: 7-6.
    assert boards(tournament(BAKU, [ROUND_1]), 2) == {(4, 1), (2, 8), (3, 5), (7, 6)}
    # Without acceleration the same results give 4-1, 7-8, 2-5, 3-6.
    assert boards(tournament(BAKU[:3], [ROUND_1]), 2) == {(4, 1), (7, 8), (2, 5), (3, 6)}


def test_baku_round_3_with_half_a_virtual_point() -> None:
    # After round 2 (4-1 ½-½, 2-8 1-0, 3-5 0-1, 7-6 1-0) the points are 1 → 1½, 4 → 1½, 5 → 1½, 7 → 1½, 2 → 1,
    # 8 → 1, 3 → 0, 6 → 0; GA now has ½ virtual point: 1 → 2, 4 → 2; 2 → 1½, 5 → 1½, 7 → 1½; 8 → 1; 3 → ½; 6 → 0.
    # * {1, 4} met in round 2: both move down into {2, 5, 7}: five players, two pairs, both MDPs paired (C6, C7).
    #   4-2 and 5-7 have been played. 1-2 with 4-7 (5 floats) or 1-2 with 4-5 (7 floats); the floater can meet 8
    #   either way (C8). Colours: 1 wants White (last Black), 2 Black; 4 has White twice (absolute Black), 5 wants
    #   White, 7 wants Black — so 4-7 costs 7 his colour (C12) and 4-5 costs nothing: 1-2, 5-4, 7 floats.
    # * {7, 8}: 8-7 (8 wants White, 7 Black).  * {3, 6}: 6 has Black twice (absolute White): 6-3.
    assert boards(tournament(BAKU, [ROUND_1, ROUND_2]), 3) == {(1, 2), (5, 4), (8, 7), (6, 3)}


def test_virtual_points_are_for_pairing_only() -> None:
    trf = tournament(BAKU, [ROUND_1, ROUND_2])
    present, everyone = round_states(trf, 3)
    scores = {p.number: p.score for p in present}
    assert scores[1] == 3 * DRAW + DRAW and scores[2] == 3 * DRAW  # 1½ + ½ virtual; 1½ real, GB
    # Two rounds back (round 1) player 1 had 0 points and 1 virtual point: the float rules see 1.
    assert everyone[1].score_before(2) == WIN
    # The points column and the standings never include them.
    assert trf.player(1).points == Fraction(3, 2)


def test_a_baku_tournament_type_without_records_uses_the_method() -> None:
    typed = tournament(["XXR 5", "XXC white1", "092 FIDE_DUTCH_2025_BAKU"], [])
    assert boards(typed, 1) == {(1, 3), (4, 2), (5, 7), (8, 6)}


# --- tournaments generated by bbpPairings -----------------------------------------------------------------------

GENERATED = sorted(DATA.glob("bbp-*.trf"))


@pytest.mark.parametrize("path", GENERATED, ids=[p.stem for p in GENERATED])
def test_bbppairings_tournaments_are_reproduced_round_by_round(path: Path) -> None:
    # bbpPairings (HEAD 16a000f) generated these from reference tournaments given 260 prohibitions or Baku 250
    # records (its RTG with a model file): our checker re-pairs every round and must find no difference.
    trf = parse_trf(path.read_bytes().decode("utf-8"))
    checks = check_trf(trf)
    assert len(checks) == trf.rounds
    assert [c.round for c in checks if not c.agrees] == []


def test_the_generated_fixtures_are_there() -> None:
    names = [p.stem for p in GENERATED]
    assert any("forbidden" in n for n in names) and any("baku" in n for n in names)
