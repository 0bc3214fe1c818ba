"""A plain-text board diagram, as printed in Kazakh booklets: Black's row from hole 9 to 1 on top.

>>> from toreshi.togyz import Position
>>> print(diagram(Position()))
Black (қостаушы)  kazan 0
  9  8  7  6  5  4  3  2  1
  9  9  9  9  9  9  9  9  9
  9  9  9  9  9  9  9  9  9
  1  2  3  4  5  6  7  8  9
White (бастаушы)  kazan 0   ← to move
"""

from __future__ import annotations

from toreshi.togyz.position import BLACK, WHITE, Position, Side


def _cells(position: Position, side: Side) -> list[str]:
    opponent_tuzdyk = position.tuzdyk(side.other)  # the opponent's tuzdyk stands on this row
    return [
        "X" if opponent_tuzdyk == hole else (str(count) if count else "-")
        for hole, count in enumerate(position.holes(side), start=1)
    ]


def diagram(position: Position) -> str:
    """The board as text; ``X`` marks a tuzdyk, ``-`` an empty hole."""
    kazans = position.kazans
    marker = {position.turn: "   ← to move", position.turn.other: ""}
    black = _cells(position, BLACK)[::-1]
    white = _cells(position, WHITE)
    return "\n".join(
        [
            f"Black (қостаушы)  kazan {kazans[BLACK]}{marker[BLACK]}",
            "".join(f"{hole:>3}" for hole in range(9, 0, -1)),
            "".join(f"{cell:>3}" for cell in black),
            "".join(f"{cell:>3}" for cell in white),
            "".join(f"{hole:>3}" for hole in range(1, 10)),
            f"White (бастаушы)  kazan {kazans[WHITE]}{marker[WHITE]}",
        ]
    )
