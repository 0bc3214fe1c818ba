"""Live games over the real server: N togyz games with spectators, random legal moves at a fixed pace (issue 5 §5).

One ``toreshi serve`` process on SQLite in a temporary folder (loopback only). The benchmark signs in as the first
arbiter, creates ``--games`` games over ``POST /api/games``, starts each from an arbiter socket, and connects both
players (by their tokens) and ``--spectators`` spectators per game. Every client answers the server's clock pings,
as a browser does. Each game then sends one command every ``1 / --pace`` seconds (random phase per game, at most
one command in flight per game) in alternating windows of ``--seconds``:

- **noop** (the baseline, same clients, same pace): the player *not* to move sends ``move`` (hole 1), which the
  room's rules refuse (``not_your_turn``) — the full socket, room-lock and decide path, but nothing persisted or
  broadcast;
- **move**: the player to move plays a random legal move (``legal`` from the state it was last sent).

Per window: commands/s, acknowledgement latency (cmd sent → ack/refused received), broadcast latency (cmd sent →
each spectator received the event), server CPU per command (``/proc/<pid>/stat`` before/after, all threads) and the
client's own CPU (if the client saturates, latencies are the client's). Memory per live room = server RSS growth
while the games were created and connected ÷ games (after one warm-up game that stays connected and idle). Games use
the ``rapid`` preset (20 min each) so that no flag falls during a run. A game that ends is replaced by a new one
(counted; in rapid nobody signs a score sheet, TK-B2). Commands sent in a window count with their full latency even
when answered after it; throughput counts only the answers that arrived within it. Printed: each window, then
medians over ``--runs`` and the move/noop ratios.

    python benchmarks/live_games.py [--games 200] [--spectators 2] [--pace 1.0] [--seconds 10] [--runs 3]

By default the server is pinned to CPU 0 and the client to CPU 1 (``--no-pin`` to let the scheduler choose).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

REPO = Path(__file__).resolve().parents[1]
ARBITER_NAME = "Bench Arbiter"
ARBITER_PASSWORD = "benchmark-password-82"
GOAL_P99_MS = 50.0
COMMAND_TIMEOUT_S = 10.0
SETUP_TIMEOUT_S = 60.0
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")

# --- the server process ------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def toreshi_executable() -> list[str]:
    script = Path(sys.executable).parent / "toreshi"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from toreshi.cli import main; main()"]


def source_environment(source: Path | None) -> dict[str, str]:
    """The environment that makes Python import toreshi from ``source`` (nothing for the installed one)."""
    if source is None:
        return {}
    return {"PYTHONPATH": os.pathsep.join([str(source.resolve()), os.environ.get("PYTHONPATH", "")]).rstrip(":")}


def serve_options(source: Path | None = None) -> str:
    """The text of ``toreshi serve --help`` (to see which options this version has)."""
    env = {**os.environ, "COLUMNS": "200", "TERM": "dumb", **source_environment(source)}
    done = subprocess.run(
        [*toreshi_executable(), "serve", "--help"], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    return done.stdout


@dataclass
class ServerProcess:
    """One ``toreshi serve`` on 127.0.0.1; its output goes to ``log_path``."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @classmethod
    def start(
        cls,
        data_dir: Path,
        *,
        db: str | None = None,
        bus: str | None = None,
        cpu: int | None = None,
        source: Path | None = None,
        extra: Sequence[str] = (),
        port: int | None = None,
    ) -> ServerProcess:
        """Start ``toreshi serve``; ``source`` is a folder holding the ``toreshi`` package to run instead of the
        installed one (e.g. an exported commit, so that edits in progress do not change the figures); ``port`` to
        restart one where it was."""
        port = port or free_port()
        command = [*toreshi_executable(), "serve", "--host", "127.0.0.1", "--port", str(port)]
        command += ["--data-dir", str(data_dir)]
        if db is not None:
            command += ["--db", db]
        if bus is not None:
            command += ["--bus", bus]
        command += extra
        data_dir.mkdir(parents=True, exist_ok=True)
        log_path = data_dir / f"server-{port}.log"
        env = {**os.environ, "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
        for name in ("TORESHI_DB", "TORESHI_BUS", "TORESHI_DB_SCHEMA", "TORESHI_BUS_PREFIX"):
            env.pop(name, None)
        env.update(source_environment(source))
        with log_path.open("wb") as log:
            process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=REPO)
        server = cls(process, port, log_path)
        if cpu is not None:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(process.pid, {cpu})
        return server

    async def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base_url) as client:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise RuntimeError(f"the server exited with {self.process.returncode}: {self.log_tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get("/api/health", timeout=2)).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the server did not answer within {timeout} s: {self.log_tail()}")

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def cpu_seconds(self) -> float:
        """User + system CPU of the process (all its threads) so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK

    def run_queue_seconds(self) -> float:
        """How long the process's threads were ready to run but waited for a CPU (``schedstat``): the share of the
        machine that other programs took from the server. NaN where the kernel does not report it."""
        total = 0
        try:
            for task in Path(f"/proc/{self.process.pid}/task").iterdir():
                with contextlib.suppress(OSError, IndexError, ValueError):
                    total += int((task / "schedstat").read_text().split()[1])
        except OSError:
            return math.nan
        return total / 1e9

    def rss_bytes(self) -> int:
        return int(Path(f"/proc/{self.process.pid}/statm").read_text().split()[1]) * PAGE

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


@contextlib.contextmanager
def running_servers(starts: Sequence[Callable[[], ServerProcess]]) -> Iterator[list[ServerProcess]]:
    """Start servers one after the other; every one started is stopped on the way out, error or not."""
    servers: list[ServerProcess] = []
    try:
        for start in starts:
            servers.append(start())
        yield servers
    except BaseException:
        for server in servers:
            print(f"server on port {server.port}, last lines of its log:\n{server.log_tail()}", file=sys.stderr)
        raise
    finally:
        for server in servers:
            server.stop()


# --- the arbiter over HTTP ---------------------------------------------------------------------------------------


class ArbiterHttp:
    """The signed-in arbiter: creates games over the JSON API; its session cookie opens arbiter sockets."""

    def __init__(self, base_url: str) -> None:
        self.client = httpx.AsyncClient(base_url=base_url, timeout=30)
        self.csrf = ""

    async def sign_in(self) -> None:
        csrf = (await self.client.get("/api/session")).json()["csrf"]
        form = {"name": ARBITER_NAME, "password": ARBITER_PASSWORD, "confirm": ARBITER_PASSWORD, "csrf": csrf}
        response = await self.client.post("/setup", data=form)
        session = (await self.client.get("/api/session")).json()
        if session.get("arbiter") != ARBITER_NAME:  # set up before (a shared database): sign in instead
            form = {"name": ARBITER_NAME, "password": ARBITER_PASSWORD, "csrf": session["csrf"]}
            response = await self.client.post("/login", data=form)
            session = (await self.client.get("/api/session")).json()
        if session.get("arbiter") != ARBITER_NAME:
            raise RuntimeError(f"could not sign in as the arbiter ({response.status_code}: {response.text[:200]})")
        self.csrf = str(session["csrf"])

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.client.cookies.items())

    async def create_game(self, number: int, control: str) -> tuple[str, dict[str, str]]:
        body = {"white": f"White {number}", "black": f"Black {number}", "control": control}
        for attempt in range(3):  # a kept-alive connection may be closed by the server just as it is reused
            try:
                response = await self.client.post("/api/games", json=body, headers={"x-csrf-token": self.csrf})
                break
            except httpx.TransportError:
                if attempt == 2:
                    raise
                await asyncio.sleep(0.2)
        if response.status_code != 201:
            raise RuntimeError(f"POST /api/games answered {response.status_code}: {response.text[:200]}")
        body = response.json()
        return str(body["id"]), {str(role): str(token) for role, token in body["tokens"].items()}

    async def close(self) -> None:
        await self.client.aclose()


# --- measurements ------------------------------------------------------------------------------------------------


@dataclass
class Window:
    """What happened in one measurement window."""

    mode: str
    ack_ms: list[float] = field(default_factory=list)
    bcast_ms: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    timeouts: int = 0
    replaced: int = 0
    seconds: float = 0.0
    server_cpu_s: float = 0.0
    server_wait_s: float = 0.0
    client_cpu_s: float = 0.0
    messages_in: int = 0
    messages_out: int = 0
    events_in: int = 0
    room_events: int = 0
    in_flight: int = 0
    ends_at: float = math.inf
    in_time: int = 0
    closed: bool = False
    """Set once the commands sent in the window were answered: nothing recorded after that changes the figures."""

    @property
    def commands(self) -> int:
        return len(self.ack_ms)

    @property
    def accepted(self) -> int:
        return len(self.ack_ms) - sum(self.refused.values())

    def counted(self) -> int:
        """The commands this window is about (accepted moves, or noop refusals) answered before it ended."""
        return self.in_time

    def record_answer(self, latency_ms: float, at: float, refused: str | None) -> None:
        if self.closed:
            return
        self.ack_ms.append(latency_ms)
        if refused is not None:
            self.refused[refused] = self.refused.get(refused, 0) + 1
        if (self.mode == "noop" or refused is None) and at <= self.ends_at:
            self.in_time += 1

    def record_broadcast(self, latency_ms: float) -> None:
        if not self.closed:
            self.bcast_ms.append(latency_ms)


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile; NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1))]


@dataclass
class Counters:
    messages_in: int = 0
    messages_out: int = 0
    events_in: int = 0


# --- clients -----------------------------------------------------------------------------------------------------


class Client:
    """One socket to a room: keeps the latest state, answers pings, matches acks to commands."""

    def __init__(self, game: GameSlot, role: str, counters: Counters) -> None:
        self.game = game
        self.role = role
        self.counters = counters
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] = {}
        self.version = 0
        self.next_id = 0
        self.pending: dict[str, asyncio.Future[tuple[dict[str, Any], float]]] = {}
        self.waiters: list[tuple[int, asyncio.Future[None]]] = []
        self.welcome: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.reader: asyncio.Task[None] | None = None

    async def open(self, url: str, token: str | None, cookie: str | None, compression: bool) -> None:
        headers = {"Cookie": cookie} if cookie else None
        self.ws = await connect(
            url,
            additional_headers=headers,
            compression="deflate" if compression else None,
            ping_interval=None,
            max_size=None,
            open_timeout=SETUP_TIMEOUT_S,
        )
        self.reader = asyncio.create_task(self.read())
        hello: dict[str, Any] = {"t": "hello", "v": 0}
        if token:
            hello["token"] = token
        await self.send(hello)
        welcome = await asyncio.wait_for(asyncio.shield(self.welcome), SETUP_TIMEOUT_S)
        if welcome["role"] != self.role:
            raise RuntimeError(f"expected the role {self.role}, the server said {welcome['role']}")
        await self.wait_version(1, SETUP_TIMEOUT_S)

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        self.counters.messages_out += 1
        await self.ws.send(json.dumps(message, separators=(",", ":")))

    async def read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(Exception):
            async for raw in self.ws:
                now = time.perf_counter()
                self.counters.messages_in += 1
                message = json.loads(raw)
                kind = message.get("t")
                if kind in ("event", "events"):  # one event, or a command's events in one frame
                    for event in message["events"] if kind == "events" else [message]:
                        self.counters.events_in += 1
                        data = event.get("data")
                        if isinstance(data, dict) and isinstance(data.get("state"), dict):
                            self.state = data["state"]
                        self.version = max(self.version, int(event["v"]))
                        self.game.on_event(self, int(event["v"]), now)
                    self.release_waiters()
                elif kind == "snapshot":
                    self.state = message["data"]
                    self.version = max(self.version, int(message["v"]))
                    self.release_waiters()
                elif kind in ("ack", "refused"):
                    future = self.pending.pop(str(message.get("id")), None)
                    if future is not None and not future.done():
                        future.set_result((message, now))
                elif kind == "ping":
                    await self.send({"t": "pong", "id": message["id"], "tc": time.time() * 1000})
                elif kind == "resync":
                    await self.send({"t": "hello", "v": self.version})
                elif kind == "welcome" and not self.welcome.done():
                    self.welcome.set_result(message)

    def release_waiters(self) -> None:
        if not self.waiters:
            return
        still = []
        for version, future in self.waiters:
            if self.version >= version:
                if not future.done():
                    future.set_result(None)
            else:
                still.append((version, future))
        self.waiters = still

    async def wait_version(self, version: int, timeout: float) -> None:
        if self.version >= version:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiters.append((version, future))
        await asyncio.wait_for(future, timeout)

    async def command(
        self, kind: str, data: dict[str, Any], timeout: float = COMMAND_TIMEOUT_S
    ) -> tuple[dict[str, Any], float, float]:
        """Send a command; returns the answer, the time sent and the time answered (perf_counter seconds)."""
        self.next_id += 1
        command_id = str(self.next_id)
        future: asyncio.Future[tuple[dict[str, Any], float]] = asyncio.get_running_loop().create_future()
        self.pending[command_id] = future
        sent = time.perf_counter()
        self.game.in_flight(sent)
        await self.send({"t": "cmd", "id": command_id, "type": kind, "data": data})
        answer, at = await asyncio.wait_for(future, timeout)
        return answer, sent, at

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader


class GameSlot:
    """One game being played: its players and spectators; replaced by a fresh game when it ends."""

    def __init__(self, bench: Bench, number: int) -> None:
        self.bench = bench
        self.number = number
        self.room_id = ""
        self.players: dict[str, Client] = {}
        self.spectators: list[Client] = []
        self.version = 0
        self.sent: dict[int, tuple[float, Window | None, int]] = {}  # event version → (sent, window, spectators left)
        self.rng = random.Random(number)
        self.pending_version = 0

    def in_flight(self, sent: float) -> None:
        self.pending_version = self.version + 1
        self.sent[self.pending_version] = (sent, self.bench.window, len(self.spectators))

    def on_event(self, client: Client, version: int, now: float) -> None:
        if client.role != "spectator":
            return
        entry = self.sent.get(version)
        if entry is None:
            return
        sent, window, left = entry
        if window is not None:
            window.record_broadcast((now - sent) * 1000)
        if left <= 1:
            del self.sent[version]
        else:
            self.sent[version] = (sent, window, left - 1)

    async def open(self) -> None:
        bench = self.bench
        async with bench.setup_limit:
            home = self.number % len(bench.arbiters)  # with several instances, games are created on each in turn
            self.room_id, tokens = await bench.arbiters[home].create_game(self.number, bench.control)
            url = [f"{base}/ws/rooms/{self.room_id}" for base in bench.ws_urls]
            if bench.routing == "room":
                # As nginx's `hash $request_uri consistent` (docs/deploy.md): every socket of a room on one instance,
                # whichever created it (the room's lease follows its sockets there).
                url = [url[zlib.crc32(self.room_id.encode()) % len(url)]]
                home = bench.ws_urls.index(url[0].split("/ws/rooms/")[0])
            else:
                url = url[home:] + url[:home]
            arbiter = Client(self, "arbiter", bench.counters)
            await arbiter.open(url[0], None, bench.arbiters[home].cookie_header(), bench.compression)
            answer, _, _ = await arbiter.command("start", {}, SETUP_TIMEOUT_S)
            await arbiter.close()
            if answer["t"] != "ack":
                raise RuntimeError(f"start refused: {answer}")
            self.version = int(answer["v"])
            self.sent.clear()
            for index, role in enumerate(["white", "black"]):
                client = Client(self, role, bench.counters)
                await client.open(url[index % len(url)], tokens[role], None, bench.compression)
                self.players[role] = client
            self.spectators = []
            for index in range(bench.spectators_per_game):
                spectator = Client(self, "spectator", bench.counters)
                await spectator.open(url[index % len(url)], None, None, bench.compression)
                self.spectators.append(spectator)

    async def close(self) -> None:
        for client in [*self.players.values(), *self.spectators]:
            await client.close()
        self.players, self.spectators = {}, []

    def over(self) -> bool:
        state = next(iter(self.players.values())).state
        return state.get("status") not in ("running", None) or (state.get("result") is not None)

    async def replace(self) -> None:
        """A new game takes the slot of a finished one (the server marked it finished with its final event)."""
        await self.close()
        self.number = self.bench.new_game_number()
        await self.open()

    async def step(self, mode: str) -> None:
        """One command of the current window's kind."""
        window = self.bench.window
        white = self.players["white"]
        # At most one command per game is in flight, so a version the players have seen is settled (this also
        # catches up after a command whose answer came too late).
        self.version = max(self.version, *(player.version for player in self.players.values()))
        await white.wait_version(self.version, COMMAND_TIMEOUT_S)  # whose turn it is, as of the last ack
        turn = str(white.state.get("turn") or "white")
        mover = self.players[turn]
        await mover.wait_version(self.version, COMMAND_TIMEOUT_S)
        if mode == "noop":
            # A well-formed move out of turn: read at the edge, then refused by the game's rules.
            mover = self.players["black" if turn == "white" else "white"]
            data: dict[str, Any] = {"hole": 1}
        else:
            legal = mover.state.get("legal") or []
            if self.over() or not legal:
                if window is not None:
                    window.replaced += 1
                await self.replace()
                return
            data = {"hole": self.rng.choice(legal)}
        if window is not None:
            window.in_flight += 1
        try:
            answer, sent, at = await mover.command("move", data)
        except TimeoutError:
            if window is not None:
                window.timeouts += 1
            return
        finally:
            if window is not None:
                window.in_flight -= 1
        if window is not None:
            refused = str(answer.get("code")) if answer["t"] == "refused" else None
            window.record_answer((at - sent) * 1000, at, refused)
        if answer["t"] == "ack":
            self.version = max(self.version, int(answer["v"]))
        else:
            self.sent.pop(self.pending_version, None)

    async def play(self, pace: float, stop: asyncio.Event) -> None:
        interval = 1 / pace
        next_at = time.perf_counter() + self.rng.random() * interval
        while not stop.is_set():
            delay = next_at - time.perf_counter()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), delay)
                if stop.is_set():
                    return
            next_at += interval
            if next_at < time.perf_counter():
                next_at = time.perf_counter() + interval  # fell behind: no catch-up burst
            mode = self.bench.mode
            if mode == "idle":
                continue
            try:
                await self.step(mode)
            except (TimeoutError, RuntimeError, OSError) as error:
                self.bench.errors.append(f"game {self.number}: {type(error).__name__}: {error}")
                await asyncio.sleep(interval)


class Bench:
    """Games on one or more running servers, driven in measurement windows."""

    def __init__(
        self,
        servers: Sequence[ServerProcess],
        *,
        spectators: int,
        pace: float,
        control: str = "rapid",
        compression: bool = True,
        setup_concurrency: int = 16,
        routing: str = "split",
    ) -> None:
        self.routing = routing
        """``split``: a game's white player and first spectator on the instance that created it, black and the
        second spectator on the next one; ``room``: every socket of a game on the instance its room id hashes to."""
        self.servers = list(servers)
        self.ws_urls = [server.ws_url for server in servers]
        self.arbiters = [ArbiterHttp(server.base_url) for server in servers]
        self.spectators_per_game = spectators
        self.pace = pace
        self.control = control
        self.compression = compression
        self.counters = Counters()
        self.slots: list[GameSlot] = []
        self.idle_slots: list[GameSlot] = []
        self.games_created = 0
        self.window: Window | None = None
        self.mode = "idle"
        self.errors: list[str] = []
        self.setup_limit = asyncio.Semaphore(setup_concurrency)
        self.stop = asyncio.Event()
        self.players: list[asyncio.Task[None]] = []

    def server_wait(self) -> float:
        return sum(server.run_queue_seconds() for server in self.servers)

    def server_cpu(self) -> float:
        return sum(server.cpu_seconds() for server in self.servers)

    def server_rss(self) -> int:
        return sum(server.rss_bytes() for server in self.servers)

    async def sign_in(self) -> None:
        for arbiter in self.arbiters:  # the first sets the password up; the others sign in with it
            await arbiter.sign_in()

    def new_game_number(self) -> int:
        self.games_created += 1
        return self.games_created

    async def add_games(self, count: int, *, play: bool = True) -> None:
        """Create, start and connect ``count`` more games (they idle until a window starts); ``play=False`` for a
        warm-up game that stays connected but sends nothing."""
        slots = [GameSlot(self, self.new_game_number()) for _ in range(count)]
        await asyncio.gather(*(slot.open() for slot in slots))
        if not play:
            self.idle_slots += slots
            return
        self.slots += slots
        for slot in slots:
            self.players.append(asyncio.create_task(slot.play(self.pace, self.stop)))

    async def measure(self, mode: str, seconds: float) -> Window:
        window = Window(mode)
        counters = self.counters
        start_in, start_out, start_events = counters.messages_in, counters.messages_out, counters.events_in
        versions = sum(slot.version for slot in self.slots)
        wait, cpu, client_cpu, started = self.server_wait(), self.server_cpu(), time.process_time(), time.perf_counter()
        self.window, self.mode = window, mode
        await asyncio.sleep(seconds)
        self.window, self.mode = None, "idle"
        window.ends_at = time.perf_counter()
        window.seconds = window.ends_at - started
        window.server_cpu_s = self.server_cpu() - cpu
        window.server_wait_s = self.server_wait() - wait
        window.client_cpu_s = time.process_time() - client_cpu
        window.messages_in = counters.messages_in - start_in
        window.messages_out = counters.messages_out - start_out
        window.events_in = counters.events_in - start_events
        window.room_events = max(0, sum(slot.version for slot in self.slots) - versions)
        # The commands sent in the window count with their full latency, however late they are answered.
        deadline = time.perf_counter() + COMMAND_TIMEOUT_S + 1
        while window.in_flight > 0 and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # the last broadcasts
        window.closed = True
        return window

    async def close(self) -> None:
        self.stop.set()
        for task in self.players:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, COMMAND_TIMEOUT_S + 2)
        await asyncio.gather(*(slot.close() for slot in self.slots + self.idle_slots), return_exceptions=True)
        for arbiter in self.arbiters:
            await arbiter.close()


@contextlib.asynccontextmanager
async def bench_on(servers: Sequence[ServerProcess], **options: Any) -> AsyncIterator[Bench]:
    bench = Bench(servers, **options)
    try:
        await bench.sign_in()
        yield bench
    finally:
        await bench.close()


# --- reporting -----------------------------------------------------------------------------------------------------


def window_figures(window: Window) -> dict[str, float]:
    counted = window.counted()
    return {
        "cmds_per_s": counted / window.seconds if window.seconds else math.nan,
        "ack_p50_ms": percentile(window.ack_ms, 0.50),
        "ack_p99_ms": percentile(window.ack_ms, 0.99),
        "bcast_p50_ms": percentile(window.bcast_ms, 0.50),
        "bcast_p99_ms": percentile(window.bcast_ms, 0.99),
        "server_cpu_pct": 100 * window.server_cpu_s / window.seconds if window.seconds else math.nan,
        "server_wait_pct": 100 * window.server_wait_s / window.seconds if window.seconds else math.nan,
        "cpu_us_per_cmd": 1e6 * window.server_cpu_s / counted if counted else math.nan,
        "cpu_us_per_msg": 1e6 * window.server_cpu_s / max(1, window.messages_in + window.messages_out),
        "client_cpu_pct": 100 * window.client_cpu_s / window.seconds if window.seconds else math.nan,
        "events_per_s": window.room_events / window.seconds if window.seconds else math.nan,
        "deliveries_per_s": window.events_in / window.seconds if window.seconds else math.nan,
        "msgs_per_s": (window.messages_in + window.messages_out) / window.seconds if window.seconds else math.nan,
    }


def medians(windows: Sequence[Window]) -> dict[str, float]:
    figures = [window_figures(window) for window in windows]
    keys = figures[0] if figures else {}
    result = {}
    for key in keys:
        values = [row[key] for row in figures if not math.isnan(row[key])]
        result[key] = statistics.median(values) if values else math.nan
    return result


def fmt(value: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


def describe_problems(windows: Sequence[Window]) -> str:
    refused: dict[str, int] = {}
    for window in windows:
        for code, count in window.refused.items():
            refused[code] = refused.get(code, 0) + count
    timeouts = sum(window.timeouts for window in windows)
    replaced = sum(window.replaced for window in windows)
    parts = [f"timeouts={timeouts}", f"games_replaced={replaced}"]
    parts.append("refused=" + (",".join(f"{code}:{n}" for code, n in sorted(refused.items())) or "0"))
    return " ".join(parts)


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "n/a"


def pin_client(cpu: int | None) -> None:
    if cpu is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {cpu})


def pinning(pin: bool) -> tuple[int | None, int | None]:
    """(server CPU, client CPU) when pinning is asked for and there are at least two CPUs to pin to."""
    cpus = sorted(os.sched_getaffinity(0))
    if not pin or len(cpus) < 2:
        return None, None
    return cpus[0], cpus[1]


# --- the benchmark -------------------------------------------------------------------------------------------------

RUN_COLUMNS = (
    ("run", 3),
    ("window", 6),
    ("cmd/s", 7),
    ("ack p50", 8),
    ("ack p99", 8),
    ("bc p50", 7),
    ("bc p99", 7),
    ("srv CPU%", 8),
    ("wait%", 6),
    ("µs/cmd", 7),
    ("µs/msg", 7),
    ("cli CPU%", 8),
)


def run_row(number: int, window: Window) -> str:
    row = window_figures(window)
    cells = (
        str(number),
        window.mode,
        fmt(row["cmds_per_s"], 1),
        fmt(row["ack_p50_ms"]),
        fmt(row["ack_p99_ms"]),
        fmt(row["bcast_p50_ms"]),
        fmt(row["bcast_p99_ms"]),
        fmt(row["server_cpu_pct"], 1),
        fmt(row["server_wait_pct"], 1),
        fmt(row["cpu_us_per_cmd"], 0),
        fmt(row["cpu_us_per_msg"], 1),
        fmt(row["client_cpu_pct"], 1),
    )
    text = " ".join(f"{cell:>{width}}" for cell, (_, width) in zip(cells, RUN_COLUMNS, strict=True))
    return f"{text}  {describe_problems([window])}"


async def run(args: argparse.Namespace) -> int:
    server_cpu, client_cpu = pinning(args.pin)
    pin_client(client_cpu)
    print(
        f"live_games: {args.games} games x (2 players + {args.spectators} spectators) = "
        f"{args.games * (2 + args.spectators)} sockets on one server (SQLite, loopback); "
        f"pace {args.pace:g} command/s per game; {args.runs} runs x (noop {args.seconds:g} s + move {args.seconds:g} s)"
    )
    pin_note = f"server on CPU {server_cpu}, client on CPU {client_cpu}" if server_cpu is not None else "not pinned"
    print(f"machine: {os.cpu_count()} CPUs, {pin_note}, load average before start {load_average()}")
    with tempfile.TemporaryDirectory(prefix="toreshi-bench-") as folder:
        starts = [lambda: ServerProcess.start(Path(folder) / "data", cpu=server_cpu, source=args.server_src)]
        with running_servers(starts) as servers:
            await servers[0].wait_ready()
            options = {"spectators": args.spectators, "pace": args.pace, "compression": not args.no_compression}
            async with bench_on(servers, **options) as bench:
                await bench.add_games(1, play=False)  # warm-up: imports, first connections, database pages
                rss_before, setup_started = bench.server_rss(), time.perf_counter()
                await bench.add_games(args.games)
                setup_s = time.perf_counter() - setup_started
                rss_after = bench.server_rss()
                print(
                    f"setup: {args.games} games created, started and connected in {setup_s:.1f} s; server RSS "
                    f"{rss_before / 2**20:.1f} -> {rss_after / 2**20:.1f} MiB"
                )
                windows: dict[str, list[Window]] = {"noop": [], "move": []}
                print(" ".join(f"{name:>{width}}" for name, width in RUN_COLUMNS) + "  problems")
                for number in range(1, args.runs + 1):
                    for mode in ("noop", "move"):
                        window = await bench.measure(mode, args.seconds)
                        windows[mode].append(window)
                        print(run_row(number, window), flush=True)
                rooms_live = bench.games_created
                rss_end = bench.server_rss()
                errors = list(bench.errors)
    move, noop = medians(windows["move"]), medians(windows["noop"])
    per_room_kib = (rss_after - rss_before) / args.games / 1024
    print(f"median over {args.runs} runs (load average now {load_average()}):")
    print(
        f"  move: moves/s={fmt(move['cmds_per_s'], 1)} ack_p50_ms={fmt(move['ack_p50_ms'])} "
        f"ack_p99_ms={fmt(move['ack_p99_ms'])} bcast_p50_ms={fmt(move['bcast_p50_ms'])} "
        f"bcast_p99_ms={fmt(move['bcast_p99_ms'])} cpu_us_per_move={fmt(move['cpu_us_per_cmd'], 0)} "
        f"server_cpu_pct={fmt(move['server_cpu_pct'], 1)} server_wait_pct={fmt(move['server_wait_pct'], 1)} "
        f"client_cpu_pct={fmt(move['client_cpu_pct'], 1)} "
        f"events_per_move={fmt(move['events_per_s'] / move['cmds_per_s'])}"
    )
    print(
        f"  noop: cmds/s={fmt(noop['cmds_per_s'], 1)} ack_p50_ms={fmt(noop['ack_p50_ms'])} "
        f"ack_p99_ms={fmt(noop['ack_p99_ms'])} cpu_us_per_cmd={fmt(noop['cpu_us_per_cmd'], 0)} "
        f"server_cpu_pct={fmt(noop['server_cpu_pct'], 1)} server_wait_pct={fmt(noop['server_wait_pct'], 1)} "
        f"client_cpu_pct={fmt(noop['client_cpu_pct'], 1)}"
    )
    print(
        f"  ratio move/noop: ack_p50={fmt(move['ack_p50_ms'] / noop['ack_p50_ms'])} "
        f"ack_p99={fmt(move['ack_p99_ms'] / noop['ack_p99_ms'])} "
        f"cpu_per_cmd={fmt(move['cpu_us_per_cmd'] / noop['cpu_us_per_cmd'])}"
    )
    print(
        f"  memory: per_live_room_kib={per_room_kib:.1f} (RSS growth while {args.games} games were created and "
        f"connected); rss_end_mib={rss_end / 2**20:.1f} with {rooms_live} rooms loaded"
    )
    print(f"  problems: {describe_problems(windows['move'] + windows['noop'])} client_errors={len(errors)}")
    for error in errors[:5]:
        print(f"    {error}")
    worst = max(move["ack_p99_ms"], move["bcast_p99_ms"])
    verdict = "n/a" if math.isnan(worst) else ("met" if worst <= GOAL_P99_MS else "NOT met")
    print(
        f"goal p99 <= {GOAL_P99_MS:g} ms for {args.games} games with {args.spectators} spectators each: {verdict} "
        f"(ack p99 {fmt(move['ack_p99_ms'])} ms, broadcast p99 {fmt(move['bcast_p99_ms'])} ms)"
    )
    return 0


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--spectators", type=int, default=2, help="spectators per game (default 2)")
    parser.add_argument("--pace", type=float, default=1.0, help="commands per second per game (default 1)")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each window (default 10)")
    parser.add_argument("--runs", type=int, default=3, help="runs; medians are printed (default 3)")
    parser.add_argument("--no-pin", dest="pin", action="store_false", help="do not pin server and client to CPUs")
    parser.add_argument("--no-compression", action="store_true", help="do not offer permessage-deflate")
    parser.add_argument(
        "--server-src", type=Path, help="run the server from this folder's toreshi package (default: the installed one)"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.runs < 1 or args.pace <= 0 or args.seconds <= 0 or args.spectators < 0:
        parser.error("games, runs >= 1; pace, seconds > 0; spectators >= 0")
    return args


def main(
    argv: Sequence[str] | None = None, runner: Callable[[argparse.Namespace], Coroutine[Any, Any, int]] = run
) -> int:
    args = arguments(argv)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(runner(args))
    return uvloop.run(runner(args))


if __name__ == "__main__":
    raise SystemExit(main())
