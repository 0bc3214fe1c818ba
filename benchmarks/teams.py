"""Team Swiss speed: CPU seconds to pair a round, compute the standings and write the TRF of a simulated event.

A team Swiss of ``--teams`` teams of 4 boards (an Olympiad has about 190) is played for ``--rounds`` rounds with
random board results (a seeded generator: 45 % White wins, 30 % draws, the rest Black wins); each round is paired
by the Dutch engine on match points (:mod:`toreshi.tournament.teams.pairing`). The median CPU time of pairing the
chosen rounds again (``--repeat`` times), of the standings after the last round (MPVGP, BH, SB, DE) and of the TRF
are printed, each also as a ratio to a pure-Python baseline measured in the same run (sorting 200,000 integers).

    python benchmarks/teams.py [--teams 50 190] [--rounds 11] [--pair-rounds 1 2 6 11] [--repeat 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from toreshi.tournament.model import GameResult
from toreshi.tournament.teams.model import Team, TeamPlayer, TeamSettings, TeamSystem, TeamTournament
from toreshi.tournament.teams.pairing import pair_next_round
from toreshi.tournament.teams.tiebreaks import team_standings
from toreshi.tournament.teams.trf import team_trf

BOARDS = 4


def cpu_median(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        action()
        times.append(time.process_time() - started)
    return statistics.median(times)


def baseline(repeat: int) -> float:
    data = random.Random(0).sample(range(10**9), 200_000)
    return cpu_median(lambda: sorted(data), repeat)


def simulate(teams: int, rounds: int, seed: int) -> list[TeamTournament]:
    """The event before each round (index r: rounds 1..r played), and at the end."""
    rng = random.Random(seed)
    listed = tuple(
        Team(i, f"Team {i}", tuple(TeamPlayer(f"P{i}.{b}", 2600 - 5 * i - b) for b in range(BOARDS + 1)))
        for i in range(1, teams + 1)
    )
    t = TeamTournament(TeamSettings("Simulated", TeamSystem.SWISS, BOARDS, rounds), listed)
    states = [t]
    outcomes = [GameResult.WHITE_WINS] * 45 + [GameResult.DRAW] * 30 + [GameResult.BLACK_WINS] * 25
    for _ in range(rounds):
        r = pair_next_round(t)
        matches = tuple(
            replace(m, results=tuple(rng.choice(outcomes) for _ in range(BOARDS))) if m.second is not None else m
            for m in r.matches
        )
        t = t.with_round(replace(r, matches=matches))
        states.append(t)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, nargs="+", default=[50, 190])
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--pair-rounds", type=int, nargs="+", default=[1, 2, 6, 11])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    base = baseline(args.repeat)
    print(f"baseline (sort 200,000 ints): {base * 1000:.1f} ms CPU")
    print(f"{'teams':>5} {'what':>12} {'median s':>9} {'x baseline':>10}")
    for teams in args.teams:
        states = simulate(teams, args.rounds, args.seed)
        for number in args.pair_rounds:
            if number <= args.rounds:
                seconds = cpu_median(partial(pair_next_round, states[number - 1]), args.repeat)
                print(f"{teams:>5} {'pair R' + str(number):>12} {seconds:>9.3f} {seconds / base:>10.1f}")
        final = states[-1]
        seconds = cpu_median(partial(team_standings, final), args.repeat)
        print(f"{teams:>5} {'standings':>12} {seconds:>9.3f} {seconds / base:>10.1f}")
        seconds = cpu_median(partial(team_trf, final), args.repeat)
        print(f"{teams:>5} {'TRF':>12} {seconds:>9.3f} {seconds / base:>10.1f}")


if __name__ == "__main__":
    main()
