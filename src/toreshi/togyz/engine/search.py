"""Iterative-deepening negamax alpha-beta with a transposition table, move ordering and quiescence.

Pure: the clock is an injected callable (seconds), stopping is an injected callable, nothing else is read from
outside. For a given state and depth limit the result is the same every time (no randomness in the search; the
transposition table starts empty for each :meth:`Searcher.run`).

Scores are centi-kumalaks for the side to move (:mod:`toreshi.togyz.engine.evaluation`). A result that is
certain — a finished game, or one that is *decided* because a player can no longer reach 82 (the other holds
more than 81 kumalaks once the board is shared out) — scores ``WIN - plies`` (or its negation), so that a
shorter way to a certain win scores higher; :func:`decided_in` turns such a score back into plies.

Techniques (``docs/decisions.md``, "Togyz engine"): principal variation search, a transposition table, the
table's move first, then captures and tuzdyk-making moves by size, two killers per ply and a history table;
quiescence on captures with stand-pat; aspiration windows around the previous iteration's score.

The depth-by-depth search from the root runs in C (``_native.c``, compiled at install time) when it was built
(:data:`NATIVE`), else in the Python below, which is its reference: with the table off both visit the same
nodes. The driver — iterative deepening, aspiration, limits, callbacks — is this module's in both cases. The
Python table is keyed on ``hash(tuple(state))`` (computed by CPython in C; an incremental Zobrist key would cost
two look-ups per sown kumalak), the C table on a Zobrist key.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import compress

from toreshi.togyz.engine.board import GAIN, LAST, ORIGINS, State, make
from toreshi.togyz.engine.evaluation import FEATURES, evaluate
from toreshi.togyz.engine.weights import WEIGHTS
from toreshi.togyz.position import HOLES

try:
    from toreshi.togyz.engine import _native

    NATIVE = _native.API_VERSION == 1
except ImportError:  # not built (no C compiler or Python headers at install): the pure-Python search is used
    NATIVE = False

WIN = 1_000_000
MAX_PLY = 1_000
WIN_BOUND = WIN - MAX_PLY
"""Scores beyond ±WIN_BOUND are certain results."""
INFINITY = WIN + 1

MAX_DEPTH = 64
QUIESCENCE_PLIES = 8
ASPIRATION = 150
CHECK_EVERY = 512  # nodes between two looks at the clock and the stop flag
TABLE_LIMIT = 400_000  # entries; about 60 MB of int keys and small tuples
NATIVE_TABLE_BITS = 20  # 2**20 entries of 16 bytes in the C search
_NATIVE_LOCK = threading.Lock()  # the C search's tables are per process

EXACT, LOWER, UPPER = 0, 1, 2


def decided_in(score: int) -> int | None:
    """Plies until the result is certain for a certain-result score, else ``None`` (positive: a win)."""
    if score > WIN_BOUND:
        return WIN - score
    if score < -WIN_BOUND:
        return -(WIN + score)
    return None


@dataclass(frozen=True)
class Limits:
    """When a search stops: at ``depth`` plies, after ``movetime`` seconds, after ``nodes`` nodes; the first reached.

    ``spread`` (centi-kumalaks) asks for exact scores of every root move within that much of the best one (the
    practice levels choose among them); 0 scores only the best move exactly.
    """

    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None
    spread: int = 0

    def __post_init__(self) -> None:
        if self.depth is not None and not 1 <= self.depth <= MAX_DEPTH:
            raise ValueError(f"depth must be 1-{MAX_DEPTH}, not {self.depth}")
        if self.movetime is not None and self.movetime <= 0:
            raise ValueError(f"movetime must be positive, not {self.movetime}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"nodes must be positive, not {self.nodes}")
        if self.spread < 0:
            raise ValueError(f"spread cannot be negative, not {self.spread}")


@dataclass(frozen=True)
class Iteration:
    """What one completed depth found: picklable, so a progress callback may send it anywhere."""

    depth: int
    score: int
    pv: tuple[int, ...]
    """Ring indices of the principal variation, the best move first."""
    nodes: int
    seconds: float


@dataclass(frozen=True)
class SearchResult(Iteration):
    """The outcome of :meth:`Searcher.run`: what the last completed depth found and its ``best`` move, with the
    nodes and seconds of the whole search; moves are ring indices (``board.ORIGINS``)."""

    best: int
    root_scores: tuple[tuple[int, int], ...] = field(default=())
    """``(origin, score)`` of the root moves whose score is exact at the last completed depth (all moves within
    ``Limits.spread`` of the best, the best included), best first."""
    stopped: bool = False
    """True when time, nodes or the stop flag cut the search before its depth limit."""


class _StopSearchError(Exception):
    """Raised inside the recursion when the search must stop now."""


def _never() -> bool:
    return False


class Searcher:
    """One search at a time; reusable. ``clock`` returns seconds (any origin), ``stop`` returns True to stop.

    ``progress`` is called with an :class:`Iteration` after each completed depth.
    """

    def __init__(
        self,
        clock: Callable[[], float],
        stop: Callable[[], bool] | None = None,
        progress: Callable[[Iteration], None] | None = None,
        *,
        quiescence: bool = True,
        ordering: bool = True,
        table: bool = True,
        aspiration: bool = True,
        native: bool | None = None,
    ) -> None:
        self.clock = clock
        self.given_stop = stop
        self.stop = stop or _never
        self.native = NATIVE if native is None else native
        if self.native and not NATIVE:
            raise RuntimeError("the native search is not built (see hatch_build.py)")
        self.progress = progress
        self.use_quiescence = quiescence
        self.use_ordering = ordering
        self.use_table = table
        self.use_aspiration = aspiration
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.nodes = 0
        self._deadline: float | None = None
        self._node_limit: int | None = None
        self._next_check = CHECK_EVERY
        self._killers: list[list[int]] = []
        self._history: list[int] = []
        self._pv: list[list[int]] = []

    # --- driver ----------------------------------------------------------------------------------------

    def run(self, state: State, limits: Limits) -> SearchResult:
        """Search ``state`` (not finished: the side to move has a move) within ``limits``.

        The C search keeps its tables in the process, so it runs one search at a time: a search started while
        another one holds it (another thread, or a callback of the running search) uses the Python search.
        Run concurrent searches in separate processes.
        """
        wanted = self.native
        if wanted and not _NATIVE_LOCK.acquire(blocking=False):
            self.native = False
        try:
            return self._run(state, limits)
        finally:
            if wanted and self.native:
                _NATIVE_LOCK.release()
            self.native = wanted

    def _run(self, state: State, limits: Limits) -> SearchResult:
        start = self.clock()
        moves = _moves(state)
        if not moves:
            raise ValueError("the game is over: there is no move to search")
        self.table = {}
        self.nodes = 0
        self._deadline = None if limits.movetime is None else start + limits.movetime
        self._node_limit = limits.nodes
        self._next_check = CHECK_EVERY if limits.nodes is None else min(CHECK_EVERY, limits.nodes)
        self._killers = [[-1, -1] for _ in range(MAX_PLY + 2)]
        self._history = [0] * 18
        self._pv = [[] for _ in range(MAX_PLY + 2)]
        if self.native:
            weights = [WEIGHTS[name] for name in FEATURES]
            _native.reset(weights, self.use_quiescence, self.use_ordering, self.use_table, NATIVE_TABLE_BITS)
        max_depth = limits.depth or MAX_DEPTH
        order = self._root_order(state, moves)
        best: SearchResult | None = None
        score = 0
        stopped = False
        for depth in range(1, max_depth + 1):
            try:
                score, order, exact = self._iterate(state, order, depth, score, limits.spread)
            except _StopSearchError:
                stopped = True
                break
            elapsed = self.clock() - start
            pv = tuple(self._pv[0])
            best = SearchResult(depth, score, pv, self.nodes, elapsed, best=order[0], root_scores=exact)
            if self.progress is not None:
                self.progress(Iteration(depth, score, pv, self.nodes, elapsed))
            certain_in = decided_in(abs(score))
            if certain_in is not None and depth >= certain_in:
                break  # a certain result within the searched depth: deeper iterations cannot change it
            if len(moves) == 1 and limits.depth is None:
                break  # a forced move needs no thinking time
            if limits.movetime is not None and elapsed > limits.movetime * 0.45:
                stopped = depth < max_depth
                break  # the next iteration would most likely not finish in time
        elapsed = self.clock() - start
        if best is None:  # not even depth 1 finished: fall back on the ordering's first move
            return SearchResult(0, 0, (order[0],), self.nodes, elapsed, best=order[0], stopped=True)
        return replace(best, nodes=self.nodes, seconds=elapsed, stopped=stopped or best.stopped)

    def _root_order(self, state: State, moves: list[int]) -> list[int]:
        if not self.use_ordering:
            return moves
        return sorted(moves, key=lambda origin: -_capture(state, origin))

    def _iterate(
        self, state: State, order: list[int], depth: int, previous: int, spread: int
    ) -> tuple[int, list[int], tuple[tuple[int, int], ...]]:
        if not self.use_aspiration or depth < 3 or abs(previous) > WIN_BOUND:
            return self._root(state, order, depth, -INFINITY, INFINITY, spread)
        window = ASPIRATION
        while True:
            # Moves within ``spread`` of the best need exact scores too: the window opens that much lower.
            alpha, beta = previous - window - spread, previous + window
            score, new_order, exact = self._root(state, order, depth, alpha, beta, spread)
            if alpha < score < beta:
                return score, new_order, exact
            window *= 4
            if window > 40 * ASPIRATION:
                return self._root(state, order, depth, -INFINITY, INFINITY, spread)

    def _root(
        self, state: State, order: list[int], depth: int, alpha: int, beta: int, spread: int
    ) -> tuple[int, list[int], tuple[tuple[int, int], ...]]:
        if self.native:
            return self._native_root(state, order, depth, alpha, beta, spread)
        best_score = -INFINITY
        scored: list[tuple[int, int, bool]] = []  # (origin, score, exact)
        for index, origin in enumerate(order):
            child = make(state, origin)
            if index == 0:
                score = -self._negamax(child, depth - 1, -beta, -alpha, 1)
                is_exact = alpha < score < beta
            else:
                floor = max(alpha, best_score - spread)
                score = -self._negamax(child, depth - 1, -floor - 1, -floor, 1)
                is_exact = False
                if floor < score < beta:
                    score = -self._negamax(child, depth - 1, -beta, -floor, 1)
                    is_exact = floor < score < beta
            scored.append((origin, score, is_exact))
            if score > best_score:
                best_score = score
                self._pv[0] = [origin, *self._pv[1]]
                if score >= beta:
                    break
        # Best first; moves not searched after a fail-high keep their old order behind the searched ones.
        searched = {origin for origin, _, _ in scored}
        ranked = sorted(scored, key=lambda item: -item[1])
        new_order = [origin for origin, _, _ in ranked] + [o for o in order if o not in searched]
        exact = tuple(
            (origin, score) for origin, score, is_exact in ranked if is_exact and score >= best_score - spread
        )
        return best_score, new_order, exact

    def _native_root(
        self, state: State, order: list[int], depth: int, alpha: int, beta: int, spread: int
    ) -> tuple[int, list[int], tuple[tuple[int, int], ...]]:
        """The same root search in C (``_native.c``); the clock and the stop flag are still called from there."""
        done = _native.root(
            state,
            order,
            depth,
            alpha,
            beta,
            spread,
            self.clock,
            self._deadline,
            self.given_stop,
            self._node_limit,
            CHECK_EVERY,
        )
        if done is None:
            self.nodes = _native.nodes()
            raise _StopSearchError
        score, new_order, exact, line, self.nodes = done
        self._pv[0] = line
        return score, new_order, tuple(exact)

    # --- recursion -------------------------------------------------------------------------------------

    def _check(self) -> None:
        self._next_check = self.nodes + CHECK_EVERY
        if self._node_limit is not None:
            if self.nodes >= self._node_limit:
                raise _StopSearchError
            self._next_check = min(self._next_check, self._node_limit)
        if self._deadline is not None and self.clock() >= self._deadline:
            raise _StopSearchError
        if self.stop():
            raise _StopSearchError

    def _negamax(self, s: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        self._pv[ply] = []
        certain = _certain(s, ply)
        if certain is not None:
            return certain
        if depth <= 0:
            if self.use_quiescence:
                return self._quiesce(s, alpha, beta, ply, QUIESCENCE_PLIES)
            return evaluate(s)
        alpha_start = alpha
        table_move = -1
        key = 0
        if self.use_table:
            key = hash(tuple(s))
            entry = self.table.get(key)
            if entry is not None:
                entry_depth, flag, stored, table_move = entry
                if entry_depth >= depth:
                    score = _from_table(stored, ply)
                    if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
                        if table_move >= 0:
                            self._pv[ply] = [table_move]
                        return score
        moves = self._ordered(s, ply, table_move)
        best_score = -INFINITY
        best_move = -1
        first = True
        for origin in moves:
            child = make(s, origin)
            if first:
                score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
                first = False
            else:
                score = -self._negamax(child, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if score > best_score:
                best_score = score
                best_move = origin
                if score > alpha:
                    alpha = score
                    self._pv[ply] = [origin, *self._pv[ply + 1]]
                    if score >= beta:
                        if _capture(s, origin) == 0:
                            killers = self._killers[ply]
                            if killers[0] != origin:
                                killers[1] = killers[0]
                                killers[0] = origin
                            self._history[origin] += depth * depth
                        break
        if self.use_table:
            if best_score >= beta:
                flag = LOWER
            elif best_score > alpha_start:
                flag = EXACT
            else:
                flag = UPPER
            if len(self.table) >= TABLE_LIMIT:
                self.table.clear()
            self.table[key] = (depth, flag, _to_table(best_score, ply), best_move)
        return best_score

    def _ordered(self, s: State, ply: int, table_move: int) -> list[int]:
        moves = _moves(s)
        if not self.use_ordering:
            return moves
        killers = self._killers[ply]
        history = self._history
        ranked = []
        for origin in moves:
            if origin == table_move:
                rank = 1 << 40
            else:
                gain = _capture(s, origin)
                if gain:
                    rank = (1 << 30) + (gain << 20)
                elif origin == killers[0]:
                    rank = 1 << 29
                elif origin == killers[1]:
                    rank = 1 << 28
                else:
                    rank = history[origin]
            ranked.append((rank, origin))
        ranked.sort(reverse=True)
        return [origin for _, origin in ranked]

    def _quiesce(self, s: State, alpha: int, beta: int, ply: int, left: int) -> int:
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._check()
        stand = evaluate(s)
        if stand >= beta or left <= 0:
            return stand
        if stand > alpha:
            alpha = stand
        captures = []
        for origin in _moves(s):
            gain = _capture(s, origin)
            if gain:
                captures.append((gain, origin))
        if not captures:
            return stand
        captures.sort(reverse=True)
        best = stand
        for _, origin in captures:
            child = make(s, origin)
            certain = _certain(child, ply + 1)
            score = -(certain if certain is not None else self._quiesce(child, -beta, -alpha, ply + 1, left - 1))
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best


def _moves(s: State) -> list[int]:
    me = s[22]
    start = me * HOLES
    return list(compress(ORIGINS[me], s[start : start + HOLES]))


def _capture(s: State, origin: int) -> int:
    """What the move takes at once (even count, or 3 for a new tuzdyk); see ``board.capture_of``."""
    n = s[origin]
    last = LAST[origin][n]
    me = s[22]
    if (last >= HOLES) == me or last == s[20] or last == s[21]:
        return 0
    count = s[last] + GAIN[origin][n]
    if not count & 1:
        return count
    if count == 3 and s[20 + me] < 0 and last != 8 and last != 17:
        other = s[21 - me]
        if other < 0 or other % HOLES != last % HOLES:
            return 3
    return 0


def _certain(s: State, ply: int) -> int | None:
    """The score of a finished or decided position for the side to move, else ``None`` (rules §5)."""
    me = s[22]
    k_me = s[18 + me]
    k_op = s[19 - me]
    if k_me >= 82:
        return WIN - ply
    if k_op >= 82:
        return ply - WIN
    start = me * HOLES
    if not any(s[start : start + HOLES]):  # atsyz: the board goes to the opponent
        final = k_me
        if final == 81:
            return 0
        return WIN - ply if final > 81 else ply - WIN
    board = 162 - k_me - k_op
    # Whatever happens, a player ends with at most their kazan plus the whole board.
    if k_op + board < 81:
        return WIN - ply
    if k_me + board < 81:
        return ply - WIN
    return None


def _to_table(score: int, ply: int) -> int:
    """Certain-result scores are stored relative to the node, so that they stay right at another ply."""
    if score > WIN_BOUND:
        return score + ply
    if score < -WIN_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > WIN_BOUND:
        return score - ply
    if score < -WIN_BOUND:
        return score + ply
    return score
