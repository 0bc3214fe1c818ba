"""Rules-engine speed: random-playout moves/s and games/s, and perft(7) seconds (medians of several runs).

The playout loop drives the public API one move at a time (``legal_moves()`` then ``push()``), as a bot or
a search would. A deliberately plain engine (kumalak-by-kumalak sowing, defined below) is timed in the same
run on the same games, so the ratio column compares runs made on different machines or under other load.
perft is timed the same way: the library's ``perft`` (push/pop on one position) beside the plain engine's
(a copy of the board at every node), both counting the same leaves, interleaved run by run; the speed-up is
the ratio of the medians. The README quotes the ratios, which hold under load where the bare figures do not.

    python benchmarks/togyz_moves.py [--runs 5] [--games 2000] [--perft-depth 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from toreshi.togyz import Position, perft

PERFT_NODES = {5: 43_184, 6: 360_035, 7: 3_003_052, 8: 25_166_174}


class PlainEngine:
    """A textbook engine for the baseline: one kumalak at a time, lists of holes, no tricks."""

    def __init__(self) -> None:
        self.holes = [[9] * 9, [9] * 9]
        self.kazan = [0, 0]
        self.tuzdyk = [-1, -1]  # hole index on the opponent's row
        self.turn = 0

    def legal_moves(self) -> list[int]:
        if max(self.kazan) >= 82:
            return []
        return [i + 1 for i, count in enumerate(self.holes[self.turn]) if count]

    def push(self, hole: int) -> None:
        me, side, index = self.turn, self.turn, hole - 1
        n = self.holes[me][index]
        self.holes[me][index] = 0
        if n == 1:
            index += 1
            if index == 9:
                side, index = 1 - side, 0
        while n:
            if self.tuzdyk[1 - side] == index:
                self.kazan[1 - side] += 1
            else:
                self.holes[side][index] += 1
            n -= 1
            if n:
                index += 1
                if index == 9:
                    side, index = 1 - side, 0
        count = self.holes[side][index]
        if side != me and self.tuzdyk[1 - side] != index:
            if count % 2 == 0 and count:
                self.kazan[me] += count
                self.holes[side][index] = 0
            elif count == 3 and self.tuzdyk[me] < 0 and index != 8 and self.tuzdyk[1 - me] != index:
                self.kazan[me] += 3
                self.holes[side][index] = 0
                self.tuzdyk[me] = index
        self.turn = 1 - me

    def copy(self) -> PlainEngine:
        other = PlainEngine.__new__(PlainEngine)
        other.holes = [self.holes[0][:], self.holes[1][:]]
        other.kazan = self.kazan[:]
        other.tuzdyk = self.tuzdyk[:]
        other.turn = self.turn
        return other


def plain_perft(game: PlainEngine, depth: int) -> int:
    """The baseline's perft: the same leaves as :func:`toreshi.togyz.perft`, by copying the board at every node."""
    moves = game.legal_moves()
    if depth == 0 or not moves:
        return 1
    if depth == 1:
        return len(moves)
    nodes = 0
    for hole in moves:
        child = game.copy()
        child.push(hole)
        nodes += plain_perft(child, depth - 1)
    return nodes


def playouts(new_game: Callable[[], Position | PlainEngine], games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` random games; returns (moves, seconds)."""
    rng = random.Random(seed)
    choose = rng.random
    moves = 0
    start = time.perf_counter()
    for _ in range(games):
        game = new_game()
        legal_moves, push = game.legal_moves, game.push
        while True:
            holes = legal_moves()
            if not holes:
                break
            push(holes[int(choose() * len(holes))])
            moves += 1
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--perft-depth", type=int, default=7, choices=sorted(PERFT_NODES))
    args = parser.parse_args()

    rates, game_rates, base_rates = [], [], []
    for run in range(args.runs):
        moves, seconds = playouts(Position, args.games, seed=run)
        base_moves, base_seconds = playouts(PlainEngine, args.games, seed=run)
        if base_moves != moves:  # the same seeds must give the same games in both engines
            raise SystemExit(f"engines disagree: {moves} moves against the baseline's {base_moves}")
        rates.append(moves / seconds)
        game_rates.append(args.games / seconds)
        base_rates.append(base_moves / base_seconds)
    perft_seconds, base_perft_seconds = [], []
    for _ in range(args.runs):
        start = time.perf_counter()
        nodes = perft(Position(), args.perft_depth)
        perft_seconds.append(time.perf_counter() - start)
        start = time.perf_counter()
        base_nodes = plain_perft(PlainEngine(), args.perft_depth)
        base_perft_seconds.append(time.perf_counter() - start)
        for counted in (nodes, base_nodes):
            if counted != PERFT_NODES[args.perft_depth]:
                raise SystemExit(f"perft({args.perft_depth}) = {counted}, expected {PERFT_NODES[args.perft_depth]}")

    moves_per_s = statistics.median(rates)
    base_per_s = statistics.median(base_rates)
    print(f"runs: {args.runs}, games per run: {args.games} (medians below)")
    print(f"playout moves/s      {moves_per_s:12,.0f}")
    print(f"playout games/s      {statistics.median(game_rates):12,.0f}")
    print(f"baseline moves/s     {base_per_s:12,.0f}   (plain engine, same games)")
    print(f"ratio to baseline    {moves_per_s / base_per_s:12.2f}x")
    perft_median, base_perft_median = statistics.median(perft_seconds), statistics.median(base_perft_seconds)
    print(f"perft({args.perft_depth}) seconds     {perft_median:12.2f}   ({nodes:,} leaves)")
    print(f"baseline perft s     {base_perft_median:12.2f}   (plain engine, a copy per node)")
    print(f"perft speed-up       {base_perft_median / perft_median:12.2f}x")


if __name__ == "__main__":
    main()
