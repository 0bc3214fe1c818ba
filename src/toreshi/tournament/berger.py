"""Round-robin schedules from the FIDE Berger tables (C.05 Annex 1).

For an even number of players n, in round r (1-based): player n is fixed and meets
``a = ((r - 1) * n / 2 mod (n - 1)) + 1``, with White in even rounds; the other boards pair ``a + k`` (White)
against ``a - k`` (Black), k = 1 … n/2 - 1, numbers taken cyclically in 1 … n - 1. With an odd number of
players a dummy n + 1 is added and whoever meets it sits out. A double round robin repeats the first cycle with
colours reversed, after swapping the first cycle's last two rounds so that no one gets the same colour three
times running across the cycle boundary.

>>> [str(b) for b in berger_round(6, 2)]
['6-4', '5-3', '1-2']
>>> berger_round(5, 1)[-1]
Board(white=1, black=None)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BergerError", "Board", "berger_round", "berger_rounds", "berger_table"]


class BergerError(ValueError):
    """A round-robin size or round number outside what the tables define."""


@dataclass(frozen=True)
class Board:
    """One board of a round; ``black`` is None when ``white`` sits out (odd number of players)."""

    white: int
    black: int | None

    @property
    def is_bye(self) -> bool:
        return self.black is None

    def __str__(self) -> str:
        return f"{self.white}-{'bye' if self.black is None else self.black}"


def berger_rounds(players: int, *, double: bool = False) -> int:
    """How many rounds the round robin of ``players`` has: n - 1 a cycle, n the number of players made even; none
    for fewer than two players (there is no round robin to play).

    >>> berger_rounds(6), berger_rounds(5), berger_rounds(4, double=True), berger_rounds(1), berger_rounds(0)
    (5, 5, 6, 0, 0)
    """
    if players < 2:
        return 0
    return (players + players % 2 - 1) * (2 if double else 1)


def _even_round(n: int, r: int) -> list[Board]:
    def cyclic(x: int) -> int:
        return (x - 1) % (n - 1) + 1

    a = ((r - 1) * (n // 2)) % (n - 1) + 1
    boards = [Board(n, a) if r % 2 == 0 else Board(a, n)]
    boards.extend(Board(cyclic(a + k), cyclic(a - k)) for k in range(1, n // 2))
    return boards


def berger_round(players: int, round_number: int, *, double: bool = False) -> list[Board]:
    """The boards of one round, in board order; the bye (odd ``players``) is listed as ``Board(p, None)``."""
    if players < 2:
        raise BergerError(f"a round robin needs at least 2 players, not {players}")
    n = players + players % 2
    cycle = n - 1
    total = berger_rounds(players, double=double)
    if not 1 <= round_number <= total:
        raise BergerError(f"round {round_number} is outside 1..{total} for {players} players")
    reverse = round_number > cycle
    r = round_number - cycle if reverse else round_number
    if double and cycle >= 2 and r >= cycle - 1:
        # Swap the last two rounds of each cycle (see the module docstring).
        r = 2 * cycle - 1 - r
    boards = _even_round(n, r)
    if reverse:
        boards = [Board(b.black, b.white) for b in boards if b.black is not None]
    result: list[Board] = []
    for b in boards:
        if n != players and n in (b.white, b.black):
            sitter = b.black if b.white == n else b.white
            assert sitter is not None
            result.append(Board(sitter, None))
        else:
            result.append(b)
    # The bye goes last, after the boards that are played.
    return [b for b in result if not b.is_bye] + [b for b in result if b.is_bye]


def berger_table(players: int, *, double: bool = False) -> list[list[Board]]:
    """All rounds of the round robin."""
    return [berger_round(players, r, double=double) for r in range(1, berger_rounds(players, double=double) + 1)]
