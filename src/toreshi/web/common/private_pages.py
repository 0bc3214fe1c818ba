"""No page that carries a secret stays in a cache (issue 26): a page or a JSON answer with the session's form token
(the arbiter's pages, every form), a player's link (``?token=…``, a team's ``/j/{code}``), or asked for with one,
is answered ``Cache-Control: no-store`` — so the back button on a shared club laptop, a proxy or the browser's disk
cache never hands it to the next person.

One middleware for the whole app: it looks at what is actually sent, so a new page with a form or a link is
covered without being listed. Only HTML and JSON bodies are read (they are small); a download asked for with a
player's token (a quiz report's CSV) is marked from the request alone.
"""

from __future__ import annotations

import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toreshi.web.accounts.auth import CSRF_KEY

NO_STORE = "no-store"

PLAYER_LINK = re.compile(rb"[?&](?:amp;)?token=|/j/[A-Za-z0-9-]{4,}")
"""A player's or a team's link in a body: a ``token`` query parameter (also HTML-escaped ``&amp;token=``), or a
quiz team's join code path."""

_READ_BODIES = (b"text/html", b"application/json")


def _asked_with_a_link(scope: Scope) -> bool:
    query = scope.get("query_string", b"")
    return bool(re.search(rb"(?:^|&)token=", query)) or str(scope.get("path", "")).startswith("/j/")


def carries_a_secret(body: bytes, form_token: str | None) -> bool:
    """Whether ``body`` holds the session's form token or a player's link."""
    return bool(form_token and form_token.encode() in body) or PLAYER_LINK.search(body) is not None


class NoStoreSecretsMiddleware:
    """Adds ``Cache-Control: no-store`` to every response that carries a form token or a player's link (it must sit
    inside the session middleware: it reads the session's token)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        asked_with_a_link = _asked_with_a_link(scope)
        start: Message | None = None
        chunks: list[bytes] = []

        async def held(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                if asked_with_a_link:
                    headers["cache-control"] = NO_STORE
                message["headers"] = headers.raw
                media = headers.get("content-type", "").encode()
                if asked_with_a_link or not media.startswith(_READ_BODIES):
                    await send(message)  # nothing to read: sent as it comes
                    return
                start = message
                return
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = b"".join(chunks)
            token = scope.get("session", {}).get(CSRF_KEY)
            if carries_a_secret(body, token if isinstance(token, str) else None):
                headers = MutableHeaders(raw=list(start.get("headers", [])))
                headers["cache-control"] = NO_STORE
                start["headers"] = headers.raw
            await send(start)
            await send({"type": "http.response.body", "body": body, "more_body": False})

        await self.app(scope, receive, held)
