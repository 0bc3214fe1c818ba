"""Slow-header sockets against ``toreshi serve``'s server, measured (issue 26 §2): before and after, in one run.

The real app (SQLite in a temporary folder) is served by uvicorn on a free 127.0.0.1 port, twice:

- **baseline**: uvicorn's own HTTP/1.1 and WebSocket protocols, as ``toreshi serve`` ran them before: no deadline
  for a request head, no cap per address;
- **guarded**: the protocols ``toreshi serve`` runs now (:mod:`toreshi.web.common.connection_guard`), with
  ``--header-timeout`` and ``--cap``.

In each round ``--sockets`` connections from 127.0.0.1 start a request and send one more header line every
``--drip`` seconds, never ending the head. After ``--seconds`` it prints how many the server refused at once (503),
how many it closed later (the deadline), how many were still open, and whether a normal client was served meanwhile
(``GET /api/health``): one from another address (127.0.0.2, loopback is a whole /8) and one from the slow sockets'
own address. The slow sockets stand for a phone on the club network: ``toreshi serve`` does not cap loopback, the
guarded round here does. Every loop is bounded; the script stops by itself.

    python benchmarks/slowloris.py [--sockets 300] [--seconds 12] [--drip 2] [--header-timeout 10] [--cap 128]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import socket
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from toreshi.web.app import create_app
from toreshi.web.common.connection_guard import ConnectionGuard, guarded_protocols
from toreshi.web.common.proxies import TrustedProxies
from toreshi.web.common.settings import Settings

SLOW_ADDRESS = "127.0.0.1"
OTHER_ADDRESS = "127.0.0.2"


@dataclass
class Slow:
    """One slow socket's fate: ``refused`` (answered 503 at once), ``closed_at`` (seconds after the start)."""

    refused: bool = False
    closed_at: float | None = None
    connected: bool = False


@dataclass
class Round:
    name: str
    deadline: str
    cap: str
    sockets: list[Slow]
    other_served: str
    same_served: str

    def row(self) -> str:
        refused = sum(slow.refused for slow in self.sockets)
        closed = sum(slow.closed_at is not None and not slow.refused for slow in self.sockets)
        still_open = sum(slow.connected and slow.closed_at is None for slow in self.sockets)
        return (
            f"{self.name:<9} {self.deadline:>9} {self.cap:>5} {refused:>8} {closed:>8} {still_open:>14}"
            f"   {self.other_served:<18} {self.same_served}"
        )


@contextlib.asynccontextmanager
async def serving(data_dir: Path, guard: ConnectionGuard | None) -> AsyncIterator[int]:
    """The app under uvicorn on a free loopback port; guarded protocols if ``guard``, uvicorn's own if not."""
    http: type[asyncio.Protocol]
    ws: type[asyncio.Protocol]
    if guard is None:
        http, ws = H11Protocol, WebSocketsSansIOProtocol
    else:
        http, ws = guarded_protocols(guard)
    app = create_app(Settings(data_dir=data_dir))
    config = uvicorn.Config(app, http=http, ws=ws, proxy_headers=False, log_level="error")
    server = uvicorn.Server(config)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    for _ in range(600):  # at most 30 s to start
        if server.started or task.done():
            break
        await asyncio.sleep(0.05)
    if not server.started:
        raise RuntimeError("the server did not start")
    try:
        yield int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 30)


async def slow_socket(port: int, slow: Slow, drip: float, started: float, until: float) -> None:
    """Start a request and send a header line every ``drip`` s until ``until`` (monotonic) or the server closes."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(SLOW_ADDRESS, 0))
    except OSError:
        return
    slow.connected = True
    writer.write(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    line = 0
    try:
        while time.monotonic() < until:
            try:
                data = await asyncio.wait_for(reader.read(1024), timeout=drip)
            except TimeoutError:
                line += 1
                writer.write(f"X-Slow-{line}: {'a' * 20}\r\n".encode())
                continue
            slow.refused = slow.refused or data.startswith(b"HTTP/1.1 503")
            if not data:
                slow.closed_at = time.monotonic() - started
                return
    except ConnectionError:
        slow.closed_at = time.monotonic() - started
    finally:
        writer.close()


async def normal_client(port: int, source: str) -> str:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    began = time.perf_counter()
    try:
        async with httpx.AsyncClient(transport=transport, timeout=5) as client:
            status = (await client.get(f"http://127.0.0.1:{port}/api/health")).status_code
    except httpx.HTTPError as error:
        return f"failed ({type(error).__name__})"
    return f"{status} in {1000 * (time.perf_counter() - began):.0f} ms"


async def run_round(
    name: str, data_dir: Path, guard: ConnectionGuard | None, sockets: int, seconds: float, drip: float
) -> Round:
    async with serving(data_dir, guard) as port:
        started = time.monotonic()
        until = started + seconds + 1
        slows = [Slow() for _ in range(sockets)]
        tasks = [asyncio.create_task(slow_socket(port, slow, drip, started, until)) for slow in slows]
        await asyncio.sleep(seconds)
        other, same = await asyncio.gather(normal_client(port, OTHER_ADDRESS), normal_client(port, SLOW_ADDRESS))
        snapshot = [Slow(slow.refused, slow.closed_at, slow.connected) for slow in slows]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    deadline = "none" if guard is None or guard.header_timeout is None else f"{guard.header_timeout:g} s"
    cap = "none" if guard is None or guard.max_per_address is None else str(guard.max_per_address)
    return Round(name, deadline, cap, snapshot, other, same)


async def main(arguments: argparse.Namespace) -> None:
    print(
        f"slowloris: {arguments.sockets} sockets from {SLOW_ADDRESS}, a header line every {arguments.drip:g} s, "
        f"counted after {arguments.seconds:g} s"
    )
    print(
        f"{'round':<9} {'deadline':>9} {'cap':>5} {'refused':>8} {'closed':>8} "
        f"{'open after ' + format(arguments.seconds, 'g') + ' s':>14}   {'other address':<18} same address"
    )
    with tempfile.TemporaryDirectory(prefix="toreshi-slowloris-") as folder:
        data_dir = Path(folder)
        # The slow sockets stand for a device on the club network: loopback, which serve leaves uncapped, is capped.
        guard = ConnectionGuard(arguments.header_timeout, arguments.cap, uncapped=TrustedProxies())
        for name, chosen in (("baseline", None), ("guarded", guard)):
            result = await run_round(name, data_dir, chosen, arguments.sockets, arguments.seconds, arguments.drip)
            print(result.row(), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=12.0, help="when the open sockets are counted")
    parser.add_argument("--drip", type=float, default=2.0, help="seconds between two header lines")
    parser.add_argument("--header-timeout", type=float, default=Settings.header_timeout)
    parser.add_argument("--cap", type=int, default=Settings.max_connections_per_address)
    logging.getLogger("uvicorn.error").setLevel(logging.ERROR)
    asyncio.run(main(parser.parse_args()))
