"""Practice against the engine: ``GET /practice`` (the form), ``POST /practice`` (a new practice game).

A practice game is a togyz room whose settings carry the engine's level and side; it starts at once (the
person's clock or the engine's runs) and the page redirects to the person's own game page, with their link.
The engine's moves come from :class:`toreshi.services.practice.PracticeService`.
"""

from __future__ import annotations

import secrets

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from toreshi.clock.presets import PRESETS
from toreshi.kit.refusal import Refused
from toreshi.services.practice import MAX_PRACTICE_GAMES
from toreshi.togyz.engine import LEVELS
from toreshi.web import auth, refusals
from toreshi.web.game_links import player_url
from toreshi.web.i18n import gettext as _
from toreshi.web.rooms_api import create_togyz_game
from toreshi.web.services import services_of
from toreshi.web.templates import render_page

CONTROLS = ("blitz", "rapid")
SIDES = ("white", "black", "random")


def level_names() -> dict[int, str]:
    return {
        1: _("Level 1: a beginner"),
        2: _("Level 2: a club newcomer"),
        3: _("Level 3: a club player"),
        4: _("Level 4: a strong club player"),
        5: _("Level 5: half a second a move"),
        6: _("Level 6: the engine at two seconds a move"),
    }


async def practice(request: Request) -> Response:
    values = {"name": "", "level": "3", "side": "white", "control": "blitz"}
    error = ""
    if request.method == "POST":
        form = await request.form()
        values.update({key: str(form.get(key, values[key])).strip() for key in values})
        if not auth.csrf_ok(request, str(form.get("csrf", ""))):
            error = _("The form has expired; please try again.")
        elif values["level"] not in {str(level) for level in LEVELS}:  # "²".isdigit(), but int("²") fails
            error = _("Choose a level.")
        elif values["side"] not in SIDES or values["control"] not in CONTROLS:
            error = _("Choose a side and a time control.")
        elif services_of(request).practice.playing >= MAX_PRACTICE_GAMES:
            error = _("Too many practice games are being played right now; please try again in a few minutes.")
        else:
            level = int(values["level"])
            side = values["side"] if values["side"] != "random" else secrets.choice(("white", "black"))
            engine_side = "black" if side == "white" else "white"
            person = values["name"] or _("Player")
            computer = _("Computer, level {level}").format(level=level)
            names = {side: person, engine_side: computer}
            settings = {"practice_level": level, "engine_side": engine_side, "start_mode": "round_start"}
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
                error = refusals.text_of(refused)
            else:
                await services_of(request).practice.begin(room_id)
                return RedirectResponse(player_url("", room_id, tokens[side]), status_code=303)
    return render_page(
        request,
        "togyz/practice.html",
        values=values,
        levels=level_names(),
        error=error,
    )


routes = [Route("/practice", practice, methods=["GET", "POST"])]
