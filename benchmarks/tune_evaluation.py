"""Texel tuning of the engine's evaluation on the PlayOK games: prints the fitted weights and the figures.

Every position from ply ``--from-ply`` on of every game with a result is labelled with the game's score for the
side to move (1, ½, 0). The evaluation is linear in its features, so Texel tuning (minimising the error of
``sigmoid(K · eval)`` against the result) is a logistic regression, solved here by Newton's method (IRLS) in
pure Python. Games whose index ends in 0 are held out: the log-loss and the mean squared error on them are printed
for the material-only evaluation and for the fitted one. The weights are scaled so that a kazan kumalak at mid-game (81
kumalaks in the kazans) is 100 (centi-kumalaks); ``K`` (the logit per centi-kumalak) is the win-probability
scale the review uses.

    python benchmarks/tune_evaluation.py [--corpus PATH] [--from-ply 6] [--every 1]
    python benchmarks/tune_evaluation.py --calibrate-depth 8 [--sample 4000]

Paste the printed ``WEIGHTS`` and ``LOGIT_PER_CENTI`` into ``src/toreshi/togyz/engine/weights.py``. With
``--calibrate-depth`` the script instead fits the logit scale of *search* scores (what the review shows) on a
sample of positions, each searched to that depth: ``SEARCH_LOGIT_PER_CENTI``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.togyz_corpus import DEFAULT_CORPUS, corpus_games

from toreshi.togyz.engine.board import terminal_score
from toreshi.togyz.engine.evaluation import DIVISORS, FEATURES, features

Sample = tuple[list[float], float]


def collect(path: Path, from_ply: int, every: int) -> tuple[list[Sample], list[Sample]]:
    train: list[Sample] = []
    held_out: list[Sample] = []
    for game in corpus_games(path):
        if game.white_score is None:
            continue
        target = held_out if game.index % 10 == 0 else train
        for ply in range(from_ply, len(game.states), every):
            state = game.states[ply]
            if terminal_score(state) is not None:
                continue
            row = [value / divisor for value, divisor in zip(features(state), DIVISORS, strict=True)]
            label = game.white_score if state[22] == 0 else 1.0 - game.white_score
            target.append((row, label))
    return train, held_out


def sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    if x > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-x))


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems here are 9×9)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[r][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit(samples: list[Sample], columns: list[int], iterations: int = 12, ridge: float = 1e-6) -> list[float]:
    """Logistic regression (cross-entropy with fractional labels) on the chosen feature columns."""
    k = len(columns)
    weights = [0.0] * k
    for _ in range(iterations):
        hessian = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        gradient = [-ridge * w for w in weights]
        for row, label in samples:
            x = [row[c] for c in columns]
            p = sigmoid(sum(w * v for w, v in zip(weights, x, strict=True)))
            error = label - p
            curvature = max(p * (1.0 - p), 1e-9)
            for i in range(k):
                xi = x[i]
                if xi:
                    gradient[i] += error * xi
                    scaled = curvature * xi
                    line = hessian[i]
                    for j in range(i, k):
                        line[j] += scaled * x[j]
        for i in range(k):
            for j in range(i):
                hessian[i][j] = hessian[j][i]
        step = solve(hessian, gradient)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return weights


def losses(samples: list[Sample], columns: list[int], weights: list[float]) -> tuple[float, float, float]:
    """(log-loss, mean squared error, share of decided games whose winner the sign predicts)."""
    log_loss = squared = 0.0
    right = decided = 0
    for row, label in samples:
        z = sum(w * row[c] for w, c in zip(weights, columns, strict=True))
        p = min(max(sigmoid(z), 1e-12), 1 - 1e-12)
        log_loss -= label * math.log(p) + (1 - label) * math.log(1 - p)
        squared += (label - p) ** 2
        if label != 0.5:
            decided += 1
            right += (z > 0) == (label > 0.5)
    n = len(samples)
    return log_loss / n, squared / n, right / max(decided, 1)


def calibrate(path: Path, depth: int, sample: int, from_ply: int) -> None:
    """Fit the logit per centi-kumalak of depth-``depth`` search scores against the game results."""
    import itertools
    import random

    from toreshi.togyz.engine.search import WIN_BOUND, Limits, Searcher

    positions: list[tuple[list[int], float, bool]] = []  # (state, label for the side to move, held out)
    for game in corpus_games(path):
        if game.white_score is None:
            continue
        for ply in range(from_ply, len(game.states)):
            state = game.states[ply]
            if terminal_score(state) is None:
                label = game.white_score if state[22] == 0 else 1.0 - game.white_score
                positions.append((state, label, game.index % 10 == 0))
    chosen = random.Random(1).sample(positions, min(sample, len(positions)))
    ticks = itertools.count()
    train: list[Sample] = []
    held_out: list[Sample] = []
    started = time.perf_counter()
    for state, label, hold in chosen:
        score = Searcher(lambda: next(ticks) / 1000).run(state, Limits(depth=depth)).score
        if abs(score) > WIN_BOUND:
            continue  # certain results are scored 1/0 by the review, not by the curve
        (held_out if hold else train).append(([score / 100], label))
    weights = fit(train, [0])
    log_loss, mse, right = losses(held_out, [0], weights)
    seconds = time.perf_counter() - started
    print(f"{len(train)} training and {len(held_out)} held-out searched positions ({seconds:.0f} s)")
    print(f"held out: log-loss {log_loss:.4f}, MSE {mse:.4f}, winner {right:.1%}")
    print(f"SEARCH_LOGIT_PER_CENTI = {weights[0] / 100:.6f}  # depth {depth}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--from-ply", type=int, default=6)
    parser.add_argument("--every", type=int, default=1, help="take every n-th ply")
    parser.add_argument("--drop", nargs="*", default=[], choices=FEATURES, help="features fixed at 0")
    parser.add_argument("--calibrate-depth", type=int, help="fit the scale of search scores at this depth instead")
    parser.add_argument("--sample", type=int, default=4000, help="positions searched by --calibrate-depth")
    args = parser.parse_args()
    if args.calibrate_depth:
        calibrate(args.corpus, args.calibrate_depth, args.sample, args.from_ply)
        return
    started = time.perf_counter()
    train, held_out = collect(args.corpus, args.from_ply, args.every)
    print(f"{len(train)} training positions, {len(held_out)} held out ({time.perf_counter() - started:.1f} s)")
    material = [FEATURES.index("material")]
    everything = [i for i, name in enumerate(FEATURES) if name not in args.drop]
    baseline = fit(train, material)
    fitted = dict(zip(everything, fit(train, everything), strict=True))
    full = [fitted.get(i, 0.0) for i in range(len(FEATURES))]
    print(f"{'evaluation':<16}{'log-loss':>10}{'MSE':>9}{'winner':>8}   (held-out games)")
    chosen = [full[i] for i in everything]
    for name, columns, weights in (("material only", material, baseline), ("fitted", everything, chosen)):
        log_loss, mse, right = losses(held_out, columns, weights)
        print(f"{name:<16}{log_loss:>10.4f}{mse:>9.4f}{right:>8.1%}")
    # A kazan kumalak's worth grows as the game goes on; the unit is its worth at mid-game (81 in the kazans).
    unit = full[0]
    print(f"material-only logit per kumalak {baseline[0]:.5f}; fitted, at mid-game {unit:.5f}")
    print("WEIGHTS = {")
    for name, weight in zip(FEATURES, full, strict=True):
        print(f'    "{name}": {round(100 * weight / unit)},')
    print("}")
    print(f"LOGIT_PER_CENTI = {unit / 100:.6f}")
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
