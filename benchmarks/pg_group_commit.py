"""PostgreSQL group commit (issue 32): the event store with and without it, in the same run, on the same database.

For each room count of ``--rooms`` (default 50, 200, 400), that many rooms each append one event (a togyz move's
size) as soon as its previous append returned, for ``--seconds``; then the same with every append its own statement
(``EventStore(group_commit=False)``, the baseline). Each row prints appends a second, the latency p50/p99 of an
append (until its commit is acknowledged) and this process's CPU per append (the event loop is what a server
spends); the ratio columns divide group commit's figure by the baseline's (throughput: higher is better; latency
and CPU: lower is better). Runs alternate between the two modes ``--runs`` times; medians are printed, with the
machine's load average. The tables live in a private schema that is dropped afterwards.

    python benchmarks/pg_group_commit.py [--rooms 50,200,400] [--seconds 5] [--runs 3] [--db URL]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from benchmarks.live_games import load_average
from benchmarks.load import DEFAULT_DB
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from toreshi.store import EventStore, NewEvent, RoomKind, create_engine, upgrade

MOVE = {"hole": 7, "side": "white", "stones": 12, "captured": 10, "tuzdyk": None, "clock_ms": [412_345, 398_120]}


async def one_run(url: str, schema: str, rooms: int, seconds: float, group_commit: bool) -> dict[str, float]:
    engine = create_engine(url, schema=schema)
    store = EventStore(engine, group_commit=group_commit)
    prefix = uuid.uuid4().hex[:8]
    ids = [f"b{prefix}{n}" for n in range(rooms)]
    try:
        for room_id in ids:
            await store.create_room(room_id, RoomKind.TOGYZ)
        latencies: list[float] = []
        stop = time.monotonic() + seconds

        async def play(room_id: str) -> None:
            version = 0
            while time.monotonic() < stop:
                started = time.perf_counter()
                version = await store.append(room_id, version, [NewEvent("move", MOVE, version)])
                latencies.append((time.perf_counter() - started) * 1000)

        cpu, wall = time.process_time(), time.monotonic()
        await asyncio.gather(*(play(room_id) for room_id in ids))
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        latencies.sort()
        return {
            "per_s": len(latencies) / wall,
            "p50": latencies[len(latencies) // 2],
            "p99": latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
            "cpu_us": cpu / max(1, len(latencies)) * 1e6,
        }
    finally:
        await store.close()
        await engine.dispose()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rooms", default="50,200,400")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", default=DEFAULT_DB)
    args = parser.parse_args()
    counts = [int(part) for part in args.rooms.split(",") if part.strip()]
    schema = f"toreshi_gc_{uuid.uuid4().hex[:8]}"
    admin = create_async_engine(args.db)
    async with admin.begin() as connection:
        await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        engine = create_engine(args.db, schema=schema)
        await upgrade(engine)
        await engine.dispose()
        print(f"PostgreSQL group commit: {args.seconds:g} s a run, {args.runs} runs a mode, load {load_average()}")
        print(
            f"{'rooms':>5} | {'mode':<12} | {'appends/s':>9} | {'p50 ms':>7} | {'p99 ms':>7} | {'CPU µs':>7} | "
            f"{'x/s':>5} | {'x p99':>5} | {'x CPU':>5}"
        )
        for rooms in counts:
            runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
            for _ in range(args.runs):
                for mode in (False, True):
                    runs[mode].append(await one_run(args.db, schema, rooms, args.seconds, mode))
            median = {
                mode: {key: statistics.median(run[key] for run in results) for key in results[0]}
                for mode, results in runs.items()
            }
            base = median[False]
            for mode, label in ((False, "one each"), (True, "group commit")):
                row = median[mode]
                ratios = (
                    f"{row['per_s'] / base['per_s']:>5.2f} | {row['p99'] / base['p99']:>5.2f} | "
                    f"{row['cpu_us'] / base['cpu_us']:>5.2f}"
                )
                print(
                    f"{rooms:>5} | {label:<12} | {row['per_s']:>9.0f} | {row['p50']:>7.2f} | {row['p99']:>7.2f} | "
                    f"{row['cpu_us']:>7.0f} | {ratios}"
                )
        print(f"load at the end {load_average()}")
    finally:
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()


if __name__ == "__main__":
    asyncio.run(main())
