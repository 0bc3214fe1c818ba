"""Which manifest a page links (issue 30): a player's page (their togyz game, their team's buzzer) links one that
starts at that same page with its link, every other page the plain one (see :mod:`toreshi.web.common.installable`)."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from starlette.requests import Request

PLAYER_PAGE = re.compile(r"^/(?:games/[A-Za-z0-9_-]{1,64}|quiz/[A-Za-z0-9_-]{1,64}/buzzer)$")
"""The pages a player opens with their link: their togyz game, their team's buzzer."""

_TOKEN = re.compile(r"^[A-Za-z0-9_.~-]{1,256}$")


def player_start(path: str, tokens: list[str]) -> str | None:
    """The page an installed app opens: ``path`` with its links, when it is a player's page opened with valid-looking
    links (``None`` otherwise: the app then starts at the home page).

    >>> player_start("/games/g-1", ["abc"])
    '/games/g-1?token=abc'
    >>> player_start("/tournaments/t-1", ["abc"]) is None
    True
    """
    if not PLAYER_PAGE.match(path) or not tokens or not all(_TOKEN.match(token) for token in tokens):
        return None
    return f"{path}?{urlencode([('token', token) for token in tokens])}"


def manifest_href(request: Request, language: str) -> str:
    """The address of the manifest a page links: a player's page carries its start (path and links) in it."""
    query: list[tuple[str, str]] = [("lang", language)]
    if player_start(request.url.path, request.query_params.getlist("token")) is not None:
        query.append(("start", request.url.path))
        query.extend(("token", token) for token in request.query_params.getlist("token"))
    return f"/manifest.webmanifest?{urlencode(query)}"
