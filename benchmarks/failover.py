"""Failover, measured (issue 18 §3): kill the instance that owns most rooms while they are played.

**Two instances** on PostgreSQL + Redis (a private schema and Redis prefix, removed afterwards): ``--games`` live
togyz games (blitz, two players each) and ``--quizzes`` «Своя игра» rooms (a host and four teams each, arrival
arbitration) are created through the first instance, every socket of a room connects to the instance its room id
hashes to (as docs/deploy.md's nginx routes them; the lease follows them there), and every room is played: a move
every ``1 / --pace`` s per game, a press cycle (press, the host's ruling) every ``2 / --pace`` s per quiz room.
After ``--before`` seconds the instance holding most leases is killed with SIGKILL. Its clients reconnect to the
survivor (as nginx would send them: the dead upstream fails, consistent hashing picks the next) with ``hello{v}`` and
resend their unanswered commands with the same ids, as ``room.js`` does; a command answered ``moved`` is resent with
its id too (the new owner answers it from the log if it was applied). Play goes on for ``--after`` seconds.

**One instance** on SQLite: the same, but the one instance is killed and started again on its data folder and port.

Reported for the rooms whose owner was killed (and, apart, for the others): the time from the kill until the room
acknowledged a command again (min / median / max), acknowledged commands lost (an acknowledged id whose events are
not in the log at the version acknowledged: must be 0), commands applied twice (an id found in two batches of the
log: must be 0), and for each togyz game whose clock was running at the kill: the room time charged to the side to
move from the last state seen before the kill to its first move after it, against the wall time the client measured
over the same span (docs/decisions.md: the outage is charged to the running clock by wall time; the difference is
the delivery delays at both ends), and whether the dial moved by exactly the room time charged.

    python benchmarks/failover.py [--games 50] [--quizzes 10] [--before 6] [--after 8] [--pace 1] [--mode both]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import random
import shutil
import signal
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks.live_games import ArbiterHttp, ServerProcess, load_average
from benchmarks.load import DEFAULT_BUS, DEFAULT_DB, postgres_reachable, private_namespace, redis_reachable
from benchmarks.quiz_live import CELLS, DEFAULT_PACK, TEAM_NAMES, Arbiter

ANSWER_TIMEOUT_S = 30.0
_ids = itertools.count(1)


@dataclass
class Sent:
    """One command as the client saw it."""

    room: str
    id: str
    kind: str
    sent: float
    answer: dict[str, Any] | None = None
    answered: float = 0.0


@dataclass
class Record:
    commands: list[Sent] = field(default_factory=list)
    killed_at: float = 0.0


class Socket:
    """A room socket that reconnects (to the next URL when one is down) and resends its unanswered commands."""

    def __init__(self, room: str, token: str | None, cookie: str | None, urls: list[str], record: Record) -> None:
        self.room, self.token, self.cookie, self.urls, self.record = room, token, cookie, urls, record
        self.ws: ClientConnection | None = None
        self.version = 0
        self.state: dict[str, Any] = {}
        self.last_ts = 0
        self.seen: list[tuple[float, int, dict[str, Any], int]] = []
        """(client time, room time of the frame's last event, state, version) of every state received."""
        self.pending: dict[str, tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = {}
        self.changed = asyncio.Event()
        self.prefix = f"f{next(_ids)}-"
        self.task: asyncio.Task[None] | None = None
        self.closing = False
        self.reconnects: list[tuple[float, float]] = []
        """(connected, welcomed) client times of every reconnection."""
        self._reconnected: float | None = None

    async def start(self) -> None:
        await self._connect()
        self.task = asyncio.create_task(self._run())

    async def _connect(self) -> None:
        headers = {"Cookie": self.cookie} if self.cookie else None
        deadline = time.perf_counter() + 60
        for url in itertools.cycle(self.urls):
            try:
                self.ws = await connect(
                    f"{url}/ws/rooms/{self.room}", additional_headers=headers, ping_interval=None, open_timeout=5
                )
                break
            except (OSError, websockets.WebSocketException, TimeoutError):
                if time.perf_counter() > deadline:
                    raise
                await asyncio.sleep(0.05)
        hello: dict[str, Any] = {"t": "hello", "v": self.version}
        if self.token:
            hello["token"] = self.token
        assert self.ws is not None
        await self.ws.send(json.dumps(hello))
        for message, _ in list(self.pending.values()):  # as room.js: unanswered commands again, same ids
            await self.ws.send(json.dumps(message))

    async def _run(self) -> None:
        while not self.closing:
            assert self.ws is not None
            try:
                async for raw in self.ws:
                    await self._on(json.loads(raw))
            except websockets.ConnectionClosed:
                pass
            if self.closing:
                return
            # The instance went away: like nginx, the next attempt reaches a live one.
            self.urls = self.urls[1:] + self.urls[:1]
            await self._connect()
            self._reconnected = time.perf_counter()

    async def _on(self, message: dict[str, Any]) -> None:
        kind, now = message.get("t"), time.perf_counter()
        if kind == "welcome" and self._reconnected is not None:
            self.reconnects.append((self._reconnected, now))
            self._reconnected = None
        if kind == "ping":
            assert self.ws is not None
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.ws.send(json.dumps({"t": "pong", "id": message["id"], "tc": time.time() * 1000}))
        elif kind == "snapshot":
            self.version, self.state, self.last_ts = message["v"], message["data"], message["ts"]
            self.seen.append((now, -1, self.state, self.version))  # a snapshot's time is its own, not an event's
        elif kind in ("event", "events"):
            for event in message["events"] if kind == "events" else [message]:
                if event["v"] == self.version + 1:
                    self.version, self.last_ts = event["v"], event["ts"]
                    state = event["data"].get("state")
                    if isinstance(state, dict):
                        self.state = state
                        self.seen.append((now, self.last_ts, state, self.version))
        elif kind in ("ack", "refused", "failed"):
            entry = self.pending.get(str(message.get("id")))
            if entry is None:
                return
            if kind == "refused" and message.get("code") == "moved":
                # Its fate is unknown (the owner died with it): the same id again, answered from the log if applied.
                asyncio.get_running_loop().call_later(0.2, lambda: asyncio.ensure_future(self._resend(entry[0])))
                return
            del self.pending[str(message["id"])]
            if not entry[1].done():
                entry[1].set_result(message)
        elif kind == "resync":
            assert self.ws is not None
            await self.ws.send(json.dumps({"t": "hello", "v": self.version}))
        self.changed.set()

    async def _resend(self, message: dict[str, Any]) -> None:
        if message["id"] in self.pending and self.ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.ws.send(json.dumps(message))

    async def command(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        command_id = f"{self.prefix}{next(_ids)}"
        message = {"t": "cmd", "id": command_id, "type": kind, "data": data or {}}
        sent = Sent(self.room, command_id, kind, time.perf_counter())
        self.record.commands.append(sent)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[command_id] = (message, future)
        with contextlib.suppress(websockets.ConnectionClosed, AttributeError):
            assert self.ws is not None
            await self.ws.send(json.dumps(message))
        sent.answer = await asyncio.wait_for(future, ANSWER_TIMEOUT_S)
        sent.answered = time.perf_counter()
        return sent.answer

    async def wait_for(self, predicate: Any, timeout: float = 20.0) -> None:
        async with asyncio.timeout(timeout):
            while not predicate(self):
                self.changed.clear()
                await self.changed.wait()

    async def close(self) -> None:
        self.closing = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task


def routed(room: str, urls: list[str]) -> list[str]:
    """The room's instance first (as `hash $uri consistent`), the others after it."""
    home = zlib.crc32(room.encode()) % len(urls)
    return urls[home:] + urls[:home]


class Game:
    def __init__(self, room: str, tokens: dict[str, str], cookie: str, urls: list[str], record: Record) -> None:
        self.room = room
        self.arbiter = Socket(room, None, cookie, routed(room, urls), record)
        self.players = {side: Socket(room, tokens[side], None, routed(room, urls), record) for side in tokens}

    async def open(self) -> None:
        await self.arbiter.start()
        await self.arbiter.wait_for(lambda s: s.version >= 1)
        answer = await self.arbiter.command("start")
        if answer["t"] != "ack":
            raise RuntimeError(f"start refused: {answer}")
        for player in self.players.values():
            await player.start()

    async def play(self, pace: float, stop: asyncio.Event, rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0, 1 / pace))
        while not stop.is_set():
            newest = max(self.players.values(), key=lambda s: s.version)
            if newest.state.get("status") == "finished":
                return  # the game ended (a flag fell under load, say)
            side = newest.state.get("turn")
            mover = self.players.get(str(side))
            if mover is not None:
                # Short waits: a socket that is reconnecting catches up within them, and the loop looks again.
                with contextlib.suppress(TimeoutError):
                    await mover.wait_for(lambda s, v=newest.version: s.version >= v and bool(s.state.get("legal")), 2)
                legal = mover.state.get("legal") or []
                if legal and mover.state.get("turn") == side and mover.version >= newest.version:
                    answer = await mover.command("move", {"hole": rng.choice(legal)})
                    if answer["t"] == "ack":
                        with contextlib.suppress(TimeoutError):
                            await mover.wait_for(lambda s, v=answer["v"]: s.version >= v, 2)
                    continue_after = 1 / pace
                else:
                    continue_after = 0.05
            else:
                continue_after = 0.05
            await asyncio.sleep(continue_after)

    def sockets(self) -> list[Socket]:
        return [self.arbiter, *self.players.values()]


class Quiz:
    def __init__(self, room: str, host: str, teams: list[str], urls: list[str], record: Record) -> None:
        self.room = room
        self.host = Socket(room, host, None, routed(room, urls), record)
        self.teams = [Socket(room, secret, None, routed(room, urls), record) for secret in teams]
        self.cell = 0

    async def open(self) -> None:
        for socket in (self.host, *self.teams):
            await socket.start()
        await self.host.wait_for(lambda s: s.version >= 1)
        await self.host.command("draw", {"team": TEAM_NAMES[0]})
        await self.choose()

    async def choose(self) -> None:
        while self.cell < len(CELLS):
            theme, value = CELLS[self.cell]
            self.cell += 1
            if (await self.host.command("choose", {"theme": theme, "value": value}))["t"] == "ack":
                return

    async def play(self, pace: float, stop: asyncio.Event, rng: random.Random) -> None:
        await asyncio.sleep(rng.uniform(0, 2 / pace))
        turn = 0
        while not stop.is_set() and self.cell <= len(CELLS):
            team = self.teams[turn % len(self.teams)]
            turn += 1
            pressed = await team.command("press", {"tc": time.time() * 1000})
            last = turn % len(self.teams) == 0
            if pressed["t"] == "ack":
                await self.host.command("right" if last else "wrong")  # refused if time ruled it first: fine
            if last:
                await self.choose()
            await asyncio.sleep(2 / pace)

    def sockets(self) -> list[Socket]:
        return [self.host, *self.teams]


# --- the checks --------------------------------------------------------------------------------------------------


async def stored_batches(db: str, schema: str | None, rooms: Sequence[str]) -> dict[str, list[tuple[int, str]]]:
    """(version, command id) of every stored event of each room."""
    from toreshi.store import EventStore, create_engine

    engine = create_engine(db, schema=schema)
    store = EventStore(engine)
    try:
        return {room: [(e.version, e.command_id or "") for e in await store.load(room)] for room in rooms}
    finally:
        await store.close()
        await engine.dispose()


def losses(record: Record, stored: dict[str, list[tuple[int, str]]]) -> tuple[int, int, int]:
    """(acknowledged commands, acknowledged ones whose events are not in the log ending at the version acknowledged,
    ids found in two batches of the log). Every command driven here causes events, so each ack has its batch."""
    batches: dict[tuple[str, str], list[int]] = {}
    for room, events in stored.items():
        previous = None
        for version, command in events:
            key = (room, command.rsplit(":", 1)[-1])  # stored as role:name:id
            if command != previous:
                batches.setdefault(key, []).append(version)
            else:
                batches[key][-1] = version
            previous = command
    acked = [c for c in record.commands if c.answer is not None and c.answer.get("t") == "ack"]
    lost = sum(1 for c in acked if c.answer is not None and c.answer.get("v") not in batches.get((c.room, c.id), []))
    duplicated = sum(1 for key, ends in batches.items() if len(ends) > 1 and not key[1].startswith("~"))
    return len(acked), lost, duplicated


def recovery(record: Record, rooms: Sequence[str]) -> tuple[list[float], list[float]]:
    """Per room: seconds from the kill until it acknowledged a command again, and how long that command itself waited
    (from the later of its send and the kill to its ack: without the players' time to think between moves)."""
    since_kill, waited = [], []
    for room in rooms:
        after = [
            c
            for c in record.commands
            if c.room == room and c.answer is not None and c.answer.get("t") == "ack" and c.answered > record.killed_at
        ]
        if after:
            first = min(after, key=lambda c: c.answered)
            since_kill.append(first.answered - record.killed_at)
            waited.append(first.answered - max(first.sent, record.killed_at))
    return since_kill, waited


def clocks(games: Sequence[Game], record: Record) -> list[tuple[float, float]]:
    """Per game whose clock ran at the kill, from the last state seen before it to the first move after it (the move
    of the side whose clock ran): (room time charged − wall time from that look to the move's first send, room time
    charged − wall time from that look to the move's ack), in ms. The press cannot be decided before the move was
    sent nor after its ack arrived, and the look saw the clock a delivery delay late: so a clock charged the outage
    by wall time has the first ≥ 0 and the second ≤ that delay (a few ms, more on a starved machine). Games whose
    dial did not move by exactly the room time charged are left out and counted apart (see ``report``)."""
    acks = {
        (c.room, c.answer.get("v")): c
        for c in record.commands
        if c.kind == "move" and c.answer is not None and c.answer.get("t") == "ack"
    }
    results = []
    for game in games:
        seen = sorted(itertools.chain.from_iterable(s.seen for s in game.players.values()), key=lambda x: x[0])
        before = [entry for entry in seen if entry[0] < record.killed_at and "clock" in entry[2]]
        if not before:
            continue
        seen_at, _, state, _ = before[-1]
        clock = state["clock"]
        side = clock.get("running")
        if side not in ("white", "black"):
            continue
        plies = len(state.get("moves", []))
        after = [entry for entry in seen if entry[0] > record.killed_at and len(entry[2].get("moves", [])) > plies]
        if not after or len(after[0][2].get("moves", [])) != plies + 1:
            continue  # no move since, or a reconnect caught up several at once: its press time is not in the frame
        _, pressed_at, later, version = after[0]
        move = acks.get((game.room, version))
        if move is None or pressed_at < 0:
            continue  # acknowledged before the kill, or seen in a snapshot (no press time): nothing to compare
        charged = pressed_at - clock["at"]
        exact = later["clock"][side] == clock[side] - charged
        results.append(
            (
                (charged - (move.sent - seen_at) * 1000),
                (charged - (move.answered - seen_at) * 1000) if exact else math.nan,
            )
        )
    return results


def spread(values: Sequence[float], unit: str = "s", digits: int = 2) -> str:
    if not values:
        return "n/a"
    low, middle, high = min(values), statistics.median(values), max(values)
    return f"min {low:.{digits}f} / median {middle:.{digits}f} / max {high:.{digits}f} {unit}"


# --- one scenario ------------------------------------------------------------------------------------------------


async def scenario(
    label: str, args: argparse.Namespace, db: str | None, extra: list[str], cluster: bool
) -> dict[str, Any]:
    record = Record()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="toreshi-failover-") as folder:
        data = Path(folder) / "data"
        servers: list[ServerProcess] = []
        games: list[Game] = []
        quizzes: list[Quiz] = []
        everything: list[Game | Quiz] = []
        stop = asyncio.Event()
        try:
            for _ in range(2 if cluster else 1):
                servers.append(ServerProcess.start(data, db=db, bus=args.bus if cluster else None, extra=extra))
                await servers[-1].wait_ready()
            urls = [server.ws_url for server in servers]
            http = ArbiterHttp(servers[0].base_url)
            await http.sign_in()
            quiz_maker = Arbiter(servers[0].base_url)
            quiz_maker.client, quiz_maker.csrf = http.client, http.csrf
            quiz_maker.signed_in = httpx.Cookies(http.client.cookies)
            started = time.perf_counter()
            for number in range(args.games):
                room, tokens = await http.create_game(number, "blitz")
                games.append(Game(room, tokens, http.cookie_header(), urls, record))
            for number in range(args.quizzes):
                made = await quiz_maker.create(args.pack, 4, "arrival", number)
                quizzes.append(Quiz(made.room_id, made.host, made.secrets, urls, record))
            limit = asyncio.Semaphore(8)

            async def opened(room: Game | Quiz) -> None:
                async with limit:
                    await room.open()

            everything = [*games, *quizzes]
            await asyncio.gather(*(opened(room) for room in everything))
            setup_s = time.perf_counter() - started
            players = [asyncio.create_task(room.play(args.pace, stop, rng)) for room in everything]
            await asyncio.sleep(args.before)

            rooms = [room.room for room in everything]
            if cluster:
                from redis.asyncio import Redis

                redis: Redis = Redis.from_url(args.bus)
                prefix = extra[extra.index("--bus-prefix") + 1]
                raw = await redis.mget([f"{prefix}lease:{r}" for r in rooms])
                holders = [h.decode() if isinstance(h, bytes) else str(h or "") for h in raw]
                await redis.aclose()
                counts = {s.port: sum(1 for h in holders if f"-{s.process.pid}-" in h) for s in servers}
                victim = max(servers, key=lambda s: counts[s.port])
                moved = [
                    room for room, holder in zip(rooms, holders, strict=True) if f"-{victim.process.pid}-" in holder
                ]
                owners = f"leases before the kill: {sorted(counts.values(), reverse=True)} (of {len(rooms)} rooms)"
            else:
                victim, moved, owners = servers[0], rooms, "one instance owns every room"
            record.killed_at = time.perf_counter()
            os.kill(victim.process.pid, signal.SIGKILL)
            victim.process.wait(10)
            restart_s = None
            if not cluster:  # the one instance comes back on its data folder and port
                servers[0] = ServerProcess.start(data, port=victim.port)
                await servers[0].wait_ready(60)
                restart_s = time.perf_counter() - record.killed_at
            await asyncio.sleep(args.after)
            stop.set()
            await asyncio.gather(*players, return_exceptions=True)
            for each in everything:
                for socket in each.sockets():
                    await socket.close()
            schema = extra[extra.index("--db-schema") + 1] if "--db-schema" in extra else None
            stored = await stored_batches(db or f"sqlite+aiosqlite:///{data / 'toreshi.db'}", schema, rooms)
            await http.close()
        finally:
            stop.set()
            for server in servers:
                server.stop()
            if args.logs is not None:  # the servers' logs, to see what the survivor did when
                args.logs.mkdir(parents=True, exist_ok=True)
                for log in data.glob("server-*.log"):
                    shutil.copy(log, args.logs / f"{'cluster' if cluster else 'sqlite'}-{log.name}")
    acked, lost, duplicated = losses(record, stored)
    others = [room for room in rooms if room not in moved]
    moved_games = [game for game in games if game.room in moved]
    clock = clocks(moved_games, record)
    reconnects = [
        (opened - record.killed_at, welcomed - record.killed_at)
        for each in everything
        if each.room in moved
        for socket in each.sockets()
        for opened, welcomed in socket.reconnects
    ]
    stuck = []
    for room in moved:
        if not any(
            c.room == room and c.answer is not None and c.answer.get("t") == "ack" and c.answered > record.killed_at
            for c in record.commands
        ):
            mine = [c for c in record.commands if c.room == room]
            last = mine[-1] if mine else None
            when = f"{last.sent - record.killed_at:+.2f} s" if last else "-"
            answer = (last.answer or {}).get("t", "unanswered") if last else "-"
            code = (last.answer or {}).get("code", "") if last else ""
            stuck.append(f"{room}: last {last.kind if last else '-'} sent {when} after the kill, {answer} {code}")
    return {
        "reconnects": reconnects,
        "stuck": stuck,
        "label": label,
        "setup_s": setup_s,
        "owners": owners,
        "moved": len(moved),
        "restart_s": restart_s,
        "recovered": recovery(record, moved)[0],
        "waited": recovery(record, moved)[1],
        "others": recovery(record, others)[0],
        "acked": acked,
        "lost": lost,
        "duplicated": duplicated,
        "clock": clock,
        "games": len(moved_games),
    }


def report(result: dict[str, Any]) -> list[str]:
    clock = result["clock"]
    lines = [
        f"\n{result['label']}: set up in {result['setup_s']:.1f} s; {result['owners']}",
        f"  killed: {result['moved']} rooms lost their owner"
        + (
            f"; the instance was serving again {result['restart_s']:.2f} s after the kill"
            if result["restart_s"]
            else ""
        ),
        f"  time until a room acknowledged a command again: {spread(result['recovered'])} "
        f"({len(result['recovered'])} of {result['moved']} rooms); that command itself waited "
        f"{spread(result['waited'])} (from the later of its send and the kill)",
    ]
    if result["reconnects"]:
        opened = [o for o, _ in result["reconnects"]]
        welcomed = [w for _, w in result["reconnects"]]
        lines.append(
            f"  {len(opened)} sockets reconnected: socket open {spread(opened)}, welcomed {spread(welcomed)} "
            "after the kill"
        )
    for line in result["stuck"]:
        lines.append(f"  no ack after the kill: {line}")
    if result["others"]:
        lines.append(
            f"  the survivor's own rooms (not disrupted; their next ack after the kill): {spread(result['others'])} "
            f"({len(result['others'])} rooms)"
        )
    lines += [
        f"  acknowledged commands: {result['acked']}; lost: {result['lost']}; applied twice: {result['duplicated']}",
        f"  clocks of {len(clock)} of {result['games']} games (the clock ran at the kill, the mover moved after it): "
        f"dial moved by exactly the room time charged in {sum(1 for _, late in clock if not math.isnan(late))}; "
        f"charged minus wall time since the move was first sent {spread([early for early, _ in clock], 'ms', 0)} "
        f"(never < 0: not undercharged); charged minus wall time until its ack "
        f"{spread([late for _, late in clock if not math.isnan(late)], 'ms', 0)} (≤ the delivery delay: not "
        "overcharged)",
    ]
    return lines


async def run(args: argparse.Namespace) -> int:
    print(
        f"failover: {args.games} togyz games (2 players) + {args.quizzes} quiz rooms (host + 4 teams), pace "
        f"{args.pace:g}/s, kill after {args.before:g} s, play on {args.after:g} s; load average {load_average()}"
    )
    results = []
    if args.mode in ("both", "cluster"):
        for reason in (await redis_reachable(args.bus), await postgres_reachable(args.db)):
            if reason is not None:
                print(f"two instances: skipped ({reason})")
                break
        else:
            async with private_namespace(args.db, args.bus, None) as (db, extra, _where):
                results.append(
                    await scenario(
                        "two instances, PostgreSQL + Redis, SIGKILL of the owner of most rooms", args, db, extra, True
                    )
                )
    if args.mode in ("both", "sqlite"):
        results.append(await scenario("one instance, SQLite, SIGKILL and restart", args, None, [], False))
    failed = False
    for result in results:
        for line in report(result):
            print(line)
        failed |= result["lost"] > 0 or result["duplicated"] > 0
    print(f"load average at the end {load_average()}")
    return 1 if failed else 0


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--quizzes", type=int, default=10)
    parser.add_argument("--before", type=float, default=6.0, help="seconds of play before the kill")
    parser.add_argument("--after", type=float, default=8.0, help="seconds of play after the kill")
    parser.add_argument("--pace", type=float, default=1.0, help="moves per second per game")
    parser.add_argument("--mode", choices=("both", "cluster", "sqlite"), default="both")
    parser.add_argument("--db", default=DEFAULT_DB)
    parser.add_argument("--bus", default=DEFAULT_BUS)
    parser.add_argument("--pack", type=Path, default=DEFAULT_PACK)
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--logs", type=Path, help="copy the servers' logs into this folder")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = arguments(argv)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(run(args))
    return uvloop.run(run(args))


if __name__ == "__main__":
    raise SystemExit(main())
