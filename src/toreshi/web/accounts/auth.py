"""Who is signed in: arbiters sign in with a password; their server-side session remembers them.

The first start has no arbiter: ``/setup`` sets the first password, and by default only from this machine, so
that nobody else on the club network can claim the laptop first.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from functools import wraps

from starlette.requests import HTTPConnection, Request
from starlette.responses import RedirectResponse, Response

from toreshi.web.accounts import sessions
from toreshi.web.common.security import new_token, tokens_match

SESSION_KEY = "arbiter"
CSRF_KEY = "csrf"


def signed_in(connection: HTTPConnection) -> str | None:
    """The signed-in arbiter's name, or ``None``."""
    if "session" not in connection.scope:
        return None
    name = connection.session.get(SESSION_KEY)
    return name if isinstance(name, str) else None


def sign_in(request: Request, name: str) -> None:
    request.session.clear()  # a new session, under a new id, on sign-in: no fixation
    sessions.rotate(request)
    request.session[SESSION_KEY] = name
    request.session[CSRF_KEY] = new_token()


def sign_out(request: Request) -> None:
    """End the session on the server: its row is deleted, a copied cookie is worth nothing afterwards."""
    request.session.clear()


def csrf_token(request: Request) -> str:
    """The session's form token, made on first use."""
    token = request.session.get(CSRF_KEY)
    if not isinstance(token, str):
        token = new_token()
        request.session[CSRF_KEY] = token
    return token


def csrf_ok(request: Request, submitted: str | None) -> bool:
    expected = request.session.get(CSRF_KEY)
    return tokens_match(expected if isinstance(expected, str) else None, submitted)


def is_local(connection: HTTPConnection) -> bool:
    """A request from this machine (loopback). A request that names a forwarded client came through a proxy on this
    machine, so it is not local, whether or not the proxy is trusted (an untrusted one's header names nobody)."""
    if "x-forwarded-for" in connection.headers or "forwarded" in connection.headers:
        return False
    host = connection.client.host if connection.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host in ("localhost", "testclient")


Handler = Callable[[Request], Awaitable[Response]]


def arbiter_only(handler: Handler) -> Handler:
    """Send visitors who are not signed in to the sign-in page, then back."""

    @wraps(handler)
    async def guarded(request: Request) -> Response:
        if signed_in(request) is None:
            return RedirectResponse(f"/login?next={request.url.path}", status_code=303)
        return await handler(request)

    return guarded
