"""The search's copy-make moves follow the rules exactly as ``Position.push`` does."""

from __future__ import annotations

from hypothesis import given, settings

from toreshi.togyz import Position
from toreshi.togyz.engine.board import capture_of, make, origins, position_of, state_of, terminal_score

from .helpers import choices


@settings(max_examples=150, deadline=None)
@given(choices)
def test_every_move_of_a_random_game_matches_position_push(picks: list[int]) -> None:
    position = Position()
    state = state_of(position)
    for pick in picks:
        moves = position.legal_moves()
        assert [origin % 9 + 1 for origin in origins(state)] == moves
        if not moves:
            break
        hole = moves[pick % len(moves)]
        origin = hole - 1 + 9 * int(position.turn)
        expected_gain = capture_of(state, origin)
        state = make(state, origin)
        played = position.play(hole)
        assert state == state_of(position)
        assert expected_gain == (3 if played.tuzdyk else played.captured)
    outcome = position.outcome()
    result = terminal_score(state)
    if outcome is None:
        assert result is None
    else:
        assert result == (0 if outcome.winner is None else 1 if outcome.winner is position.turn else -1)


@settings(max_examples=50, deadline=None)
@given(choices)
def test_a_state_converts_back_to_the_same_position(picks: list[int]) -> None:
    from .helpers import play_out

    position = play_out(picks)
    assert position_of(state_of(position)) == position
