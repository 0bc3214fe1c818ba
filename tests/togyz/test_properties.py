"""Invariants over random games (hypothesis): conservation, empty tuzdyks, exact undo, FEN and PGN round trips."""

from __future__ import annotations

import io

from hypothesis import given, settings

from toreshi.togyz import BLACK, WHITE, Position
from toreshi.togyz.fen import from_fen, to_fen
from toreshi.togyz.notation import MoveToken
from toreshi.togyz.pgn import PgnGame, read_game, write_game
from toreshi.togyz.replay import replay

from .random_games import game_choices, picked_moves, play_out

choices = game_choices(400)


def tuzdyk_holes_are_empty(pos: Position) -> bool:
    white_t, black_t = pos.tuzdyk(WHITE), pos.tuzdyk(BLACK)
    return (white_t is None or pos.holes(BLACK)[white_t - 1] == 0) and (
        black_t is None or pos.holes(WHITE)[black_t - 1] == 0
    )


@settings(max_examples=150, deadline=None)
@given(choices)
def test_162_kumalaks_and_empty_tuzdyks_at_every_ply(picks: list[int]) -> None:
    pos = Position()
    for hole in picked_moves(pos, picks):
        pos.push(hole)
        assert pos.total() == 162
        assert tuzdyk_holes_are_empty(pos)
        assert pos.tuzdyk(WHITE) != 9 and pos.tuzdyk(BLACK) != 9
        white_t, black_t = pos.tuzdyk(WHITE), pos.tuzdyk(BLACK)
        assert white_t is None or white_t != black_t
    outcome = pos.outcome()
    if outcome is not None:
        assert sum(outcome.score) == 162 or max(pos.kazans) >= 82


@settings(max_examples=100, deadline=None)
@given(choices)
def test_undo_restores_the_exact_position(picks: list[int]) -> None:
    pos = play_out(picks)
    history = []
    probe = Position()
    for hole in pos.move_stack:
        history.append((probe.copy(), to_fen(probe)))
        probe.push(hole)
    for before, fen in reversed(history):
        pos.pop()
        assert pos == before
        assert to_fen(pos) == fen


@settings(max_examples=100, deadline=None)
@given(choices)
def test_fen_round_trip_along_a_game(picks: list[int]) -> None:
    def assert_fen_round_trip(pos: Position) -> None:
        fen = to_fen(pos)
        assert to_fen(from_fen(fen)) == fen
        assert from_fen(fen) == pos

    pos = Position()
    for hole in picked_moves(pos, picks):
        assert_fen_round_trip(pos)
        pos.push(hole)
    assert_fen_round_trip(pos)  # where the game ended, or where the picks ran out


@settings(max_examples=60, deadline=None)
@given(choices)
def test_pgn_round_trip_of_a_played_game(picks: list[int]) -> None:
    pos = Position()
    tokens = []
    for hole in picked_moves(pos, picks):
        tokens.append(MoveToken.from_played(pos.play(hole)))
    outcome = pos.outcome()
    game = PgnGame(
        headers={"White": "w", "Black": "b"},
        moves=tokens,
        result=outcome.result() if outcome else "*",
        comments=["zero"] if outcome and outcome.termination.value == "atsyz" else [],
    )
    again = read_game(io.StringIO(write_game(game)))
    assert again == game
    report = replay(again)
    assert report.ok, report.error
    assert report.position == pos
