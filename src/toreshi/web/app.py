"""The Starlette application factory."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

import toreshi
from toreshi.togyz import Position

_HOME = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>toreshi</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}}
pre{{background:#f4f1ea;padding:1rem;border-radius:.5rem}}</style></head>
<body><h1>toreshi <small>{version}</small></h1>
<p>Төреші — togyz kumalak and «Своя игра» competitions run by their regulations.</p>
<p>The start position, as the rules engine sees it:</p><pre>{board}</pre>
<p><a href="/api/health">/api/health</a></p></body></html>"""


async def home(request: Request) -> HTMLResponse:
    from toreshi.togyz.diagram import diagram

    return HTMLResponse(_HOME.format(version=toreshi.__version__, board=diagram(Position())))


async def health(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok", "version": toreshi.__version__})


def create_app() -> Starlette:
    return Starlette(routes=[Route("/", home), Route("/api/health", health)])
