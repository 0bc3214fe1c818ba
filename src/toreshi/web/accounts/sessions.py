"""Sessions on the server (:mod:`toreshi.store.sessions`), with the ``request.session`` dict pages already use.

The cookie ``toreshi_session`` holds only a random id: HttpOnly, SameSite=Lax, and Secure whenever the page is
served over HTTPS (directly, or behind a proxy that says so) or the app is told ``https_only``. A sign-in starts a
new id (no fixation); a session emptied by signing out is deleted on the server and its cookie cleared.
"""

from __future__ import annotations

import json
import secrets
from http.cookies import SimpleCookie
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toreshi.store.sessions import IDLE_LIMIT, TOUCH_EVERY, Sessions

COOKIE = "toreshi_session"
ROTATE = "toreshi.session.rotate"
"""Set in the scope by a sign-in: the session continues under a new id."""


def rotate(connection: HTTPConnection) -> None:
    """Give this session a new id when it is saved (a sign-in: an id known before it must not be signed in)."""
    connection.scope[ROTATE] = True


def _sessions(scope: Scope) -> Sessions | None:
    services = getattr(scope["app"].state, "services", None)
    found = getattr(services, "sessions", None)
    return found if isinstance(found, Sessions) else None


class ServerSessionMiddleware:
    def __init__(self, app: ASGIApp, *, https_only: bool = False, skip_prefixes: tuple[str, ...] = ("/static/",)):
        self.app = app
        self.https_only = https_only
        self.skip_prefixes = skip_prefixes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"].startswith(self.skip_prefixes):
            await self.app(scope, receive, send)
            return
        store = _sessions(scope)
        if store is None:  # the lifespan has not opened the store (only in unit tests of other middleware)
            scope["session"] = {}
            await self.app(scope, receive, send)
            return
        session_id = HTTPConnection(scope).cookies.get(COOKIE) or None
        loaded = await store.load(session_id) if session_id else None
        data: dict[str, Any] = loaded[0] if loaded else {}
        before = json.dumps(data, sort_keys=True)
        scope["session"] = data
        if scope["type"] == "websocket":  # a socket reads the session; it never changes it
            await self.app(scope, receive, send)
            return
        secure = self.https_only or scope.get("scheme") == "https"

        async def saving(message: Message) -> None:
            if message["type"] == "http.response.start":
                await self._save(scope, store, session_id if loaded else None, before, message, secure, loaded)
            await send(message)

        await self.app(scope, receive, saving)

    async def _save(
        self,
        scope: Scope,
        store: Sessions,
        session_id: str | None,
        before: str,
        message: Message,
        secure: bool,
        loaded: tuple[dict[str, Any], Any] | None,
    ) -> None:
        data = scope["session"]
        headers = MutableHeaders(scope=message)
        changed = json.dumps(data, sort_keys=True) != before or scope.get(ROTATE, False)
        if not data:
            if session_id is not None:
                await store.delete(session_id)
                headers.append("set-cookie", _cookie("", secure, max_age=0))
            return
        if not changed:
            if session_id is not None and loaded is not None and loaded[1] < store.now() - TOUCH_EVERY:
                await store.touch(session_id)
            return
        if session_id is None or scope.get(ROTATE, False):
            if session_id is not None:
                await store.delete(session_id)
            session_id = secrets.token_urlsafe(32)
            headers.append("set-cookie", _cookie(session_id, secure, max_age=int(IDLE_LIMIT.total_seconds())))
        await store.save(session_id, data)


def _cookie(value: str, secure: bool, *, max_age: int) -> str:
    cookie: SimpleCookie = SimpleCookie()
    cookie[COOKIE] = value
    morsel = cookie[COOKIE]
    morsel["path"] = "/"
    morsel["httponly"] = True
    morsel["samesite"] = "Lax"
    morsel["max-age"] = max_age
    if secure:
        morsel["secure"] = True
    return morsel.OutputString()
