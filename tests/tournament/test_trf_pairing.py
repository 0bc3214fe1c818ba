"""Prohibited pairings (260/XXP) and accelerations (250/XXA) in the TRF: reading, writing, the Baku method."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.tournament.trf import PlayerRecord, RawLine, TrfError, TrfFile, format_trf, parse_trf
from toreshi.tournament.trf_pairing import (
    Acceleration,
    ForbiddenPairs,
    acceleration_line,
    acceleration_of,
    baku_accelerations,
    forbidden_in_round,
    forbidden_line,
    is_baku,
    read_accelerations,
    read_forbidden,
    with_accelerations,
    with_forbidden,
)

F = Fraction


def test_260_columns() -> None:
    # Rounds at columns 5–7 and 9–11, ids in 4 columns from column 13, one blank between.
    line = forbidden_line(ForbiddenPairs((3, 17), 2, 5))
    assert line == "260   2   5    3   17"
    assert line[4:7] == "  2" and line[8:11] == "  5" and line[12:16] == "   3" and line[17:21] == "  17"


def test_250_columns() -> None:
    # Match points empty (5–8), game points at 10–13, rounds 15–17 and 19–21, players 23–26 and 28–31.
    line = acceleration_line(Acceleration(F(1, 2), 4, 5, 1, 82))
    assert line == "250       0.5   4   5    1   82"
    assert line[4:8] == "    " and line[9:13] == " 0.5" and line[14:17] == "  4" and line[18:21] == "  5"
    assert line[22:26] == "   1" and line[27:31] == "  82"


def test_xxp_and_260_are_read_and_applied_by_round() -> None:
    trf = parse_trf("012 Cup\rXXR 5\rXXP 1 2 3\r260   2   3    4    5\r")
    assert read_forbidden(trf) == (ForbiddenPairs((1, 2, 3)), ForbiddenPairs((4, 5), 2, 3))
    # Everyone on an XXP line is kept from everyone else on it, in every round.
    assert forbidden_in_round(read_forbidden(trf), 1) == {1: {2, 3}, 2: {1, 3}, 3: {1, 2}}
    assert forbidden_in_round(read_forbidden(trf), 2)[4] == {5}
    assert 4 not in forbidden_in_round(read_forbidden(trf), 4)


def test_250_and_xxa_are_read_the_last_record_counting() -> None:
    # XXA: one value per round from column 10, every 5 columns (round 2 blank: none).
    lines = ["XXR 5", "250       1.0   1   3    1    4", "250       0.5   3   3    1    2", "XXA    7  0.5       1.0"]
    trf = parse_trf("\r".join(lines) + "\r")
    records = read_accelerations(trf)
    assert records[:2] == (Acceleration(F(1), 1, 3, 1, 4), Acceleration(F(1, 2), 3, 3, 1, 2))
    assert acceleration_of(records, 2, 1) == 1
    assert acceleration_of(records, 2, 3) == F(1, 2)  # the later record covers round 3 for players 1–2
    assert acceleration_of(records, 4, 3) == 1
    assert acceleration_of(records, 5, 1) == 0
    assert [acceleration_of(records, 7, r) for r in (1, 2, 3)] == [F(1, 2), 0, 1]


def test_bad_records_are_refused_with_the_line() -> None:
    with pytest.raises(TrfError, match="two different players"):
        read_forbidden(parse_trf("XXP 4\r"))
    with pytest.raises(TrfError, match="not a number"):
        read_forbidden(parse_trf("260   1   x    1    2\r"))
    with pytest.raises(TrfError, match="team events"):
        read_accelerations(parse_trf("250  2.0  1.0   1   3    1    4\r"))
    with pytest.raises(TrfError, match="positive tenths"):
        read_accelerations(parse_trf("250      -1.0   1   3    1    4\r"))
    with pytest.raises(TrfError, match="range of rounds"):
        ForbiddenPairs((1, 2), 3, 2)


def test_writing_replaces_the_old_records_in_place() -> None:
    player = PlayerRecord(1, "A")
    trf = TrfFile((RawLine("012 Cup"), RawLine("XXP 1 2"), RawLine("XXR 3"), player, PlayerRecord(2, "B")))
    written = with_forbidden(trf, [ForbiddenPairs((1, 2), 1, 3)])
    assert [line.text for line in written.lines if isinstance(line, RawLine)] == [
        "012 Cup",
        "260   1   3    1    2",
        "XXR 3",
    ]
    accelerated = with_accelerations(written, baku_accelerations([1, 2], 3))
    assert accelerated.lines[3] == RawLine("250       1.0   1   1    1    2")  # before the first player
    assert read_forbidden(parse_trf(format_trf(accelerated))) == (ForbiddenPairs((1, 2), 1, 3),)
    assert with_accelerations(accelerated, []).lines == written.lines


def test_baku_groups_and_rounds() -> None:
    # C.04.5.1: GA = 2 × ⌈n / 4⌉; accelerated rounds ⌈R / 2⌉, the first ⌈that / 2⌉ with 1 point, the rest ½.
    # 161 players (the handbook's example): GA = 82. Nine rounds: five accelerated, three with 1, two with ½.
    assert baku_accelerations(range(1, 162), 9) == (
        Acceleration(F(1), 1, 3, 1, 82),
        Acceleration(F(1, 2), 4, 5, 1, 82),
    )
    # 10 players: 2 × 3 = 6 (bbpPairings' own Baku would take ⌈10 / 2⌉ = 5). Seven rounds: 4 accelerated, 2 + 2.
    assert baku_accelerations(range(1, 11), 7) == (Acceleration(F(1), 1, 2, 1, 6), Acceleration(F(1, 2), 3, 4, 1, 6))
    # Five rounds: 3 accelerated, 2 + 1. One round: it alone, with a full point.
    assert [(a.first_round, a.last_round) for a in baku_accelerations(range(1, 9), 5)] == [(1, 2), (3, 3)]
    assert baku_accelerations(range(1, 9), 1) == (Acceleration(F(1), 1, 1, 1, 4),)
    # Three players: GA = 2 × ⌈3 / 4⌉ = 2. One player: GA = 2 is more than there are: just that one.
    assert baku_accelerations([1, 2, 3], 5)[0].last_player == 2
    assert baku_accelerations([1], 5)[0].last_player == 1
    with pytest.raises(TrfError, match="without gaps"):
        baku_accelerations([1, 2, 4], 5)
    with pytest.raises(TrfError, match="two draws"):
        baku_accelerations([1, 2], 5, win=F(3), draw=F(1))


def test_baku_tournament_types() -> None:
    assert is_baku(parse_trf("192 FIDE_DUTCH_2025_BAKU\r"))
    assert is_baku(parse_trf("092 FIDE_DUTCH_BAKU\r"))
    assert not is_baku(parse_trf("092 FIDE_DUTCH_2025\r"))


@given(
    st.lists(st.integers(1, 9999), min_size=2, max_size=8, unique=True),
    st.integers(1, 50),
    st.integers(0, 50),
)
def test_prohibitions_round_trip(players: list[int], first: int, length: int) -> None:
    entry = ForbiddenPairs(tuple(players), first, first + length)
    assert read_forbidden(parse_trf(forbidden_line(entry) + "\r")) == (entry,)


@given(st.integers(1, 999), st.integers(1, 99), st.integers(0, 20), st.integers(1, 9999), st.integers(0, 100))
def test_accelerations_round_trip(tenths: int, first: int, length: int, player: int, more: int) -> None:
    entry = Acceleration(F(tenths, 10), first, first + length, player, min(9999, player + more))
    assert read_accelerations(parse_trf(acceleration_line(entry) + "\r")) == (entry,)
