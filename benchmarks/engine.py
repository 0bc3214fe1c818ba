"""Engine strength and speed: nodes/s, depth in 1 s and 3 s, and matches between levels and a greedy player.

Speed: from the opening and from ``--positions`` middlegame positions of the PlayOK corpus (ply 30 of evenly
spaced games), each searcher searches ``--times`` seconds: ``engine`` (the C search when it is built), ``python``
(the same search in pure Python) and ``plain`` (a pure-Python alpha-beta without transposition table, move
ordering, quiescence or aspiration windows: the baseline). The depth reached and the nodes/s are printed, and
the ratios to the baseline measured in the same run, so runs on a loaded or another machine compare.

Matches: ``A:B:GAMES`` plays GAMES games between two players (a level number 1-6 or ``greedy``, a one-ply player
that takes the biggest capture), colours alternating, each corpus opening (the position after ``--opening-plies``
plies of a corpus game) played once with each colour. A game stops when the board decides it (a kazan at 82, an
atsyz ending, or a player who can no longer reach 82). The score of A, and the Elo difference with its 95 %
margin (from the spread of the game results), are printed.

    python benchmarks/engine.py [--corpus PATH] [--positions 20] [--times 1 3] [--match 3:greedy:200 ...]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.togyz_corpus import DEFAULT_CORPUS, corpus_games

from toreshi.togyz.engine import LEVELS, choose_move
from toreshi.togyz.engine.board import State, capture_of, make, origins, position_of, terminal_score
from toreshi.togyz.engine.search import NATIVE, Limits, Searcher, _certain
from toreshi.togyz.position import Position

Player = Callable[[State, random.Random], int]


@dataclass
class SpeedRow:
    label: str
    depth: int
    nodes_per_second: float


SEARCHERS: dict[str, Callable[[], Searcher]] = {
    "engine": lambda: Searcher(time.perf_counter),
    "python": lambda: Searcher(time.perf_counter, native=False),
    "plain": lambda: Searcher(
        time.perf_counter, native=False, table=False, ordering=False, quiescence=False, aspiration=False
    ),
}


def speed(state: State, seconds: float, label: str) -> SpeedRow:
    result = SEARCHERS[label]().run(state, Limits(movetime=seconds))
    return SpeedRow(label, result.depth, result.nodes / max(result.seconds, 1e-9))


def greedy(state: State, rng: random.Random) -> int:
    """The one-ply player: the move that takes most at once, ties broken at random."""
    moves = origins(state)
    gains = [capture_of(state, origin) for origin in moves]
    best = max(gains)
    return rng.choice([origin for origin, gain in zip(moves, gains, strict=True) if gain == best])


def level_player(number: int) -> Player:
    level = LEVELS[number]
    ticks = [0.0]

    def play(state: State, rng: random.Random) -> int:
        position = position_of(state)
        # Time-limited levels use the wall clock; depth-limited ones a counter (their play does not depend on it).
        clock: Callable[[], float] = time.perf_counter if level.movetime is not None else lambda: ticks[0]
        hole = choose_move(position, level, rng, clock=clock).hole
        return hole - 1 + 9 * state[22]

    return play


def player(name: str) -> Player:
    return greedy if name == "greedy" else level_player(int(name))


def play_game(opening: State, white: Player, black: Player, rng: random.Random, max_plies: int = 600) -> float:
    """White's score (1, ½, 0); a game still open after ``max_plies`` counts as a draw."""
    state = opening
    for _ in range(max_plies):
        value = terminal_score(state)
        if value is None:
            certain = _certain(state, 0)
            value = None if certain is None else (certain > 0) - (certain < 0)
        if value is not None:
            mover_score = (value + 1) / 2
            return mover_score if state[22] == 0 else 1 - mover_score
        move = (white if state[22] == 0 else black)(state, rng)
        state = make(state, move)
    return 0.5


def elo(score: float) -> float:
    """The Elo difference that expects ``score``; ±inf for a clean sweep."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def signed(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{round(value):+d}"


def interval(results: list[float]) -> tuple[float, float]:
    """A 95 % interval of the expected score: normal from the results' own spread (draws included), or Wilson's
    bound when every game went one way (the spread is then 0 and says nothing)."""
    n = len(results)
    share = statistics.fmean(results)
    z = 1.96
    if 0 < share < 1 and statistics.pstdev(results) > 0:
        margin = z * statistics.pstdev(results) / math.sqrt(n)
        return max(share - margin, 0.0), min(share + margin, 1.0)
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(centre - half, 0.0), min(centre + half, 1.0)


def match(a: str, b: str, games: int, openings: list[State], seed: int) -> tuple[float, float, float, float]:
    """(A's score share, Elo, the 95 % interval's Elo low and high) over ``games`` games."""
    rng = random.Random(seed)
    first, second = player(a), player(b)
    results = []
    for game in range(games):
        opening = openings[(game // 2) % len(openings)]
        if game % 2 == 0:
            results.append(play_game(opening, first, second, rng))
        else:
            results.append(1 - play_game(opening, second, first, rng))
    share = statistics.fmean(results)
    low, high = interval(results)
    return share, elo(share), elo(low), elo(high)


def corpus_positions(corpus: Path, positions: int, opening_plies: int) -> tuple[list[State], list[State]]:
    """``positions`` middlegames (ply 30 of evenly spaced corpus games) and the openings of the matches: the
    position after ``opening_plies`` plies of 100 evenly spaced games (those the plies did not finish)."""
    games = [game for game in corpus_games(corpus) if len(game.states) > 40]
    step = max(1, len(games) // max(positions, 1))
    middlegames = [game.states[30] for game in games[::step][:positions]]
    openings = [game.states[opening_plies] for game in games[:: max(1, len(games) // 100)]]
    return middlegames, [state for state in openings if terminal_score(state) is None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--positions", type=int, default=20, help="middlegame positions from the corpus")
    parser.add_argument("--times", type=float, nargs="*", default=[1.0, 3.0], help="seconds per search")
    parser.add_argument("--match", nargs="*", default=["3:greedy:200", "4:3:200"], help="A:B:GAMES")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not args.corpus.is_file():
        parser.error(f"no corpus at {args.corpus} (../shared/data/togyz/playok-2024-2025.pgn, or pass --corpus)")
    middlegames, openings = corpus_positions(args.corpus, args.positions, args.opening_plies)
    start = [9] * 18 + [0, 0, -1, -1, 0]
    assert position_of(start) == Position()

    print(f"engine: {'the C search' if NATIVE else 'pure Python (the C search is not built)'}")
    for seconds in args.times:
        rows: dict[str, list[SpeedRow]] = {label: [] for label in SEARCHERS}
        opening_rows = {}
        for label in SEARCHERS:
            opening_rows[label] = speed(start, seconds, label)
            for state in middlegames:
                rows[label].append(speed(state, seconds, label))
        print(f"--- {seconds:g} s a search")
        print(f"{'':<10}{'opening depth':>14}{'middlegame depth (median, min-max)':>36}{'nodes/s (median)':>18}")
        depth: dict[str, float] = {}
        rate: dict[str, float] = {}
        for label in SEARCHERS:
            depths = [row.depth for row in rows[label]] or [opening_rows[label].depth]
            rates = [row.nodes_per_second for row in rows[label]] + [opening_rows[label].nodes_per_second]
            depth[label], rate[label] = statistics.median(depths), statistics.median(rates)
            print(
                f"{label:<10}{opening_rows[label].depth:>14}"
                f"{f'{depth[label]:g} ({min(depths)}-{max(depths)})':>36}"
                f"{rate[label]:>18,.0f}"
            )
        for label in ("engine", "python"):
            print(
                f"ratio {label}/plain: middlegame depth {depth[label] - depth['plain']:+g} plies, "
                f"nodes/s ×{rate[label] / max(rate['plain'], 1):.2f}"
            )

    for spec in args.match:
        a, b, count = spec.split(":")
        started = time.perf_counter()
        share, difference, low, high = match(a, b, int(count), openings, args.seed)
        print(
            f"match {a} vs {b}: {int(count)} games, score {share:.1%} for {a}, "
            f"Elo {signed(difference)} (95 % {signed(low)} to {signed(high)}), {time.perf_counter() - started:.0f} s"
        )


if __name__ == "__main__":
    main()
