"""The app's own answers for what no handler answered well: an unknown page, a wrong method, a refused request
(Starlette's ``HTTPException``) and a server error — a page in the reader's language, or for the JSON API a JSON
body with a ``code`` and the sentence. Never Starlette's bare English text, never a traceback."""

from __future__ import annotations

import logging

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from toreshi.texts import i18n
from toreshi.texts.i18n import N_, gettext
from toreshi.web.common.middleware import LANGUAGE_COOKIE, SECURITY_HEADERS
from toreshi.web.common.missing import NO_SUCH_PAGE, missing_message
from toreshi.web.common.templates import render, render_page

log = logging.getLogger(__name__)

API_PREFIX = "/api/"

HEADINGS: dict[int, str] = {
    400: N_("Bad request"),
    403: N_("Not allowed"),
    404: N_("Not found"),
    405: N_("Not allowed here"),
    413: N_("Too large"),
    429: N_("Too many requests"),
    500: N_("Server error"),
}
MESSAGES: dict[int, str] = {
    400: N_("The request could not be read. Go back, check the form and send it again."),
    403: N_("You may not do this here."),
    404: NO_SUCH_PAGE,
    405: N_("This address does not take this kind of request. Open it from a link or a form of the app."),
    413: N_("What was sent is too large."),
    429: N_("Too many requests in a short time: wait a little and try again."),
    500: N_("Something went wrong on the server. What you did may not have been saved: reload the page and check."),
}
FALLBACK_HEADING = N_("Error")
FALLBACK_MESSAGE = N_("The request could not be answered.")
CODES: dict[int, str] = {
    400: "bad_request",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    429: "rate_limited",
    500: "server_error",
}


def _language(request: Request) -> str:
    chosen = request.scope.get("state", {}).get("language")
    if chosen in i18n.LANGUAGES:
        return str(chosen)
    return i18n.choose_language(
        request.query_params.get("lang"), request.cookies.get(LANGUAGE_COOKIE), request.headers.get("accept-language")
    )


def error_response(request: Request, status: int, headers: dict[str, str] | None = None) -> Response:
    """The answer for ``status``: JSON under ``/api/``, else the error page, both in the reader's language."""
    i18n.activate(_language(request))
    message = missing_message(request.url.path) if status == 404 else MESSAGES.get(status, FALLBACK_MESSAGE)
    if request.url.path.startswith(API_PREFIX):
        text = gettext(message)
        code = CODES.get(status, f"http_{status}")
        body = {"error": text, "code": code, "params": {}, "message": text}
        return JSONResponse(body, status_code=status, headers=headers)
    heading = HEADINGS.get(status, FALLBACK_HEADING)
    if status >= 500:
        # No session or database is touched: the error may be theirs.
        page = render(request, "error.html", status, heading=gettext(heading), message=gettext(message),
                      arbiter=None, csrf="")  # fmt: skip
    else:
        page = render_page(request, "error.html", status, heading=gettext(heading), message=gettext(message))
    for name, value in (headers or {}).items():
        page.headers[name] = value
    return page


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's ``HTTPException`` (an unknown path, a wrong method, a handler's ``raise HTTPException``)."""
    assert isinstance(exc, HTTPException)
    if exc.status_code in (204, 304):  # pragma: no cover - no body for these
        return Response(status_code=exc.status_code, headers=exc.headers)
    return error_response(request, exc.status_code, dict(exc.headers or {}))


async def server_error(request: Request, exc: Exception) -> Response:
    """Any uncaught exception: logged with its traceback here, the reader sees only the translated page. This runs
    outside every middleware of the app, so the security headers are added here."""
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    response = error_response(request, 500)
    for name, value in SECURITY_HEADERS:
        response.headers.setdefault(name.decode(), value.decode())
    return response


EXCEPTION_HANDLERS = {HTTPException: http_error, Exception: server_error}


def page_not_found(request: Request) -> HTMLResponse:
    """The 404 page for a record a page handler did not find, saying which kind is missing."""
    response = error_response(request, 404)
    assert isinstance(response, HTMLResponse)
    return response
