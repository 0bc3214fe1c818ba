"""Real ``toreshi serve`` processes for the crash and scale-out tests, and a small WebSocket room client.

Every server is a subprocess on a free loopback port with its output in a log file; the fixtures stop every one of
them (SIGKILL if SIGTERM is not enough), also when a test fails. PostgreSQL and Redis are the real local services:
a test that cannot reach one is skipped, or fails when ``CI`` is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.asyncio.client import ClientConnection

from ..postgres import probe_postgres
from ..web.helpers import ARBITER

REDIS_URL = os.environ.get("TORESHI_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
READY_TIMEOUT_S = 40.0


def unavailable(message: str) -> None:
    """Skip, or fail under CI (CI must prove the scale-out path)."""
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set: start the service, e.g. through scripts/_env.sh ensure_services)")
    pytest.skip(message)


async def find_postgres() -> str:
    url, problems = await probe_postgres()
    if url is not None:
        return url
    unavailable("PostgreSQL is not reachable: " + "; ".join(problems))
    raise AssertionError("unreachable")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """One ``toreshi serve`` process."""

    name: str
    port: int
    args: list[str]
    log_path: Path
    process: asyncio.subprocess.Process | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    async def start(self) -> None:
        command = [sys.executable, "-m", "toreshi", "serve", "--port", str(self.port), *self.args]
        log = self.log_path.open("ab")
        try:
            self.process = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TERM": "dumb"},
            )
        finally:
            log.close()

    async def wait_ready(self, timeout: float = READY_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as client:
            while time.monotonic() < deadline:
                if self.process is None or self.process.returncode is not None:
                    pytest.fail(f"server {self.name} exited early:\n{self.log_tail()}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await client.get(f"{self.url}/api/session")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        pytest.fail(f"server {self.name} not ready in {timeout} s:\n{self.log_tail()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, leases are not released, the socket connections just break."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)

    def pause(self) -> None:
        """SIGSTOP: the process keeps its connections (Redis still counts its subscriptions) but does nothing."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGCONT)

    async def stop(self) -> None:
        process = self.process
        if process is None:
            return
        if process.returncode is None:
            process.send_signal(signal.SIGCONT)  # a paused process would not act on SIGTERM
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.send_signal(signal.SIGKILL)
        await process.wait()

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path.exists():
            return "(no log)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


@contextlib.asynccontextmanager
async def running(servers: list[Server]) -> AsyncIterator[list[Server]]:
    """Start ``servers`` together, wait until each answers, and stop every one of them on the way out."""
    try:
        for server in servers:
            await server.start()
        await asyncio.gather(*(server.wait_ready() for server in servers))
        yield servers
    finally:
        await asyncio.gather(*(server.stop() for server in servers), return_exceptions=True)


def prepare_data_dir(path: Path) -> Path:
    """A data folder shared by the instances: they must sign session cookies with the same key."""
    path.mkdir(parents=True, exist_ok=True)
    key = path / "secret.key"
    if not key.exists():
        key.write_text(os.urandom(32).hex())
        key.chmod(0o600)
    return path


async def sign_in(client: httpx.AsyncClient, name: str = ARBITER[0], password: str = ARBITER[1]) -> str:
    """``tests/web/helpers.sign_in`` for an async client: ``/setup`` the first time, ``/login`` afterwards; returns
    the session's CSRF token (the cookie stays in ``client``)."""
    first = (await client.get("/setup", follow_redirects=False)).status_code == 200
    form = {"name": name, "password": password, "csrf": (await client.get("/api/session")).json()["csrf"]}
    if first:
        form["confirm"] = password
    response = await client.post("/setup" if first else "/login", data=form)
    assert response.status_code in (200, 303), response.text
    session = (await client.get("/api/session")).json()
    assert session["arbiter"] == name
    return str(session["csrf"])


async def create_game(client: httpx.AsyncClient, csrf: str, white: str, black: str) -> dict[str, Any]:
    response = await client.post(
        "/api/games", json={"white": white, "black": black, "control": "blitz"}, headers={"x-csrf-token": csrf}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


_ids = itertools.count(1)


@dataclass
class RoomClient:
    """One socket to a room: answers pings, keeps the newest state, and pairs commands with their answers."""

    connection: ClientConnection
    room: str
    token: str | None = None
    version: int = 0
    state: dict[str, Any] = field(default_factory=dict)
    last_ts: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None
    closed: bool = False

    @classmethod
    async def open(
        cls, base_ws: str, room: str, *, token: str | None = None, cookie: str | None = None, version: int = 0
    ) -> RoomClient:
        headers = {"Cookie": cookie} if cookie else None
        connection = await websockets.connect(f"{base_ws}/ws/rooms/{room}", additional_headers=headers)
        client = cls(connection, room, token, version)
        await client._hello()
        client.reader = asyncio.create_task(client._read())
        return client

    async def _hello(self) -> None:
        """Say hello from this client's version: the room answers with what it lacks (or a snapshot)."""
        hello: dict[str, Any] = {"t": "hello", "v": self.version}
        if self.token:
            hello["token"] = self.token
        await self.connection.send(json.dumps(hello))

    async def _read(self) -> None:
        asked_at: int | None = None
        try:
            async for raw in self.connection:
                message = json.loads(raw)
                kind = message.get("t")
                if kind == "ping":
                    await self.connection.send(json.dumps({"t": "pong", "id": message["id"], "tc": time.time() * 1e3}))
                    continue
                if kind == "snapshot":
                    self.version, self.state, self.last_ts = message["v"], message["data"], message["ts"]
                elif kind in ("event", "events"):  # one event, or several in one frame
                    for event in message["events"] if kind == "events" else [message]:
                        if event["v"] > self.version + 1:  # a gap: ask for what is missing, as the pages do
                            if asked_at != self.version:  # once per version: each hello costs a snapshot
                                asked_at = self.version
                                await self._hello()
                            break
                        if event["v"] == self.version + 1:
                            self.version, self.last_ts = event["v"], event["ts"]
                            self.events.append(event)
                            if isinstance(event["data"].get("state"), dict):
                                self.state = event["data"]["state"]
                elif kind in ("ack", "refused"):
                    self.answers[message["id"]] = message
                elif kind == "resync":  # fell behind (docs/protocol.md): join again from this version
                    await self._hello()
                self.changed.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.changed.set()

    async def wait_for(self, predicate: Any, timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while not predicate(self):
                if self.closed:
                    raise ConnectionError(f"socket to {self.room} closed")
                self.changed.clear()
                await self.changed.wait()

    async def command(self, kind: str, data: dict[str, Any] | None = None, timeout: float = 15.0) -> dict[str, Any]:
        """Send a command and return its answer (``ack`` or ``refused``)."""
        command_id = f"c{next(_ids)}"
        await self.connection.send(json.dumps({"t": "cmd", "id": command_id, "type": kind, "data": data or {}}))
        await self.wait_for(lambda c: command_id in c.answers, timeout)
        return self.answers.pop(command_id)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.connection.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.reader


def session_cookie(client: httpx.AsyncClient) -> str:
    return "; ".join(f"{name}={value}" for name, value in client.cookies.items())
