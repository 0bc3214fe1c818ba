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
