"""The home page (the games list), the health check of the JSON API and the language switch."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

import toreshi
from toreshi.texts import i18n
from toreshi.web.common import pagekit
from toreshi.web.common.middleware import LANGUAGE_COOKIE
from toreshi.web.common.services import services_of
from toreshi.web.togyz import games_list
from toreshi.web.togyz import texts as togyz_texts


async def home(request: Request) -> Response:
    """The games list: statuses true to each game, results, filters, pages (GET writes nothing)."""
    services = services_of(request)
    wanted = request.query_params.get("filter", "all")
    raw_page = request.query_params.get("page", "1")
    page = int(raw_page) if raw_page.isascii() and raw_page.isdigit() and len(raw_page) < 6 else 1
    listing = await games_list.list_games(request, wanted, page)
    return pagekit.page(
        request,
        "home.html",
        listing=listing,
        filters=games_list.FILTERS,
        needs_setup=not await services.accounts.has_arbiters(),
        symbols=togyz_texts.RESULT_SYMBOLS,
        status_label=togyz_texts.status_label,
        ending_text=togyz_texts.ending_text,
    )


async def health(request: Request) -> JSONResponse:
    """``GET /api/health``: the server answers, and its version.

    ---
    summary: The server is up
    operationId: getHealth
    tags: [meta]
    responses:
      "200":
        description: Up, with the server's version
        content:
          application/json:
            schema:
              type: object
              required: [status, version]
              properties: {status: {type: string, enum: [ok]}, version: {type: string}}
    """
    return JSONResponse({"status": "ok", "version": toreshi.__version__})


def set_language(request: Request) -> Response:
    language = request.query_params.get("lang", "")
    response: RedirectResponse = pagekit.redirect(pagekit.safe_next(request.query_params.get("next")))
    if language in i18n.LANGUAGES:
        response.set_cookie(LANGUAGE_COOKIE, language, max_age=31_536_000, samesite="lax")
    return response


routes = [
    Route("/", home),
    Route("/api/health", health),
    Route("/language", set_language),
]
