"""The app a phone installs (issue 30): the web app manifest in the reader's language, the icons and
``/favicon.ico``, the service worker and the page it shows when the club's network is gone.

A player's page (their togyz game, their team's buzzer) links a manifest whose ``start_url`` is that same page with
its link, so the icon added to the home screen opens straight into their game. The link travels in the manifest's
address as the ``token`` parameter it already is, which keeps it under the rules every link follows: answered
``no-store`` (:mod:`toreshi.web.common.private_pages`) and written ``[redacted]`` in the logs
(:mod:`toreshi.web.common.log_redaction`). Every other page links the plain manifest, which starts at the home page.

The service worker (``templates/sw.js``, a plain script served at ``/sw.js`` so that its scope is the whole site)
keeps the static files and the offline pages in a cache named after a digest of the static folder: a new release is
a new worker that fetches them again and drops the old cache. It never keeps a page, an API answer or anything
asked for with a link. Browsers run service workers only on secure origins (HTTPS, or the server's own machine):
on a club network served over plain HTTP, pages work as before, without the offline page.
"""

from __future__ import annotations

import functools
import hashlib
import json

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from toreshi import __version__
from toreshi.texts import i18n
from toreshi.texts.i18n import N_
from toreshi.web.common.install_links import player_start
from toreshi.web.common.templates import STATIC_DIR, TEMPLATE_DIR, render

THEME_COLOUR = "#0b6e4f"
"""The accent of the pages (``--accent`` in toreshi.css): the phone's status bar in the app."""
BACKGROUND_COLOUR = "#f6f3ee"
"""The page background (``--bg``): the splash screen while the app opens."""

APP_NAME = N_("toreshi: club competitions")
APP_DESCRIPTION = N_("Togyz kumalak games, tournaments and «Своя игра» of the club, on its own network.")

ICONS = (
    {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "/static/icons/icon-maskable-192.png", "sizes": "192x192", "type": "image/png", "purpose": "maskable"},
    {"src": "/static/icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
)


async def manifest(request: Request) -> Response:
    """``GET /manifest.webmanifest?lang=…[&start=…&token=…]``: the web app manifest in the reader's language."""
    language = request.scope.get("state", {}).get("language", i18n.DEFAULT_LANGUAGE)
    translations = i18n.load_translations()[language]
    start = player_start(request.query_params.get("start", ""), request.query_params.getlist("token"))
    body = {
        # The identity of the app: a player's game is an app of its own (its id names no secret); the site another.
        "id": (start or "/").split("?", 1)[0],
        "name": translations.gettext(APP_NAME),
        "short_name": "төреші",
        "description": translations.gettext(APP_DESCRIPTION),
        "lang": language,
        "dir": "ltr",
        "start_url": start or f"/?lang={language}",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": list(ICONS),
    }
    return JSONResponse(body, media_type="application/manifest+json", headers={"cache-control": "no-cache"})


@functools.cache
def static_digest() -> str:
    """A digest of every static file's path and content: the name of the worker's cache, new with every release."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(STATIC_DIR.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(STATIC_DIR).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def shell_files() -> list[str]:
    """What the worker keeps from its start: every static file and the offline page in each language."""
    files = [
        f"/static/{path.relative_to(STATIC_DIR).as_posix()}" for path in sorted(STATIC_DIR.rglob("*")) if path.is_file()
    ]
    return [*files, *(f"/offline/{language}" for language in i18n.LANGUAGES)]


async def service_worker(request: Request) -> Response:
    """``GET /sw.js``: the service worker, at the root so that it serves the whole site. Its first line names the
    release's cache and lists the app shell; browsers check it on every visit (``no-cache``)."""
    settings = {"cache": f"toreshi-{static_digest()}", "shell": shell_files(), "languages": list(i18n.LANGUAGES)}
    script = (TEMPLATE_DIR / "sw.js").read_text(encoding="utf-8")
    body = f"const SETTINGS = {json.dumps(settings)};\n{script}"
    return Response(
        body,
        media_type="text/javascript",
        headers={"cache-control": "no-cache", "service-worker-allowed": "/"},
    )


async def offline_page(request: Request) -> Response:
    """``GET /offline/{language}``: what the worker shows in place of a page it cannot reach (it keeps one per
    language and picks the reader's)."""
    language = request.path_params["language"]
    if language not in i18n.LANGUAGES:
        language = i18n.DEFAULT_LANGUAGE
    request.scope.setdefault("state", {})["language"] = language
    i18n.activate(language)
    return render(request, "offline.html")


async def favicon(request: Request) -> Response:
    """``GET /favicon.ico``: what browsers and bookmark lists ask for without reading the page."""
    return FileResponse(STATIC_DIR / "favicon.ico", media_type="image/x-icon", headers={"cache-control": "no-cache"})


routes = [
    Route("/manifest.webmanifest", manifest),
    Route("/sw.js", service_worker),
    Route("/offline/{language}", offline_page),
    Route("/favicon.ico", favicon),
]
