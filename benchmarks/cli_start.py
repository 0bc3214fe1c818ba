"""How long the ``toreshi`` command takes to start: wall-clock medians of whole processes.

Issue 27: ``toreshi --help`` and ``toreshi togyz perft 1`` within 0.3 s, or within 4× the time Python takes to
import Typer and Rich alone on the same machine (the baseline, measured in the same run). Each command is run
``--repeat`` times as a fresh process, one after another (first a warm-up run of each, so the file cache is warm
for all), and the median, minimum and maximum wall times are printed with the ratio to the baseline.

    python benchmarks/cli_start.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

GOAL_SECONDS = 0.3
GOAL_RATIO = 4.0

BASELINE = ("import typer, rich", [sys.executable, "-c", "import typer, rich"])
COMMANDS = (
    ("toreshi --help", [sys.executable, "-m", "toreshi", "--help"]),
    ("toreshi togyz perft 1", [sys.executable, "-m", "toreshi", "togyz", "perft", "1"]),
)


def wall_times(command: list[str], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command (default 7)")
    arguments = parser.parse_args()

    everything = (BASELINE, *COMMANDS)
    for _, command in everything:
        wall_times(command, 1)  # warm-up: compiled bytecode and the file cache, for every command alike
    baseline = statistics.median(wall_times(BASELINE[1], arguments.repeat))
    print(f"{'command':<24} {'median s':>9} {'min s':>7} {'max s':>7} {'× baseline':>11}  goal")
    print(f"{BASELINE[0]:<24} {baseline:>9.3f} {'':>7} {'':>7} {1.0:>11.2f}")
    for name, command in COMMANDS:
        times = wall_times(command, arguments.repeat)
        median = statistics.median(times)
        ratio = median / baseline
        met = median <= GOAL_SECONDS or ratio <= GOAL_RATIO
        print(
            f"{name:<24} {median:>9.3f} {min(times):>7.3f} {max(times):>7.3f} {ratio:>11.2f}  "
            f"{'met' if met else 'MISSED'} (≤ {GOAL_SECONDS} s or ≤ {GOAL_RATIO:.0f}×)"
        )


if __name__ == "__main__":
    main()
