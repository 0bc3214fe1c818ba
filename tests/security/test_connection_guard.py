"""Slow-header sockets and connection floods: uvicorn with the guarded protocols on a real loopback socket.

Small numbers keep it fast: a header deadline of 0.4 s, a cap of 3 connections per address. Loopback has a whole
/8, so a "phone at another address" is 127.0.0.2.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect

from toreshi.web.common.connection_guard import ConnectionGuard, guarded_protocols
from toreshi.web.common.proxies import TrustedProxies

from ..served import Server

HEADER_TIMEOUT = 0.4
CAP = 3
LATE = 10.0
"""Seconds a test waits for what must happen (it goes on as soon as it does): generous, for a loaded machine."""

NOBODY = TrustedProxies()
"""No address exempt from the cap: the tests' clients are on loopback, which ``toreshi serve`` does not cap."""


async def _hello(_: object) -> PlainTextResponse:
    return PlainTextResponse("ok")


async def _echo(websocket: WebSocket) -> None:
    await websocket.accept()
    async for text in websocket.iter_text():
        await websocket.send_text(text)


APP = Starlette(routes=[Route("/", _hello), WebSocketRoute("/ws", _echo)])


@contextlib.asynccontextmanager
async def served(guard: ConnectionGuard) -> AsyncIterator[int]:
    """uvicorn serving :data:`APP` on a free loopback port, its protocols held to ``guard``; yields the port."""
    http, ws = guarded_protocols(guard)
    config = uvicorn.Config(APP, http=http, ws=ws, lifespan="off", log_level="warning", proxy_headers=False)
    server = uvicorn.Server(config)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield int(listener.getsockname()[1])
    finally:
        server.should_exit = True
        await task


async def _open(port: int, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def _closed_by_server(reader: asyncio.StreamReader, within: float) -> bool:
    """Whether the server closes the connection (EOF, possibly after a short answer) within ``within`` seconds."""
    try:
        async with asyncio.timeout(within):
            while await reader.read(1024):
                pass
    except TimeoutError:
        return False
    except ConnectionError:
        return True
    return True


async def _until(condition: Callable[[], bool]) -> None:
    """Wait until ``condition`` holds (the server sees a close a moment after the client makes it)."""
    async with asyncio.timeout(LATE):
        while not condition():
            await asyncio.sleep(0.01)


async def _get(port: int, source: str, path: str = "/") -> int:
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(transport=transport, timeout=5) as client:
        return (await client.get(f"http://127.0.0.1:{port}{path}")).status_code


def test_a_request_head_sent_too_slowly_is_cut_off() -> None:
    async def scenario() -> None:
        async with served(ConnectionGuard(header_timeout=HEADER_TIMEOUT, max_per_address=None)) as port:
            reader, writer = await _open(port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            for number in range(3):  # a header line now and then: each one would cancel uvicorn's keep-alive timer
                await asyncio.sleep(HEADER_TIMEOUT / 4)
                writer.write(f"X-Slow-{number}: 1\r\n".encode())
            assert await _closed_by_server(reader, within=LATE)
            # After a first answer the deadline applies again to the next request's head.
            reader, writer = await _open(port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert (await reader.readuntil(b"ok")).startswith(b"HTTP/1.1 200")
            writer.write(b"GET / HTTP/1.1\r\n")
            assert await _closed_by_server(reader, within=LATE)
            # A whole head in time is answered, and a slow handler or body is not the head's business.
            assert await _get(port, "127.0.0.1") == 200

    asyncio.run(scenario())


def test_without_a_deadline_a_slow_head_holds_its_socket() -> None:
    """The baseline the deadline is for: with it off (uvicorn's own behaviour), the socket stays open."""

    async def scenario() -> None:
        async with served(ConnectionGuard(header_timeout=None, max_per_address=None)) as port:
            reader, writer = await _open(port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            assert not await _closed_by_server(reader, within=3 * HEADER_TIMEOUT)
            writer.close()

    asyncio.run(scenario())


def test_an_address_holds_at_most_its_share_of_connections() -> None:
    async def scenario() -> None:
        guard = ConnectionGuard(header_timeout=None, max_per_address=CAP, uncapped=NOBODY)
        async with served(guard) as port:
            held = [await _open(port) for _ in range(CAP)]
            for _, writer in held:  # each one is admitted: a request on it is answered
                writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            for reader, _ in held:
                assert (await reader.readuntil(b"ok")).startswith(b"HTTP/1.1 200")
            reader, _ = await _open(port)
            refused = await asyncio.wait_for(reader.read(), LATE)
            assert refused.startswith(b"HTTP/1.1 503"), refused
            assert await _get(port, "127.0.0.2") == 200, "another address is served"
            # A WebSocket is a connection too, until it closes.
            held[0][1].close()
            await _until(lambda: guard.open_connections("127.0.0.1") == CAP - 1)
            async with connect(f"ws://127.0.0.1:{port}/ws") as socket_:
                await socket_.send("hi")
                assert await socket_.recv() == "hi"
                assert guard.open_connections("127.0.0.1") == CAP
                reader, _ = await _open(port)
                assert (await asyncio.wait_for(reader.read(), LATE)).startswith(b"HTTP/1.1 503")
            await _until(lambda: guard.open_connections("127.0.0.1") == CAP - 1)  # the socket gave its place back
            for _, writer in held[1:]:
                writer.close()
            await _until(lambda: guard.open_connections("127.0.0.1") == 0)

    asyncio.run(scenario())


def test_a_trusted_proxy_is_not_capped_at_the_transport() -> None:
    """nginx carries every client of a club: its connections are counted per forwarded address, in the app."""

    async def scenario() -> None:
        guard = ConnectionGuard(None, 1, trusted=TrustedProxies.parse(["127.0.0.0/30"]), uncapped=NOBODY)
        async with served(guard) as port:
            held = [await _open(port) for _ in range(3)]
            assert [await _get(port, "127.0.0.1") for _ in range(2)] == [200, 200]
            for _, writer in held:
                writer.close()
            _, other = await _open(port, "127.0.0.9")
            reader, _ = await _open(port, "127.0.0.9")
            assert (await asyncio.wait_for(reader.read(), LATE)).startswith(b"HTTP/1.1 503")
            other.close()

    asyncio.run(scenario())


def test_toreshi_serve_cuts_slow_heads_off_and_leaves_this_machine_uncapped(tmp_path: Path) -> None:
    server = Server(tmp_path, "--header-timeout", str(HEADER_TIMEOUT), "--max-connections-per-address", str(CAP))
    port = server.port

    async def scenario() -> None:
        slow = [await _open(port) for _ in range(CAP + 2)]
        for _, writer in slow:
            writer.write(b"GET / HTTP/1.1\r\n")
        # While more slow sockets than the cap are open, this machine is still served: loopback is not capped.
        statuses = await asyncio.gather(*(_get(port, "127.0.0.1", "/api/health") for _ in range(CAP)))
        assert statuses == [200] * CAP
        closed = await asyncio.gather(*(_closed_by_server(reader, within=LATE) for reader, _ in slow))
        assert all(closed)

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_loopback_is_not_capped_by_default() -> None:
    guard = ConnectionGuard(max_per_address=1)
    assert guard.uncapped.trusts("127.0.0.1") and guard.uncapped.trusts("::1")
    assert not guard.uncapped.trusts("192.168.1.23")
