"""The search's own view of a position: a flat list of 23 ints and copy-make moves.

``State`` is ``[hole 0..17, kazan W, kazan B, tuzdyk W, tuzdyk B, side to move]``: the first 23 fields of
:class:`~toreshi.togyz.position.Position`'s state, with the same ring indices (White's holes 1–9 are 0–8,
Black's are 9–17) and a tuzdyk stored as the ring index of the captured hole or ``-1``.

A search visits a position once and throws it away, so a move here builds the child instead of changing the
parent (no undo record, no move stack) and skips the validation that :meth:`Position.push` does for untrusted
callers (copying 23 ints and sowing into precomputed index tuples beat adding a precomputed delta vector with
``map(add, …)``: 0.9–1.3 M against 0.6–0.8 M moves/s). The sowing, captures and tuzdyks are
``Position.push``'s own (:func:`~toreshi.togyz.position.sow`); a property test replays random games through both
and compares every state.

>>> from toreshi.togyz import Position
>>> state = state_of(Position())
>>> child = make(state, 6)            # White's hole 7
>>> child[18], child[22]             # White's kazan, side to move
(10, 1)
>>> child[13], child[14]             # Black's holes 5 and 6: sown into, and captured
(10, 0)
"""

from __future__ import annotations

from itertools import compress
from typing import TypeAlias

from toreshi.togyz.position import HOLES, WINNING_KAZAN, Position, Side, sow

State: TypeAlias = list[int]

K0, K1, T0, T1, TURN = 18, 19, 20, 21, 22
STATE_SIZE = 23
MAX_COUNT = 162
RING = 18

ORIGINS = (tuple(range(HOLES)), tuple(range(HOLES, RING)))
"""The ring indices of each side's holes 1–9."""


def _delta(origin: int, n: int) -> tuple[int, ...]:
    delta = [0] * STATE_SIZE
    if n == 1:
        delta[origin] -= 1
        delta[(origin + 1) % RING] += 1
    elif n > 1:
        delta[origin] -= n
        for j in range(n):
            delta[(origin + j) % RING] += 1
    delta[TURN] = 1 if origin < HOLES else -1  # the side to move flips
    return tuple(delta)


def _last(origin: int, n: int) -> int:
    return (origin + 1) % RING if n == 1 else (origin + n - 1) % RING


def _landing_gain(origin: int, n: int) -> int:
    """How many kumalaks of this move land in its last hole."""
    if n <= 1:
        return n
    return _delta(origin, n)[_last(origin, n)] + (n if _last(origin, n) == origin else 0)


LAST = tuple(tuple(_last(origin, n) for n in range(MAX_COUNT + 1)) for origin in range(RING))
"""``LAST[origin][n]``: the ring index of the hole that receives the last kumalak."""
GAIN = tuple(tuple(_landing_gain(origin, n) for n in range(MAX_COUNT + 1)) for origin in range(RING))
"""``GAIN[origin][n]``: how many kumalaks of the move land in the last hole (1 unless the move laps the ring)."""


def state_of(position: Position) -> State:
    """The search state of a position (the move stack and last-move facts are left behind)."""
    white, black = position.holes(Side.WHITE), position.holes(Side.BLACK)
    tuzdyks = []
    for side in (Side.WHITE, Side.BLACK):
        number = position.tuzdyk(side)
        tuzdyks.append(-1 if number is None else (1 - side) * HOLES + number - 1)
    return [*white, *black, *position.kazans, *tuzdyks, int(position.turn)]


def position_of(state: State, ply: int = 0) -> Position:
    """A :class:`Position` with this state (for notation, FEN and the public API)."""
    t0, t1 = state[T0], state[T1]
    return Position.from_parts(
        state[:HOLES],
        state[HOLES:RING],
        (state[K0], state[K1]),
        turn=Side(state[TURN]),
        white_tuzdyk=None if t0 < 0 else t0 % HOLES + 1,
        black_tuzdyk=None if t1 < 0 else t1 % HOLES + 1,
        ply=ply,
    )


def origins(state: State) -> list[int]:
    """The ring indices the side to move may play (non-empty own holes); empty once a kazan holds 82."""
    if state[K0] >= WINNING_KAZAN or state[K1] >= WINNING_KAZAN:
        return []
    me = state[TURN]
    start = me * HOLES
    return list(compress(ORIGINS[me], state[start : start + HOLES]))


def make(s: State, origin: int) -> State:
    """The state after the side to move sows ``origin`` (a non-empty own hole; not checked)."""
    c = s[:]
    sow(c, origin)
    return c


def capture_of(s: State, origin: int) -> int:
    """What the move from ``origin`` takes at once, without making it: an even count, 3 for a new tuzdyk, else 0.

    Tuzdyk income during the move is left out (it is small and the search sees it in the child).
    """
    n = s[origin]
    last = LAST[origin][n]
    me = 1 if origin >= HOLES else 0
    if (last >= HOLES) == me or last == s[T0] or last == s[T1]:
        return 0
    count = s[last] + GAIN[origin][n]
    if not count & 1:
        return count
    if (
        count == 3
        and s[T0 + me] < 0
        and last != 8
        and last != 17
        and (s[T1 - me] < 0 or s[T1 - me] % HOLES != last % HOLES)
    ):
        return 3
    return 0


def terminal_score(s: State) -> int | None:
    """The game result for the side to move if the game is over: +1 win, 0 draw, -1 loss; else ``None``.

    Checked in the rules' order (§5): a kazan at 82 or more, then atsyz (the side to move has no kumalak: every
    kumalak left goes to the owner of its row, then 82 or 81:81 decide).
    """
    me = s[TURN]
    if s[K0] >= WINNING_KAZAN:
        return 1 if me == 0 else -1
    if s[K1] >= WINNING_KAZAN:
        return 1 if me == 1 else -1
    start = me * HOLES
    if any(s[start : start + HOLES]):
        return None
    mine = s[K0 + me]  # the mover's row is empty: everything on the board is the opponent's
    if mine == 81:
        return 0
    return 1 if mine > 81 else -1
