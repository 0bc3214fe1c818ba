"""Who the client is: ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from the reverse proxies named
in :attr:`Settings.trusted_proxies <toreshi.web.common.settings.Settings.trusted_proxies>`, and a client reached through
one of them may hold only so many open connections.

From anyone else the headers are ignored: a client that sends ``X-Forwarded-For: 10.9.8.7`` is still its own TCP
address, so it can neither dodge the sign-in and token limits nor borrow another's address. Connections that come
straight from a client are capped per address by the server itself (:mod:`toreshi.web.common.connection_guard`); those
from a trusted proxy carry many clients, so they are counted here, per forwarded address, instead.

>>> proxies = TrustedProxies.parse(["10.0.0.5", "192.168.7.0/24"])
>>> [proxies.trusts(host) for host in ("10.0.0.5", "192.168.7.200", "10.0.0.6", "testclient")]
[True, True, False, False]
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.requests import HTTPConnection
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from toreshi.texts import i18n
from toreshi.texts.i18n import N_
from toreshi.web.common.middleware import LANGUAGE_COOKIE

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

_PEER_KEY = "toreshi.peer"
"""Where the scope keeps the TCP peer's address once the forwarded client has replaced it."""
TRY_AGAIN_LATER = 1013
"""WebSocket close code for a socket refused over the connection cap."""


@dataclass(frozen=True)
class TrustedProxies:
    networks: tuple[Network, ...] = ()

    @classmethod
    def parse(cls, entries: Iterable[str]) -> TrustedProxies:
        """Addresses and networks; a network may have host bits set (``10.0.0.5/24`` is ``10.0.0.0/24``).

        Raises ``ValueError`` on anything else, ``*`` included: trusting every peer would make the headers worth
        nothing again."""
        return cls(tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip()))

    def trusts(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)


class ForwardedClientMiddleware:
    """For requests and sockets from a trusted proxy: the client and scheme become the forwarded ones (uvicorn's
    :class:`ProxyHeadersMiddleware` reads the headers: the client is the right-most address in ``X-Forwarded-For``
    that is not itself a trusted proxy), and each forwarded address may hold ``max_per_address`` open requests and
    sockets together. Everything else passes untouched."""

    def __init__(self, app: ASGIApp, trusted: TrustedProxies, max_per_address: int | None = None) -> None:
        self.app = app
        self.trusted = trusted
        self.max_per_address = max_per_address
        # uvicorn types ASGI with its own TypedDicts, Starlette with plain mappings: the same calls.
        self.forward = ProxyHeadersMiddleware(
            self._counted,  # type: ignore[arg-type]
            trusted_hosts=[str(net) for net in trusted.networks],
        )
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] not in ("http", "websocket") or not client or not self.trusted.trusts(client[0]):
            await self.app(scope, receive, send)
            return
        scope[_PEER_KEY] = client
        await self.forward(scope, receive, send)  # type: ignore[arg-type]

    async def _counted(self, scope: Scope, receive: Receive, send: Send) -> None:
        client, peer = scope.get("client"), scope.get(_PEER_KEY)
        if not client or (peer and client[0] == peer[0]):  # the proxy's own request: no client named
            await self.app(scope, receive, send)
            return
        host = str(client[0])
        if self.max_per_address is not None and self.open[host] >= self.max_per_address:
            await _refuse(scope, receive, send)
            return
        self.open[host] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[host] -= 1
            if not self.open[host]:
                del self.open[host]


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": ""})
        return
    connection = HTTPConnection(scope)
    # The language middleware has not run yet: choose the reader's language the same way it does.
    language = i18n.choose_language(
        connection.query_params.get("lang"),
        connection.cookies.get(LANGUAGE_COOKIE),
        connection.headers.get("accept-language"),
    )
    text = i18n.load_translations()[language].gettext(TOO_MANY_CONNECTIONS)
    await PlainTextResponse(text, status_code=503, headers={"retry-after": "5"})(scope, receive, send)


TOO_MANY_CONNECTIONS = N_("Too many connections from your address; close some pages and try again.")
