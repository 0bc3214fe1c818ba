"""Practice against the engine: ``GET /practice`` (the form), ``POST /practice`` (a new practice game).

A practice game is a togyz room whose settings carry the engine's level and side; it starts at once (the
person's clock or the engine's runs) and the page redirects to the person's own game page, with their link.
The engine's moves come from :class:`toreshi.services.practice.PracticeService`.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toreshi.clock.presets import PRESETS
from toreshi.kit.refusal import Refused
from toreshi.services.practice_quota import Refusal
from toreshi.texts.i18n import gettext as _
from toreshi.togyz.engine import LEVELS
from toreshi.web.common import pagekit
from toreshi.web.common.forms import read_form, text
from toreshi.web.common.services import services_of
from toreshi.web.rooms.api import create_togyz_game
from toreshi.web.togyz.links import player_url

CONTROLS = ("blitz", "rapid")
SIDES = ("white", "black", "random")
BROWSER_KEY = "practice_browser"
"""The session's practice id: the browser's practice games are counted by it."""
GAMES_KEY = "practice_games"
"""The session's practice games as ``[room id, the player's link]``, to offer them again (kept on the server)."""


def browser_of(request: Request) -> str:
    """This browser's practice id, made on first use (the session is on the server: the cookie holds only its id)."""
    browser = request.session.get(BROWSER_KEY)
    if not isinstance(browser, str) or not browser:
        browser = secrets.token_urlsafe(12)
        request.session[BROWSER_KEY] = browser
    return browser


def held_games(request: Request) -> list[dict[str, Any]]:
    """This browser's practice games still being played, oldest first, with the links to continue them."""
    playing = {seat.room_id for seat in services_of(request).practice.seats()}
    kept = request.session.get(GAMES_KEY)
    games = [entry for entry in kept if isinstance(entry, list) and len(entry) == 2] if isinstance(kept, list) else []
    mine = [(room, url) for room, url in games if room in playing]
    return [{"room": room, "url": url, "number": number} for number, (room, url) in enumerate(mine, 1)]


def refusal_text(refused: Refusal, held: int) -> str:
    if refused is Refusal.BROWSER:
        return _(
            "You already play {count} practice games in this browser: continue one of them, or end your oldest "
            "game and start this one."
        ).format(count=held)
    if refused is Refusal.ADDRESS:
        return _("Too many practice games are being played from your network right now; please finish one first.")
    return _("Too many practice games are being played right now; please try again in a few minutes.")


def level_names() -> dict[int, str]:
    return {
        1: _("Level 1: a beginner"),
        2: _("Level 2: a club newcomer"),
        3: _("Level 3: a club player"),
        4: _("Level 4: a strong club player"),
        5: _("Level 5: half a second a move"),
        6: _("Level 6: the engine at full strength, under a second a move"),
    }


async def make_room(request: Request, *, end_oldest: bool) -> Refusal | None:
    """Reclaim what must be for this browser to start a game (idle games, its oldest if it asked, one of whoever
    holds the most when the instance is full); the refusal if it may not."""
    practice = services_of(request).practice
    address = request.client.host if request.client else ""
    browser = browser_of(request)
    practice.claim([game["room"] for game in held_games(request)], browser, address)
    admission = practice.admit(browser, address, end_oldest=end_oldest)
    await practice.reclaim(admission.reclaim)
    return admission.refused


async def practice(request: Request) -> Response:
    values = {"name": "", "level": "3", "side": "white", "control": "blitz", "listed": ""}
    error = ""
    at_quota = False
    if request.method == "POST":
        form = await read_form(request)
        values.update({key: text(form, key) if key in form else values[key] for key in values})
        if not pagekit.fresh(request, form):
            error = pagekit.expired_text()
        elif values["level"] not in {str(level) for level in LEVELS}:  # "²".isdigit(), but int("²") fails
            error = _("Choose a level.")
        elif values["side"] not in SIDES or values["control"] not in CONTROLS:
            error = _("Choose a side and a time control.")
        elif (refusal := await make_room(request, end_oldest=form.get("end_oldest") == "1")) is not None:
            error = refusal_text(refusal, len(held_games(request)))
            at_quota = refusal is Refusal.BROWSER
        else:
            level = int(values["level"])
            side = values["side"] if values["side"] != "random" else secrets.choice(("white", "black"))
            engine_side = "black" if side == "white" else "white"
            person = values["name"] or _("Player")
            computer = _("Computer, level {level}").format(level=level)
            names = {side: person, engine_side: computer}
            settings = {
                "practice_level": level,
                "engine_side": engine_side,
                "start_mode": "round_start",
                "practice_listed": values["listed"] == "1",
            }
            try:
                room_id, tokens = await create_togyz_game(
                    services_of(request),
                    "practice",
                    names["white"],
                    names["black"],
                    PRESETS[values["control"]].to_dict(),
                    settings,
                )
            except Refused as refused:
                error = pagekit.refusal_text(refused)
            else:
                address = request.client.host if request.client else ""
                await services_of(request).practice.begin(room_id, browser_of(request), address)
                url = player_url("", room_id, tokens[side])
                playing = {seat.room_id for seat in services_of(request).practice.seats()}
                kept = [[game["room"], game["url"]] for game in held_games(request) if game["room"] in playing]
                request.session[GAMES_KEY] = [*kept, [room_id, url]]
                return pagekit.redirect(url)
    return pagekit.plain(
        request,
        "togyz/practice.html",
        values=values,
        levels=level_names(),
        error=error,
        held=held_games(request) if at_quota else [],
    )


routes = [Route("/practice", practice, methods=["GET", "POST"])]
