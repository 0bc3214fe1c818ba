"""The Dutch engine's rules on small cases, and its absolute criteria on simulated tournaments."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.tournament.dutch import (
    NoValidPairingError,
    PairingInputError,
    RoundPairing,
    inferred_initial_colour,
    pair_trf,
    round_states,
)
from toreshi.tournament.dutch.blossom import max_weight_matching
from toreshi.tournament.dutch.colours import choose_colour
from toreshi.tournament.dutch.simulate import Rates, play_round, start
from toreshi.tournament.dutch.state import Float, PastRound, build_state, float_of
from toreshi.tournament.dutch.weights import compatible, make_layout
from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import PlayerRecord, RawLine, TrfFile, TrfRound, parse_trf


def _file(players: int, rounds: int = 5, *extra: str) -> TrfFile:
    lines: list[PlayerRecord | RawLine] = [RawLine(f"XXR {rounds}"), *(RawLine(x) for x in extra)]
    lines.extend(PlayerRecord(n, f"P{n}", rating=2500 - 10 * n) for n in range(1, players + 1))
    return TrfFile(tuple(lines))


def test_round_one_pairs_top_half_against_bottom_half_with_alternating_colours() -> None:
    assert pair_trf(_file(8), 1).bbp_lines() == ["4", "1 5", "6 2", "3 7", "8 4"]
    assert pair_trf(_file(8, 5, "XXC black1"), 1).bbp_lines() == ["4", "5 1", "2 6", "7 3", "4 8"]


def test_round_one_odd_number_gives_the_bye_to_the_last_player() -> None:
    assert pair_trf(_file(5), 1).bbp_lines() == ["3", "1 3", "4 2", "5 0"]


def test_absent_players_are_not_paired() -> None:
    trf = _file(6)
    trf = trf.with_players(
        [
            PlayerRecord(2, "P2", rounds=(TrfRound(None, None, ResultCode.HALF_BYE),)),
            PlayerRecord(5, "P5", rounds=(TrfRound(None, None, ResultCode.ZERO_BYE),)),
        ]
    )
    pairing = pair_trf(trf, 1)
    paired = {n for b in pairing.pairs for n in (b.white, b.black)}
    assert paired == {1, 3, 4, 6}
    assert pairing.bye is None


def test_withdrawn_player_is_not_paired_again() -> None:
    """TK-R10, Swiss: a player who left keeps their results but is not paired in later rounds (Z entries)."""
    w1, b3 = _played(1, 3, "1-0")
    w4, b2 = _played(4, 2, "=")
    gone = TrfRound(None, None, ResultCode.ZERO_BYE)
    trf = TrfFile(
        (
            RawLine("XXR 4"),
            PlayerRecord(1, "A", rounds=(w1,)),
            PlayerRecord(2, "B", rounds=(b2,)),
            PlayerRecord(3, "C", rounds=(b3,)),
            PlayerRecord(4, "D", rounds=(w4, gone)),
        )
    )
    pairing = pair_trf(trf, 2)
    assert 4 not in {n for b in pairing.pairs for n in (b.white, b.black)}
    assert pairing.bye == 3  # the lowest score, eligible
    assert len(pairing.pairs) == 1


def _played(white: int, black: int, result: str) -> tuple[TrfRound, TrfRound]:
    codes = {
        "1-0": (ResultCode.WIN, ResultCode.LOSS),
        "0-1": (ResultCode.LOSS, ResultCode.WIN),
        "=": (ResultCode.DRAW, ResultCode.DRAW),
        "+-": (ResultCode.FORFEIT_WIN, ResultCode.FORFEIT_LOSS),
    }
    w, b = codes[result]
    return TrfRound(black, Colour.WHITE, w), TrfRound(white, Colour.BLACK, b)


def test_two_players_who_met_cannot_be_paired_again() -> None:
    w, b = _played(1, 2, "1-0")
    trf = TrfFile((RawLine("XXR 3"), PlayerRecord(1, "A", rounds=(w,)), PlayerRecord(2, "B", rounds=(b,))))
    with pytest.raises(NoValidPairingError, match="cannot all be paired"):
        pair_trf(trf, 2)


def test_a_forfeit_is_not_a_meeting() -> None:
    w, b = _played(1, 2, "+-")
    trf = TrfFile((RawLine("XXR 3"), PlayerRecord(1, "A", rounds=(w,)), PlayerRecord(2, "B", rounds=(b,))))
    pairing = pair_trf(trf, 2)
    assert len(pairing.pairs) == 1
    # No colour history either: the colours fall to rule 5 (the top seed, pairing number 1, gets White).
    assert (pairing.pairs[0].white, pairing.pairs[0].black) == (1, 2)


def test_input_errors() -> None:
    trf = TrfFile((PlayerRecord(1, "A"), PlayerRecord(2, "B")))
    with pytest.raises(PairingInputError, match="how many rounds"):
        pair_trf(trf, 1)
    with pytest.raises(PairingInputError, match="beyond"):
        pair_trf(_file(4, 3), 4)
    with pytest.raises(PairingInputError, match="at least 1"):
        round_states(_file(4, 3), 0)
    w, _ = _played(1, 2, "1-0")
    lopsided = TrfFile((RawLine("XXR 3"), PlayerRecord(1, "A", rounds=(w,)), PlayerRecord(2, "B")))
    with pytest.raises(PairingInputError, match="not recorded the same way"):
        pair_trf(lopsided, 2)


def test_initial_colour_is_inferred_from_the_first_round() -> None:
    w, b = _played(2, 1, "=")  # the top seed had Black
    w3, b4 = _played(3, 4, "=")
    trf = TrfFile(
        (
            RawLine("XXR 3"),
            PlayerRecord(1, "A", rounds=(b,)),
            PlayerRecord(2, "B", rounds=(w,)),
            PlayerRecord(3, "C", rounds=(w3,)),
            PlayerRecord(4, "D", rounds=(b4,)),
        )
    )
    assert inferred_initial_colour(trf, 2) is Colour.BLACK
    # Player 1 absent in round 1: the first player who took part (2, White) sets it, not reversed.
    absent = trf.with_players([PlayerRecord(1, "A", rounds=(TrfRound(None, None, ResultCode.ZERO_BYE),))])
    assert inferred_initial_colour(absent, 2) is Colour.WHITE
    assert inferred_initial_colour(trf, 1) is None


def test_colour_preferences_and_allocation() -> None:
    white = PastRound(9, Colour.WHITE, 10, True, True)
    black = PastRound(9, Colour.BLACK, 10, True, True)
    twice_white = build_state(1, 0, [white, white])
    assert twice_white.absolute and twice_white.preference is Colour.BLACK
    once_black = build_state(2, 1, [black, PastRound(None, None, 10, False, True)])
    assert once_black.strong and once_black.preference is Colour.WHITE and not once_black.bye_eligible
    mild = build_state(3, 2, [white, black])
    assert mild.preference is Colour.WHITE and not mild.strong and not mild.absolute
    assert choose_colour(twice_white, once_black, Colour.WHITE) is Colour.BLACK  # both granted
    # Identical histories: rule 4, the higher-ranked player (rank 2 before 3) gets the preference.
    assert choose_colour(mild, build_state(4, 3, [white, black]), Colour.WHITE) is Colour.WHITE
    # Same mild preference, histories differing three games back: rule 3 beats rule 4.
    lower = build_state(7, 5, [white, black, white, black])
    higher = build_state(8, 1, [black, white, white, black])
    assert lower.preference is higher.preference is Colour.WHITE
    assert choose_colour(lower, higher, Colour.WHITE) is Colour.WHITE
    assert choose_colour(higher, lower, Colour.WHITE) is Colour.BLACK
    fresh_a, fresh_b = build_state(5, 4, []), build_state(6, 5, [])
    assert choose_colour(fresh_a, fresh_b, Colour.WHITE) is Colour.WHITE  # rule 5: odd pairing number 5
    assert choose_colour(fresh_b, fresh_a, Colour.BLACK) is Colour.WHITE


def test_floats() -> None:
    bye = build_state(1, 0, [PastRound(None, None, 10, False, True)])
    assert float_of(bye, 1, {1: bye}) is Float.DOWN
    forfeit_loss = build_state(2, 1, [PastRound(3, Colour.WHITE, 0, False, True)])
    assert float_of(forfeit_loss, 1, {2: forfeit_loss}) is Float.NONE
    winner = build_state(4, 0, [PastRound(None, None, 10, False, True), PastRound(5, Colour.WHITE, 10, True, True)])
    loser = build_state(5, 1, [PastRound(None, None, 0, False, False), PastRound(4, Colour.BLACK, 0, True, True)])
    everyone = {4: winner, 5: loser}
    assert (float_of(winner, 1, everyone), float_of(loser, 1, everyone)) == (Float.DOWN, Float.UP)


def _absence_only(p: PlayerRecord, number: int) -> tuple[TrfRound | None, ...]:
    """Rounds before ``number``, plus round ``number`` only if it is a requested bye (what pairing sees)."""
    block = p.round(number)
    if block is not None and block.code in (ResultCode.HALF_BYE, ResultCode.ZERO_BYE):
        return (*p.rounds[: number - 1], block)
    return p.rounds[: number - 1]


def _check_round(before: TrfFile, after: TrfFile, number: int) -> None:
    """The absolute criteria for one simulated round."""
    present = {p.number for p in before.players if p.round(number) is None}
    met = {(p.number, b.opponent) for p in before.players for b in p.rounds if b is not None and b.played}
    paired: list[int] = []
    byes = []
    for p in after.players:
        block = p.round(number)
        assert block is not None
        if p.number not in present:
            assert block.code in (ResultCode.HALF_BYE, ResultCode.ZERO_BYE)
            continue
        if block.code is ResultCode.PAIRING_BYE:
            byes.append(p)
            continue
        assert block.opponent is not None
        assert (p.number, block.opponent) not in met  # C1
        paired.append(p.number)
    assert sorted(paired + [p.number for p in byes]) == sorted(present)
    assert len(byes) == len(present) % 2
    if byes and not _bye_eligible(byes[0], number):
        # C2 gives way only to completion: no eligible player could have been left out with the rest all paired.
        states, _ = round_states(before, number)
        layout = make_layout(sorted((p.score for p in states), reverse=True), number - 1, before.rounds or number)
        for candidate in states:
            if candidate.bye_eligible:
                others = [p for p in states if p is not candidate]
                edges = [
                    (i, j, 1)
                    for i in range(len(others))
                    for j in range(i + 1, len(others))
                    if compatible(others[i], others[j], layout)
                ]
                assert len(max_weight_matching(len(others), edges)) < len(others)  # not all paired


def _bye_eligible(p: PlayerRecord, number: int) -> bool:
    return not any(b is not None and not b.played and b.points == 1 for b in p.rounds[: number - 1])


def _simulated_rounds(seed: int, players: int, rounds: int) -> Iterator[tuple[int, TrfFile, TrfFile, RoundPairing]]:
    """Each round of a simulated tournament with many forfeits, byes and withdrawals: its number, what the engine
    paired (the earlier rounds and the round's requested byes), the file after the round, and the pairing."""
    rng = random.Random(seed)
    trf = start(players, rounds, rng)
    rates = Rates(forfeit=0.1, half_bye=0.05, zero_bye=0.05, withdrawal=0.03)
    for number in range(1, rounds + 1):
        try:
            after, pairing = play_round(trf, number, rng, rates)
        except NoValidPairingError:
            return  # a late round can run out of pairings; the engine says so instead of breaking C1
        paired = after.with_players(replace(p, rounds=_absence_only(p, number)) for p in after.players)
        yield number, paired, after, pairing
        trf = after


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(5, 24), rounds=st.integers(3, 7))
def test_simulated_tournaments_respect_the_absolute_criteria(seed: int, players: int, rounds: int) -> None:
    for number, paired, after, _ in _simulated_rounds(seed, players, rounds):
        _check_round(paired, after, number)


@pytest.mark.parametrize(
    ("name", "number"),
    [("t010-n47-r10.trf", 3), ("t064-n17-r11.trf", 6), ("t087-n49-r10.trf", 10), ("t003-n9-r6.trf", 5)],
)
def test_the_bracket_shortcut_agrees_with_one_matching_over_everyone(name: str, number: int, shared_data: Path) -> None:
    trf = parse_trf((shared_data / "pairings" / "dutch-2025" / name).read_bytes().decode("utf-8"))
    assert pair_trf(trf, number, shortcuts=False) == pair_trf(trf, number)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(6, 30), rounds=st.integers(2, 6))
def test_shortcuts_agree_with_the_plain_procedure(seed: int, players: int, rounds: int) -> None:
    """Every shortcut of the engine (bracket alone, pairing in order, completion certificates) is exact."""
    for number, paired, _, fast in _simulated_rounds(seed, players, rounds):
        assert pair_trf(paired, number, initial_colour=Colour.WHITE, shortcuts=False) == fast
