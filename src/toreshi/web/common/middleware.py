"""Request-wide concerns: the interface language, security headers, refusing cross-site form posts and bodies over
their limit (both answered in the reader's language)."""

from __future__ import annotations

from starlette.datastructures import URL
from starlette.requests import HTTPConnection
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from toreshi.texts import i18n
from toreshi.texts.i18n import N_
from toreshi.web.common.security import same_origin

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
    per-form token is checked (:func:`toreshi.web.common.pagekit.fresh`).
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
                await _refuse(scope, receive, send, 403, N_("This form was sent from another site: refused."))
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
        if length.isascii() and length.isdigit() and int(length) > limit:  # not "²", which int() refuses
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
        await _refuse(
            scope, receive, send, 413, N_("What was sent is too large: at most %(size)s KiB."), size=limit // 1024
        )


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, msgid: str, **values: object) -> None:
    """A short refusal in the reader's language (these middlewares run before the language is chosen)."""
    connection = HTTPConnection(scope)
    language = i18n.choose_language(
        connection.query_params.get("lang"),
        connection.cookies.get(LANGUAGE_COOKIE),
        connection.headers.get("accept-language"),
    )
    text = i18n.load_translations()[language].gettext(msgid)
    response = PlainTextResponse(text % values if values else text, status_code=status)
    await response(scope, receive, send)


CONTENT_SECURITY_POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",  # no inline script: page data travels in <script type="application/json"> blocks
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "connect-src 'self'",  # the room sockets are same-origin (CSP 3: 'self' covers ws: and wss:)
        "frame-src 'self'",  # a quiz pack's HTML items, in sandboxed frames served from here
        "frame-ancestors 'none'",
        "form-action 'self'",
        "base-uri 'none'",
        "object-src 'none'",
    )
)
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Links carry secrets (?token=…): never in a Referer to another site. Not "no-referrer": that would make
    # browsers send "Origin: null" with our own form posts, which the same-origin check must refuse.
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeadersMiddleware:
    """Adds the security headers to every HTTP response (a header the handler set itself is kept)."""

    def __init__(self, app: ASGIApp, headers: tuple[tuple[bytes, bytes], ...] = SECURITY_HEADERS) -> None:
        self.app = app
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in self.headers if name not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)
