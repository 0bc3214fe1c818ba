"""Who the client is: ``X-Forwarded-For`` counts only from the proxies the settings name, and sign-in lockouts are
kept per account and address."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from toreshi.web.app import create_app
from toreshi.web.common.proxies import TRY_AGAIN_LATER, ForwardedClientMiddleware, TrustedProxies
from toreshi.web.common.security import SignInLimiter, hash_password
from toreshi.web.common.settings import Settings

from ..served import Server
from .helpers import ARBITER, call, session_csrf, sign_in

PROXY = "10.0.0.1"
SECOND = ("Ерлан Төреші", "tuzdyk-2026!")


def _login(client: TestClient, password: str, name: str = ARBITER[0], forwarded: str | None = None) -> int:
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    form = {"name": name, "password": password, "csrf": session_csrf(client)}
    return client.post("/login", data=form, headers=headers, follow_redirects=False).status_code


def _second_arbiter(client: TestClient) -> None:
    services: Any = client.app.state.services  # type: ignore[attr-defined]
    call(client, lambda: services.accounts.add_arbiter(SECOND[0], hash_password(SECOND[1])))


def _small_limiter(client: TestClient, account: int, address: int) -> SignInLimiter:
    limiter = SignInLimiter(account_attempts=account, address_attempts=address)
    client.app.state.sign_in_limiter = limiter  # type: ignore[attr-defined]
    return limiter


@pytest.fixture
def arbiters(client: TestClient) -> TestClient:
    """The security app with two arbiters, signed out."""
    sign_in(client)
    client.post("/logout", data={"csrf": session_csrf(client)})
    _second_arbiter(client)
    return client


def _from(client: TestClient, host: str) -> TestClient:
    other = TestClient(client.app, base_url="http://testserver", client=(host, 50000))
    other.portal = client.portal
    return other


def test_a_flood_for_one_account_locks_only_that_account_at_that_address(arbiters: TestClient) -> None:
    limiter = _small_limiter(arbiters, account=3, address=20)
    assert [_login(arbiters, f"guess-{i}") for i in range(3 * 5)] == [200] * 3 + [429] * 12
    assert _login(arbiters, ARBITER[1]) == 429, "the right password from the guessing address waits too"
    assert _login(arbiters, SECOND[1], name=SECOND[0]) == 303, "another account at the same address signs in"
    arbiters.post("/logout", data={"csrf": session_csrf(arbiters)})
    desk = _from(arbiters, "192.168.1.23")
    assert _login(desk, ARBITER[1]) == 303, "the arbiter at the desk is not locked out by the flood"
    assert _login(arbiters, ARBITER[1], name=f"  {ARBITER[0].upper()} ") == 429, "case and spaces are one account"
    limiter.set_clock(lambda: 1e12)  # the window passes
    assert _login(arbiters, ARBITER[1]) == 303


def test_an_address_that_tries_name_after_name_is_bounded(arbiters: TestClient) -> None:
    _small_limiter(arbiters, account=3, address=7)
    codes = [_login(arbiters, "guess", name=f"nobody-{i}") for i in range(8)]
    assert codes == [200] * 7 + [429]
    assert _login(arbiters, SECOND[1], name=SECOND[0]) == 429, "the address as a whole waits"
    assert _login(_from(arbiters, "192.168.1.23"), SECOND[1], name=SECOND[0]) == 303


def test_forwarded_headers_are_ignored_from_a_peer_not_named(arbiters: TestClient) -> None:
    """No trusted proxies (the default): a guesser cannot dodge its lockout by naming another address."""
    _small_limiter(arbiters, account=3, address=20)
    codes = [_login(arbiters, "guess", forwarded=f"203.0.113.{i}") for i in range(4)]
    assert codes == [200, 200, 200, 429]


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[TestClient]:
    """The app behind a trusted proxy at :data:`PROXY`, seen from that proxy."""
    app = create_app(Settings(data_dir=tmp_path, trusted_proxies=(PROXY,)))
    with TestClient(app, base_url="http://testserver", client=(PROXY, 40000)) as client:
        yield client


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_client(proxied: TestClient) -> None:
    # The first password can be set only from the proxy's machine itself, not by a client it forwards.
    setup = proxied.get("/setup?lang=en", headers={"x-forwarded-for": "203.0.113.7"})
    assert setup.status_code == 403
    state: Any = proxied.app.state  # type: ignore[attr-defined]
    call(proxied, lambda: state.services.accounts.add_arbiter(ARBITER[0], hash_password(ARBITER[1])))
    _small_limiter(proxied, account=3, address=20)
    guesser = "203.0.113.7"
    assert [_login(proxied, "guess", forwarded=guesser) for _ in range(4)] == [200, 200, 200, 429]
    # Writing another address in front does not help: the right-most one not a trusted proxy is the client.
    assert _login(proxied, ARBITER[1], forwarded=f"198.51.100.1, {guesser}") == 429
    assert _login(proxied, ARBITER[1], forwarded=f"{guesser}, {PROXY}") == 429
    assert _login(proxied, ARBITER[1], forwarded="198.51.100.2") == 303, "another club member signs in"


def test_setup_through_a_proxy_on_this_machine_is_not_local(tmp_path: Path) -> None:
    """nginx on the laptop, not named as trusted: every request comes from loopback, yet carries the header."""
    with TestClient(create_app(Settings(data_dir=tmp_path)), client=("127.0.0.1", 40000)) as client:
        assert client.get("/setup", headers={"x-forwarded-for": "192.168.1.50"}).status_code == 403
        assert client.get("/setup", headers={"forwarded": "for=192.168.1.50"}).status_code == 403
        assert client.get("/setup").status_code == 200


def test_toreshi_serve_believes_no_forwarded_header_by_default(tmp_path: Path) -> None:
    """uvicorn alone believes ``X-Forwarded-For`` from 127.0.0.1: a local guesser would name a new address per try."""
    server = Server(tmp_path)
    try:
        with httpx.Client(base_url=server.url, timeout=10) as http:
            csrf = http.get("/api/session").json()["csrf"]
            form = {"name": ARBITER[0], "password": ARBITER[1], "confirm": ARBITER[1], "csrf": csrf}
            assert http.post("/setup", data=form).status_code == 303
            http.post("/logout", data={"csrf": http.get("/api/session").json()["csrf"]})
            codes = []
            for attempt in range(11):
                csrf = http.get("/api/session").json()["csrf"]
                form = {"name": ARBITER[0], "password": f"guess-{attempt}", "csrf": csrf}
                headers = {"x-forwarded-for": f"203.0.113.{attempt}"}
                codes.append(http.post("/login", data=form, headers=headers).status_code)
            assert codes == [200] * 10 + [429]
    finally:
        server.stop()


async def _hello(request: Request) -> PlainTextResponse:
    return PlainTextResponse(request.client.host if request.client else "")


async def _hold(websocket: WebSocket) -> None:
    await websocket.accept()
    async for _ in websocket.iter_text():  # held open until the client closes it
        pass


CAPPED = ForwardedClientMiddleware(
    Starlette(routes=[Route("/", _hello), WebSocketRoute("/ws", _hold)]),
    TrustedProxies.parse([PROXY]),
    max_per_address=2,
)


def test_a_forwarded_address_holds_at_most_its_share_of_requests_and_sockets() -> None:
    proxy = TestClient(CAPPED, base_url="http://testserver", client=(PROXY, 40000))
    club, other = {"x-forwarded-for": "203.0.113.7"}, {"x-forwarded-for": "198.51.100.2"}
    with proxy.websocket_connect("/ws", headers=club), proxy.websocket_connect("/ws", headers=club):
        with pytest.raises(WebSocketDisconnect) as refused, proxy.websocket_connect("/ws", headers=club):
            pass
        assert refused.value.code == TRY_AGAIN_LATER
        page = proxy.get("/", headers={**club, "accept-language": "ru"})
        assert page.status_code == 503 and "Слишком много соединений" in page.text
        assert proxy.get("/", headers=other).text == "198.51.100.2", "another address is served"
        assert proxy.get("/").status_code == 200, "the proxy's own request, naming no client, is not counted"
        direct = TestClient(CAPPED, base_url="http://testserver", client=("203.0.113.7", 40000))
        assert direct.get("/", headers=club).text == "203.0.113.7", "a direct peer is capped at the transport"
    assert proxy.get("/", headers=club).text == "203.0.113.7", "closed sockets give their places back"
    assert CAPPED.open == {}


@settings(max_examples=60, deadline=None)
@given(
    forwarded=st.lists(
        st.one_of(st.ip_addresses(v=4).map(str), st.sampled_from([PROXY, "10.0.0.2", "garbage", ""])),
        max_size=5,
    )
)
def test_the_client_is_the_right_most_address_not_the_proxy_and_only_through_it(forwarded: list[str]) -> None:
    """Whatever a client writes in ``X-Forwarded-For``: from an untrusted peer the peer is the client; through the
    trusted proxy the client is the right-most entry that is not the proxy (which nginx appends itself, so what the
    client wrote in front never counts)."""
    headers = {"x-forwarded-for": ", ".join(forwarded)}
    untrusted = TestClient(CAPPED, base_url="http://testserver", client=("192.0.2.9", 40000))
    assert untrusted.get("/", headers=headers).text == "192.0.2.9"
    seen = TestClient(CAPPED, base_url="http://testserver", client=(PROXY, 40000)).get("/", headers=headers)
    expected = next((entry.strip() for entry in reversed(forwarded) if entry.strip() != PROXY), PROXY)
    assert seen.text == (expected or PROXY)  # an empty entry names nobody: the proxy stays the client
