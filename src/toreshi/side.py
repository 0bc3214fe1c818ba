"""The two players of a two-player game: shared by the clock and the togyz rules, so neither imports the other.

>>> WHITE.other is BLACK, BLACK.name.lower()
(True, 'black')
"""

from __future__ import annotations

from enum import IntEnum


class Side(IntEnum):
    """A player. ``WHITE`` is the бастаушы (moves first), ``BLACK`` the қостаушы."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)


WHITE = Side.WHITE
BLACK = Side.BLACK
