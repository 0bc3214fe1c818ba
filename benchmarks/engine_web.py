"""The engine behind the web pages: how long a post-game review takes, how long a practice partner thinks, and
what either does to the server's event loop.

For ``--games`` games of the PlayOK corpus the review runs through ``EngineService`` (a worker process, the app's
defaults: depth 8, at most 1 s a position, a 60 s budget) while a ticker on the loop measures how late it wakes
(every 10 ms). The baseline, in the same run, is the same review called on the loop itself, as a handler that
did not use the pool would. Then every practice level chooses a move in ``--positions`` middlegame positions
through the same service, with the same ticker: the reply time (median, max) and each level's budget.

    .venv/bin/python benchmarks/engine_web.py                    # 5 games, 10 positions
    .venv/bin/python benchmarks/engine_web.py --games 2 --depth 4  # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.togyz_corpus import DEFAULT_CORPUS, corpus_games

from toreshi.services.engine import EngineService
from toreshi.togyz.engine import LEVELS, Limits, review
from toreshi.togyz.engine.levels import MOVE_SECONDS

T = TypeVar("T")
TICK_S = 0.01


async def with_ticker(work: Callable[[], Awaitable[T]]) -> tuple[T, float, float]:
    """``work``'s result, its wall time, and the loop's worst lateness (ms) while it ran."""
    worst = 0.0
    running = True

    async def tick() -> None:
        nonlocal worst
        while running:
            before = time.monotonic()
            await asyncio.sleep(TICK_S)
            worst = max(worst, (time.monotonic() - before - TICK_S) * 1000)

    ticker = asyncio.get_running_loop().create_task(tick())
    await asyncio.sleep(0)
    started = time.monotonic()
    result = await work()
    elapsed = time.monotonic() - started
    running = False
    await ticker
    return result, elapsed, worst


async def main(args: argparse.Namespace) -> None:
    games = [game for game in corpus_games(args.corpus) if len(game.holes) >= 60]
    step = max(1, len(games) // max(args.games, 1))
    chosen = games[::step][: args.games]
    limits = Limits(depth=args.depth, movetime=1.0)
    engine = EngineService(review_limits=limits, review_budget=args.budget)
    try:
        # Warm both workers (a pool starts its process with the first job; the app pays that once).
        await engine.move([7], 1, "warm")
        await engine.review_of("warm", [7]).future
        print(f"review: depth {args.depth}, at most 1 s a position, budget {args.budget:.0f} s; {len(chosen)} games")
        print(f"{'game':>6} {'plies':>5} {'pool s':>7} {'ms/pos':>7} {'loop lag':>9} | {'inline s':>8} {'loop lag':>9}")
        pooled_lags, inline_lags, per_position = [], [], []
        for game in chosen:

            async def pooled(holes: list[int] = game.holes, key: str = str(game.index)) -> object:
                job = engine.review_of(key, holes)
                return await job.future

            _, seconds, lag = await with_ticker(pooled)

            async def inline(holes: list[int] = game.holes) -> object:
                return review(holes, limits, clock=time.monotonic)

            _, inline_seconds, inline_lag = await with_ticker(inline)
            positions = len(game.holes) + 1
            per_position.append(seconds * 1000 / positions)
            pooled_lags.append(lag)
            inline_lags.append(inline_lag)
            print(f"{game.index:>6} {len(game.holes):>5} {seconds:>7.2f} {seconds * 1000 / positions:>7.1f} "
                  f"{lag:>7.1f}ms | {inline_seconds:>8.2f} {inline_lag:>7.0f}ms")  # fmt: skip
        print(f"review in the pool: median {statistics.median(per_position):.1f} ms a position; worst loop lag "
              f"{max(pooled_lags):.1f} ms (inline on the loop: {max(inline_lags):.0f} ms)")  # fmt: skip

        middlegames = [game.holes[:30] for game in games[:: max(1, len(games) // args.positions)][: args.positions]]
        print(f"practice moves: {len(middlegames)} middlegame positions (ply 30) per level; each should answer "
              f"within about {MOVE_SECONDS:g} s (issue 28)")  # fmt: skip
        print(f"{'level':>5} {'budget':>22} {'median s':>9} {'max s':>7} {'loop lag':>9}")
        for number in sorted(LEVELS):
            times, lags = [], []
            for index, holes in enumerate(middlegames):

                async def move(holes: list[int] = holes, level: int = number, seed: str = f"{number}:{index}") -> int:
                    return (await engine.move(holes, level, seed)).hole

                _, seconds, lag = await with_ticker(move)
                times.append(seconds)
                lags.append(lag)
            level = LEVELS[number]
            bound = f"depth {level.depth}" if level.depth is not None else f"{level.movetime:g} s"
            budget = f"{bound}, {level.nodes:,} nodes"
            over = "  over budget" if max(times) > MOVE_SECONDS * 1.2 else ""
            print(f"{number:>5} {budget:>22} {statistics.median(times):>9.3f} {max(times):>7.3f} "
                  f"{max(lags):>7.1f}ms{over}")  # fmt: skip
    finally:
        engine.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--budget", type=float, default=60.0)
    arguments = parser.parse_args()
    if not arguments.corpus.is_file():
        parser.error(f"no corpus at {arguments.corpus} (pass --corpus)")
    asyncio.run(main(arguments))
