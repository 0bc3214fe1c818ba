"""Flag falls: who may announce them (TK-B9, TK-B10) and the required-moves check (TK-C13)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from toreshi.clock.gameclock import GameClock
from toreshi.side import Side


class FlagMode(Enum):
    """When a flag fall counts."""

    AUTOMATIC = "automatic"
    """The clock announces it at 00:00 (TK-B10, an electronic clock)."""
    CLAIM = "claim"
    """Only when the arbiter or one of the two players announces it (TK-B9)."""


@dataclass(frozen=True, slots=True)
class FlagCheck:
    """What the arbiter checks when a flag falls (TK-C13): the period and the moves made in it.

    A digital clock adds the next period's time at the press that completes the required moves, so a flag can
    only fall with the requirement unmet; the check is kept on the record all the same.
    """

    side: Side
    period: int
    """1-based."""
    moves_required: int | None
    """``None`` in the final period (the rest of the game)."""
    moves_made: int

    @property
    def required_moves_made(self) -> bool:
        return self.moves_required is not None and self.moves_made >= self.moves_required


def check_required_moves(clock: GameClock, side: Side) -> FlagCheck:
    """The TK-C13 check of ``side``'s dial.

    >>> from toreshi.clock.presets import CLASSICAL_40_2H_1H
    >>> from toreshi.side import WHITE
    >>> check_required_moves(GameClock.new(CLASSICAL_40_2H_1H), WHITE)
    FlagCheck(side=<Side.WHITE: 0>, period=1, moves_required=40, moves_made=0)
    """
    dial = clock.side(side)
    return FlagCheck(side, dial.period + 1, clock.control.periods[dial.period].moves, dial.moves_in_period)
