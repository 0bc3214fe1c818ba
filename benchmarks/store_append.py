"""SQLite event append (issue 32): this tree's event store against a baseline tree, in the same run, on temp files.

Two measurements, each in a fresh process on a fresh SQLite file (WAL, ``synchronous=NORMAL``, the default):

- **alone**: one room, ``--appends`` appends one after another (each a togyz move's size), nothing else writing —
  every append is its own transaction (``_append_alone``);
- **group**: ``--rooms`` rooms, each appending ``--per-room`` times as soon as its previous append returned — the
  appends that arrive while one is written share the next commit (``_flush``).

Each prints this process's CPU per append (the event loop plus the writer's thread: what a server spends) and appends
a second. The baseline is another source tree of toreshi (``--baseline-src``, for instance ``git archive main src``
unpacked somewhere); runs alternate between the two trees ``--runs`` times and medians are printed with the ratio
(new / baseline: CPU lower is better, appends/s higher is better) and the machine's load average.

    python benchmarks/store_append.py --baseline-src /tmp/main/src [--appends 3000] [--rooms 50] [--per-room 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
MOVE = {"hole": 7, "side": "white", "stones": 12, "captured": 10, "tuzdyk": None, "clock_ms": [412_345, 398_120]}
WARM_UP = 200


async def measure(appends: int, rooms: int, per_room: int) -> dict[str, float]:
    """In the child process: both measurements with whatever ``toreshi`` is on the path."""
    from toreshi.store import EventStore, NewEvent, RoomKind, create_engine, upgrade

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="toreshi-append-") as folder:
        engine = create_engine(f"sqlite:///{Path(folder) / 'append.db'}")
        await upgrade(engine)
        store = EventStore(engine)
        try:
            await store.create_room("alone", RoomKind.TOGYZ)
            version = 0
            for _ in range(WARM_UP):
                version = await store.append("alone", version, [NewEvent("move", MOVE, version, command_id="c")])
            cpu, wall = time.process_time(), time.perf_counter()
            for _ in range(appends):
                version = await store.append("alone", version, [NewEvent("move", MOVE, version, command_id="c")])
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            figures["alone_cpu_us"] = cpu / appends * 1e6
            figures["alone_per_s"] = appends / wall

            ids = [f"r{n}" for n in range(rooms)]
            for room_id in ids:
                await store.create_room(room_id, RoomKind.QUIZ)

            async def play(room_id: str) -> None:
                version = 0
                for _ in range(per_room):
                    version = await store.append(room_id, version, [NewEvent("press", MOVE, version, command_id="c")])

            cpu, wall = time.process_time(), time.perf_counter()
            await asyncio.gather(*(play(room_id) for room_id in ids))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            figures["group_cpu_us"] = cpu / (rooms * per_room) * 1e6
            figures["group_per_s"] = rooms * per_room / wall
        finally:
            await store.close()
            await engine.dispose()
    return figures


def run_child(src: Path, args: argparse.Namespace) -> dict[str, float]:
    command = [sys.executable, str(HERE), "--child", "--appends", str(args.appends)]
    command += ["--rooms", str(args.rooms), "--per-room", str(args.per_room)]
    environment = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the run on {src} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--baseline-src", type=Path, help="the src folder of the tree to compare with")
    parser.add_argument("--src", type=Path, default=HERE.parents[1] / "src", help="the tree measured (this one)")
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--per-room", type=int, default=60)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(measure(args.appends, args.rooms, args.per_room))))
        return
    trees = {"new": args.src.resolve()}
    if args.baseline_src is not None:
        trees["baseline"] = args.baseline_src.resolve()
    print(f"load average before: {load_average()}")
    results: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for run in range(args.runs):
        order = list(trees) if run % 2 == 0 else list(reversed(trees))  # alternate which tree goes first
        for name in order:
            results[name].append(run_child(trees[name], args))
    medians: dict[str, dict[str, Any]] = {
        name: {key: statistics.median(run[key] for run in runs) for key in runs[0]} for name, runs in results.items()
    }
    print(
        f"{args.runs} runs each, medians; alone: {args.appends} appends; "
        f"group: {args.rooms} rooms x {args.per_room} appends"
    )
    print("| mode | CPU µs/append new | baseline | ratio | appends/s new | baseline | ratio |")
    print("|---|---|---|---|---|---|---|")
    for mode in ("alone", "group"):
        new = medians["new"]
        base = medians.get("baseline")
        cpu, rate = new[f"{mode}_cpu_us"], new[f"{mode}_per_s"]
        if base is None:
            print(f"| {mode} | {cpu:.1f} | | | {rate:,.0f} | | |")
            continue
        base_cpu, base_rate = base[f"{mode}_cpu_us"], base[f"{mode}_per_s"]
        print(
            f"| {mode} | {cpu:.1f} | {base_cpu:.1f} | {cpu / base_cpu:.2f}× "
            f"| {rate:,.0f} | {base_rate:,.0f} | {rate / base_rate:.2f}× |"
        )
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
