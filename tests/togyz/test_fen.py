from __future__ import annotations

import pytest

from toreshi.togyz import BLACK, WHITE, Position
from toreshi.togyz.fen import STARTING_FEN, InvalidFenError, from_fen, to_fen

# The three FENs of rules §6.4, each reproduced by replay there.
AFTER_65 = "9S,9S,9S,9S,1,10S,10S,10S,10S/9S,9S,9S,9S,9S,1S,10S,10S,10S 10 0 N 1"
AFTER_SIX_PLIES = "13S,2S,12S,3S,2S,1S,1,12S,12S/12S,2S,13S,13S,t,3S,12S,12S,1S 22 15 S 4"


def test_start_position_fen() -> None:
    assert to_fen(Position()) == STARTING_FEN
    assert from_fen(STARTING_FEN) == Position()


def test_playstrategy_fen_after_the_opening_move() -> None:
    pos = Position()
    pos.play(6)
    assert to_fen(pos) == AFTER_65


def test_playstrategy_move_sequence_reaches_its_fen() -> None:
    # f1e2 d2e1 i1a2 b2i1 b1g2 f2e1 in PlayStrategy's square names (North's holes 1-9 are i2...a2).
    pos = Position()
    for hole in (6, 6, 9, 8, 2, 4):
        pos.play(hole)
    assert to_fen(pos) == AFTER_SIX_PLIES
    assert pos.tuzdyk(BLACK) == 5 and pos.tuzdyk(WHITE) is None


@pytest.mark.parametrize("fen", [STARTING_FEN, AFTER_65, AFTER_SIX_PLIES])
def test_round_trip(fen: str) -> None:
    assert to_fen(from_fen(fen)) == fen


def test_north_tuzdyk_belongs_to_south() -> None:
    pos = from_fen("9S,t,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 9 0 N 3")
    assert pos.tuzdyk(WHITE) == 8  # file b of the North row is North's hole 8
    assert pos.turn is BLACK and pos.ply == 5


@pytest.mark.parametrize(
    ("fen", "reason"),
    [
        ("9S/9S 0 0 S 1", "describes 1 holes"),
        (STARTING_FEN.replace(" S ", " W "), "side to move"),
        (STARTING_FEN.replace(" 0 0 ", " 0 x "), "North kazan must be a number"),
        (STARTING_FEN.replace("9S,9S/", "9S,9Q/"), "unreadable token '9Q'"),
        (STARTING_FEN.replace(" 0 0 ", " 1 0 "), "163 kumalaks"),
        ("t,t,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 18 0 S 1", "two tuzdyks"),
        (STARTING_FEN.replace(" 1", " 0"), "positive number"),
        ("only three fields", "5 space-separated fields"),
    ],
)
def test_bad_fens_are_refused_with_a_reason(fen: str, reason: str) -> None:
    with pytest.raises(InvalidFenError, match=reason):
        from_fen(fen)


@pytest.mark.parametrize("token", ["10", "11", "19", "0"])
def test_a_run_of_empty_holes_is_a_bare_number_from_1_to_9(token: str) -> None:
    row = ",".join(["9S"] * 8 + [token])
    with pytest.raises(InvalidFenError, match=f"unreadable token '{token}'"):
        from_fen(f"{row}/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1")
