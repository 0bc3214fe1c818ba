"""Random games for the property tests: a game is drawn as a list of choices, and choice i picks among the legal
moves at ply i (modulo their number), so that any list of small numbers is a legal game."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from hypothesis import strategies as st

from toreshi.togyz import Position


def game_choices(max_plies: int) -> st.SearchStrategy[list[int]]:
    """Lists of choices for games of up to ``max_plies`` plies (fewer where a game ends first)."""
    return st.lists(st.integers(min_value=0, max_value=8), min_size=0, max_size=max_plies)


def picked_moves(position: Position, picks: Iterable[int]) -> Iterator[int]:
    """The hole each pick chooses on ``position`` as it stands at that ply, until the game has no legal move; the
    caller plays each one before asking for the next."""
    for pick in picks:
        moves = position.legal_moves()
        if not moves:
            return
        yield moves[pick % len(moves)]


def play_out(picks: list[int]) -> Position:
    """The position the picks lead to from the start."""
    position = Position()
    for hole in picked_moves(position, picks):
        position.push(hole)
    return position
