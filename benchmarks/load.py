"""Load: how one instance (and two, on PostgreSQL + Redis) behaves as the number of live rooms grows (issue 8 §3).

For each room count of ``--rooms`` (default 10, 50, 100, 200, 400) a fresh server is started, N togyz games are
created with 2 players and ``--spectators`` spectators each (the clients of :mod:`benchmarks.live_games`: they answer
clock pings like a browser), and every game plays one random legal move every ``1 / --pace`` seconds for
``--seconds``, ``--runs`` times. Reported per room count (medians of the runs): room events/s, deliveries/s (events
received by all clients), acknowledgement and broadcast latency p50/p99, server CPU per WebSocket message (all
messages both ways, pings included) and per room event, server CPU share, client CPU share, and memory per live room
(RSS growth while the games were created and connected ÷ N). The smallest room count is the baseline of the same run:
the ``x`` columns are ratios against it. The conclusion names the largest room count whose p99 (acknowledgement and
broadcast) stayed within the 50 ms goal.

Two instances (``--instances 1,2``): both servers use PostgreSQL (``--db``) and Redis (``--bus``) with a private
schema and Redis prefix made for the run (``serve --db-schema/--bus-prefix``; where a toreshi lacks them, a private
database), removed afterwards. Games are created on each instance in turn. With ``--routing room`` (the default, what
docs/deploy.md's nginx does) every socket of a game connects to the instance its room id hashes to, and the room's
lease moves there with the first forwarded command; with ``--routing split`` each game's white player and first
spectator connect to the instance that created it, black and the second spectator to the other one (half of the
moves forwarded, half of the deliveries across the bus: the worst case). Servers are not pinned (two servers
and the client on two cores). A one-game probe runs first; if forwarding does not work yet, the two-instance part is
skipped with the reason. A room count whose setup or run fails is reported as failed and the sweep goes on.

Capacity (``--capacity --instances 1,2,3``, issue 32): for each instance count, all on PostgreSQL + Redis (so one
instance on the same services is the baseline and the ratios say what another instance adds), the largest number of
games whose acknowledgement and broadcast p99 stay within 50 ms: from the smallest ``--rooms`` doubled until a count
fails, then ``--refine`` bisection steps. The summary prints each capacity and its ratio against one instance beside
the goals (two >= 1.8x, three >= 2.5x). Everything shares the machine's CPUs: the servers, the clients that play the
games, PostgreSQL and Redis.

Quiz rooms (``--kind quiz``, issue 32): for each room count a fresh server (or two on PostgreSQL + Redis) holds N
«Своя игра» qualifying games of 4 phones, a host, a projector and ``--spectators`` spectators each (the clients of
:mod:`benchmarks.quiz_live`), plus one more game that is the baseline of the same run: it presses alone first
(``--baseline-presses``, 50 ms apart), then all N games press at once, ``--presses`` press cycles each at ``--pace``
cycles a second per game (a team presses, every connection of its game must see the lock-out, the host rules). The
row of each room count gives the press → lock-out p50/p99 (until the last connection of the game has ``buzzed``),
the one-game baseline's p99 and their ratio, the server CPU per press and the machine's load average at the time;
the conclusion names the largest room count with a lock-out p99 within 20 ms.

    python benchmarks/load.py [--rooms 10,50,100,200,400] [--pace 1] [--seconds 8] [--runs 3] [--instances 1,2]
    python benchmarks/load.py --capacity [--instances 1,2,3] [--rooms 25] [--refine 3] [--runs 1] [--seconds 8]
    python benchmarks/load.py --kind quiz [--rooms 10,50] [--pace 0.25] [--presses 6] [--spectators 2] [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.live_games import (
    GOAL_P99_MS,
    ServerProcess,
    Window,
    bench_on,
    describe_problems,
    fmt,
    load_average,
    medians,
    pin_client,
    pinning,
    running_servers,
    serve_options,
)

from benchmarks import quiz_live

DEFAULT_DB = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
QUIZ_GOAL_P99_MS = 20.0
DEFAULT_BUS = "redis://127.0.0.1:6379/0"


@dataclass
class Step:
    """The figures of one room count."""

    rooms: int
    figures: dict[str, float]
    kib_per_room: float
    setup_s: float
    problems: str


# --- servers -------------------------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def private_namespace(url: str, bus: str, source: Path | None) -> AsyncIterator[tuple[str, list[str], str]]:
    """Where the two instances keep their data: a schema of their own in ``url``'s database and a Redis prefix of
    their own (when ``toreshi serve`` has ``--db-schema``), else a database of their own. Removed afterwards.
    Yields the database URL, the extra ``serve`` options, and a description."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    url = make_url(url).set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    name = f"toreshi_bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    if "--db-schema" not in serve_options(source):
        async with private_database(url, name) as db:
            yield db, [], f"private database {name} (this toreshi serve has no --db-schema)"
        return
    engine = create_async_engine(url)
    try:
        async with engine.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{name}"'))
        try:
            extra = ["--db-schema", name, "--bus-prefix", f"{name}:"]
            yield url, extra, f"private schema {name} and Redis prefix {name}:"
        finally:
            async with engine.begin() as connection:
                await connection.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    finally:
        await engine.dispose()


@contextlib.asynccontextmanager
async def private_database(url: str, name: str) -> AsyncIterator[str]:
    """A database of its own on the PostgreSQL server of ``url``, dropped on the way out; yields its URL."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    parsed = make_url(url).set(drivername="postgresql+asyncpg")
    admin = create_async_engine(parsed, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as connection:
            await connection.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            yield parsed.set(database=name).render_as_string(hide_password=False)
        finally:
            async with admin.connect() as connection:
                await connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await admin.dispose()


async def postgres_reachable(url: str) -> str | None:
    """None when PostgreSQL accepts a connection and ``SELECT 1``, else why not."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(make_url(url).set(drivername="postgresql+asyncpg"))
    try:
        async with engine.connect() as connection:
            await asyncio.wait_for(connection.execute(text("SELECT 1")), 5)
    except Exception as error:
        return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    finally:
        await engine.dispose()
    return None


async def redis_reachable(url: str) -> str | None:
    """None when Redis answers PING, else why not."""
    from redis.asyncio import Redis

    client: Redis = Redis.from_url(url)
    try:
        await asyncio.wait_for(client.ping(), 3)
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    finally:
        await client.aclose()
    return None


# --- one room count ------------------------------------------------------------------------------------------------


async def measure_step(
    servers: Sequence[ServerProcess], rooms: int, args: argparse.Namespace
) -> tuple[Step, list[Window]]:
    options = {
        "spectators": args.spectators,
        "pace": args.pace,
        "compression": not args.no_compression,
        "routing": args.routing,
    }
    async with bench_on(servers, **options) as bench:
        await bench.add_games(1, play=False)  # warm-up
        rss_before, started = bench.server_rss(), time.perf_counter()
        await bench.add_games(rooms)
        setup_s = time.perf_counter() - started
        kib_per_room = (bench.server_rss() - rss_before) / rooms / 1024
        windows = [await bench.measure("move", args.seconds) for _ in range(args.runs)]
        errors = list(bench.errors)
    problems = describe_problems(windows) + f" client_errors={len(errors)}"
    if errors:
        problems += f" (first: {errors[0]})"
    return Step(rooms, medians(windows), kib_per_room, setup_s, problems), windows


async def probe_instances(servers: Sequence[ServerProcess], args: argparse.Namespace) -> str | None:
    """One game across the instances; None when moves are acknowledged and reach every spectator, else why not."""
    options = {"spectators": 2, "pace": 4.0, "compression": not args.no_compression}
    try:
        async with bench_on(servers, **options) as bench:
            await bench.add_games(1)
            window = await bench.measure("move", 3.0)
            errors = list(bench.errors)
    except Exception as error:
        return f"setting up a game across the instances failed: {type(error).__name__}: {error}"
    if errors:
        return f"client errors: {errors[0]}"
    if window.accepted < 4 or window.refused or window.timeouts:
        return f"moves across instances: {window.accepted} acknowledged, {describe_problems([window])}"
    if len(window.bcast_ms) < window.accepted * 2:
        return f"spectators saw {len(window.bcast_ms)} of {window.accepted * 2} move events"
    return None


COLUMNS = (
    ("rooms", 5),
    ("moves/s", 7),
    ("ev/s", 7),
    ("deliv/s", 8),
    ("ack p50", 8),
    ("ack p99", 8),
    ("bc p50", 7),
    ("bc p99", 7),
    ("µs/msg", 7),
    ("µs/ev", 6),
    ("µs/move", 7),
    ("srv CPU%", 8),
    ("wait%", 6),
    ("cli CPU%", 8),
    ("KiB/room", 8),
    ("x ack99", 7),
    ("x µs/msg", 8),
    ("x KiB", 6),
)


def sweep_header() -> str:
    return " ".join(f"{name:>{width}}" for name, width in COLUMNS) + "  problems"


def sweep_row(step: Step, base: Step) -> str:
    f, b = step.figures, base.figures
    cpu_per_event = 1e6 * f["server_cpu_pct"] / 100 / f["events_per_s"] if f["events_per_s"] else math.nan
    cells = (
        str(step.rooms),
        fmt(f["cmds_per_s"], 1),
        fmt(f["events_per_s"], 1),
        fmt(f["deliveries_per_s"], 0),
        fmt(f["ack_p50_ms"]),
        fmt(f["ack_p99_ms"]),
        fmt(f["bcast_p50_ms"]),
        fmt(f["bcast_p99_ms"]),
        fmt(f["cpu_us_per_msg"], 1),
        fmt(cpu_per_event, 0),
        fmt(f["cpu_us_per_cmd"], 0),
        fmt(f["server_cpu_pct"], 1),
        fmt(f["server_wait_pct"], 1),
        fmt(f["client_cpu_pct"], 1),
        f"{step.kib_per_room:.1f}",
        fmt(f["ack_p99_ms"] / b["ack_p99_ms"]),
        fmt(f["cpu_us_per_msg"] / b["cpu_us_per_msg"]),
        fmt(step.kib_per_room / base.kib_per_room),
    )
    return " ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, COLUMNS, strict=True)) + f"  {step.problems}"


def cpu_estimate(steps: Sequence[Step], pace: float) -> str:
    """How many games one core carries by CPU alone: independent of how busy the shared machine was."""
    costs = [step.figures["cpu_us_per_cmd"] for step in steps if not math.isnan(step.figures["cpu_us_per_cmd"])]
    if not costs:
        return "CPU estimate: n/a"
    per_move = statistics.median(costs)
    saturated = 1e6 / per_move
    best = max(step.figures["cmds_per_s"] for step in steps)
    return (
        f"CPU estimate: median {per_move:.0f} µs of server CPU per move over the room counts (the clients' pings "
        f"included) -> one core saturates at ~{saturated:.0f} moves/s = ~{saturated / pace:.0f} games at {pace:g} "
        f"move/s per game (~{0.7 * saturated / pace:.0f} at 70 % of a core); most moves/s measured: {best:.1f}"
    )


def conclusion(steps: Sequence[Step], label: str) -> str:
    within = [
        step.rooms
        for step in steps
        if max(step.figures["ack_p99_ms"], step.figures["bcast_p99_ms"]) <= GOAL_P99_MS
        and "timeouts=0" in step.problems
    ]
    tried = ", ".join(str(step.rooms) for step in steps)
    if not within:
        return f"{label}: no room count tried ({tried}) kept p99 <= {GOAL_P99_MS:g} ms"
    largest = max(within)
    above = [step.rooms for step in steps if step.rooms > largest]
    tail = f"; {min(above)} games did not" if above else f" (the largest tried; the limit is above {largest})"
    return f"{label}: holds {largest} games within p99 <= {GOAL_P99_MS:g} ms{tail}"


async def run_sweep(label: str, args: argparse.Namespace, start: StartServers) -> list[Step]:
    print(f"\n{label}")
    print(sweep_header())
    steps: list[Step] = []
    for rooms in args.rooms:
        try:
            async with start() as servers:
                step, _ = await measure_step(servers, rooms, args)
        except Exception as error:  # one room count failing (e.g. setup starved of CPU) does not end the sweep
            print(f"{rooms:>5} failed: {type(error).__name__}: {error}", flush=True)
            continue
        steps.append(step)
        print(sweep_row(step, steps[0]), flush=True)
    if not steps:
        print(f"{label}: no room count could be measured")
        return steps
    print(conclusion(steps, label))
    print(cpu_estimate(steps, args.pace))
    return steps


class StartServers:
    """Starts the servers of one step (fresh each time) and stops them on the way out."""

    def __init__(
        self,
        args: argparse.Namespace,
        count: int,
        *,
        db: str | None = None,
        bus: str | None = None,
        extra: Sequence[str] = (),
    ) -> None:
        self.args, self.count, self.db, self.bus, self.extra = args, count, db, bus, extra
        self.server_cpu, _ = pinning(args.pin and count == 1)

    @contextlib.asynccontextmanager
    async def __call__(self) -> AsyncIterator[list[ServerProcess]]:
        with tempfile.TemporaryDirectory(prefix="toreshi-load-") as folder:
            data = Path(folder) / "data"  # shared by the instances: one secret key, so one arbiter session

            def start_one() -> ServerProcess:
                return ServerProcess.start(
                    data, db=self.db, bus=self.bus, cpu=self.server_cpu, source=self.args.server_src, extra=self.extra
                )

            with running_servers([]) as servers:
                for _ in range(self.count):  # one at a time: the first migrates the database
                    servers.append(start_one())
                    await servers[-1].wait_ready()
                yield servers


NAMES = {1: "one instance", 2: "two instances", 3: "three instances"}


@contextlib.asynccontextmanager
async def cluster(args: argparse.Namespace, count: int) -> AsyncIterator[StartServers | None]:
    """``count`` instances on PostgreSQL + Redis in a private namespace (None, with the reason printed, when the
    services are not reachable or forwarding between the instances does not work)."""
    name = NAMES[count]
    for reason, what in (
        (await redis_reachable(args.bus), f"Redis at {args.bus}"),
        (await postgres_reachable(args.db), f"PostgreSQL at {args.db}"),
    ):
        if reason is not None:
            print(f"\n{name}: skipped, {what} is not reachable ({reason})")
            yield None
            return
    async with private_namespace(args.db, args.bus, args.server_src) as (db, extra, where):
        print(f"\n{name}: data in {where}")
        start = StartServers(args, count, db=db, bus=args.bus, extra=extra)
        if count > 1:
            async with start() as servers:
                reason = await probe_instances(servers, args)
            if reason is not None:
                print(f"\n{name}: skipped, forwarding between instances does not work ({reason})")
                yield None
                return
        yield start


async def two_instances(args: argparse.Namespace) -> None:
    async with cluster(args, 2) as start:
        if start is not None:
            await run_sweep(f"two instances (PostgreSQL + Redis, not pinned, routing {args.routing})", args, start)


# --- capacity: the largest number of games within the goal, for 1, 2 and 3 instances ------------------------------

CAPACITY_GOALS = {2: 1.8, 3: 2.5}
"""Issue 32: two instances hold at least 1.8× the games of one, three at least 2.5×."""


def within_goal(step: Step) -> bool:
    figures = step.figures
    return max(figures["ack_p99_ms"], figures["bcast_p99_ms"]) <= GOAL_P99_MS and "timeouts=0" in step.problems


async def find_capacity(label: str, args: argparse.Namespace, start: StartServers) -> int:
    """The largest game count within p99 <= 50 ms: from ``--rooms``' smallest, doubled until a count fails, then
    halved ``--refine`` times between the last that held and the first that did not. 0 if the first fails."""
    print(f"\n{label}: capacity search")
    print(sweep_header())
    steps: list[Step] = []

    async def holds(rooms: int) -> bool:
        try:
            async with start() as servers:
                step, _ = await measure_step(servers, rooms, args)
        except Exception as error:  # a count whose setup is starved counts as not held
            print(f"{rooms:>5} failed: {type(error).__name__}: {error}", flush=True)
            return False
        steps.append(step)
        print(sweep_row(step, steps[0]), flush=True)
        return within_goal(step)

    held, failed = 0, 0  # failed 0: no count has failed yet
    rooms = min(args.rooms)
    while rooms <= args.max_rooms:
        if not await holds(rooms):
            failed = rooms
            break
        held, rooms = rooms, rooms * 2
    for _ in range(args.refine if failed else 0):
        middle = (held + failed) // 2
        if middle in (held, failed) or middle < 1:
            break
        if await holds(middle):
            held = middle
        else:
            failed = middle
    bound = f"{failed} did not" if failed else f"the search stopped at --max-rooms {args.max_rooms}"
    print(f"{label}: capacity {held} games ({bound})")
    return held


async def capacity(args: argparse.Namespace) -> None:
    """The capacity of 1, 2 and 3 instances, all on PostgreSQL + Redis (the baseline is one instance on the same
    services, so the ratios measure what another instance adds), and the ratios against one."""
    found: dict[int, int] = {}
    for count in sorted(args.instances):
        async with cluster(args, count) as start:
            if start is not None:
                label = f"{NAMES[count]} (PostgreSQL + Redis, routing {args.routing})"
                found[count] = await find_capacity(label, args, start)
    print("\ncapacity (games of 2 players + spectators within ack and broadcast p99 <= 50 ms):")
    one = found.get(1)
    for count, games in sorted(found.items()):
        line = f"  {NAMES[count]}: {games} games"
        if count > 1 and one:
            ratio = games / one
            goal = CAPACITY_GOALS.get(count)
            verdict = "" if goal is None else f" (goal >= {goal:g}x: {'met' if ratio >= goal else 'NOT met'})"
            line += f", {ratio:.2f}x one instance{verdict}"
        print(line)
    print(f"  on {os.cpu_count()} CPUs shared by the servers, the clients, PostgreSQL and Redis")


# --- quiz rooms ----------------------------------------------------------------------------------------------------


@dataclass
class QuizStep:
    rooms: int
    load: dict[str, float]
    baseline: dict[str, float]
    problems: str
    machine_load: str


def quiz_options(args: argparse.Namespace, rooms: int, instances: int) -> argparse.Namespace:
    """The :mod:`benchmarks.quiz_live` options of one room count."""
    return argparse.Namespace(
        rooms=rooms,
        teams=4,
        spectators=args.spectators,
        presses=args.presses,
        pace=args.pace,
        baseline_presses=args.baseline_presses,
        baseline_gap_ms=50.0,
        idle_seconds=1.0,
        runs=args.runs,
        mode="arrival",
        pack=args.pack,
        profile=None,
        pin=args.pin and instances == 1,
        instances=instances,
        db=args.db,
        bus=args.bus,
    )


def quiz_figures(phases: Sequence[quiz_live.Phase]) -> dict[str, float]:
    def median(values: list[float]) -> float:
        kept = [value for value in values if not math.isnan(value)]
        return statistics.median(kept) if kept else math.nan

    return {
        "presses_per_s": median([p.presses / p.seconds for p in phases if p.seconds]),
        "lockout_p50": median([quiz_live.percentile(p.lockout_ms, 0.5) for p in phases]),
        "lockout_p99": median([quiz_live.percentile(p.lockout_ms, 0.99) for p in phases]),
        "first_p99": median([quiz_live.percentile(p.first_ms, 0.99) for p in phases]),
        "cpu_ms_per_press": median([p.cpu_ms_per_press for p in phases]),
    }


QUIZ_COLUMNS = (
    ("rooms", 5),
    ("press/s", 7),
    ("lock p50", 8),
    ("lock p99", 8),
    ("1st p99", 7),
    ("base p99", 8),
    ("x base", 6),
    ("x first", 7),
    ("ms/press", 8),
)


def quiz_row(step: QuizStep, first: QuizStep) -> str:
    f, b = step.load, step.baseline
    cells = (
        str(step.rooms),
        fmt(f["presses_per_s"], 1),
        fmt(f["lockout_p50"]),
        fmt(f["lockout_p99"]),
        fmt(f["first_p99"]),
        fmt(b["lockout_p99"]),
        fmt(f["lockout_p99"] / b["lockout_p99"] if b["lockout_p99"] else math.nan),
        fmt(f["lockout_p99"] / first.load["lockout_p99"] if first.load["lockout_p99"] else math.nan),
        fmt(f["cpu_ms_per_press"], 2),
    )
    columns = " ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, QUIZ_COLUMNS, strict=True))
    return f"{columns}  {step.problems} load_average={step.machine_load}"


def quiz_conclusion(steps: Sequence[QuizStep], label: str) -> str:
    within = [
        step.rooms
        for step in steps
        if step.load["lockout_p99"] <= QUIZ_GOAL_P99_MS and step.problems.startswith("resyncs=0 ")
    ]
    tried = ", ".join(str(step.rooms) for step in steps)
    if not within:
        return f"{label}: no room count tried ({tried}) kept the press -> lock-out p99 <= {QUIZ_GOAL_P99_MS:g} ms"
    largest = max(within)
    above = [step.rooms for step in steps if step.rooms > largest]
    tail = f"; {min(above)} rooms did not" if above else f" (the largest tried; the limit is above {largest})"
    return f"{label}: holds {largest} quiz rooms within press -> lock-out p99 <= {QUIZ_GOAL_P99_MS:g} ms{tail}"


async def quiz_sweep(label: str, args: argparse.Namespace, instances: int, cluster: list[str]) -> list[QuizStep]:
    print(f"\n{label}")
    print(" ".join(f"{name:>{width}}" for name, width in QUIZ_COLUMNS) + "  problems")
    steps: list[QuizStep] = []
    for rooms in args.rooms:
        try:
            results, resyncs, expired, _relayed = await quiz_live.measure_rooms(
                quiz_options(args, rooms, instances), cluster, quiet=True
            )
        except Exception as error:  # one room count failing (e.g. setup starved of CPU) does not end the sweep
            print(f"{rooms:>5} failed: {type(error).__name__}: {error}", flush=True)
            continue
        step = QuizStep(
            rooms,
            quiz_figures([loaded for _, loaded in results]),
            quiz_figures([alone for alone, _ in results]),
            f"resyncs={resyncs} answer_time_expired={expired}",
            load_average(),
        )
        steps.append(step)
        print(quiz_row(step, steps[0]), flush=True)
    if steps:
        print(quiz_conclusion(steps, label))
    else:
        print(f"{label}: no room count could be measured")
    return steps


async def run_quiz(args: argparse.Namespace) -> int:
    if not args.pack.is_file():
        print(f"no pack at {args.pack} (../shared/data/quiz/siq/1.siq, or pass --pack)")
        return 2
    print(
        f"load: quiz rooms x (4 phones + host + projector + {args.spectators} spectators), {args.presses} press "
        f"cycles per room per run at {args.pace:g}/s, {args.runs} runs per room count, arrival arbitration, "
        f"+1 baseline room pressing alone in the same run ({args.baseline_presses} presses), fresh server(s) per "
        "room count, loopback"
    )
    pinned = "server on CPU 0, client on CPU 1" if args.pin and len(os.sched_getaffinity(0)) > 1 else "not pinned"
    print(f"machine: {os.cpu_count()} CPUs, one instance {pinned}, load average before start {load_average()}")
    if args.pin and len(os.sched_getaffinity(0)) > 1:
        pin_client(1)
    if 1 in args.instances:
        await quiz_sweep("one instance (SQLite, in-process bus)", args, 1, [])
    if 2 in args.instances:
        for reason in (await redis_reachable(args.bus), await postgres_reachable(args.db)):
            if reason is not None:
                print(f"\ntwo instances: skipped ({reason})")
                break
        else:
            async with private_namespace(args.db, args.bus, args.server_src) as (db, extra, where):
                print(f"\ntwo instances: data in {where}")
                cluster = ["--db", db, "--bus", args.bus, *extra]
                await quiz_sweep("two instances (PostgreSQL + Redis, not pinned, routing room)", args, 2, cluster)
    print(f"load average at the end {load_average()}")
    return 0


async def run(args: argparse.Namespace) -> int:
    if args.kind == "quiz":
        return await run_quiz(args)
    server_cpu, client_cpu = pinning(args.pin)
    pin_client(client_cpu)
    pin_note = f"one server on CPU {server_cpu}, client on CPU {client_cpu}" if server_cpu is not None else "not pinned"
    print(
        f"load: togyz games x (2 players + {args.spectators} spectators), pace {args.pace:g} move/s per game, "
        f"{args.runs} runs x {args.seconds:g} s per room count, fresh server(s) per room count, loopback"
    )
    print(f"machine: {os.cpu_count()} CPUs, {pin_note}, load average before start {load_average()}")
    if args.capacity:
        await capacity(args)
    else:
        if 1 in args.instances:
            await run_sweep("one instance (SQLite, in-process bus)", args, StartServers(args, 1))
        if 2 in args.instances:
            await two_instances(args)
    print(f"load average at the end {load_average()}")
    return 0


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rooms", default="10,50,100,200,400", help="room counts, comma-separated")
    parser.add_argument("--spectators", type=int, default=2, help="spectators per game (default 2)")
    parser.add_argument("--pace", type=float, default=1.0, help="moves per second per game (default 1)")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each run (default 8)")
    parser.add_argument("--runs", type=int, default=3, help="runs per room count; medians are printed (default 3)")
    parser.add_argument("--instances", default="1,2", help="1, 2 or 1,2; with --capacity also 3 (default 1,2)")
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="find the largest game count within p99 <= 50 ms for each of --instances (all on PostgreSQL + Redis) "
        "and print the ratios against one instance",
    )
    parser.add_argument("--max-rooms", type=int, default=3200, help="--capacity: the most games tried (default 3200)")
    parser.add_argument("--refine", type=int, default=3, help="--capacity: bisection steps (default 3)")
    parser.add_argument("--db", default=DEFAULT_DB, help=f"PostgreSQL for two instances (default {DEFAULT_DB})")
    parser.add_argument("--bus", default=DEFAULT_BUS, help=f"Redis for two instances (default {DEFAULT_BUS})")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server and client to CPUs")
    parser.add_argument("--no-compression", action="store_true", help="do not offer permessage-deflate")
    parser.add_argument(
        "--routing",
        choices=("room", "split"),
        default="room",
        help="room: every socket of a game on the instance its room id hashes to, as nginx routes them "
        "(docs/deploy.md; default); split: white and a spectator on the creating instance, black and the other "
        "spectator on the next (the worst case: half of the moves forwarded)",
    )
    parser.add_argument("--server-src", type=Path, help="run the servers from this folder's toreshi package")
    parser.add_argument("--kind", choices=("togyz", "quiz"), default="togyz", help="the rooms to load (default togyz)")
    quiz = parser.add_argument_group("quiz rooms (--kind quiz; --pace is then press cycles a second per room)")
    quiz.add_argument("--presses", type=int, default=6, help="press cycles per room per run (default 6)")
    quiz.add_argument("--baseline-presses", type=int, default=10, help="presses of the baseline room (default 10)")
    quiz.add_argument("--pack", type=Path, default=quiz_live.DEFAULT_PACK, help="the .siq pack of the games")
    args = parser.parse_args(argv)
    try:
        args.rooms = sorted({int(part) for part in args.rooms.split(",") if part.strip()})
        args.instances = {int(part) for part in args.instances.split(",") if part.strip()}
    except ValueError:
        parser.error("--rooms and --instances are comma-separated whole numbers")
    allowed = {1, 2, 3} if args.capacity and args.kind == "togyz" else {1, 2}
    if not args.rooms or min(args.rooms) < 1 or not args.instances or not args.instances <= allowed:
        parser.error("--rooms: numbers >= 1; --instances: 1, 2 or 1,2 (1,2,3 with --capacity)")
    if args.runs < 1 or args.pace <= 0 or args.seconds <= 0 or args.spectators < 0:
        parser.error("runs >= 1; pace, seconds > 0; spectators >= 0")
    if args.kind == "quiz":
        held = len(quiz_live.CELLS) * 4
        if args.presses < 1 or args.baseline_presses < 1:
            parser.error("--presses and --baseline-presses: >= 1")
        if args.runs * max(args.presses, args.baseline_presses) > held:
            parser.error(f"a quiz room holds {held} presses: lower --runs, --presses or --baseline-presses")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments(argv)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(run(args))
    return uvloop.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
