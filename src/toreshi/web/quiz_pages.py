"""«Своя игра» pages: create a game from an uploaded pack, join codes and QR codes, and the game's screens.

Screens (one live room each, docs/protocol.md "Room kind quiz"): the host console (``/quiz/{id}/host``, the signed-in
arbiter or the host's secret link), the projector board (``/quiz/{id}/board``), the team buzzer for phones
(``/quiz/{id}/buzzer``, reached by a join code or its QR code), the assistant's scoreboard
(``/quiz/{id}/assistant``), the spectator view (``/quiz/{id}``) and the report (``/quiz/{id}/report``).

The pages parse forms and render; a game is cut from its pack by :func:`toreshi.quiz.play.setup.setup_from_pack`
and its room created by :mod:`toreshi.services.quiz` (join codes ``RRRR-TTTTT``, the screens' tokens). Whatever is
refused — a pack that cannot be read, a game its pack cannot give, a bad form — is shown in the page's language.
"""

from __future__ import annotations

import asyncio
from typing import Any

from babel import numbers, units
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from toreshi.devices.serial_buttons import SerialButtons, feed_owner, serial_port
from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.owner import channel_of
from toreshi.live.room import Actor
from toreshi.live.rooms.quiz import KIND, QuizRoom, role_of
from toreshi.quiz.buzzer import DEFAULT_MAX_COMPENSATION_MS, ArbitrationMode
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import MAX_TEAMS, Assistant, GameKind, ReadingMode
from toreshi.quiz.formats import read_pack
from toreshi.quiz.play.commands import Arbitration, CreateGame
from toreshi.quiz.play.setup import setup_from_pack
from toreshi.services.quiz import GameLinks, create_quiz_room, quiz_games, reissue_quiz_link, split_join_code
from toreshi.store.accounts import UnknownGrantError
from toreshi.web import auth, refusals
from toreshi.web.game_links import REVOKED
from toreshi.web.i18n import current_language
from toreshi.web.i18n import gettext as _
from toreshi.web.qr import qr_svg
from toreshi.web.rooms_api import actor_for, grant_for_token, owner_of
from toreshi.web.services import services_of
from toreshi.web.templates import embed_json, render

MAX_PACK_BYTES = 64 * 1024 * 1024
"""The largest pack upload accepted (the archive's own limits inside are checked by :mod:`toreshi.quiz.limits`)."""
MAX_NAME = 60
DEFAULT_KEYS = ("1", "2", "3", "4")
"""Keys a USB buzzer of team 1–4 types on the host's or projector's machine (changeable on the new-game form)."""


class SetupError(ValueError):
    """A new-game form that cannot become a game (its message is already in the page's language)."""


# --- pages -------------------------------------------------------------------------------------------------------


async def _read_upload(request: Request) -> tuple[dict[str, str], UploadFile | None]:
    form = await request.form(max_files=1, max_fields=60)
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    upload = form.get("pack")
    return fields, upload if isinstance(upload, UploadFile) else None


def _int_field(form: dict[str, str], key: str, default: int, low: int, high: int) -> int:
    try:
        value = int(form.get(key, "") or default)
    except ValueError:
        raise SetupError(_("Numbers in the form must be whole numbers.")) from None
    if not low <= value <= high:
        raise SetupError(_("A number in the form is out of range."))
    return value


NEW_DEFAULTS = {
    "title": "",
    "kind": "qualifying",
    "round": "1",
    "first_theme": "1",
    "reading": "host",
    "arbitration": "compensated",
    "advancing": "1",
    "assistant": "",
    "assistant_team": "",
    "projector_keys": "",
    "max_compensation": str(DEFAULT_MAX_COMPENSATION_MS),
    **{f"team{i}": "" for i in range(1, MAX_TEAMS + 1)},
    **{f"key{i}": key for i, key in enumerate(DEFAULT_KEYS, start=1)},
}


@auth.arbiter_only
async def new_quiz(request: Request) -> Response:
    values = dict(NEW_DEFAULTS)
    error = ""
    if request.method == "POST":
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_PACK_BYTES:
            error = _("The pack is too large (at most 64 MiB).")
        else:
            form, upload = await _read_upload(request)
            values.update({key: form.get(key, "").strip() for key in values})
            try:
                if not auth.csrf_ok(request, form.get("csrf")):
                    raise SetupError(_("The form has expired; please try again."))
                links = await _create_from_form(request, values, upload)
            except SetupError as problem:
                error = str(problem)
            except Refused as refused:  # the pack, the game it should give, the room's own checks
                error = refusals.text_of(refused)
            else:
                request.session[f"quiz:{links.room_id}"] = links.to_session()
                return RedirectResponse(f"/quiz/{links.room_id}/links", status_code=303)
    return render(
        request,
        "quiz/new.html",
        status_code=400 if error else 200,
        values=values,
        error=error,
        csrf=auth.csrf_token(request),
        arbiter=auth.signed_in(request),
        teams=range(1, MAX_TEAMS + 1),
    )


async def _create_from_form(request: Request, values: dict[str, str], upload: UploadFile | None) -> GameLinks:
    teams = [values[f"team{i}"] for i in range(1, MAX_TEAMS + 1) if values[f"team{i}"]]
    if len(teams) < 2 or any(len(team) > MAX_NAME for team in teams):
        raise SetupError(_("Enter the names of 2 to 4 teams."))
    if len(set(teams)) != len(teams):
        raise SetupError(_("Team names must differ."))
    try:
        kind = GameKind(values["kind"])
        reading = ReadingMode(values["reading"])
        arbitration = ArbitrationMode(values["arbitration"])
    except ValueError:
        raise SetupError(_("Choose the game, the reading and the buzzer mode.")) from None
    assistant = None
    if values["assistant"]:
        assistant = Assistant(values["assistant"][:MAX_NAME], values["assistant_team"][:MAX_NAME] or "—")
    elif kind is not GameKind.SHOOTOUT:
        raise SetupError(_("Appoint the assistant (a player of a team not in this game, SI-4.1)."))
    if upload is None or not upload.filename:
        raise SetupError(_("Choose a pack file (.siq or db.chgk.info text)."))
    data = await upload.read(MAX_PACK_BYTES + 1)
    if len(data) > MAX_PACK_BYTES:
        raise SetupError(_("The pack is too large (at most 64 MiB)."))
    stem = (upload.filename or "").rsplit("/", 1)[-1].rsplit(".", 1)[0]
    package = read_pack(data, name=stem)
    setup, notes = setup_from_pack(
        package,
        kind=kind,
        teams=teams,
        assistant=assistant,
        round_number=_int_field(values, "round", 1, 1, 50),
        first_theme=_int_field(values, "first_theme", 1, 1, 200),
        reading=reading,
        advancing=_int_field(values, "advancing", 1, 1, MAX_TEAMS - 1),
    )
    keys = {}
    for i, team in enumerate(teams, start=1):
        key = values.get(f"key{i}", "")[:20]
        if key:
            keys[key] = team
    arbiter = auth.signed_in(request) or "host"
    create = CreateGame(
        setup,
        title=values["title"][:MAX_NAME] or package.name[:MAX_NAME],
        notes=notes,
        keys=keys,
        buttons={str(seat): team for seat, team in enumerate(setup.teams, start=1)},
        arbitration=Arbitration(
            mode=arbitration,
            max_compensation_ms=_int_field(values, "max_compensation", DEFAULT_MAX_COMPENSATION_MS, 0, 1_000),
        ),
        projector_keys=values["projector_keys"] == "on",
    )
    services = services_of(request)
    return await create_quiz_room(services.store, services.accounts, services.rooms, arbiter, create)


@auth.arbiter_only
async def quiz_links(request: Request) -> Response:
    """Join codes and QR codes for the teams, and the host's, projector's and assistant's links (shown once)."""
    room_id = request.path_params["room_id"]
    tokens = request.session.get(f"quiz:{room_id}")
    if not isinstance(tokens, dict):
        return RedirectResponse(f"/quiz/{room_id}/host", status_code=303)
    base = str(request.base_url).rstrip("/")
    owner = await _quiz_owner(request)
    seats = list(owner.logic.game.teams) if owner is not None and isinstance(owner.logic, QuizRoom) else []
    teams = [
        {
            "name": team,
            "code": code,
            "url": f"{base}/j/{code}",
            "qr": qr_svg(f"{base}/j/{code}", scale=5),
            "role": f"team:{seats.index(team) + 1}" if team in seats else "",
        }
        for team, code in tokens.get("teams", {}).items()
    ]
    links = {
        "host": f"{base}/quiz/{room_id}/host?token={tokens.get('host', '')}",
        "projector": f"{base}/quiz/{room_id}/board?token={tokens.get('projector', '')}",
        "assistant": f"{base}/quiz/{room_id}/assistant?token={tokens.get('assistant', '')}",
        "spectator": f"{base}/quiz/{room_id}",
    }
    return render(
        request,
        "quiz/links.html",
        room_id=room_id,
        teams=teams,
        links=links,
        join_url=f"{base}/quiz/join",
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
    )


async def join(request: Request) -> Response:
    """The join page: type the code shown by the host (or scan its QR code, which lands on ``/j/{code}``)."""
    code = request.query_params.get("code") or request.path_params.get("code") or ""
    error = ""
    if code:
        target = await _resolve_code(request, code)
        if target is not None:
            return RedirectResponse(target, status_code=303)
        error = _("No team has this code. Check it with the host.")
    return render(
        request,
        "quiz/join.html",
        status_code=404 if error else 200,
        code=code,
        error=error,
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
    )


async def _resolve_code(request: Request, code: str) -> str | None:
    parts = split_join_code(code)
    if parts is None:
        return None
    room_id, secret = parts
    grant = await grant_for_token(request, room_id, secret)  # wrong codes count against the client
    if grant is None or role_of(Actor(grant.role, grant.name)) != "team":
        return None
    return f"/quiz/{room_id}/buzzer?token={secret}"


async def _quiz_owner(request: Request) -> Any:
    owner = await owner_of(request, request.path_params["room_id"])
    if owner is None or owner.logic.kind != KIND:
        return None
    return owner


def _not_found(request: Request) -> Response:
    return render(
        request, "not_found.html", status_code=404, arbiter=auth.signed_in(request), csrf=auth.csrf_token(request)
    )


SCREENS = {
    "host": "quiz/host.html",
    "board": "quiz/board.html",
    "buzzer": "quiz/buzzer.html",
    "assistant": "quiz/assistant.html",
    "spectator": "quiz/board.html",
}


def _screen(screen: str) -> Any:
    async def page(request: Request) -> Response:
        owner = await _quiz_owner(request)
        if owner is None:
            return _not_found(request)
        token = request.query_params.get("token", "")
        room_id = request.path_params["room_id"]
        actor = await actor_for(request, room_id, token or None)
        if screen == "host" and actor.role not in ("host", "arbiter"):
            return RedirectResponse(f"/login?next=/quiz/{room_id}/host", status_code=303)
        config = {
            "room": room_id,
            "token": token,
            "screen": screen,
            "role": role_of(actor),
            "name": actor.name,
            "strings": client_strings(),
        }
        return render(
            request,
            SCREENS[screen],
            room_id=room_id,
            screen=screen,
            title=owner.logic.title if isinstance(owner.logic, QuizRoom) else "",
            config=embed_json(config),
            serial=serial_status(request, room_id) if screen == "host" else None,
            arbiter=auth.signed_in(request),
            csrf=auth.csrf_token(request),
        )

    return page


async def _may_see_report(request: Request, owner: Any) -> bool:
    logic = owner.logic
    if isinstance(logic, QuizRoom) and logic.is_finished():
        return True
    actor = await actor_for(request, request.path_params["room_id"], request.query_params.get("token") or None)
    return actor.role in ("host", "arbiter")


async def report_page(request: Request) -> Response:
    owner = await _quiz_owner(request)
    if owner is None:
        return _not_found(request)
    if not await _may_see_report(request, owner):
        return render(
            request,
            "quiz/report.html",
            status_code=403,
            report=None,
            arbiter=auth.signed_in(request),
            csrf=auth.csrf_token(request),
        )
    return render(
        request,
        "quiz/report.html",
        report=owner.logic.report(),
        room_id=request.path_params["room_id"],
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
    )


async def report_json(request: Request) -> Response:
    """``GET /api/quiz/{room_id}/report``: a quiz game's report (SI-9), open to all once the game is over.

    ---
    summary: A quiz game's report
    operationId: getQuizReport
    tags: [quiz]
    parameters:
      - {name: room_id, in: path, required: true, schema: {type: string, maxLength: 64}}
      - {name: token, in: query, required: false, description: "The host's link token", schema: {type: string}}
    responses:
      "200":
        description: The report (scores, questions, presses and decisions)
        content: {application/json: {schema: {type: object}}}
      "403":
        description: The game is not over and the visitor is neither its host nor an arbiter
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
      "404":
        description: No such quiz game
        content: {application/json: {schema: {$ref: "#/components/schemas/Error"}}}
    """
    owner = await _quiz_owner(request)
    if owner is None:
        return _refused(Refusal(QuizCode.NO_SUCH_GAME), 404)
    if not await _may_see_report(request, owner):
        return _refused(Refusal(QuizCode.REPORT_CLOSED), 403)
    return JSONResponse(owner.logic.report())


def _refused(refusal: Refusal, status_code: int) -> JSONResponse:
    """An API refusal: ``error`` (the sentence in the request's language) with its ``code`` and ``params``."""
    message = refusals.as_message(refusal)
    return JSONResponse({"error": message["message"], **message}, status_code=status_code)


async def quiz_list(request: Request) -> Response:
    services = services_of(request)
    games = await quiz_games(services.store, services.rooms)
    return render(
        request, "quiz/list.html", games=games, arbiter=auth.signed_in(request), csrf=auth.csrf_token(request)
    )


def _serial_readers(request: Request) -> dict[str, tuple[SerialButtons, asyncio.Task[None]]]:
    state = request.app.state
    if not hasattr(state, "quiz_serial"):
        state.quiz_serial = {}
    readers: dict[str, tuple[SerialButtons, asyncio.Task[None]]] = state.quiz_serial
    return readers


def serial_status(request: Request, room_id: str) -> dict[str, Any] | None:
    """The serial button box connected to a room: its port, presses read and bad lines; ``None`` if none."""
    entry = _serial_readers(request).get(room_id)
    if entry is None:
        return None
    buttons, task = entry
    return {"port": buttons.url, "presses": buttons.presses, "bad_lines": buttons.bad_lines, "running": not task.done()}


@auth.arbiter_only
async def reissue(request: Request) -> Response:
    """Revoke a team's join code or the projector's or assistant's token and show the new one: the old one stops
    opening the game at once, and the sockets still open with it are closed (issue 13 §4)."""
    room_id = request.path_params["room_id"]
    owner = await _quiz_owner(request)
    if owner is None:
        return _not_found(request)
    form = await request.form(max_files=0, max_fields=5)
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    target = f"/quiz/{room_id}/links"
    if not auth.csrf_ok(request, fields.get("csrf")):
        return RedirectResponse(target, status_code=303)
    role = fields.get("role", "")
    services = services_of(request)
    try:
        name, secret = await reissue_quiz_link(services.accounts, room_id, role)
    except UnknownGrantError:
        return _refused(Refusal(QuizCode.NO_SUCH_LINK, {"role": role[:20]}), 400)
    await services.bus.publish(channel_of(room_id), {"t": REVOKED, "room": room_id, "role": role})
    stored = request.session.get(f"quiz:{room_id}")
    tokens: dict[str, Any] = dict(stored) if isinstance(stored, dict) else {"teams": {}}
    if role.startswith("team:"):
        tokens["teams"] = {**tokens.get("teams", {}), name: secret}
    else:
        tokens[role] = secret
    request.session[f"quiz:{room_id}"] = tokens
    return RedirectResponse(target, status_code=303)


@auth.arbiter_only
async def serial_buttons(request: Request) -> Response:
    """Connect (or disconnect) a serial button box to this game: its presses go to the room's arbitration."""
    room_id = request.path_params["room_id"]
    owner = await _quiz_owner(request)
    if owner is None:
        return _not_found(request)
    form = await request.form(max_files=0, max_fields=5)
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    readers = _serial_readers(request)
    target = f"/quiz/{room_id}/host"
    if not auth.csrf_ok(request, fields.get("csrf")):
        return RedirectResponse(target, status_code=303)
    previous = readers.pop(room_id, None)
    if previous is not None:
        previous[0].stop()
        await asyncio.wait([previous[1]], timeout=2)
    port = fields.get("port", "").strip()
    if fields.get("action") == "disconnect" or not port:
        return RedirectResponse(target, status_code=303)
    device = serial_port(port)
    if device is None:
        return _refused(Refusal(QuizCode.SERIAL_PORT_NAME), 400)
    buttons = SerialButtons(device, feed_owner(owner))
    try:
        buttons.open()
    except Exception:  # serial.SerialException, OSError: the port is absent or busy
        return _refused(Refusal(QuizCode.SERIAL_PORT_UNAVAILABLE, {"port": port}), 400)
    readers[room_id] = (buttons, asyncio.get_running_loop().create_task(buttons.run()))
    return RedirectResponse(target, status_code=303)


def client_strings() -> dict[str, str]:
    """Texts the quiz scripts show, in the request's language; ``seconds`` (a unit pattern around ``{value}``) and
    ``decimal`` let them write the host's timer as the page's language does (``4,6 с``)."""
    language = current_language()
    return {
        "seconds": units.format_unit("{value}", "duration-second", "narrow", locale=language),
        "decimal": numbers.get_decimal_symbol(language),
        "source_web": _("phone"),
        "source_keyboard": _("keyboard"),
        "source_serial": _("serial port"),
        "connecting": _("Connecting…"),
        "online": _("Connected"),
        "key_space": _("Space"),
        "offline": _("Connection lost — reconnecting…"),
        "no_connection": _("No connection"),
        "press_not_sent": _("the press was not sent"),
        "projector": _("Projector"),
        "assistant": _("Assistant"),
        "link_live": _("connected"),
        "link_lost": _("lost"),
        "link_never": _("not connected"),
        "seen_ago": _("last seen {seconds} s ago"),
        "ms": _("ms"),
        "suspect": _("suspect: its round trip of {rtt} ms is over {limit} ms"),
        "locked": _("Wait"),
        "open": _("Press!"),
        "pressed": _("Pressed…"),
        "your_turn": _("Your answer!"),
        "answered": _("Answered"),
        "time": _("Time!"),
        "right": _("Right"),
        "wrong": _("Wrong"),
        "answering": _("Answering"),
        "too_late": _("too late"),
        "chooses": _("chooses"),
        "strikes": _("strikes a theme"),
        "draw": _("Draw the first chooser"),
        "waiting_draw": _("Waiting for the draw"),
        "finish_reading": _("Reading finished"),
        "clarify": _("Clarify"),
        "extend": _("More time"),
        "cancel_press": _("Cancel the press"),
        "replace": _("Replace the question"),
        "undo": _("Reverse the last ruling (right ↔ wrong)"),
        "announce_score": _("Score announced"),
        "score_due": _("The assistant must announce the score (SI-4.7)"),
        "score": _("Score"),
        "finished": _("Game over"),
        "final_strike": _("Final: themes are struck until 5 remain"),
        "shootout": _("Shootout"),
        "sudden_death": _("Single questions until the first difference"),
        "answer": _("Answer"),
        "comment": _("Comment"),
        "sources": _("Sources"),
        "presses": _("Presses"),
        "reserve": _("Reserve question"),
        "refused": _("Refused:"),
        "team": _("Team"),
        "question": _("Question"),
        "keys_help": _("Keys"),
        "no_question": _("Choose a question on the board"),
        "reading": _("Reading"),
        "window": _("Press window"),
        "report": _("Game report"),
        "request_score": _("Ask for the score"),
        "outdated": _("The page is out of date; reloading…"),
        "explanation": _("About the theme"),
        "correct": _("Correct the score"),
        "reason": _("Reason for the record"),
        "all_answered": _("Everyone answered"),
        "decided": _("The shootout is decided"),
    }


routes = [
    Route("/quiz", quiz_list),
    Route("/quiz/new", new_quiz, methods=["GET", "POST"]),
    Route("/quiz/join", join),
    Route("/j/{code}", join),
    Route("/quiz/{room_id}/links", quiz_links),
    Route("/quiz/{room_id}/report", report_page),
    Route("/quiz/{room_id}/serial", serial_buttons, methods=["POST"]),
    Route("/quiz/{room_id}/links/reissue", reissue, methods=["POST"]),
    Route("/api/quiz/{room_id}/report", report_json),
    Route("/quiz/{room_id}/host", _screen("host")),
    Route("/quiz/{room_id}/board", _screen("board")),
    Route("/quiz/{room_id}/buzzer", _screen("buzzer")),
    Route("/quiz/{room_id}/assistant", _screen("assistant")),
    Route("/quiz/{room_id}", _screen("spectator")),
]
