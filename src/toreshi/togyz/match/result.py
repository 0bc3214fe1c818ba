"""The result of a game as a record writes it, and its points (TK-R2, TK-R4).

>>> GameResult.WHITE_WINS.points
(1.0, 0.0)
>>> GameResult.BLACK_FORFEIT_WIN.symbol, GameResult.BLACK_FORFEIT_WIN.points
('− +', (0.0, 1.0))
>>> GameResult.DOUBLE_FORFEIT.points
(0.0, 0.0)
"""

from __future__ import annotations

from enum import Enum

from toreshi.togyz.position import BLACK, WHITE, Side


class GameResult(Enum):
    """``value`` is the record token; forfeits use ``+``/``-`` (rendered ``+ −`` on paper, TK-R4)."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"
    WHITE_FORFEIT_WIN = "+-"
    """White present, Black absent or more than 30 minutes late."""
    BLACK_FORFEIT_WIN = "-+"
    DOUBLE_FORFEIT = "--"
    """Both absent: neither scores."""

    @classmethod
    def win_for(cls, side: Side) -> GameResult:
        return cls.WHITE_WINS if side is WHITE else cls.BLACK_WINS

    @classmethod
    def forfeit_win_for(cls, side: Side) -> GameResult:
        return cls.WHITE_FORFEIT_WIN if side is WHITE else cls.BLACK_FORFEIT_WIN

    @property
    def points(self) -> tuple[float, float]:
        """(White's points, Black's points): a win or a (+) is 1, a draw 0.5, a loss or a (−) 0 (TK-R2, TK-R4)."""
        return _POINTS[self]

    @property
    def is_forfeit(self) -> bool:
        return self in (GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN, GameResult.DOUBLE_FORFEIT)

    @property
    def winner(self) -> Side | None:
        white, black = self.points
        if white == black:
            return None
        return WHITE if white > black else BLACK

    @property
    def symbol(self) -> str:
        """The form printed on a score sheet: ``1–0``, ``½–½``, ``+ −`` …"""
        return _SYMBOLS[self]


_POINTS = {
    GameResult.WHITE_WINS: (1.0, 0.0),
    GameResult.BLACK_WINS: (0.0, 1.0),
    GameResult.DRAW: (0.5, 0.5),
    GameResult.WHITE_FORFEIT_WIN: (1.0, 0.0),
    GameResult.BLACK_FORFEIT_WIN: (0.0, 1.0),
    GameResult.DOUBLE_FORFEIT: (0.0, 0.0),
}
_SYMBOLS = {
    GameResult.WHITE_WINS: "1–0",
    GameResult.BLACK_WINS: "0–1",
    GameResult.DRAW: "½–½",
    GameResult.WHITE_FORFEIT_WIN: "+ −",
    GameResult.BLACK_FORFEIT_WIN: "− +",
    GameResult.DOUBLE_FORFEIT: "− −",
}
