"""HTML pages: home, arbiter sign-in and first-start setup, creating a togyz game, playing and watching it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel import units
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

import toreshi
from toreshi.clock.presets import PRESETS
from toreshi.kit.refusal import Refused
from toreshi.store import RoomKind
from toreshi.web import auth, i18n, refusals, timecontrols
from toreshi.web.i18n import gettext as _
from toreshi.web.qr import qr_svg
from toreshi.web.rooms_api import create_togyz_room, owner_of
from toreshi.web.security import AttemptLimiter, WeakPasswordError, hash_password, verify_password
from toreshi.web.services import services_of
from toreshi.web.templates import render

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
    services = services_of(request)
    games: list[dict[str, Any]] = []
    for room in await services.store.rooms(kind=RoomKind.TOGYZ):
        summary = await services.accounts.summary(room.id)
        created = datetime.fromisoformat(summary["created"]) if summary.get("created") else None
        games.append({"id": room.id, "status": room.status.value, **summary, "created_at": created})
    games.sort(key=lambda game: (game["status"] != "live", game.get("created", "")), reverse=False)
    return render(
        request,
        "home.html",
        games=games,
        arbiter=auth.signed_in(request),
        needs_setup=not await services.accounts.has_arbiters(),
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
    if request.method == "POST":
        form = await _form(request)
        name = form.get("name", "").strip()
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
    return render(request, "setup.html", error=error, csrf=auth.csrf_token(request))


async def login(request: Request) -> Response:
    services = services_of(request)
    if not await services.accounts.has_arbiters():
        return RedirectResponse("/setup", status_code=303)
    error = ""
    target = _safe_next(request.query_params.get("next"))
    if request.method == "POST":
        limiter = _sign_in_limiter(request)
        client = request.client.host if request.client else ""
        if limiter.blocked(client):
            error = _("Too many failed attempts; wait a few minutes and try again.")
            return render(
                request, "login.html", status_code=429, error=error, next=target, csrf=auth.csrf_token(request)
            )
        form = await _form(request)
        name = form.get("name", "").strip()
        hashed = await services.accounts.arbiter_hash(name)
        if not auth.csrf_ok(request, form.get("csrf")):
            error = _("The form has expired; please try again.")
        elif not verify_password(hashed, form.get("password", "")):
            limiter.failed(client)
            error = _("Wrong name or password.")
        else:
            auth.sign_in(request, name)
            return RedirectResponse(_safe_next(form.get("next")), status_code=303)
    return render(request, "login.html", error=error, next=target, csrf=auth.csrf_token(request))


def _sign_in_limiter(request: Request) -> AttemptLimiter:
    """The app's count of failed sign-ins per client address (one per app, made on first use)."""
    state = request.app.state
    if not hasattr(state, "sign_in_limiter"):
        state.sign_in_limiter = AttemptLimiter()
    limiter: AttemptLimiter = state.sign_in_limiter
    return limiter


async def logout(request: Request) -> Response:
    if request.method == "POST":
        form = await _form(request)
        if auth.csrf_ok(request, form.get("csrf")):
            auth.sign_out(request)
    return RedirectResponse("/", status_code=303)


@auth.arbiter_only
async def new_game(request: Request) -> Response:
    values = {"white": "", "black": "", "control": "blitz", "flag": "automatic"}
    error = ""
    if request.method == "POST":
        form = await _form(request)
        values.update({key: form.get(key, "").strip() for key in values})
        control = PRESETS.get(values["control"])
        if not auth.csrf_ok(request, form.get("csrf")):
            error = _("The form has expired; please try again.")
        elif not values["white"] or not values["black"] or max(len(values["white"]), len(values["black"])) > MAX_NAME:
            error = _("Enter both players' names.")
        elif control is None:
            error = _("Choose a time control.")
        elif values["flag"] not in ("automatic", "claim"):
            error = _("Choose how flag falls are announced.")
        else:
            arbiter = auth.signed_in(request) or "arbiter"
            try:
                room_id, tokens = await create_togyz_room(
                    request, arbiter, values["white"], values["black"], control.to_dict(), {"flag_mode": values["flag"]}
                )
            except Refused as refused:
                error = refusals.text_of(refused)
            else:
                request.session[f"tokens:{room_id}"] = tokens
                return RedirectResponse(f"/games/{room_id}/links", status_code=303)
    presets = timecontrols.preset_names()
    return render(
        request,
        "togyz/new.html",
        values=values,
        presets=presets,
        error=error,
        csrf=auth.csrf_token(request),
        arbiter=auth.signed_in(request),
    )


@auth.arbiter_only
async def game_links(request: Request) -> Response:
    """The players' secret links (and QR codes for their phones), shown to the arbiter once after creation."""
    room_id = request.path_params["room_id"]
    tokens = request.session.get(f"tokens:{room_id}")
    if not isinstance(tokens, dict):
        return RedirectResponse(f"/games/{room_id}", status_code=303)
    base = str(request.base_url).rstrip("/")
    links = {role: f"{base}/games/{room_id}?token={token}" for role, token in tokens.items()}
    links["spectator"] = f"{base}/games/{room_id}"
    codes = {role: qr_svg(url) for role, url in links.items()}
    return render(
        request,
        "togyz/links.html",
        room_id=room_id,
        links=links,
        codes=codes,
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
    )


async def game_page(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    owner = await owner_of(request, room_id)
    if owner is None or owner.logic.kind != "togyz":
        return render(
            request, "not_found.html", status_code=404, arbiter=auth.signed_in(request), csrf=auth.csrf_token(request)
        )
    mode = request.query_params.get("mode", "board")
    if mode not in ("board", "shared", "clock"):
        mode = "board"
    return render(
        request,
        "togyz/game.html",
        room_id=room_id,
        token=request.query_params.get("token", ""),
        mode=mode,
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
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
        "adjourned": _("Adjourned"),
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
    Route("/games/{room_id}/links", game_links),
    Route("/games/{room_id}", game_page),
]
