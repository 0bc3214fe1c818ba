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

Then the adversaries of issue 13 §1, on a club network (round trips 4-40 ms, split 45-55 %): duels of two teams with
the same true link and the same reaction times (400 ms after the buttons open, σ 60 ms), one honest, one cheating:

* ``inflater`` — answers every ping 900 ms late, so that its link looks slow, and claims every touch at the
  earliest moment the arbiter would accept;
* ``watcher`` — the same, and it also presses the moment it sees another team's press (the issue's
  reproduction: it waits for the rival's ``press_received``), which it can only do where presses are shown to teams.

Printed: how often the cheat wins against the honest team (50 % is what an honest team with the same link gets),
``before`` (compensation uncapped, presses shown to every team) and now (the cap, presses hidden until the
decision), for several caps, beside the share of honest first presses recognised on the club network at gaps of
10 and 20 ms (what a cap costs fair play) and how often the cheat is shown to the host as suspect.

    python benchmarks/buzzer_fairness.py [--runs 5] [--trials 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from toreshi.quiz.buzzer import Arbiter, ArbiterSettings, ArbitrationMode, ClockSync, PingSample, ReceivedPress

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
        presses.append(ReceivedPress(team, round(pressed + link.up(rng)), client_ms))
    presses.sort(key=lambda p: p.received_ms)
    results: dict[ArbitrationMode, tuple[bool, int]] = {}
    for mode in MODES:
        arbiter = Arbiter.open(open_ms, TEAMS, syncs, ArbiterSettings(mode=mode, max_compensation_ms=REMOTE_CAP_MS))
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


REMOTE_CAP_MS = 1_000
"""The scenarios above are links over the internet (5-250 ms): compensated with a cap set for them."""
CLUB = (0.45, 0.55)
CAPS = (0, 10, 15, 20, 30, 60, 100)
UNCAPPED = 10_000
INFLATE_MS = 900
REACTION_MS, REACTION_SD_MS = 400.0, 60.0


def club_link(rng: random.Random, rtt_range: tuple[float, float] = (4, 40)) -> Link:
    rtt = rng.uniform(*rtt_range)
    share = rng.uniform(*CLUB)
    return Link(rtt * share, rtt * (1 - share), 1 + 0.05 * rtt, rng.randint(-(10**9), 10**9))


def inflated_sync(link: Link, rng: random.Random) -> ClockSync:
    """What the server measures of a client that holds every pong back ``INFLATE_MS``."""
    samples = []
    sent = 0.0
    for _ in range(PINGS):
        at_client = sent + link.down(rng)
        back = at_client + INFLATE_MS + link.up(rng)
        samples.append(PingSample(round(sent), round(at_client) + link.offset_ms, round(back)))
        sent += 100
    return ClockSync.from_samples(samples)


def duel(rng: random.Random, cheat: str, cap: int, shown: bool) -> tuple[bool, bool]:
    """One opening of the buttons between an honest team H and a cheat C with the same true link; returns (C won,
    C was suspect). ``cheat`` is ``honest`` (a baseline: C plays fair), ``inflater`` or ``watcher``; ``shown``:
    every team sees a press as soon as it reaches the server."""
    link = club_link(rng)
    settings = ArbiterSettings(max_compensation_ms=cap)
    cheat_sync = synchronise(link, rng) if cheat == "honest" else inflated_sync(link, rng)
    syncs = {"H": synchronise(link, rng), "C": cheat_sync}
    open_ms = 10_000
    touch = {team: open_ms + max(150.0, rng.gauss(REACTION_MS, REACTION_SD_MS)) for team in ("H", "C")}
    arrival_h = touch["H"] + link.up(rng)
    if cheat == "watcher" and shown:
        seen = arrival_h + link.down(rng)  # H's press_received reaches C's phone
        touch["C"] = min(touch["C"], seen + 5)  # a script presses at once
    arrival_c = touch["C"] + link.up(rng)
    if cheat == "honest":
        claim_c = round(touch["C"] + rng.uniform(0, 2)) + link.offset_ms
    else:  # a liar claims the earliest touch there could be, on the clock the server believes it has (it is told)
        claim_c = open_ms + syncs["C"].offset_ms
    presses = sorted(
        [
            ReceivedPress("H", round(arrival_h), round(touch["H"] + rng.uniform(0, 2)) + link.offset_ms),
            ReceivedPress("C", round(arrival_c), claim_c),
        ],
        key=lambda p: p.received_ms,
    )
    arbiter = Arbiter.open(open_ms, ("H", "C"), syncs, settings)
    for press in presses:
        due = arbiter.decision_due_ms
        if due is not None and press.received_ms > due:
            break  # decided before this press arrived: it is late
        arbiter = arbiter.press(press)
    decision = arbiter.decide(arbiter.decision_due_ms or 0, rng)
    return decision.winner == "C", settings.suspect(syncs["C"])


def club_fairness(rng: random.Random, cap: int, gap_ms: int, trials: int) -> float:
    """The share of trials in which the true first presser wins on the club network (4 honest teams)."""
    won = 0
    settings = ArbiterSettings(max_compensation_ms=cap)
    for i in range(trials):
        if i % 50 == 0:
            links = {team: club_link(rng) for team in TEAMS}
            syncs = {team: synchronise(link, rng) for team, link in links.items()}
        pressing = rng.sample(TEAMS, rng.randint(2, 4))
        first = 10_000 + rng.uniform(200, 3_000)
        times = {pressing[0]: first, pressing[1]: first + gap_ms}
        for team in pressing[2:]:
            times[team] = first + gap_ms + rng.uniform(1, 500)
        presses = sorted(
            (
                ReceivedPress(
                    team, round(at + links[team].up(rng)), round(at + rng.uniform(0, 2)) + links[team].offset_ms
                )
                for team, at in times.items()
            ),
            key=lambda p: p.received_ms,
        )
        arbiter = Arbiter.open(10_000, TEAMS, syncs, settings)
        for press in presses:
            due = arbiter.decision_due_ms
            if due is not None and press.received_ms > due:
                break
            arbiter = arbiter.press(press)
        won += arbiter.decide(arbiter.decision_due_ms or 0, rng).winner == pressing[0]
    return 100 * won / trials


def adversaries(seed: int, trials: int) -> None:
    rng = random.Random(seed)
    print(f"\nadversaries on a club network (RTT 4-40 ms), {trials} duels each: how often the cheat beats an honest "
          "team with the same true link (50 % = no gain)")  # fmt: skip
    print(f"{'setting':<26}{'honest':>9}{'inflater':>10}{'watcher':>9}{'suspect':>9}{'fair@10':>9}{'fair@20':>9}")
    rows = [("before: uncapped, shown", UNCAPPED, True)] + [(f"cap {cap} ms, hidden", cap, False) for cap in CAPS]
    for name, cap, shown in rows:
        cells = []
        suspect = 0
        for cheat in ("honest", "inflater", "watcher"):
            wins = 0
            for _ in range(trials):
                won, flagged = duel(rng, cheat, cap, shown)
                wins += won
                suspect += flagged and cheat != "honest"
            cells.append(100 * wins / trials)
        fair = [club_fairness(rng, cap, gap, trials) for gap in (10, 20)]
        print(f"{name:<26}" + "".join(f"{c:>8.1f}%" for c in cells) + f"{100 * suspect / (2 * trials):>8.0f}%"
              + "".join(f"{f:>8.1f}%" for f in fair))  # fmt: skip


CLAIM_LATER_MS = (0, 3, 6)
"""How much later than the honest team the claimer truly touches, in the backdating duels."""


def claim_duel(
    rng: random.Random, claimer: str, later_ms: int, rtt_range: tuple[float, float], cap: int = 10
) -> tuple[bool, bool]:
    """Issue 26: an honest team H against C with the same true link, both answering every ping honestly (so
    nothing looks slow); C truly touches ``later_ms`` after H. ``claimer``: ``cap`` — C claims every press was made
    the cap on compensation before it arrived (the full lag the settings allow, issue 26's attack); ``allowed`` —
    C claims the most lag the arbiter still places as claimed (:meth:`Arbiter.allowed_lag_ms`: a client that knows
    the rule); ``honest`` — C is an honest twin (the baseline). Returns (C won, C was flagged to the host)."""
    link = club_link(rng, rtt_range)
    settings = ArbiterSettings(max_compensation_ms=cap)
    syncs = {"H": synchronise(link, rng), "C": synchronise(link, rng)}
    open_ms = 10_000
    touch_h = open_ms + max(150.0, rng.gauss(REACTION_MS, REACTION_SD_MS))
    touch_c = touch_h + later_ms
    arrival_h, arrival_c = round(touch_h + link.up(rng)), round(touch_c + link.up(rng))
    arbiter = Arbiter.open(open_ms, ("H", "C"), syncs, settings)
    if claimer == "cap":
        claim_c = arrival_c - cap + syncs["C"].offset_ms
    elif claimer == "allowed":
        claim_c = arrival_c - arbiter.allowed_lag_ms("C") + syncs["C"].offset_ms
    else:
        claim_c = round(touch_c + rng.uniform(0, 2)) + link.offset_ms
    presses = sorted(
        [
            ReceivedPress("H", arrival_h, round(touch_h + rng.uniform(0, 2)) + link.offset_ms),
            ReceivedPress("C", arrival_c, claim_c),
        ],
        key=lambda p: p.received_ms,
    )
    for press in presses:
        due = arbiter.decision_due_ms
        if due is not None and press.received_ms > due:
            break
        arbiter = arbiter.press(press)
    decision = arbiter.decide(arbiter.decision_due_ms or 0, rng)
    flagged = any(p.team == "C" and p.backdated for p in decision.order)
    return decision.winner == "C", flagged


CLAIMERS = (
    ("honest twin (baseline)", "honest"),
    ("claims the cap's lag", "cap"),
    ("claims the allowed lag", "allowed"),
)
NETWORKS = {"LAN, RTT 2-8 ms": (2.0, 8.0), "club Wi-Fi, RTT 4-40 ms": (4.0, 40.0)}


def backdating(seed: int, trials: int) -> None:
    rng = random.Random(seed)
    print(f"\nbackdated presses (honest pings), {trials} duels each: how often C beats an honest team H with the same "
          "link when C truly touches 0/3/6 ms later (an honest twin: the baseline)")  # fmt: skip
    print(f"{'network':<25}{'C is':<30}" + "".join(f"{f'+{d} ms':>9}" for d in CLAIM_LATER_MS) + f"{'flagged':>9}")
    for network, rtt_range in NETWORKS.items():
        for name, claimer in CLAIMERS:
            cells, flagged = [], 0
            for later in CLAIM_LATER_MS:
                wins = 0
                for _ in range(trials):
                    won, marked = claim_duel(rng, claimer, later, rtt_range)
                    wins += won
                    flagged += marked
                cells.append(100 * wins / trials)
            share = 100 * flagged / (trials * len(CLAIM_LATER_MS))
            print(f"{network:<25}{name:<30}" + "".join(f"{c:>8.1f}%" for c in cells) + f"{share:>8.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--trials", type=int, default=2_000, help="trials per gap per run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("all", "backdating"), default="all")
    args = parser.parse_args()
    if args.only == "backdating":
        backdating(args.seed, args.trials)
        return
    for name, split in SCENARIOS.items():
        runs = [run(args.seed + r, args.trials, split) for r in range(args.runs)]
        print(
            f"\nscenario {name}: up/down split {split[0]:.0%}-{split[1]:.0%} of a 5-250 ms round trip (cap 1,000 ms), "
            f"medians of {args.runs} runs x {args.trials} trials per gap"
        )
        print(f"{'mode':<15}" + "".join(f"{f'gap {g} ms':>11}" for g in GAPS_MS) + f"{'delay p50':>12}{'p95':>7}")
        for mode in MODES:
            cells = "".join(f"{statistics.median(r[f'{mode}/{g}'] for r in runs):>10.1f}%" for g in GAPS_MS)
            p50 = statistics.median(r[f"{mode}/p50"] for r in runs)
            p95 = statistics.median(r[f"{mode}/p95"] for r in runs)
            print(f"{mode.value:<15}{cells}{p50:>9.0f} ms{p95:>4.0f} ms")
    adversaries(args.seed, args.trials)
    backdating(args.seed, args.trials)


if __name__ == "__main__":
    main()
