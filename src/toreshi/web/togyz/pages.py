"""Togyz game pages: creating a game, its players' links (shown again, revoked and reissued), taking a game off the
list, playing and watching it. The home page is :mod:`toreshi.web.common.home`, sign-in
:mod:`toreshi.web.accounts.pages`."""

from __future__ import annotations

from babel import units
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toreshi.kit.refusal import Refused
from toreshi.store.accounts import UnknownGrantError
from toreshi.texts import i18n
from toreshi.texts.i18n import gettext as _
from toreshi.togyz.match.state import GameStatus
from toreshi.web.accounts import auth
from toreshi.web.common import pagekit
from toreshi.web.common.forms import read_form, text
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.services import services_of
from toreshi.web.rooms.api import create_togyz_game, owner_of
from toreshi.web.togyz import control_form, timecontrols
from toreshi.web.togyz import links as game_links
from toreshi.web.togyz import texts as togyz_texts

NEW_GAME_FIELDS = ("white", "black", "flag", "start", *control_form.FIELDS)
NEW_GAME_DEFAULTS = {"control": "blitz", "flag": "automatic", "start": "round_start", "bonus": "none"}


@auth.arbiter_only
async def new_game(request: Request) -> Response:
    """The new-game form: the players, a preset or a custom time control (periods with an increment or a delay),
    how flag falls count and how the clock starts. Every field is checked by the game's own readers, so a
    refusal names the field in the page's language (a name too long, two players of one name…)."""
    values = {key: NEW_GAME_DEFAULTS.get(key, "") for key in NEW_GAME_FIELDS}
    error = ""
    if request.method == "POST":
        form = await read_form(request)
        values.update({key: text(form, key) if key in form else values[key] for key in NEW_GAME_FIELDS})
        if not pagekit.fresh(request, form):
            error = pagekit.expired_text()
        else:
            arbiter = auth.signed_in(request) or "arbiter"
            settings = {"flag_mode": values["flag"], "start_mode": values["start"]}
            try:
                control = control_form.control_from_form(values)
                room_id, _tokens = await create_togyz_game(
                    services_of(request), arbiter, values["white"], values["black"], control.to_dict(), settings
                )
            except Refused as refused:
                error = pagekit.refusal_text(refused)
            else:
                # The links are derived on the server and shown from it at any time: nothing goes into the session.
                return pagekit.redirect(f"/games/{room_id}/links")
    return pagekit.plain(
        request,
        "togyz/new.html",
        values=values,
        presets=timecontrols.preset_names(),
        periods=range(1, control_form.MAX_PERIODS + 1),
        error=error,
    )


@auth.arbiter_only
async def game_links_page(request: Request) -> Response:
    """The players' secret links, with their names, QR codes and the board: shown again and printed at any time,
    from any browser the arbiter signs in on; each can be revoked and reissued here."""
    room_id = request.path_params["room_id"]
    links = await game_links.links_of_game(request, room_id)
    if links is None:
        return not_found(request)
    return pagekit.page(
        request,
        "togyz/links.html",
        room_id=room_id,
        game=links,
        reissued=request.query_params.get("reissued", ""),
    )


@auth.arbiter_only
async def reissue_link(request: Request) -> Response:
    """``POST /games/{room_id}/links/{role}/reissue``: the old link stops working at once (open pages too)."""
    room_id, role = request.path_params["room_id"], request.path_params["role"]
    form = await pagekit.posted(request, f"/games/{room_id}/links")
    if isinstance(form, Response):
        return form
    if role not in game_links.PLAYER_ROLES:
        return pagekit.redirect(f"/games/{room_id}/links")
    try:
        await game_links.reissue(request, room_id, role)
    except UnknownGrantError:
        return pagekit.redirect(f"/games/{room_id}/links")
    return pagekit.redirect(f"/games/{room_id}/links?reissued={role}#link-{role}")


@auth.arbiter_only
async def archive_game(request: Request) -> Response:
    """``POST /games/{room_id}/archive``: take a finished (or never started) game off the list, or put it back
    (``archived=0``); the game and its pages stay as they were."""
    room_id = request.path_params["room_id"]
    form = await read_form(request)
    back = pagekit.safe_next(text(form, "next"))
    if not pagekit.fresh(request, form):
        return pagekit.expired(request, back)
    owner = await owner_of(request, room_id)
    game = getattr(owner.logic, "game", None) if owner is not None and owner.logic.kind == "togyz" else None
    if game is None:
        return pagekit.redirect(back)
    archived = text(form, "archived") != "0"
    status = game.state.status
    if archived and status not in (GameStatus.FINISHED, GameStatus.SCHEDULED, GameStatus.POSTPONED):
        return pagekit.redirect(back)  # a game being played is not archived (the list offers none)
    await services_of(request).store.set_archived(room_id, archived)
    return pagekit.redirect(back)


async def game_page(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    owner = await owner_of(request, room_id)
    if owner is None or owner.logic.kind != "togyz":
        return not_found(request)
    mode = request.query_params.get("mode", "board")
    if mode not in ("board", "shared", "clock"):
        mode = "board"
    return pagekit.plain(
        request,
        "togyz/game.html",
        room_id=room_id,
        token=request.query_params.get("token", ""),
        mode=mode,
        strings=client_strings(),
        seconds_unit=units.get_unit_name("duration-second", length="short", locale=i18n.current_language()),
    )


def client_strings() -> dict[str, str]:
    """Texts the page's script shows, in the request's language."""
    return {
        "white": _("White"),
        "black": _("Black"),
        "to_move": _("to move"),
        "kazan": _("kazan"),
        "offer_draw": _("Offer a draw"),
        "accept_draw": _("Accept the draw"),
        "decline_draw": _("Decline"),
        "resign": _("Resign"),
        "confirm_resign": _("Resign this game?"),
        "claim_flag": _("Claim the flag"),
        "sign": _("Sign the result"),
        "start": _("Start the clock"),
        "pause": _("Pause"),
        "resume": _("Resume"),
        "draw_offered": _("Draw offered"),
        "result": _("Result"),
        "connecting": _("Connecting…"),
        "offline": _("Connection lost — reconnecting…"),
        "spectator": _("Spectator"),
        "arbiter": _("Arbiter"),
        "moves": _("Moves"),
        "finished": _("Game over"),
        "paused": _("Paused"),
        "scheduled": _("Waiting for the start"),
        "scheduled_player": _("Waiting for the start: the arbiter starts the clock"),
        "adjourned": _("Adjourned"),
        **togyz_texts.termination_strings(),
    }


routes = [
    Route("/games/new", new_game, methods=["GET", "POST"]),
    Route("/games/{room_id}/links", game_links_page),
    Route("/games/{room_id}/links/{role}/reissue", reissue_link, methods=["POST"]),
    Route("/games/{room_id}/archive", archive_game, methods=["POST"]),
    Route("/games/{room_id}", game_page),
]
