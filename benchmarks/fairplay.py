"""The fair-play report's cost: engine seconds per game, beside the plain post-game review of the same games.

The report reviews every game it counts (:func:`toreshi.togyz.engine.fairplay.game_figures`), so its cost per game
should be the review's: this prints both, measured in the same run on the same games (PlayOK corpus games of at
least ``--min-plies`` plies, evenly spaced), at the app's limits (``Settings.review_depth`` 8, a second at most per
position), and the report's time through the app's worker pool (one spawned process, as on a small machine),
whose start and the games' transfer are included. Wall seconds and this process's CPU seconds are both printed:
on a shared machine the CPU seconds are the engine's own cost, the wall seconds what an arbiter waits.

    python benchmarks/fairplay.py [--games 6] [--depth 8] [--min-plies 60] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.togyz_corpus import DEFAULT_CORPUS, corpus_games

from toreshi.services.fairplay import _figures_job
from toreshi.togyz.engine import Limits, review
from toreshi.togyz.engine.fairplay import game_figures
from toreshi.togyz.engine.search import NATIVE


def _games(path: Path, count: int, min_plies: int) -> list[list[int]]:
    games = [game.holes for game in corpus_games(path) if len(game.holes) >= min_plies]
    step = max(1, len(games) // count)
    return games[::step][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--min-plies", type=int, default=60)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args()
    limits = Limits(depth=args.depth, movetime=1.0)
    games = _games(args.corpus, args.games, args.min_plies)
    plies = [len(game) for game in games]
    print(f"{len(games)} games, {statistics.fmean(plies):.0f} plies on average; depth {args.depth}, "
          f"1 s per position at most; C search: {NATIVE}")  # fmt: skip
    review_times, figure_times, review_cpu, figure_cpu = [], [], [], []
    for holes in games:
        started, cpu = time.monotonic(), time.process_time()
        review(holes, limits, clock=time.monotonic)
        review_times.append(time.monotonic() - started)
        review_cpu.append(time.process_time() - cpu)
        started, cpu = time.monotonic(), time.process_time()
        game_figures(holes, limits, clock=time.monotonic)
        figure_times.append(time.monotonic() - started)
        figure_cpu.append(time.process_time() - cpu)
    started = time.monotonic()
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        list(pool.map(_figures_job, [tuple(holes) for holes in games], [limits] * len(games)))
    pooled = time.monotonic() - started
    baseline = statistics.fmean(review_times)
    print(f"baseline, the replay's review:        {baseline:6.2f} s/game (max {max(review_times):.2f}); "
          f"CPU {statistics.fmean(review_cpu):.2f} s/game")  # fmt: skip
    figures = statistics.fmean(figure_times)
    print(f"fair-play figures, in this process:   {figures:6.2f} s/game (x{figures / baseline:.2f} the baseline); "
          f"CPU {statistics.fmean(figure_cpu):.2f} s/game")  # fmt: skip
    print(f"fair-play report, 1 worker process:   {pooled / len(games):6.2f} s/game "
          f"(x{pooled / len(games) / baseline:.2f}, the worker's start included)")  # fmt: skip
    print(f"a round of 10 boards: about {10 * pooled / len(games) / 60:.1f} min with 1 worker")


if __name__ == "__main__":
    main()
