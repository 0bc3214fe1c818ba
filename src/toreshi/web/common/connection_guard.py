"""Connections that hold the server without asking anything: a deadline for the request head and a cap on open
connections per client address, enforced at the transport, before any request reaches the app.

uvicorn has neither: its HTTP/1.1 protocol (h11) arms no timer until a first response is sent, and it cancels the
keep-alive timer at the first byte of the next request, so a socket that sends a header line every few seconds
("slowloris") stays open for ever, and a few hundred of them hold as many file descriptors. uvicorn takes its
protocol classes as settings (``http=`` and ``ws=``), so :func:`guarded_protocols` gives it subclasses of its own
h11 and websockets-sansio protocols that:

- close a connection whose request head is not complete ``header_timeout`` seconds after it connected or after its
  previous response was sent (a request's body and the handler's work are not timed: only the head);
- answer 503 and close when an address already holds ``max_per_address`` connections. A WebSocket is the
  connection it was upgraded from, so it counts until it closes. Connections from a trusted proxy are not counted
  here: they carry many clients, and :mod:`toreshi.web.common.proxies` counts those per forwarded address. Nor are those
  from this machine (loopback): whoever runs there can open sockets anyway, and the load benchmarks hold hundreds
  of room sockets from 127.0.0.1 on purpose. The head deadline applies to every connection.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from toreshi.web.common.proxies import TrustedProxies

# No body: a page refused at the transport has not said its language yet, and a Kazakh reader must never be shown
# English. Browsers show their own "service unavailable" page.
TOO_MANY = b"HTTP/1.1 503 Service Unavailable\r\nretry-after: 5\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
LOOPBACK = TrustedProxies.parse(["127.0.0.0/8", "::1"])


@dataclass
class ConnectionGuard:
    """The open connections per client address, and the limits the protocols enforce."""

    header_timeout: float | None = 10.0
    max_per_address: int | None = 128
    trusted: TrustedProxies = field(default_factory=TrustedProxies)
    uncapped: TrustedProxies = LOOPBACK
    """Addresses not counted, besides the trusted proxies."""
    _open: dict[str, set[asyncio.BaseTransport]] = field(default_factory=dict)

    def _host(self, transport: asyncio.BaseTransport) -> str | None:
        address = get_remote_addr(transport)  # type: ignore[arg-type]
        if address is None or self.trusted.trusts(address[0]) or self.uncapped.trusts(address[0]):
            return None
        return address[0]

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; ``False`` if its address already holds its share. Counting one transport twice
        (the WebSocket that an HTTP connection became) counts it once."""
        host = self._host(transport)
        if host is None:
            return True
        held = self._open.setdefault(host, set())
        if transport in held:
            return True
        if self.max_per_address is not None and len(held) >= self.max_per_address:
            if not held:
                del self._open[host]
            return False
        held.add(transport)
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        host = self._host(transport)
        held = self._open.get(host) if host is not None else None
        if held is not None:
            held.discard(transport)
            if not held:
                del self._open[host]  # type: ignore[arg-type]

    def open_connections(self, host: str) -> int:
        return len(self._open.get(host, ()))


def guarded_protocols(guard: ConnectionGuard) -> tuple[type[H11Protocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn's HTTP/1.1 and WebSocket protocols, held to ``guard``; pass them as ``http=`` and ``ws=``."""

    class GuardedH11Protocol(H11Protocol):
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            if not guard.admit(transport):
                self.transport.write(TOO_MANY)
                self.transport.close()
                return
            self._await_head()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            guard.release(self.transport)
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._await_head()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._stop_waiting()
            super().handle_websocket_upgrade(event)

        def _await_head(self) -> None:
            self._stop_waiting()
            if guard.header_timeout is not None:
                self.header_timer = self.loop.call_later(guard.header_timeout, self._head_deadline)

        def _stop_waiting(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def _head_deadline(self) -> None:
            self.header_timer = None
            # Still waiting for (the rest of) a request head: h11 leaves the client IDLE until the head is whole.
            # A request being read or answered, a pipelined one included, has moved it on.
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self.transport.close()

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            guard.admit(transport)  # already counted as the HTTP connection it was upgraded from
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)
            super().connection_lost(exc)

    return GuardedH11Protocol, GuardedWebSocketProtocol
