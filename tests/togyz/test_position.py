from __future__ import annotations

import pytest

from toreshi.togyz import BLACK, WHITE, IllegalMoveError, Position, Termination, perft


@pytest.mark.parametrize(
    ("depth", "nodes"), [(1, 9), (2, 73), (3, 613), (4, 5_199), (5, 43_184), (6, 360_035), (7, 3_003_052)]
)
def test_perft_from_the_start(depth: int, nodes: int) -> None:
    assert perft(Position(), depth) == nodes


def test_start_position_moves_and_captures() -> None:
    pos = Position()
    captures = {}
    for hole in pos.legal_moves():
        captures[hole] = pos.play(hole).captured
        pos.pop()
    assert captures == {1: 0, 2: 10, 3: 10, 4: 10, 5: 10, 6: 10, 7: 10, 8: 10, 9: 10}


def test_empty_hole_and_bad_hole_are_illegal() -> None:
    pos = Position.from_parts([0, 1, 0, 0, 0, 0, 0, 0, 80], [9] * 9, (0, 0))
    with pytest.raises(IllegalMoveError, match="empty"):
        pos.push(1)
    with pytest.raises(IllegalMoveError, match="1-9"):
        pos.push(10)


def test_single_kumalak_moves_on_and_leaves_origin_empty() -> None:
    pos = Position.from_parts([0, 1, 0, 0, 0, 0, 0, 0, 80], [9] * 9, (0, 0))
    pos.play(2)
    assert pos.holes(WHITE)[:3] == (0, 0, 1)


def test_nineteen_kumalaks_put_a_second_one_into_the_origin() -> None:
    pos = Position.from_parts([19, 0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0, 1], (71, 71))
    played = pos.play(1)
    # 19 kumalaks: one into every hole of the ring, then a second into the origin, which is last.
    assert pos.holes(WHITE) == (2, 1, 1, 1, 1, 1, 1, 1, 1)
    assert pos.holes(BLACK) == (1, 1, 1, 1, 1, 1, 1, 1, 2)
    assert (played.landing, played.landing_side, played.captured) == (1, WHITE, 0)


def test_tuzdyk_is_made_on_three_and_feeds_its_owner() -> None:
    # White's hole 9 holds 3: sowing ends on Black's hole 2, which then holds 3 -> tuzdyk.
    pos = Position.from_parts([0, 0, 0, 0, 0, 0, 0, 0, 3], [5, 2, 0, 0, 0, 0, 0, 0, 1], (75, 76))
    played = pos.play(9)
    assert played.tuzdyk and pos.tuzdyk(WHITE) == 2
    assert pos.kazans == (78, 76)
    assert pos.holes(BLACK)[1] == 0
    # Black sows 6 from hole 1: one kumalak passes through White's tuzdyk on hole 2 and goes to White.
    pos.play(1)
    assert pos.holes(BLACK)[1] == 0
    assert pos.kazans[WHITE] == 79


def test_no_tuzdyk_on_hole_nine() -> None:
    # Ten kumalaks from White's hole 9 end on Black's hole 9, which then holds 3: no tuzdyk there.
    pos = Position.from_parts([0] * 8 + [10], [0] * 8 + [2], (75, 75))
    played = pos.play(9)
    assert (played.landing, played.landing_side, played.tuzdyk) == (9, BLACK, False)
    assert pos.holes(BLACK)[8] == 3


def test_no_tuzdyk_on_the_number_of_the_opponents_tuzdyk() -> None:
    # Black owns a tuzdyk on White's hole 2, so White cannot make one on Black's hole 2.
    pos = Position.from_parts([0, 0, 0, 0, 0, 0, 0, 0, 3], [5, 2, 0, 0, 0, 0, 0, 0, 1], (72, 79), black_tuzdyk=2)
    played = pos.play(9)
    assert not played.tuzdyk and pos.holes(BLACK)[1] == 3


def test_only_one_tuzdyk_per_player() -> None:
    pos = Position.from_parts([0, 0, 0, 0, 0, 0, 0, 0, 3], [5, 2, 0, 0, 0, 0, 0, 0, 1], (70, 81), white_tuzdyk=5)
    played = pos.play(9)
    assert not played.tuzdyk and pos.tuzdyk(WHITE) == 5


def test_kazan_of_82_ends_the_game() -> None:
    pos = Position.from_parts([0] * 8 + [1], [1] + [0] * 8, (80, 80))
    played = pos.play(9)
    assert played.captured == 2
    outcome = pos.outcome()
    assert outcome is not None
    assert (outcome.termination, outcome.winner, outcome.score) == (Termination.KAZAN, WHITE, (82, 80))
    assert pos.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        pos.push(1)


def test_atsyz_sweeps_the_board_to_the_row_owner_and_81_all_is_a_draw() -> None:
    pos = Position.from_parts([0] * 9, [1] * 9, (81, 72))
    outcome = pos.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.ATSYZ
    assert (outcome.winner, outcome.score, outcome.result()) == (None, (81, 81), "1/2-1/2")


def test_a_player_emptied_by_their_own_move_is_not_out() -> None:
    pos = Position.from_parts([0, 0, 0, 0, 0, 0, 0, 0, 1], [9] * 9, (40, 40))
    pos.play(9)
    assert pos.turn is BLACK and pos.outcome() is None


def test_undo_restores_everything() -> None:
    pos = Position()
    before = pos.copy()
    for hole in (7, 5, 3):
        pos.push(hole)
    for _ in range(3):
        pos.pop()
    assert pos == before and pos.ply == 0 and pos.last_played() is None
