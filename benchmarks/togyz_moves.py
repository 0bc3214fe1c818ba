"""Rules-engine speed: random-playout moves/s and games/s, and perft(7) seconds (medians of several runs).

The playout loop drives the public API one move at a time (``legal_moves()`` then ``push()``), as a bot or
a search would. A deliberately plain engine (kumalak-by-kumalak sowing, defined below) is timed in the same
run on the same games, so the ratio column compares runs made on different machines or under other load.

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
    perft_seconds = []
    for _ in range(args.runs):
        start = time.perf_counter()
        nodes = perft(Position(), args.perft_depth)
        perft_seconds.append(time.perf_counter() - start)
        if nodes != PERFT_NODES[args.perft_depth]:
            raise SystemExit(f"perft({args.perft_depth}) = {nodes}, expected {PERFT_NODES[args.perft_depth]}")

    moves_per_s = statistics.median(rates)
    base_per_s = statistics.median(base_rates)
    print(f"runs: {args.runs}, games per run: {args.games} (medians below)")
    print(f"playout moves/s      {moves_per_s:12,.0f}")
    print(f"playout games/s      {statistics.median(game_rates):12,.0f}")
    print(f"baseline moves/s     {base_per_s:12,.0f}   (plain engine, same games)")
    print(f"ratio to baseline    {moves_per_s / base_per_s:12.2f}x")
    print(f"perft({args.perft_depth}) seconds     {statistics.median(perft_seconds):12.2f}   ({nodes:,} leaves)")


if __name__ == "__main__":
    main()
