"""The static evaluation: material plus positional terms, in centi-kumalaks for the side to move.

Each term is a difference "side to move minus opponent" (or, for the capture terms, what each side could take
with its next move), so that the evaluation of a position is a weighted sum of :func:`features`. The weights
are fitted on the PlayOK games (``benchmarks/tune_evaluation.py``, Texel tuning: a logistic regression of the
game result on the features) and committed in :mod:`toreshi.togyz.engine.weights`, material scaled to 100.

>>> from toreshi.togyz import Position
>>> from toreshi.togyz.engine.board import state_of
>>> start = state_of(Position())
>>> features(start)[:3]
(0, 0, 0)
>>> evaluate(start)   # the side to move can take 10 now, the other only after: the tempo is worth 8.4 kumalaks
840
>>> ahead = state_of(Position.from_parts([5] * 9, [2] * 9, (80, 19)))
>>> evaluate(ahead) > 0
True
"""

from __future__ import annotations

from toreshi.togyz.engine.board import GAIN, LAST, RING, State
from toreshi.togyz.engine.weights import WEIGHTS
from toreshi.togyz.position import HOLES

FEATURES = (
    "material",  # kazan difference × (kumalaks in the kazans / 81): a lead weighs more as the game goes on
    "tuzdyk",  # owns a tuzdyk (1/0), difference
    "mobility",  # non-empty holes, difference
    "capture_now",  # the most the side to move can take with its move (an even hole, 3 for a new tuzdyk)
    "capture_threat",  # the most the opponent could take with its next move (if it were its move now)
    "row",  # kumalaks on the own row, difference (they are the owner's at an atsyz ending)
    "atsyz_danger",  # max(0, 8 - kumalaks on the own row), difference: an empty row at one's move loses the board
)
"""The names of the terms, in the order of :func:`features` and of ``WEIGHTS``."""

ATSYZ_MARGIN = 8
SCALE = 81
"""``material`` is returned multiplied by 81 so that every feature is an integer."""


def _best_capture(s: State, me: int) -> int:
    """The most ``me`` could take with one move in ``s`` (as if it were ``me``'s move)."""
    best = 0
    t_me, t_op = s[20 + me], s[21 - me]
    start = me * HOLES
    for origin in range(start, start + HOLES):
        n = s[origin]
        if not n:
            continue
        last = LAST[origin][n]
        if (last >= HOLES) == me or last in (t_op, t_me):
            continue
        count = s[last] + GAIN[origin][n]
        if count & 1:
            if (
                count == 3
                and t_me < 0
                and last != 8
                and last != 17
                and (t_op < 0 or t_op % HOLES != last % HOLES)
                and best < 3
            ):
                best = 3
        elif count > best:
            best = count
    return best


def features(s: State) -> tuple[int, ...]:
    """The terms of :data:`FEATURES` for the side to move (``material`` ×81, see :data:`SCALE`)."""
    me = s[22]
    op = 1 - me
    mine = s[me * HOLES : me * HOLES + HOLES]
    theirs = s[op * HOLES : op * HOLES + HOLES]
    row_me, row_op = sum(mine), sum(theirs)
    k_me, k_op = s[18 + me], s[18 + op]
    return (
        (k_me - k_op) * (k_me + k_op),
        (s[20 + me] >= 0) - (s[20 + op] >= 0),
        theirs.count(0) - mine.count(0),
        _best_capture(s, me),
        _best_capture(s, op),
        row_me - row_op,
        (ATSYZ_MARGIN - row_me if row_me < ATSYZ_MARGIN else 0)
        - (ATSYZ_MARGIN - row_op if row_op < ATSYZ_MARGIN else 0),
    )


DIVISORS = (SCALE, 1, 1, 1, 1, 1, 1)
"""What each of :func:`features` must be divided by to be in its natural unit."""


def evaluate(s: State) -> int:
    """The evaluation of ``s`` for the side to move, in centi-kumalaks (a kazan kumalak at mid-game is 100)."""
    material, tuzdyk, mobility, capture_now, capture_threat, row, atsyz_danger = features(s)
    return (W_MATERIAL * material) // SCALE + (
        W_TUZDYK * tuzdyk
        + W_MOBILITY * mobility
        + W_CAPTURE_NOW * capture_now
        + W_CAPTURE_THREAT * capture_threat
        + W_ROW * row
        + W_ATSYZ * atsyz_danger
    )


W_MATERIAL, W_TUZDYK, W_MOBILITY, W_CAPTURE_NOW, W_CAPTURE_THREAT, W_ROW, W_ATSYZ = (WEIGHTS[n] for n in FEATURES)

assert len(WEIGHTS) == len(FEATURES) and RING == 18
