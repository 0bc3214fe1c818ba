"""The board position, legal moves, sowing, captures, tuzdyks and the end of the game.

The normative rules are ``shared/docs/togyz-rules.md`` (§2 sowing, §3 capture, §4 tuzdyk, §5 end of game).

Internally the 18 holes form one ring: White's holes 1–9 are indices 0–8 and Black's holes 1–9 are
indices 9–17, so "anticlockwise" is simply ``index + 1 (mod 18)``. A tuzdyk is stored as the ring index of
the captured hole (on the opponent's row), or ``-1`` when the player has none. The hot path (``push``)
works on plain lists and ints because random playouts and perft call it millions of times.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import compress
from typing import NamedTuple

from toreshi.side import BLACK as BLACK
from toreshi.side import WHITE as WHITE
from toreshi.side import Side as Side

TOTAL_KUMALAKS = 162
WINNING_KAZAN = 82  # "more than 81" (TK-R1)
DRAW_KAZAN = 81
HOLES = 9
_HOLE_NUMBERS = (1, 2, 3, 4, 5, 6, 7, 8, 9)


class IllegalMoveError(ValueError):
    """Raised when a move is not legal in the position (empty hole, wrong hole, game over)."""


class Termination(Enum):
    """How a game ended. The first three are decided on the board; the rest are recorded from outside."""

    KAZAN = "kazan"
    """A kazan holds 82 or more (§5 E1)."""
    ATSYZ = "atsyz"
    """The side to move has no kumalak; the board is swept to the row owners (§5 E2), then 82/81 decide."""
    RESIGNATION = "resignation"
    TIME_FORFEIT = "time_forfeit"
    AGREEMENT = "agreement"
    FORFEIT = "forfeit"
    ARBITER = "arbiter"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how, who won (``None`` for a draw) and the final kazans (White, Black)."""

    termination: Termination
    winner: Side | None
    score: tuple[int, int]

    def result(self) -> str:
        """The result token: ``1-0``, ``0-1`` or ``1/2-1/2``."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is WHITE else "0-1"


class Played(NamedTuple):
    """The facts of one move once it has been made: everything a score sheet can annotate.

    ``landing`` is the hole number (1–9) where the last kumalak fell and ``landing_side`` the row it is on.
    ``captured`` counts kumalaks taken from an even hole (0 if none); ``tuzdyk`` tells whether the move
    created a tuzdyk; ``kazan`` is the mover's kazan after the move (tuzdyk income included).
    """

    side: Side
    hole: int
    landing: int
    landing_side: Side
    captured: int
    tuzdyk: bool
    kazan: int


# _SOW[origin][r]: the ring indices that receive one kumalak each when r kumalaks are sown from origin
# (the first one back into the origin), precomputed so that the hot loop iterates a ready tuple.
_SOW = tuple(tuple(tuple((origin + j) % 18 for j in range(r)) for r in range(18)) for origin in range(18))

# The whole state is one flat list of ints, so that a move's undo record is a single slice copy:
# holes 0-17, then the fields below. The last-move fields let ``last_played`` describe the move cheaply.
# _EFFECT is the count captured, -1 when the move made a tuzdyk, 0 for a quiet move.
_K0, _K1, _T0, _T1, _TURN, _FROM, _LAST, _EFFECT, _PLY = range(18, 27)
_START = [9] * 18 + [0, 0, -1, -1, 0, -1, -1, 0, 0]
# _ORIGIN[side][hole]: the ring index of a hole number; a dict lookup doubles as the range check.
_ORIGIN = ({h: h - 1 for h in range(1, 10)}, {h: h + 8 for h in range(1, 10)})


def sow(s: list[int], origin: int) -> tuple[int, int]:
    """Sow ring index ``origin`` (a non-empty hole of the side to move, ``s[22]``; not checked) in place: the
    holes, the kazans, the tuzdyks and the side to move (fields 0-22) change.

    Returns the ring index of the hole the last kumalak fell into, and what the move took: the count captured, -1
    when it made a tuzdyk, 0 for a quiet move. The one implementation of §2-§4, shared by :meth:`Position.push`
    and the engine's copy-make (:func:`toreshi.togyz.engine.board.make`); literal indices because both are hot.
    """
    me = s[22]
    n = s[origin]
    # Sowing (§2): n >= 2 puts the first kumalak back into the origin; n == 1 moves it on.
    s[origin] = 0
    if n == 1:
        last = origin + 1 if origin != 17 else 0
        s[last] += 1
    elif n < 18:
        for i in _SOW[origin][n]:
            s[i] += 1
        last = _SOW[origin][n][-1]
    else:
        laps, rest = divmod(n, 18)
        for i in range(18):
            s[i] += laps
        for i in _SOW[origin][rest]:
            s[i] += 1
        last = (origin + n - 1) % 18
    # Kumalaks that fell into a tuzdyk belong to its owner (§2 rule 4).
    t = s[20]
    if t >= 0 and s[t]:
        s[18] += s[t]
        s[t] = 0
    t = s[21]
    if t >= 0 and s[t]:
        s[19] += s[t]
        s[t] = 0
    s[22] = 1 - me
    # Capture (§3) and tuzdyk (§4): only the last hole, only on the opponent's row; a tuzdyk reads 0 here.
    if (last >= HOLES) != me:
        count = s[last]
        if count and not count & 1:
            s[last] = 0
            s[18 + me] += count
            return last, count
        if (
            count == 3
            and s[20 + me] < 0
            and last != 8
            and last != 17
            and (s[21 - me] < 0 or s[21 - me] % HOLES != last % HOLES)
        ):
            s[last] = 0
            s[18 + me] += 3
            s[20 + me] = last
            return last, -1
    return last, 0


class Position:
    """A togyz kumalak position: 2×9 holes, two kazans, the tuzdyks and the side to move.

    >>> pos = Position()
    >>> pos.legal_moves()
    [1, 2, 3, 4, 5, 6, 7, 8, 9]
    >>> played = pos.play(7)
    >>> played.landing, played.landing_side, played.captured, played.tuzdyk
    (6, <Side.BLACK: 1>, 10, False)
    >>> pos.kazans
    (10, 0)
    >>> pos.pop()
    >>> pos.kazans, pos.turn
    ((0, 0), <Side.WHITE: 0>)
    """

    __slots__ = ("_s", "_stack")

    def __init__(self) -> None:
        self._s: list[int] = _START[:]
        self._stack: list[list[int]] = []

    # --- construction and inspection -------------------------------------------------------------

    @classmethod
    def from_parts(
        cls,
        white_holes: Sequence[int],
        black_holes: Sequence[int],
        kazans: tuple[int, int],
        *,
        turn: Side = WHITE,
        white_tuzdyk: int | None = None,
        black_tuzdyk: int | None = None,
        ply: int = 0,
    ) -> Position:
        """Build and validate a position. Tuzdyks are hole numbers on the *opponent's* row.

        >>> Position.from_parts([0] * 9, [1] * 9, (150, 3)).kazans
        (150, 3)
        >>> try:
        ...     Position.from_parts([9] * 9, [9] * 9, (1, 0))
        ... except InvalidPositionError as error:
        ...     print(error)
        the position holds 163 kumalaks, not 162
        """
        if len(white_holes) != HOLES or len(black_holes) != HOLES:
            raise InvalidPositionError("each row has exactly 9 holes")
        board = [int(x) for x in white_holes] + [int(x) for x in black_holes]
        if any(x < 0 for x in board) or min(kazans) < 0:
            raise InvalidPositionError("hole and kazan counts cannot be negative")
        total = sum(board) + kazans[0] + kazans[1]
        if total != TOTAL_KUMALAKS:
            raise InvalidPositionError(f"the position holds {total} kumalaks, not {TOTAL_KUMALAKS}")
        if ply < 0:
            raise InvalidPositionError("the ply count cannot be negative")
        tuzdyk = [-1, -1]
        for side, number in ((WHITE, white_tuzdyk), (BLACK, black_tuzdyk)):
            if number is None:
                continue
            if not 1 <= number <= 8:
                raise InvalidPositionError(f"a tuzdyk stands on hole 1-8, not {number}")
            index = (1 - side) * HOLES + number - 1
            if board[index]:
                raise InvalidPositionError(f"{side.name.lower()}'s tuzdyk on hole {number} must be empty")
            tuzdyk[side] = index
        if white_tuzdyk is not None and white_tuzdyk == black_tuzdyk:
            raise InvalidPositionError("the two tuzdyks cannot have the same hole number")
        pos = cls()
        pos._s = [*board, int(kazans[0]), int(kazans[1]), tuzdyk[0], tuzdyk[1], int(turn), -1, -1, 0, ply]
        return pos

    def copy(self, *, stack: bool = False) -> Position:
        """A copy of the position, without the move stack unless asked."""
        pos = Position.__new__(Position)
        pos._s = self._s[:]
        pos._stack = self._stack[:] if stack else []
        return pos

    @property
    def turn(self) -> Side:
        """The side to move."""
        return Side(self._s[_TURN])

    @property
    def ply(self) -> int:
        """Half-moves played from the start (or as set by a FEN's move number)."""
        return self._s[_PLY]

    @property
    def kazans(self) -> tuple[int, int]:
        """(White's kazan, Black's kazan) as they stand, before any end-of-game transfer."""
        return self._s[_K0], self._s[_K1]

    def holes(self, side: Side) -> tuple[int, ...]:
        """The counts of ``side``'s holes 1–9."""
        start = side * HOLES
        return tuple(self._s[start : start + HOLES])

    def tuzdyk(self, side: Side) -> int | None:
        """The hole number (1–9, on the opponent's row) of ``side``'s tuzdyk, or ``None``."""
        index = self._s[_T0 + side]
        return None if index < 0 else index % HOLES + 1

    def _key(self) -> tuple[int, ...]:
        return tuple(self._s[:_FROM])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        from toreshi.togyz.fen import to_fen

        return f"Position({to_fen(self)!r})"

    # --- moves -----------------------------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        """The hole numbers the side to move may play; empty when the game is over."""
        s = self._s
        if s[18] >= WINNING_KAZAN or s[19] >= WINNING_KAZAN:
            return []
        start = s[22] * HOLES
        return list(compress(_HOLE_NUMBERS, s[start : start + HOLES]))

    def is_legal(self, hole: int) -> bool:
        return hole in self.legal_moves()

    def push(self, hole: int) -> None:
        """Play ``hole`` (1–9 on the mover's row) for the side to move; undo with :meth:`pop`.

        Raises :class:`IllegalMoveError` for a hole out of range, an empty hole or a finished game.
        """
        # Literal indices below are the _K0.._PLY fields (18-26): this is the hot path of playouts and perft.
        s = self._s
        me = s[22]
        try:
            origin = _ORIGIN[me][hole]
        except (KeyError, TypeError):
            raise IllegalMoveError(f"hole must be 1-9, not {hole!r}") from None
        if s[18] >= WINNING_KAZAN or s[19] >= WINNING_KAZAN:
            raise IllegalMoveError("the game is over: a kazan holds 82 or more")
        if not s[origin]:
            raise IllegalMoveError(f"hole {hole} of {Side(me).name.lower()} is empty")
        self._stack.append(s[:])
        s[23] = origin
        s[24], s[25] = sow(s, origin)
        s[26] += 1

    def pop(self) -> None:
        """Undo the last move made with :meth:`push` or :meth:`play`."""
        self._s = self._stack.pop()

    def play(self, hole: int) -> Played:
        """Make a move and return its facts (landing hole, capture, tuzdyk, mover's kazan)."""
        self.push(hole)
        played = self.last_played()
        assert played is not None
        return played

    def last_played(self) -> Played | None:
        """The facts of the last move, or ``None`` if no move has been made in this position."""
        s = self._s
        origin, last, effect = s[_FROM], s[_LAST], s[_EFFECT]
        if origin < 0:
            return None
        side = origin // HOLES
        return Played(
            Side(side),
            origin % HOLES + 1,
            last % HOLES + 1,
            Side(last // HOLES),
            max(effect, 0),
            effect < 0,
            s[_K0 + side],
        )

    @property
    def move_stack(self) -> list[int]:
        """Hole numbers of the moves on the stack, oldest first."""
        if not self._stack:
            return []
        states = [*self._stack[1:], self._s]
        return [state[_FROM] % HOLES + 1 for state in states]

    def root(self) -> Position:
        """The position before the first move on the stack (a copy)."""
        pos = Position.__new__(Position)
        pos._s = (self._stack[0] if self._stack else self._s)[:]
        pos._stack = []
        return pos

    # --- end of game -----------------------------------------------------------------------------

    def is_game_over(self) -> bool:
        """True when a kazan holds 82+ or the side to move has no kumalak (atsyz)."""
        s = self._s
        if s[18] >= WINNING_KAZAN or s[19] >= WINNING_KAZAN:
            return True
        start = s[22] * HOLES
        return not any(s[start : start + HOLES])

    def outcome(self) -> Outcome | None:
        """The board outcome (§5), or ``None`` while the game goes on.

        On atsyz every kumalak left on the board goes to the owner of the row it lies on; the returned
        ``score`` includes that transfer, while the position itself is left as it was.

        >>> Position.from_parts([0] * 9, [0, 1, 1, 3, 30, 24, 4, 0, 4], (30, 65)).outcome()
        Outcome(termination=<Termination.ATSYZ: 'atsyz'>, winner=<Side.BLACK: 1>, score=(30, 132))
        """
        s = self._s
        k0, k1 = s[_K0], s[_K1]
        if k0 >= WINNING_KAZAN or k1 >= WINNING_KAZAN:
            return Outcome(Termination.KAZAN, WHITE if k0 >= WINNING_KAZAN else BLACK, (k0, k1))
        start = s[_TURN] * HOLES
        if any(s[start : start + HOLES]):
            return None
        score = (k0 + sum(s[:HOLES]), k1 + sum(s[HOLES:18]))
        if score[0] == score[1] == DRAW_KAZAN:
            return Outcome(Termination.ATSYZ, None, score)
        return Outcome(Termination.ATSYZ, WHITE if score[0] > score[1] else BLACK, score)

    def total(self) -> int:
        """Kumalaks in holes and kazans together: 162 in every reachable position."""
        s = self._s
        return sum(s[:18]) + s[_K0] + s[_K1]


class InvalidPositionError(ValueError):
    """Raised for a position that breaks the state invariants (§1.1)."""


def perft(position: Position, depth: int) -> int:
    """Leaf positions at ``depth`` (§7): a finished position counts as one leaf and is not expanded.

    >>> perft(Position(), 3)
    613
    """
    if depth == 0 or position.is_game_over():
        return 1
    if depth == 1:
        return len(position.legal_moves())
    nodes = 0
    for hole in position.legal_moves():
        position.push(hole)
        nodes += perft(position, depth - 1)
        position.pop()
    return nodes
