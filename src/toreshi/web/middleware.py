"""Request-wide concerns: the interface language, and refusing cross-site form posts."""

from __future__ import annotations

from starlette.datastructures import URL
from starlette.requests import HTTPConnection
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toreshi.web import i18n
from toreshi.web.security import same_origin

LANGUAGE_COOKIE = "toreshi_lang"
_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class LanguageMiddleware:
    """Chooses the language (``?lang=``, cookie, browser, Kazakh), activates it, and remembers a ``?lang=`` choice."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        requested = connection.query_params.get("lang")
        language = i18n.choose_language(
            requested, connection.cookies.get(LANGUAGE_COOKIE), connection.headers.get("accept-language")
        )
        scope.setdefault("state", {})["language"] = language
        i18n.activate(language)
        if requested != language or scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def remember(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                cookie = f"{LANGUAGE_COOKIE}={language}; Path=/; Max-Age=31536000; SameSite=Lax"
                headers.append((b"set-cookie", cookie.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, remember)


class SameOriginPostMiddleware:
    """Refuses state-changing requests whose ``Origin`` (or ``Referer``) is another site.

    Browsers send ``Origin`` with every cross-site POST, so this stops cross-site form posts even before the
    per-form token is checked (:func:`toreshi.web.forms.check_csrf`).
    """

    def __init__(self, app: ASGIApp, extra_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.extra_origins = extra_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _UNSAFE:
            connection = HTTPConnection(scope)
            origin = connection.headers.get("origin")
            if origin is None and (referer := connection.headers.get("referer")):
                url = URL(referer)
                origin = f"{url.scheme}://{url.netloc}"
            host = connection.headers.get("host")
            if (
                origin is not None
                and origin not in self.extra_origins
                and not same_origin(origin, host, scope["scheme"])
            ):
                response = PlainTextResponse("Cross-site request refused", status_code=403)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


MAX_BODY_BYTES = 1024 * 1024
"""The largest request body by default: every form and JSON body of the app fits (a CSV import is at most 512 KiB)."""


class BodyTooLargeError(Exception):
    """A request body grew past its limit while the handler read it."""


class BodySizeLimitMiddleware:
    """Refuses request bodies over a limit with 413, by ``Content-Length`` before reading or, for a body sent in
    chunks, as soon as the bytes read pass the limit. ``overrides`` gives single paths a larger limit (the pack
    upload). Without this, Starlette reads up to 1000 form fields of 1 MiB each and uploaded files of any size."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES, overrides: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.overrides = overrides or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.overrides.get(scope["path"], self.limit)
        length = HTTPConnection(scope).headers.get("content-length", "")
        if length.isdigit() and int(length) > limit:
            await self._refuse(scope, receive, send, limit)
            return
        received = 0
        started = False

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLargeError
            return message

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watch)
        except BodyTooLargeError:
            if started:  # pragma: no cover - a handler answering before it read its body
                raise
            await self._refuse(scope, receive, send, limit)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = PlainTextResponse(f"Request body too large (at most {limit // 1024} KiB)", status_code=413)
        await response(scope, receive, send)
