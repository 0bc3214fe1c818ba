"""Togyz kumalak rules: positions, moves, notation, FEN, PlayOK PGN records and score-sheet checking.

A pure library: no I/O, no clock. The normative rules are ``shared/docs/togyz-rules.md``.

>>> from toreshi.togyz import Position
>>> pos = Position()
>>> pos.play(7).captured
10
"""

from toreshi.togyz.position import (
    BLACK,
    WHITE,
    IllegalMoveError,
    InvalidPositionError,
    Outcome,
    Played,
    Position,
    Side,
    Termination,
    perft,
)

__all__ = [
    "BLACK",
    "WHITE",
    "IllegalMoveError",
    "InvalidPositionError",
    "Outcome",
    "Played",
    "Position",
    "Side",
    "Termination",
    "perft",
]
