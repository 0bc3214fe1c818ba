"""Which content item of a room's pack a screen may load: by question cell and item index, never by file name.

A question's items are addressed as ``{cell}/{part}/{index}``: the cell ``3-2`` (board theme 3, value 2) or
``r7`` (reserve question 7), the part ``q`` (the question) or ``a`` (its answer), the index in that part. The
host may load any item of the room's board (to preview it); everyone else only the items of the question in play
(its question part, without the host's spoken lines) and of questions already over (both parts). Pure: the web
layer serves the bytes from the room's stored pack.

>>> from toreshi.quiz.board import Board
>>> cell_key(2, 3, None), cell_key(None, 3, 7)
('2-3', 'r7')
>>> parse_cell("2-3"), parse_cell("r7"), parse_cell("../x")
((2, 3, None), (None, 3, 7), None)
"""

from __future__ import annotations

import re

from toreshi.quiz.board import BoardItem, BoardQuestion
from toreshi.quiz.pack import Placement
from toreshi.quiz.play.state import PlayState

__all__ = ["PARTS", "cell_key", "find_item", "parse_cell"]

PARTS = ("q", "a")
_CELL = re.compile(r"(\d{1,4})-([1-5])|r(\d{1,6})")


def cell_key(theme: int | None, value: int, reserve: int | None) -> str:
    """The address of a board cell or a reserve question."""
    return f"r{reserve}" if reserve is not None else f"{theme}-{value}"


def parse_cell(key: str) -> tuple[int | None, int, int | None] | None:
    """(theme, value, reserve) of a cell address (value 3 for a reserve: unused), or ``None`` if it is none."""
    match = _CELL.fullmatch(key)
    if match is None:
        return None
    if match[3] is not None:
        return None, 3, int(match[3])
    return int(match[1]), int(match[2]), None


def _question(state: PlayState, key: str) -> BoardQuestion | None:
    parsed = parse_cell(key)
    if parsed is None or not state.created:
        return None
    theme, value, reserve = parsed
    board = state.game._setup.board
    if reserve is not None:
        return board.reserve[reserve] if reserve < len(board.reserve) else None
    if theme is None or theme >= len(board.themes):
        return None
    return board.themes[theme].cell(value)


def find_item(state: PlayState, key: str, part: str, index: int, *, host: bool) -> BoardItem | None:
    """The item a screen asks for, if it exists and this screen may have it now (``None`` otherwise)."""
    question = _question(state, key)
    if question is None or part not in PARTS:
        return None
    items = question.items if part == "q" else question.answer_items
    if not 0 <= index < len(items):
        return None
    item = items[index]
    if host:
        return item
    game = state.game
    over = any(played.question == question for played in game.played)
    current = game.current is not None and game.current.question == question
    if over or (current and part == "q" and item.placement is not Placement.REPLIC):
        return item
    return None
