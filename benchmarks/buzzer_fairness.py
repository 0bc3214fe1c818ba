"""Buzzer fairness: how often each arbitration mode recognises the team that truly pressed first.

Simulated rooms of 4 teams whose round trips are drawn from 5-250 ms, with a fixed up/down split per link, random
queueing jitter on every packet, a random clock offset per client and a little timestamp noise in the client. Each
client is synchronised with 16 pings (as the live layer does on join), then questions are opened: 2-4 teams press,
the first two ``gap`` ms apart, and every mode of :mod:`toreshi.quiz.buzzer` decides on the same presses.

Printed per mode: the share of trials in which the true first presser won, at gaps of exactly 10, 20 and 50 ms
(a gap of exactly g is the hardest case of "gap >= g", so the figure is a lower bound for it), and the delay the
mode adds after the first press arrives (median and 95th percentile). Seeded; each figure is the median over
``--runs`` independent runs. Two scenarios: ``typical`` (up/down split 45-55 % of the round trip) and
``asymmetric`` (30-70 %), which no timestamp-based method can fully correct because a ping cannot see asymmetry.

    python benchmarks/buzzer_fairness.py [--runs 5] [--trials 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from toreshi.quiz.buzzer import Arbiter, ArbiterSettings, ArbitrationMode, ClockSync, PingSample, Press

GAPS_MS = (10, 20, 50)
TEAMS = ("A", "B", "C", "D")
MODES = (ArbitrationMode.ARRIVAL, ArbitrationMode.RANDOM_WINDOW, ArbitrationMode.COMPENSATED)
PINGS = 16
SCENARIOS = {"typical": (0.45, 0.55), "asymmetric": (0.30, 0.70)}


@dataclass(frozen=True, slots=True)
class Link:
    """One client's connection: base one-way delays, jitter scale, and its clock offset (client - server)."""

    up_ms: float
    down_ms: float
    jitter_ms: float
    offset_ms: int

    def up(self, rng: random.Random) -> float:
        return self.up_ms + rng.expovariate(1 / self.jitter_ms)

    def down(self, rng: random.Random) -> float:
        return self.down_ms + rng.expovariate(1 / self.jitter_ms)


def make_link(rng: random.Random, split: tuple[float, float]) -> Link:
    rtt = rng.uniform(5, 250)
    share = rng.uniform(*split)
    jitter = 1 + 0.05 * rtt  # mean queueing delay per packet grows with the path
    return Link(rtt * share, rtt * (1 - share), jitter, rng.randint(-(10**9), 10**9))


def synchronise(link: Link, rng: random.Random) -> ClockSync:
    samples = []
    sent = 0.0
    for _ in range(PINGS):
        at_client = sent + link.down(rng)
        back = at_client + link.up(rng)
        samples.append(PingSample(round(sent), round(at_client) + link.offset_ms, round(back)))
        sent += 100
    return ClockSync.from_samples(samples)


def trial(
    rng: random.Random, links: dict[str, Link], syncs: dict[str, ClockSync], gap_ms: int
) -> dict[ArbitrationMode, tuple[bool, int]]:
    """One opening of the buttons; returns, per mode, (the true first presser won, added delay in ms)."""
    pressing = rng.sample(TEAMS, rng.randint(2, 4))
    open_ms = 10_000
    first = open_ms + rng.uniform(200, 3_000)
    true_times = {pressing[0]: first, pressing[1]: first + gap_ms}
    for team in pressing[2:]:
        true_times[team] = first + gap_ms + rng.uniform(1, 500)
    presses = []
    for team, pressed in true_times.items():
        link = links[team]
        client_ms = round(pressed + rng.uniform(0, 2)) + link.offset_ms  # event-loop noise in the client
        presses.append(Press(team, round(pressed + link.up(rng)), client_ms))
    presses.sort(key=lambda p: p.received_ms)
    results: dict[ArbitrationMode, tuple[bool, int]] = {}
    for mode in MODES:
        arbiter = Arbiter.open(open_ms, TEAMS, syncs, ArbiterSettings(mode=mode))
        for press in presses:
            due = arbiter.decision_due_ms
            if due is not None and press.received_ms > due:
                break
            arbiter = arbiter.press(press)
        due = arbiter.decision_due_ms
        assert due is not None
        decision = arbiter.decide(due, rng)
        results[mode] = (decision.winner == pressing[0], decision.added_delay_ms)
    return results


def run(seed: int, trials: int, split: tuple[float, float]) -> dict[str, float]:
    rng = random.Random(seed)
    correct = {(mode, gap): 0 for mode in MODES for gap in GAPS_MS}
    delays: dict[ArbitrationMode, list[int]] = {mode: [] for mode in MODES}
    for gap in GAPS_MS:
        for i in range(trials):
            if i % 50 == 0:  # a new room every 50 questions: new links, new sync
                links = {team: make_link(rng, split) for team in TEAMS}
                syncs = {team: synchronise(link, rng) for team, link in links.items()}
            for mode, (won, delay) in trial(rng, links, syncs, gap).items():
                correct[mode, gap] += won
                delays[mode].append(delay)
    figures: dict[str, float] = {}
    for mode in MODES:
        for gap in GAPS_MS:
            figures[f"{mode}/{gap}"] = 100 * correct[mode, gap] / trials
        ordered = sorted(delays[mode])
        figures[f"{mode}/p50"] = ordered[len(ordered) // 2]
        figures[f"{mode}/p95"] = ordered[int(len(ordered) * 0.95)]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--trials", type=int, default=2_000, help="trials per gap per run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, split in SCENARIOS.items():
        runs = [run(args.seed + r, args.trials, split) for r in range(args.runs)]
        print(
            f"\nscenario {name}: up/down split {split[0]:.0%}-{split[1]:.0%} of a 5-250 ms round trip, "
            f"medians of {args.runs} runs x {args.trials} trials per gap"
        )
        print(f"{'mode':<15}" + "".join(f"{f'gap {g} ms':>11}" for g in GAPS_MS) + f"{'delay p50':>12}{'p95':>7}")
        for mode in MODES:
            cells = "".join(f"{statistics.median(r[f'{mode}/{g}'] for r in runs):>10.1f}%" for g in GAPS_MS)
            p50 = statistics.median(r[f"{mode}/p50"] for r in runs)
            p95 = statistics.median(r[f"{mode}/p95"] for r in runs)
            print(f"{mode.value:<15}{cells}{p50:>9.0f} ms{p95:>4.0f} ms")


if __name__ == "__main__":
    main()
