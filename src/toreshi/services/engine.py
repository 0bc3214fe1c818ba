"""The engine off the event loop: post-game reviews and practice moves in worker processes.

The engine's C core holds the GIL throughout a search (``togyz/engine/_native.c``), so a thread would stall the
server's loop: every search runs in a process pool. Reviews have one worker of their own (a long job must not
delay a practice partner's reply), the moves of the timed practice levels (5, 6) and the broadcast evaluations
another, the moves of the quick levels (1-4, a few milliseconds each) a third: a level-3 reply never waits behind
other games' level-6 searches (issue 28: it took seconds when some were queued). A review is derived data: it is
kept in memory, keyed by the game and its number of plies, never written to the game's log (docs/decisions.md,
"Engine in the browser").

Progress of the running review travels through a shared array that the review worker writes after each position
(``multiprocessing`` shared memory handed to the worker when it starts).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from toreshi.togyz.engine import LEVELS, Analysis, Choice, Limits, Review, analyse, choose_move, review
from toreshi.togyz.position import Position, Side

__all__ = ["EngineService", "ReviewJob", "review_payload"]

CACHED_EVALUATIONS = 1024
"""Positions of broadcast games whose evaluation is kept in memory."""
EVALUATION_LIMITS = Limits(depth=12, movetime=0.3)
"""One broadcast position: a third of a second at most (the bar is a glance, not a review)."""
CACHED_REVIEWS = 64
"""Reviews kept in memory (the oldest is forgotten first); a forgotten one is computed again when asked for."""

_progress: Any = None
"""In a review worker: the shared ``[done, total]`` of the review it is running."""


def _init_review_worker(progress: Any) -> None:
    global _progress
    _progress = progress


def _report(done: int, total: int) -> None:
    if _progress is not None:
        _progress[0] = done
        _progress[1] = total


class _Deadline:
    """A picklable ``stop`` for the engine: True once the monotonic clock (system-wide on Linux) passes ``at``."""

    def __init__(self, at: float) -> None:
        self.at = at

    def __call__(self) -> bool:
        return time.monotonic() >= self.at


def _review_job(moves: Sequence[int], limits: Limits, budget: float) -> Review:
    _report(0, len(moves) + 1)
    stop = _Deadline(time.monotonic() + budget)
    return review(moves, limits, clock=time.monotonic, stop=stop, progress=_report)


def _evaluation_job(moves: Sequence[int], limits: Limits) -> Analysis:
    position = Position()
    for hole in moves:
        position.play(hole)
    return analyse(position, limits, clock=time.monotonic)


def _move_job(moves: Sequence[int], level: int, seed: str) -> Choice:
    position = Position()
    for hole in moves:
        position.play(hole)
    return choose_move(position, LEVELS[level], random.Random(seed), clock=time.monotonic)


@dataclass
class ReviewJob:
    """A review asked for: running (``future`` not done) or done (its result or the error it raised)."""

    future: asyncio.Future[Review]
    total: int


def review_payload(result: Review) -> dict[str, Any]:
    """What the replay page draws: White's curve (score and expectation after every ply) and the worst moves."""
    depths = [analysis.depth for analysis in result.analyses if analysis is not None]
    return {
        "scores": list(result.white_scores),
        "expectation": [round(value, 4) for value in result.white_expectation],
        "depth": max(depths) if depths else 0,
        "worst": [
            {
                "ply": move.ply,
                "move": (move.ply + 1) // 2,
                "side": "white" if move.side is Side.WHITE else "black",
                "token": move.token,
                "best": move.best_line[0] if move.best_line else None,
                "line": list(move.best_line),
                "loss": move.loss,
                "expectation_loss": round(move.expectation_loss, 4),
            }
            for move in result.worst
        ],
    }


class EngineService:
    """The app's engine: reviews (cached) and practice moves, each in its own worker process."""

    def __init__(
        self,
        *,
        review_limits: Limits,
        review_budget: float,
        workers: int = 1,
        evaluation_limits: Limits = EVALUATION_LIMITS,
    ) -> None:
        context = multiprocessing.get_context("spawn")  # no fork of a process with a running event loop
        self.review_limits = review_limits
        self.review_budget = review_budget
        self._progress = context.Array("i", 2, lock=False)
        self._reviews = ProcessPoolExecutor(
            1, mp_context=context, initializer=_init_review_worker, initargs=(self._progress,)
        )
        self._moves = ProcessPoolExecutor(workers, mp_context=context)
        self._quick_moves = ProcessPoolExecutor(1, mp_context=context)  # a worker starts on first use only
        self._cache: OrderedDict[tuple[str, int], ReviewJob] = OrderedDict()
        self._running: tuple[str, int] | None = None
        self._queue: asyncio.Lock | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.evaluation_limits = evaluation_limits
        self._evaluations: OrderedDict[tuple[int, ...], asyncio.Future[Analysis]] = OrderedDict()

    def review_of(self, game_id: str, moves: Sequence[int]) -> ReviewJob:
        """The review of ``game_id`` with these moves: the cached one, or one started now (not awaited)."""
        key = (game_id, len(moves))
        job = self._cache.get(key)
        if job is not None and not (job.future.done() and job.future.exception() is not None):
            self._cache.move_to_end(key)
            return job
        loop = asyncio.get_running_loop()
        job = ReviewJob(loop.create_future(), len(moves) + 1)
        self._cache[key] = job
        while len(self._cache) > CACHED_REVIEWS:
            self._cache.popitem(last=False)
        task = loop.create_task(self._run_review(key, tuple(moves), job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    def progress(self, game_id: str, moves: int) -> tuple[int, int]:
        """``(done, total)`` positions of a review: the worker's count while it runs, 0 while it waits."""
        job = self._cache.get((game_id, moves))
        if job is None:
            return 0, moves + 1
        if job.future.done():
            return job.total, job.total
        if self._running == (game_id, moves):
            return min(self._progress[0], job.total), job.total
        return 0, job.total

    async def _run_review(self, key: tuple[str, int], moves: tuple[int, ...], job: ReviewJob) -> None:
        if self._queue is None:
            self._queue = asyncio.Lock()
        async with self._queue:  # one review at a time: the progress array belongs to the running one
            self._running = key
            self._progress[0] = 0
            try:
                loop = asyncio.get_running_loop()
                result = await loop.run_in_executor(
                    self._reviews, _review_job, moves, self.review_limits, self.review_budget
                )
            except Exception as error:  # kept on the job: the page says the review failed, a new ask retries
                job.future.set_exception(error)
                job.future.exception()  # retrieved: no "never retrieved" warning
            else:
                job.future.set_result(result)
            finally:
                self._running = None

    def evaluation_of(self, moves: Sequence[int]) -> Analysis | None:
        """The engine's verdict on the position after ``moves`` (not finished) if known; else starts it, None."""
        key = tuple(moves)
        future = self._evaluations.get(key)
        if future is not None and future.done():
            if future.exception() is None:
                self._evaluations.move_to_end(key)
                return future.result()
            future = None
        if future is None:
            loop = asyncio.get_running_loop()
            future = asyncio.ensure_future(
                loop.run_in_executor(self._moves, _evaluation_job, key, self.evaluation_limits)
            )
            future.add_done_callback(lambda done: done.cancelled() or done.exception())
            self._evaluations[key] = future
            while len(self._evaluations) > CACHED_EVALUATIONS:
                self._evaluations.popitem(last=False)
        return None

    async def move(self, moves: Sequence[int], level: int, seed: str) -> Choice:
        """The practice level's move after ``moves`` from the initial position, with its random draw seeded."""
        loop = asyncio.get_running_loop()
        pool = self._quick_moves if LEVELS[level].movetime is None else self._moves
        return await loop.run_in_executor(pool, _move_job, tuple(moves), level, seed)

    def close(self) -> None:
        for pool in (self._reviews, self._moves, self._quick_moves):
            pool.shutdown(wait=False, cancel_futures=True)
