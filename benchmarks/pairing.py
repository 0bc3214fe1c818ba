r"""Dutch pairing speed: CPU seconds to pair one round of a simulated Swiss tournament, medians.

For each size a tournament is simulated with :mod:`toreshi.tournament.dutch.simulate` (ratings 1400-2700, 30 %
draws, 3 % forfeits, a few requested byes and withdrawals), every round paired by the engine; then chosen rounds
are paired again ``--repeat`` times from the file as it stood before them, and the median CPU time is printed
(process time, so other load on the machine matters less than for wall time). To compare runs on different
machines, each figure is also given as a ratio to a fixed pure-Python baseline measured in the same run (sorting
200,000 integers), and the number of brackets that needed the full matching over everyone is shown.

Goals: at most 0.5 s for a 100-player round, at most 60 s for 1,000 players (issue 4), at most 60 s for
2,000 players and 5 minutes for 5,000 (issue 32). For reference, bbpPairings (C++) takes 0.02 s for 100 players,
1.6-3.4 s for 500, 19-50 s for 1,000 and 3-5.5 minutes for 2,000 on a 2-core machine (docs/decisions.md, issue 32).
With ``--bbp PATH`` it pairs the same files in the same run: its CPU time (of the child process) is printed beside
ours, with whether the two pairings agree, or how many of our boards it does not have (``--bbp-rounds`` limits it
to some of the rounds: at 2,000 players it needs minutes a round). ``--keep DIR`` leaves there, for each round
bbpPairings paired, the file it was given (``2000p-r5-in.trf``), its output (``…-bbp.txt``) and ours in the same
format (``…-ours.txt``), to find what differs.

bbpPairings is not part of this repository and nothing here builds it. To get it, outside this repository (a C++20
compiler and make; on Debian ``apt-get install g++ make``)::

    git clone https://github.com/BieremaBoyzProgramming/bbpPairings /work/opponents/bbpPairings
    cd /work/opponents/bbpPairings && make      # optimised, Dutch included: ./bbpPairings.exe (about 20 s)

(measured with commit 16a000f, tag v6.0.0, g++ 12.2). Then, from this repository (the simulated files are cached
outside it, a few minutes to simulate 5,000 players)::

    PYTHONPATH=src python benchmarks/pairing.py --players 100 500 --pair-rounds 1 2 3 4 5 6 7 8 9 --repeat 1 \
        --cache /work/opponents/cache --bbp /work/opponents/bbpPairings/bbpPairings.exe
    PYTHONPATH=src python benchmarks/pairing.py --players 2000 --pair-rounds 1 2 5 9 --repeat 1 \
        --cache /work/opponents/cache --bbp /work/opponents/bbpPairings/bbpPairings.exe --keep /work/opponents/keep
    PYTHONPATH=src python benchmarks/pairing.py --players 5000 --pair-rounds 1 2 5 9 --repeat 1 \
        --cache /work/opponents/cache

Simulating a large tournament pairs all its rounds, which takes a while at 5,000 players: ``--cache DIR`` keeps
the simulated files there and reads them back on the next run.

    python benchmarks/pairing.py [--players 100 500 1000] [--rounds 9] [--pair-rounds 1 2 5 9] [--repeat 5]
                                 [--seed 1] [--cache DIR] [--bbp PATH] [--bbp-repeat 1] [--bbp-rounds 1 9]
                                 [--keep DIR]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TypeVar

from toreshi.tournament.dutch import RoundPairing, engine, pair_trf
from toreshi.tournament.dutch.simulate import play_round, start
from toreshi.tournament.model import Colour, ResultCode
from toreshi.tournament.trf import RawLine, TrfFile, format_trf, parse_trf

T = TypeVar("T")

GOALS = {100: 0.5, 1000: 60.0, 2000: 60.0, 5000: 300.0}


def cpu_median(action: Callable[[], T], repeat: int) -> tuple[float, float, float, T]:
    """Median, least and most CPU seconds of ``repeat`` (at least one) runs, and the last run's result."""
    times = []
    for _ in range(repeat - 1):
        start_time = time.process_time()
        action()
        times.append(time.process_time() - start_time)
    start_time = time.process_time()
    result = action()
    times.append(time.process_time() - start_time)
    return statistics.median(times), min(times), max(times), result


def simulated(players: int, rounds: int, seed: int, cache: Path | None) -> TrfFile:
    """A simulated tournament, every round paired and played; read from ``cache`` when it is there."""
    path = None if cache is None else cache / f"dutch-{players}p-{rounds}r-seed{seed}.trf"
    if path is not None and path.exists():
        return parse_trf(path.read_text())
    rng = random.Random(seed)
    trf = start(players, rounds, rng)
    for number in range(1, rounds + 1):
        trf, _ = play_round(trf, number, rng)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(format_trf(trf))
    return trf


def baseline(repeat: int) -> float:
    data = random.Random(0).sample(range(10**9), 200_000)
    return cpu_median(lambda: sorted(data), repeat)[0]


def before_round(trf: TrfFile, number: int) -> TrfFile:
    """The file as the pairing of round ``number`` saw it: earlier rounds plus that round's requested byes."""
    players = []
    for p in trf.players:
        block = p.round(number)
        keep = block is not None and block.code in (ResultCode.HALF_BYE, ResultCode.ZERO_BYE)
        rounds = (*p.rounds[: number - 1], block) if keep else p.rounds[: number - 1]
        # The points column as it stood (bbpPairings checks it against the results).
        players.append(replace(p, rounds=rounds, points=p.computed_points(number - 1)))
    return trf.with_players(players)


def bbp_round(
    executable: str, trf: TrfFile, number: int, keep: Path | None = None
) -> tuple[float, set[tuple[int, int]], int | None]:
    """bbpPairings' pairing of round ``number`` of ``trf``: child CPU seconds, boards, bye.

    With ``keep``, the file given to bbpPairings and its output stay there (``…-in.trf``, ``…-bbp.txt``).
    """
    with tempfile.TemporaryDirectory() as folder:
        stem = f"{len(trf.players)}p-r{number}"
        where = Path(folder) if keep is None else keep
        source, output = where / f"{stem}-in.trf", where / f"{stem}-bbp.txt"
        source.write_text(format_trf(TrfFile((RawLine("XXC white1"), *trf.lines))), newline="")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([executable, "--dutch", str(source), "-p", str(output)], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        lines = output.read_text().split()
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    pairs = [(int(a), int(b)) for a, b in zip(lines[1::2], lines[2::2], strict=True)]
    return cpu, {p for p in pairs if p[1] != 0}, next((a for a, b in pairs if b == 0), None)


def differing(ours: RoundPairing, boards: set[tuple[int, int]], bye: int | None) -> int:
    """How many of our boards bbpPairings does not have (a different bye counts as one more)."""
    return len({(p.white, p.black) for p in ours.pairs} - boards) + (ours.bye != bye)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--pair-rounds", type=int, nargs="+", default=[1, 2, 5, 9])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bbp", help="a bbpPairings executable, to time it on the same files")
    parser.add_argument("--bbp-repeat", type=int, default=1)
    parser.add_argument("--bbp-rounds", type=int, nargs="+", help="the rounds bbpPairings pairs (default: all)")
    parser.add_argument("--cache", type=Path, help="a folder to keep the simulated tournaments in")
    parser.add_argument("--keep", type=Path, help="a folder to keep the files bbpPairings paired, both outputs")
    args = parser.parse_args()

    base = baseline(args.repeat)
    print(f"baseline (sort 200,000 ints): {base * 1000:.1f} ms CPU")
    extra = f" {'bbp s':>8} {'same':>4}" if args.bbp else ""
    head = f"{'players':>7} {'round':>5} {'median s':>9} {'min':>7} {'max':>7} {'x baseline':>10} {'full':>4}"
    print(f"{head}{extra}  goal")
    for players in args.players:
        trf = simulated(players, args.rounds, args.seed, args.cache)
        for number in args.pair_rounds:
            if number > args.rounds:
                continue
            source = before_round(trf, number)
            stats = engine.MatchingStats()
            median, low, high, ours = cpu_median(
                partial(pair_trf, source, number, initial_colour=Colour.WHITE, stats=stats), args.repeat
            )
            full = stats.full_matchings // args.repeat
            goal = GOALS.get(players)
            verdict = "" if goal is None else f"{'ok' if median <= goal else 'OVER'} (≤ {goal:g} s)"
            theirs = ""
            if args.bbp and (args.bbp_rounds is None or number in args.bbp_rounds):
                if args.keep is not None:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{players}p-r{number}-ours.txt").write_text("\n".join(ours.bbp_lines()) + "\n")
                runs = [bbp_round(args.bbp, source, number, args.keep) for _ in range(args.bbp_repeat)]
                wrong = differing(ours, runs[0][1], runs[0][2])
                same = "yes" if wrong == 0 else f"NO ({wrong} boards differ)"
                theirs = f" {statistics.median(r[0] for r in runs):>8.3f} {same:>4}"
            elif args.bbp:
                theirs = f" {'-':>8} {'-':>4}"
            print(
                f"{players:>7} {number:>5} {median:>9.3f} {low:>7.3f} {high:>7.3f} {median / base:>10.1f}"
                f" {full:>4}{theirs}  {verdict}",
                flush=True,
            )


if __name__ == "__main__":
    main()
