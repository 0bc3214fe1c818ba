"""HTML pages: home, arbiter sign-in and first-start setup, creating a togyz game, playing and watching it."""

from __future__ import annotations

from babel import units
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

import toreshi
from toreshi.kit.refusal import Refused
from toreshi.store.accounts import UnknownGrantError
from toreshi.texts import i18n, refusals
from toreshi.texts.i18n import gettext as _
from toreshi.togyz.match.state import GameStatus
from toreshi.web.accounts import auth
from toreshi.web.common.security import SignInLimiter, WeakPasswordError, hash_password, verify_password
from toreshi.web.common.services import kept_on_app, services_of
from toreshi.web.common.templates import not_found, render, render_page
from toreshi.web.rooms.api import create_togyz_game, owner_of
from toreshi.web.togyz import control_form, games_list, timecontrols
from toreshi.web.togyz import links as game_links
from toreshi.web.togyz import texts as togyz_texts

MAX_NAME = 80


def _safe_next(target: str | None) -> str:
    """Only same-site paths are followed after sign-in (no open redirect)."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return "/"


async def _form(request: Request) -> dict[str, str]:
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


async def home(request: Request) -> Response:
    """The games list: statuses true to each game, results, filters, pages (GET writes nothing)."""
    services = services_of(request)
    wanted = request.query_params.get("filter", "all")
    raw_page = request.query_params.get("page", "1")
    page = int(raw_page) if raw_page.isascii() and raw_page.isdigit() and len(raw_page) < 6 else 1
    listing = await games_list.list_games(request, wanted, page)
    return render_page(
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


async def setup(request: Request) -> Response:
    """First start: set the first arbiter's name and password (from this machine unless allowed otherwise)."""
    services = services_of(request)
    if await services.accounts.has_arbiters():
        return RedirectResponse("/login", status_code=303)
    if not (auth.is_local(request) or services.settings.allow_remote_setup):
        return render(
            request,
            "setup.html",
            status_code=403,
            error=_("Set the first password on the server itself."),
            csrf=auth.csrf_token(request),
        )
    error = ""
    name = ""
    if request.method == "POST":
        form = await _form(request)
        name = form.get("name", "").strip()[: MAX_NAME * 2]  # shown again as typed, within reason
        if not auth.csrf_ok(request, form.get("csrf")):
            error = _("The form has expired; please try again.")
        elif not name or len(name) > MAX_NAME:
            error = _("Enter a name.")
        elif form.get("password") != form.get("confirm"):
            error = _("The two passwords differ.")
        else:
            try:
                hashed = hash_password(form.get("password", ""))
            except WeakPasswordError:
                error = _("A password needs at least 8 characters.")
            else:
                await services.accounts.add_arbiter(name, hashed)
                auth.sign_in(request, name)
                return RedirectResponse("/", status_code=303)
    # A mistyped password keeps the typed name (the passwords are typed again, never sent back).
    return render(request, "setup.html", error=error, typed_name=name, csrf=auth.csrf_token(request))


async def login(request: Request) -> Response:
    services = services_of(request)
    if not await services.accounts.has_arbiters():
        return RedirectResponse("/setup", status_code=303)
    error = ""
    target = _safe_next(request.query_params.get("next"))
    if request.method == "POST":
        form = await _form(request)
        name = form.get("name", "").strip()
        limiter = _sign_in_limiter(request)
        client = request.client.host if request.client else ""
        if limiter.blocked(name, client):
            error = _("Too many failed attempts; wait a few minutes and try again.")
            return render(
                request, "login.html", status_code=429, error=error, next=target, csrf=auth.csrf_token(request)
            )
        hashed = await services.accounts.arbiter_hash(name)
        if not auth.csrf_ok(request, form.get("csrf")):
            error = _("The form has expired; please try again.")
        elif not verify_password(hashed, form.get("password", "")):
            limiter.failed(name, client)
            error = _("Wrong name or password.")
        else:
            auth.sign_in(request, name)
            return RedirectResponse(_safe_next(form.get("next")), status_code=303)
    return render(request, "login.html", error=error, next=target, csrf=auth.csrf_token(request))


def _sign_in_limiter(request: Request) -> SignInLimiter:
    """The app's count of failed sign-ins per account and address (one per app, made on first use)."""
    return kept_on_app(request, "sign_in_limiter", SignInLimiter)


async def logout(request: Request) -> Response:
    if request.method == "POST":
        form = await _form(request)
        if auth.csrf_ok(request, form.get("csrf")):
            auth.sign_out(request)
    return RedirectResponse("/", status_code=303)


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
        form = await _form(request)
        values.update({key: form.get(key, values[key]).strip() for key in NEW_GAME_FIELDS})
        if not auth.csrf_ok(request, form.get("csrf")):
            error = _("The form has expired; please try again.")
        else:
            arbiter = auth.signed_in(request) or "arbiter"
            settings = {"flag_mode": values["flag"], "start_mode": values["start"]}
            try:
                control = control_form.control_from_form(values)
                room_id, _tokens = await create_togyz_game(
                    services_of(request), arbiter, values["white"], values["black"], control.to_dict(), settings
                )
            except Refused as refused:
                error = refusals.text_of(refused)
            else:
                # The links are derived on the server and shown from it at any time: nothing goes into the session.
                return RedirectResponse(f"/games/{room_id}/links", status_code=303)
    return render_page(
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
    return render_page(
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
    form = await _form(request)
    if not auth.csrf_ok(request, form.get("csrf")) or role not in game_links.PLAYER_ROLES:
        return RedirectResponse(f"/games/{room_id}/links", status_code=303)
    try:
        await game_links.reissue(request, room_id, role)
    except UnknownGrantError:
        return RedirectResponse(f"/games/{room_id}/links", status_code=303)
    return RedirectResponse(f"/games/{room_id}/links?reissued={role}#link-{role}", status_code=303)


@auth.arbiter_only
async def archive_game(request: Request) -> Response:
    """``POST /games/{room_id}/archive``: take a finished (or never started) game off the list, or put it back
    (``archived=0``); the game and its pages stay as they were."""
    room_id = request.path_params["room_id"]
    form = await _form(request)
    back = _safe_next(form.get("next"))
    if not auth.csrf_ok(request, form.get("csrf")):
        return RedirectResponse(back, status_code=303)
    owner = await owner_of(request, room_id)
    game = getattr(owner.logic, "game", None) if owner is not None and owner.logic.kind == "togyz" else None
    if game is None:
        return RedirectResponse(back, status_code=303)
    archived = form.get("archived", "1") != "0"
    status = game.state.status
    if archived and status not in (GameStatus.FINISHED, GameStatus.SCHEDULED, GameStatus.POSTPONED):
        return RedirectResponse(back, status_code=303)  # a game being played is not archived (the list offers none)
    await services_of(request).store.set_archived(room_id, archived)
    return RedirectResponse(back, status_code=303)


async def game_page(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    owner = await owner_of(request, room_id)
    if owner is None or owner.logic.kind != "togyz":
        return not_found(request)
    mode = request.query_params.get("mode", "board")
    if mode not in ("board", "shared", "clock"):
        mode = "board"
    return render_page(
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


def set_language(request: Request) -> Response:
    language = request.query_params.get("lang", "")
    target = _safe_next(request.query_params.get("next"))
    response = RedirectResponse(target, status_code=303)
    if language in i18n.LANGUAGES:
        response.set_cookie("toreshi_lang", language, max_age=31_536_000, samesite="lax")
    return response


routes = [
    Route("/", home),
    Route("/api/health", health),
    Route("/setup", setup, methods=["GET", "POST"]),
    Route("/login", login, methods=["GET", "POST"]),
    Route("/logout", logout, methods=["POST"]),
    Route("/language", set_language),
    Route("/games/new", new_game, methods=["GET", "POST"]),
    Route("/games/{room_id}/links", game_links_page),
    Route("/games/{room_id}/links/{role}/reissue", reissue_link, methods=["POST"]),
    Route("/games/{room_id}/archive", archive_game, methods=["POST"]),
    Route("/games/{room_id}", game_page),
]
