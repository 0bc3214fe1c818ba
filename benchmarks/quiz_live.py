"""«Своя игра» live rooms under load: press-to-lock-out broadcast latency and server CPU per press (issue 7 §5).

One ``toreshi serve`` process on SQLite in a temporary folder (loopback only). The benchmark signs in as the first
arbiter and creates ``--rooms`` qualifying games through the new-game form (from a ``.siq`` pack, ``--pack``), plus
one more room for the baseline. Every room gets ``--teams`` team connections (by their join codes), the host, the
projector and ``--spectators`` spectators; every client answers the server's clock pings as a browser does, and the
teams send ``sync`` after the join burst as the phone page does.

A **press cycle** in a room: a team sends ``press`` (its touch time on its ping clock); the room decides (the
``--mode`` arbitration; in ``arrival`` mode at once, in ``compensated`` mode after its collection window) and
broadcasts ``buzzed``: every phone locks, the projector shows who answers. The **lock-out latency** of a press is
from the moment the press is sent to the moment the *last* connection of the room has received ``buzzed``; the
**received latency** is the same for ``press_received`` (the button is in, before arbitration; one frame with
``buzzed`` when the room decides at once); the **first** latency is to the *first* connection with ``buzzed`` (the
rest of the lock-out latency is the fan-out to the room's other connections). The host then rules
(wrong for the first three teams, right for the fourth: the other teams press next, reading resumes) and chooses
the next question after the fourth press; each press therefore also carries its share of host commands and their
broadcasts. Arrival times are taken when the client's event loop reads each frame (the client runs in this process;
its CPU use is printed: near 100 % of a core, latencies are the client's).

Each run has three phases, on the same server with all connections open:

- **idle** (``--idle-seconds``): nobody presses; the server's CPU rate here is the background (clock pings);
- **baseline**: one room alone presses ``--baseline-presses`` times, ``--baseline-gap-ms`` apart;
- **load**: every room presses ``--presses`` times at ``--pace`` press cycles per second, each room with its own
  random phase.

Server CPU per press = (server CPU in the phase − idle rate × phase length) ÷ presses (``/proc/<pid>/stat``, all
threads). Printed: each phase of each run, then medians over ``--runs`` and the load/baseline ratios.

**Tap → lamp** (issue 31): from the moment a team's phone sends ``press`` to the moment the host's console and the
projector each receive ``buzzed`` (the lit lamp), p50/p99 and max per phase. Its same-run baseline is a **bare
WebSocket relay**: a few lines of the ``websockets`` library in their own process (pinned to the server's CPU),
where a group of as many sockets as a room has (teams + host + projector + spectators) are connected and whatever
one sends is broadcast to the others at once, no room, no rules, no log. In each run, after the one-room baseline,
one "phone" of the relay sends ``--baseline-presses`` messages ``--baseline-gap-ms`` apart and the time until the
"projector" socket of the relay receives each is taken: what any WebSocket server costs on this machine now. The
``× relay`` ratios are what the app adds over it; they hold on a loaded or other machine where the bare ms do not.

    python benchmarks/quiz_live.py [--rooms 50] [--teams 4] [--spectators 20] [--presses 12] [--pace 1.0]
                                   [--runs 3] [--mode arrival|compensated|random_window] [--pack PATH]

By default the server is pinned to CPU 0 and the client to CPU 1 (``--no-pin`` to let the scheduler choose).

``--instances 2`` runs two servers on PostgreSQL (``--db``) and Redis (``--bus``) instead, in a private schema and
Redis prefix removed afterwards (issue 18 §2), not pinned. The games are created through the first one, and every
connection of a room goes to the instance its room id hashes to, as docs/deploy.md's nginx routes them (the room's
lease follows its sockets there). Server CPU is summed over both.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_PACK = REPO.parent / "shared" / "data" / "quiz" / "siq" / "1.siq"
ARBITER = ("Bench Host", "svoya-igra-bench-5!")
TEAM_NAMES = ("Алтын", "Барыс", "Сұңқар", "Тұлпар")
GOAL_P99_MS = 20.0
TIMEOUT_S = 20.0
SYNC_AFTER_S = 1.2
"""Teams send ``sync`` once the server's join burst of 8 pings (100 ms apart) has measured their link."""
CELLS = [(theme, value) for theme in range(5) for value in range(1, 6)][:24]
"""The 25th question needs the score announced first (SI-4.7): a room plays at most 24 here, 4 presses each."""
EVENT_HEAD = re.compile(r'\{"t":"event","room":"[^"]*","v":(\d+),"type":"([a-z_]+)"')
"""Events are read by their head only (the server writes ``t, room, v, type`` first): the client stays light. An
``events`` frame (a command's events together) holds several such heads."""
EVENTS_FRAME = '{"t":"events",'

CODE = re.compile(r'<p class="join-code">([A-Z0-9]+)-([A-Z0-9]+)</p>')
CLK_TCK = os.sysconf("SC_CLK_TCK")


def client_ms() -> float:
    """This client's clock for pings and touches (any clock will do, as long as both use it)."""
    return time.monotonic() * 1000


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1))]


def fmt(value: float, digits: int = 1) -> str:
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


# --- the server ------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``toreshi serve`` on 127.0.0.1 with its own data folder; stopped by :meth:`stop` whatever happens."""

    def __init__(
        self,
        data_dir: Path,
        cpu: int | None,
        profile: Path | None = None,
        extra: Sequence[str] = (),
        name: str = "server",
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = data_dir / f"{name}.log"
        script = Path(sys.executable).parent / "toreshi"
        command = [str(script)] if script.exists() else [sys.executable, "-m", "toreshi"]
        self.profiling = profile is not None
        if profile is not None:  # cProfile writes its statistics when the server stops on SIGINT
            command = [sys.executable, "-m", "cProfile", "-o", str(profile.resolve()), "-m", "toreshi"]
        command += ["serve", "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(data_dir), *extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        for name in ("TORESHI_DB", "TORESHI_BUS", "TORESHI_DB_SCHEMA", "TORESHI_BUS_PREFIX"):
            env.pop(name, None)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=REPO)
        if cpu is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self.process.pid, {cpu})

    async def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        async with httpx.AsyncClient(base_url=self.url) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited: {self.log_tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get("/api/health", timeout=2)).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log_tail()}")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def log_tail(self, lines: int = 15) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return "(no log)"

    def stop(self) -> None:
        if self.process.poll() is None:
            # uvicorn stops cleanly on either and then re-raises the signal: SIGINT lets cProfile write its file.
            self.process.send_signal(signal.SIGINT if self.profiling else signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


# --- creating games through the pages --------------------------------------------------------------------------


@dataclass
class Created:
    room_id: str
    secrets: list[str]
    """The teams' join secrets, in seat order."""
    host: str
    projector: str


class Arbiter:
    """The signed-in arbiter creating games with the new-game form, as in a browser."""

    def __init__(self, url: str) -> None:
        self.client = httpx.AsyncClient(base_url=url, timeout=60)
        self.signed_in: httpx.Cookies | None = None
        self.csrf = ""

    async def sign_in(self) -> None:
        name, password = ARBITER
        csrf = (await self.client.get("/api/session")).json()["csrf"]
        await self.client.post("/setup", data={"name": name, "password": password, "confirm": password, "csrf": csrf})
        session = (await self.client.get("/api/session")).json()
        if session.get("arbiter") != name:
            raise RuntimeError(f"could not sign in as the arbiter: {session}")
        self.csrf = str(session["csrf"])
        self.signed_in = httpx.Cookies(self.client.cookies)

    async def create(self, pack: Path, teams: int, mode: str, number: int) -> Created:
        assert self.signed_in is not None
        # The links page keeps each game's secrets in the session cookie: start every game from the cookie of the
        # sign-in, or 50 games would outgrow a cookie.
        self.client.cookies = httpx.Cookies(self.signed_in)
        form = {
            "csrf": self.csrf,
            "title": f"Bench {number}",
            "kind": "qualifying",
            "round": "1",
            "first_theme": "1",
            "reading": "host",
            "arbitration": mode,
            "assistant": "Ерлан",
            "assistant_team": "Жолбарыс",
            **{f"team{seat}": name for seat, name in enumerate(TEAM_NAMES[:teams], start=1)},
        }
        files = {"pack": (pack.name, pack.read_bytes(), "application/octet-stream")}
        response = await self.client.post("/quiz/new", data=form, files=files)
        if response.status_code != 303:
            raise RuntimeError(f"POST /quiz/new answered {response.status_code}: {response.text[:300]}")
        links_path = response.headers["location"]
        room_id = links_path.split("/")[2]
        links = (await self.client.get(links_path)).text
        tokens = dict(re.findall(rf"/quiz/{room_id}/(host|board)\?token=([\w-]+)", links))
        secrets = [secret for _room, secret in CODE.findall(links)]
        if len(secrets) != teams or set(tokens) != {"host", "board"}:
            raise RuntimeError(f"the links page of {room_id} did not show the codes and links")
        return Created(room_id, secrets, tokens["host"], tokens["board"])

    async def close(self) -> None:
        await self.client.aclose()


# --- clients ---------------------------------------------------------------------------------------------------


class Connection:
    """One socket to a room: answers pings, matches acks to commands, reports event heads to its room."""

    def __init__(self, room: Room, role: str) -> None:
        self.room = room
        self.role = role
        self.ws: ClientConnection | None = None
        self.reader: asyncio.Task[None] | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.next_id = 0

    async def open(self, url: str, token: str | None) -> None:
        self.ws = await connect(url, compression=None, ping_interval=None, max_size=None, open_timeout=TIMEOUT_S)
        self.reader = asyncio.create_task(self.read())
        hello: dict[str, Any] = {"t": "hello", "v": 0}
        if token:
            hello["token"] = token
        await self.ws.send(json.dumps(hello))
        await asyncio.wait_for(asyncio.shield(self.ready), TIMEOUT_S)

    async def read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                now = time.perf_counter()
                text = raw if isinstance(raw, str) else raw.decode()
                if text.startswith(EVENTS_FRAME):
                    for _version, kind in EVENT_HEAD.findall(text):
                        self.room.on_event(self, kind, now)
                    continue
                head = EVENT_HEAD.match(text)
                if head is not None:
                    self.room.on_event(self, head.group(2), now)
                    continue
                message = json.loads(text)
                kind = message.get("t")
                if kind == "ping":
                    await self.ws.send(json.dumps({"t": "pong", "id": message["id"], "tc": client_ms()}))
                elif kind in ("ack", "refused"):
                    future = self.pending.pop(str(message.get("id")), None)
                    if future is not None and not future.done():
                        future.set_result(message)
                elif kind == "snapshot" and not self.ready.done():
                    self.ready.set_result(None)
                elif kind == "resync":
                    self.room.bench.resyncs += 1
                    await self.ws.send(json.dumps({"t": "hello", "v": 0}))
        if not self.ready.done():
            self.ready.set_exception(RuntimeError(f"a {self.role} connection closed before its snapshot"))

    async def command(
        self, kind: str, data: dict[str, Any] | None = None, *, may_refuse: bool = False
    ) -> dict[str, Any]:
        """Send a command and wait for its answer; a refusal is an error here (the script plays by the rules)
        unless ``may_refuse``."""
        assert self.ws is not None
        self.next_id += 1
        command_id = str(self.next_id)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[command_id] = future
        await self.ws.send(json.dumps({"t": "cmd", "id": command_id, "type": kind, "data": data or {}}))
        answer = await asyncio.wait_for(future, TIMEOUT_S)
        if answer["t"] != "ack" and not may_refuse:
            raise RuntimeError(f"{self.role} {kind} refused in {self.room.room_id}: {answer}")
        return answer

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader


@dataclass
class Watch:
    """One press being followed until every connection of its room has the lock-out."""

    sent: float
    seen: dict[str, set[int]] = field(default_factory=lambda: {"press_received": set(), "buzzed": set()})
    lamp: dict[str, float] = field(default_factory=dict)
    """When the host's console and the projector got ``buzzed`` (the lit lamp), by role."""
    done: dict[str, float] = field(default_factory=dict)
    first: dict[str, float] = field(default_factory=dict)
    locked: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Phase:
    """The figures of one phase of one run."""

    name: str
    lockout_ms: list[float] = field(default_factory=list)
    received_ms: list[float] = field(default_factory=list)
    first_ms: list[float] = field(default_factory=list)
    """From the press to the *first* connection of the room having ``buzzed``: the rest is the fan-out."""
    lamp_ms: dict[str, list[float]] = field(default_factory=lambda: {"host": [], "projector": []})
    """Tap → lamp: from the press to the host's console / the projector having ``buzzed``."""
    seconds: float = 0.0
    server_cpu_s: float = 0.0
    client_cpu_s: float = 0.0
    idle_cpu_rate: float = 0.0

    @property
    def presses(self) -> int:
        return len(self.lockout_ms)

    @property
    def cpu_ms_per_press(self) -> float:
        if not self.presses:
            return math.nan
        return max(0.0, self.server_cpu_s - self.idle_cpu_rate * self.seconds) * 1000 / self.presses

    def line(self) -> str:
        return (
            f"{self.name}: presses={self.presses} presses/s={fmt(self.presses / self.seconds if self.seconds else 0)} "
            f"lockout_p50_ms={fmt(percentile(self.lockout_ms, 0.5))} "
            f"lockout_p99_ms={fmt(percentile(self.lockout_ms, 0.99))} "
            f"first_p50_ms={fmt(percentile(self.first_ms, 0.5))} first_p99_ms={fmt(percentile(self.first_ms, 0.99))} "
            f"received_p50_ms={fmt(percentile(self.received_ms, 0.5))} "
            f"received_p99_ms={fmt(percentile(self.received_ms, 0.99))} "
            + "".join(
                f"tap_lamp_{role}_p50_ms={fmt(percentile(ms, 0.5))} tap_lamp_{role}_p99_ms={fmt(percentile(ms, 0.99))} "
                f"tap_lamp_{role}_max_ms={fmt(max(ms, default=math.nan))} "
                for role, ms in self.lamp_ms.items()
            )
            + f"server_cpu_ms_per_press={fmt(self.cpu_ms_per_press, 2)} "
            f"server_cpu={fmt(100 * self.server_cpu_s / self.seconds if self.seconds else math.nan, 0)}% "
            f"client_cpu={fmt(100 * self.client_cpu_s / self.seconds if self.seconds else math.nan, 0)}%"
        )


class Room:
    """One game: its connections, where its board stands, and the press being followed."""

    def __init__(self, bench: Bench, created: Created) -> None:
        self.bench = bench
        self.room_id = created.room_id
        self.created = created
        self.connections: list[Connection] = []
        self.host = Connection(self, "host")
        self.teams = [Connection(self, "team") for _ in created.secrets]
        self.watch: Watch | None = None
        self.cell = 0
        self.pressed_in_cell = 0

    async def join(self, spectators: int) -> None:
        servers = self.bench.servers
        home = servers[zlib.crc32(self.room_id.encode()) % len(servers)]  # as nginx's `hash $uri consistent`
        url = f"{home.url.replace('http', 'ws', 1)}/ws/rooms/{self.room_id}"
        projector = Connection(self, "projector")
        others = [Connection(self, "spectator") for _ in range(spectators)]
        self.connections = [self.host, projector, *self.teams, *others]
        tokens = [self.created.host, self.created.projector, *self.created.secrets, *([None] * spectators)]
        for connection, token in zip(self.connections, tokens, strict=True):
            await connection.open(url, token)

    async def start(self) -> None:
        await self.host.command("draw", {"team": TEAM_NAMES[0]})
        await self.choose()

    async def sync(self) -> None:
        for team in self.teams:
            await team.command("sync")

    async def choose(self) -> None:
        if self.cell >= len(CELLS):
            raise RuntimeError("a room ran out of questions: lower --presses or --runs")
        theme, value = CELLS[self.cell]
        await self.host.command("choose", {"theme": theme, "value": value})
        self.pressed_in_cell = 0

    def on_event(self, connection: Connection, kind: str, now: float) -> None:
        watch = self.watch
        if watch is None or kind not in watch.seen:
            return
        seen = watch.seen[kind]
        watch.first.setdefault(kind, now)
        seen.add(id(connection))
        if kind == "buzzed" and connection.role in ("host", "projector"):
            watch.lamp.setdefault(connection.role, now)
        if len(seen) == len(self.connections):
            watch.done[kind] = now
            if kind == "buzzed":
                watch.locked.set()

    async def press_cycle(self, phase: Phase) -> None:
        """One team presses; wait until the whole room is locked out; the host rules (and chooses the next)."""
        teams = len(self.teams)
        team = self.teams[(self.cell + self.pressed_in_cell) % teams]
        self.watch = watch = Watch(time.perf_counter())
        ack = asyncio.create_task(team.command("press", {"tc": client_ms()}))
        await asyncio.wait_for(watch.locked.wait(), TIMEOUT_S)
        await ack
        self.watch = None
        phase.lockout_ms.append((watch.done["buzzed"] - watch.sent) * 1000)
        phase.received_ms.append((watch.done["press_received"] - watch.sent) * 1000)
        phase.first_ms.append((watch.first["buzzed"] - watch.sent) * 1000)
        for role, ms in phase.lamp_ms.items():
            ms.append((watch.lamp[role] - watch.sent) * 1000)
        self.pressed_in_cell += 1
        last = self.pressed_in_cell == teams
        ruling = await self.host.command("right" if last else "wrong", may_refuse=True)
        if ruling["t"] != "ack":  # the 5 s answer time ran out first (SI-3.7): the room ruled it wrong itself
            self.bench.expired += 1
        if last:
            self.cell += 1
            await self.choose()

    async def close(self) -> None:
        for connection in self.connections:
            await connection.close()


# --- the baseline: a bare WebSocket relay -----------------------------------------------------------------------


async def relay_main(port: int) -> None:
    """The relay's process: every message a socket sends goes to the other sockets of its path, nothing else."""
    from websockets.asyncio.server import ServerConnection, broadcast, serve

    groups: dict[str, set[ServerConnection]] = {}

    async def handler(ws: ServerConnection) -> None:
        group = groups.setdefault(ws.request.path if ws.request else "/", set())
        group.add(ws)
        try:
            async for message in ws:
                broadcast([other for other in group if other is not ws], message)
        finally:
            group.discard(ws)

    async with serve(handler, "127.0.0.1", port, compression=None, ping_interval=None, max_size=None):
        await asyncio.Future()


class Relay:
    """The bare relay in its own process (pinned like the server), and one group of a room's size connected to it."""

    def __init__(self, cpu: int | None) -> None:
        self.port = free_port()
        command = [sys.executable, str(Path(__file__).resolve()), "--relay-server", str(self.port)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if cpu is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(self.process.pid, {cpu})
        self.sockets: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []
        self.waiting: dict[str, asyncio.Future[float]] = {}

    async def join(self, size: int) -> None:
        url = f"ws://127.0.0.1:{self.port}/room"
        deadline = time.monotonic() + 30
        while not self.sockets:
            try:
                self.sockets.append(await connect(url, compression=None, ping_interval=None, max_size=None))
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)
        for _ in range(size - 1):
            self.sockets.append(await connect(url, compression=None, ping_interval=None, max_size=None))
        for number, ws in enumerate(self.sockets):
            self.readers.append(asyncio.create_task(self.read(ws, lamp=number == 1)))

    async def read(self, ws: ClientConnection, *, lamp: bool) -> None:
        with contextlib.suppress(Exception):
            async for raw in ws:
                now = time.perf_counter()
                if lamp:  # the others read and drop what they get, as a room's spectators do
                    text = raw if isinstance(raw, str) else raw.decode()
                    future = self.waiting.pop(json.loads(text)["id"], None)
                    if future is not None and not future.done():
                        future.set_result(now)

    async def phase(self, messages: int, gap_ms: float) -> list[float]:
        """``messages`` sends by the "phone" (socket 0), each timed until the "projector" (socket 1) has it."""
        times = []
        for number in range(messages):
            key = str(number)
            future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            self.waiting[key] = future
            sent = time.perf_counter()
            await self.sockets[0].send(json.dumps({"t": "cmd", "id": key, "type": "press", "data": {"tc": 0}}))
            times.append((await asyncio.wait_for(future, TIMEOUT_S) - sent) * 1000)
            await asyncio.sleep(gap_ms / 1000)
        return times

    async def close(self) -> None:
        for ws in self.sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        for reader in self.readers:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


# --- the benchmark -----------------------------------------------------------------------------------------------


class Servers(list[Server]):
    """The instances of a run; their CPU is summed."""

    def cpu_seconds(self) -> float:
        return sum(server.cpu_seconds() for server in self)


class Bench:
    def __init__(self, args: argparse.Namespace, servers: Sequence[Server], quiet: bool = False) -> None:
        self.args = args
        self.quiet = quiet
        self.servers = Servers(servers)
        self.server = self.servers
        self.rooms: list[Room] = []
        self.baseline: Room | None = None
        self.relay: Relay | None = None
        self.relayed: list[list[float]] = []
        """Each run's bare-relay times (ms): the tap → lamp baseline."""
        self.resyncs = 0
        self.expired = 0
        """Answers the host could not rule in time: the lock-out took seconds (the server is overloaded)."""

    async def setup(self) -> None:
        args = self.args
        arbiter = Arbiter(self.servers[0].url)
        try:
            await arbiter.sign_in()
            created = [await arbiter.create(args.pack, args.teams, args.mode, n) for n in range(args.rooms + 1)]
        finally:
            await arbiter.close()
        rooms = [Room(self, game) for game in created]
        joining = asyncio.Semaphore(8)

        async def join(room: Room) -> None:
            async with joining:
                await room.join(args.spectators)

        await asyncio.gather(*(join(room) for room in rooms))
        await asyncio.gather(*(room.start() for room in rooms))
        await asyncio.sleep(SYNC_AFTER_S)
        await asyncio.gather(*(room.sync() for room in rooms))
        self.baseline, self.rooms = rooms[0], rooms[1:]
        self.relay = Relay(0 if args.pin and len(self.servers) == 1 else None)
        await self.relay.join(args.teams + 2 + args.spectators)

    async def measure(self, name: str, work: Any, idle_rate: float) -> Phase:
        phase = Phase(name, idle_cpu_rate=idle_rate)
        cpu, client, started = self.server.cpu_seconds(), time.process_time(), time.perf_counter()
        await work(phase)
        phase.seconds = time.perf_counter() - started
        phase.server_cpu_s = self.server.cpu_seconds() - cpu
        phase.client_cpu_s = time.process_time() - client
        return phase

    async def idle(self, phase: Phase) -> None:
        await asyncio.sleep(self.args.idle_seconds)

    async def alone(self, phase: Phase) -> None:
        assert self.baseline is not None
        for _ in range(self.args.baseline_presses):
            await self.baseline.press_cycle(phase)
            await asyncio.sleep(self.args.baseline_gap_ms / 1000)

    async def load(self, phase: Phase) -> None:
        period = 1 / self.args.pace
        rng = random.Random(len(phase.lockout_ms) + self.args.presses)

        async def play(room: Room, offset: float) -> None:
            due = time.perf_counter() + offset
            for _ in range(self.args.presses):
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                await room.press_cycle(phase)
                due = max(due + period, time.perf_counter())

        await asyncio.gather(*(play(room, rng.uniform(0, period)) for room in self.rooms))

    async def run(self) -> list[tuple[Phase, Phase]]:
        results = []
        assert self.relay is not None
        for number in range(1, self.args.runs + 1):
            idle = await self.measure("idle", self.idle, 0.0)
            rate = idle.server_cpu_s / idle.seconds
            baseline = await self.measure("baseline (1 room)", self.alone, rate)
            relayed = await self.relay.phase(self.args.baseline_presses, self.args.baseline_gap_ms)
            self.relayed.append(relayed)
            if not self.quiet:
                print(
                    f"run {number}: bare websocket relay: messages={len(relayed)} "
                    f"p50_ms={fmt(percentile(relayed, 0.5))} p99_ms={fmt(percentile(relayed, 0.99))} "
                    f"max_ms={fmt(max(relayed, default=math.nan))}",
                    flush=True,
                )
            loaded = await self.measure(f"load ({len(self.rooms)} rooms)", self.load, rate)
            if not self.quiet:
                print(f"run {number}: idle server_cpu={fmt(100 * rate, 0)}%", flush=True)
                print(f"run {number}: {baseline.line()}", flush=True)
                print(f"run {number}: {loaded.line()}", flush=True)
            results.append((baseline, loaded))
        return results

    async def close(self) -> None:
        for room in [*self.rooms, *([self.baseline] if self.baseline else [])]:
            await room.close()
        if self.relay is not None:
            await self.relay.close()


def summary(
    args: argparse.Namespace,
    results: list[tuple[Phase, Phase]],
    resyncs: int,
    expired: int,
    relayed: list[list[float]] | None = None,
) -> list[str]:
    def median(values: list[float]) -> float:
        values = [v for v in values if not math.isnan(v)]
        return statistics.median(values) if values else math.nan

    def ratio(top: float, bottom: float) -> float:
        return top / bottom if bottom and not math.isnan(top) and not math.isnan(bottom) else math.nan

    figures = {}
    for label, index in (("baseline", 0), ("load", 1)):
        phases = [pair[index] for pair in results]
        figures[label] = {
            "lockout_p50": median([percentile(p.lockout_ms, 0.5) for p in phases]),
            "lockout_p99": median([percentile(p.lockout_ms, 0.99) for p in phases]),
            "first_p50": median([percentile(p.first_ms, 0.5) for p in phases]),
            "first_p99": median([percentile(p.first_ms, 0.99) for p in phases]),
            "received_p50": median([percentile(p.received_ms, 0.5) for p in phases]),
            "received_p99": median([percentile(p.received_ms, 0.99) for p in phases]),
            "cpu": median([p.cpu_ms_per_press for p in phases]),
            "rate": median([p.presses / p.seconds for p in phases if p.seconds]),
        }
    base, load = figures["baseline"], figures["load"]
    lines = []
    for label, f in figures.items():
        lines.append(
            f"median {label}: presses/s={fmt(f['rate'])} lockout_p50_ms={fmt(f['lockout_p50'])} "
            f"lockout_p99_ms={fmt(f['lockout_p99'])} first_p50_ms={fmt(f['first_p50'])} "
            f"first_p99_ms={fmt(f['first_p99'])} received_p50_ms={fmt(f['received_p50'])} "
            f"received_p99_ms={fmt(f['received_p99'])} server_cpu_ms_per_press={fmt(f['cpu'], 2)}"
        )
    lines.append(
        f"ratio load/baseline: lockout_p50={fmt(ratio(load['lockout_p50'], base['lockout_p50']), 2)} "
        f"lockout_p99={fmt(ratio(load['lockout_p99'], base['lockout_p99']), 2)} "
        f"cpu_per_press={fmt(ratio(load['cpu'], base['cpu']), 2)}"
    )
    relayed = relayed or []
    relay_p50 = median([percentile(ms, 0.5) for ms in relayed])
    relay_p99 = median([percentile(ms, 0.99) for ms in relayed])
    relay_max = max((max(ms) for ms in relayed if ms), default=math.nan)
    lines.append(
        f"tap -> lamp baseline, bare websocket relay ({args.teams + 2 + args.spectators} sockets): "
        f"p50_ms={fmt(relay_p50)} p99_ms={fmt(relay_p99)} max_ms={fmt(relay_max)} (medians of {len(relayed)} runs)"
    )
    for label, index in (("baseline (1 room)", 0), (f"load ({args.rooms} rooms)", 1)):
        for role in ("host", "projector"):
            p50 = median([percentile(pair[index].lamp_ms[role], 0.5) for pair in results])
            p99 = median([percentile(pair[index].lamp_ms[role], 0.99) for pair in results])
            most = max((max(pair[index].lamp_ms[role], default=math.nan) for pair in results), default=math.nan)
            lines.append(
                f"tap -> lamp {label}, {role}: p50_ms={fmt(p50)} ({fmt(ratio(p50, relay_p50), 2)}x relay) "
                f"p99_ms={fmt(p99)} ({fmt(ratio(p99, relay_p99), 2)}x relay) max_ms={fmt(most)}"
            )
    met = not math.isnan(load["lockout_p99"]) and load["lockout_p99"] <= GOAL_P99_MS
    lines.append(f"problems: resyncs={resyncs} answer_time_expired={expired}")
    lines.append(
        f"goal lockout p99 <= {GOAL_P99_MS:.0f} ms for {args.rooms} rooms of {args.teams} teams + host + projector "
        f"+ {args.spectators} spectators ({args.mode}): {'met' if met else 'NOT met'}"
    )
    return lines


async def runner(args: argparse.Namespace) -> int:
    if args.instances == 1:
        return await run_on(args, [])
    from benchmarks.load import postgres_reachable, private_namespace, redis_reachable

    for reason in (await redis_reachable(args.bus), await postgres_reachable(args.db)):
        if reason is not None:
            print(f"two instances: skipped, {reason}")
            return 1
    async with private_namespace(args.db, args.bus, None) as (db, extra, where):
        print(f"two instances on PostgreSQL + Redis ({where})", flush=True)
        return await run_on(args, ["--db", db, "--bus", args.bus, *extra])


async def run_on(args: argparse.Namespace, cluster: list[str]) -> int:
    results, resyncs, expired, relayed = await measure_rooms(args, cluster)
    for line in summary(args, results, resyncs, expired, relayed):
        print(line, flush=True)
    return 0


async def measure_rooms(
    args: argparse.Namespace, cluster: list[str], quiet: bool = False
) -> tuple[list[tuple[Phase, Phase]], int, int, list[list[float]]]:
    """Fresh server(s), ``args.rooms`` rooms and the baseline room, ``args.runs`` runs: each run's (baseline, load)
    phases, the resyncs, the answers ruled by the answer time and each run's bare-relay times (also used by
    ``load.py --kind quiz``)."""
    with tempfile.TemporaryDirectory(prefix="quiz-live-") as folder:
        servers: list[Server] = []
        bench: Bench | None = None
        try:
            if not cluster:
                servers.append(Server(Path(folder), 0 if args.pin else None, args.profile))
            for number in range(args.instances if cluster else 0):  # one at a time: the first migrates
                servers.append(Server(Path(folder), None, None, cluster, name=f"server{number}"))
                await servers[-1].wait_ready()
            for server in servers:
                await server.wait_ready()
            bench = Bench(args, servers, quiet=quiet)
            started = time.perf_counter()
            await bench.setup()
            connections = (args.rooms + 1) * (args.teams + 2 + args.spectators)
            if not quiet:
                print(
                    f"quiz_live: {len(servers)} instance(s), {args.rooms} rooms (+1 baseline room) x "
                    f"({args.teams} teams + host + projector + "
                    f"{args.spectators} spectators) = {connections} connections, mode={args.mode}, "
                    f"pace={args.pace}/s per room, set up in {time.perf_counter() - started:.1f} s",
                    flush=True,
                )
            results = await bench.run()
            return results, bench.resyncs, bench.expired, bench.relayed
        except BaseException:
            for server in servers:
                print(f"server log:\n{server.log_tail()}", file=sys.stderr)
            raise
        finally:
            if bench is not None:
                await bench.close()
            for server in servers:
                server.stop()


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--teams", type=int, default=4, choices=range(2, 5))
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--presses", type=int, default=6, help="presses per room per run under load")
    parser.add_argument("--pace", type=float, default=0.25, help="press cycles per second per room under load")
    parser.add_argument("--baseline-presses", type=int, default=20)
    parser.add_argument("--baseline-gap-ms", type=float, default=50.0)
    parser.add_argument("--idle-seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mode", default="arrival", choices=("arrival", "compensated", "random_window"))
    parser.add_argument("--pack", type=Path, default=DEFAULT_PACK)
    parser.add_argument("--profile", type=Path, help="run the server under cProfile and write its statistics here")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server/client to CPUs 0/1")
    parser.add_argument("--instances", type=int, default=1, choices=(1, 2), help="2: PostgreSQL + Redis (not pinned)")
    parser.add_argument("--db", default="postgresql+asyncpg://postgres@127.0.0.1:5432/test")
    parser.add_argument("--bus", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args(argv)
    presses_per_room = args.runs * args.presses
    if args.rooms < 1 or args.runs < 1 or args.presses < 1 or args.pace <= 0:
        parser.error("rooms, runs, presses and pace must be positive")
    if presses_per_room > len(CELLS) * args.teams or args.runs * args.baseline_presses > len(CELLS) * args.teams:
        parser.error(f"a room holds {len(CELLS) * args.teams} presses: lower --runs, --presses or --baseline-presses")
    if not args.pack.is_file():
        parser.error(f"no pack at {args.pack} (../shared/data/quiz/siq/1.siq, or pass --pack)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments[:1] == ["--relay-server"]:  # the baseline's own process (see Relay)
        try:
            import uvloop
        except ImportError:  # pragma: no cover
            asyncio.run(relay_main(int(arguments[1])))
        else:
            uvloop.run(relay_main(int(arguments[1])))
        return 0
    args = parse_args(argv)
    if args.pin and len(os.sched_getaffinity(0)) > 1:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {1})
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is a dependency on Linux
        return asyncio.run(runner(args))
    return uvloop.run(runner(args))


if __name__ == "__main__":
    sys.exit(main())
