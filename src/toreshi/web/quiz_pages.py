"""«Своя игра» pages: create a game from an uploaded pack, join codes and QR codes, and the game's screens.

Screens (one live room each, docs/protocol.md "Room kind quiz"): the host console (``/quiz/{id}/host``, the signed-in
arbiter or the host's secret link), the projector board (``/quiz/{id}/board``), the team buzzer for phones
(``/quiz/{id}/buzzer``, reached by a join code or its QR code), the assistant's scoreboard
(``/quiz/{id}/assistant``), the spectator view (``/quiz/{id}``) and the report (``/quiz/{id}/report``).

A join code is ``RRRR-TTTTT``: the room's short id and the team's secret. The secret is stored only as a digest,
as every per-room token is (:func:`toreshi.web.rooms_api.token_digest`).
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Sequence
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from toreshi.devices.serial_buttons import SerialButtons, feed_owner
from toreshi.kit.refusal import Refused
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.quiz import KIND, QuizRoom, role_of
from toreshi.quiz.board import Board, BoardQuestion
from toreshi.quiz.buzzer import ArbitrationMode
from toreshi.quiz.events import MAX_TEAMS, Assistant, GameKind, GameSetup, ReadingMode
from toreshi.quiz.formats import read_pack
from toreshi.quiz.pack import Package, PackError, Theme
from toreshi.store import RoomExistsError, RoomKind, UnknownRoomError
from toreshi.store.accounts import token_digest
from toreshi.web import auth, refusals
from toreshi.web.i18n import gettext as _
from toreshi.web.qr import qr_svg
from toreshi.web.rooms_api import actor_for, grant_for_token, owner_of, refuse_unstorable
from toreshi.web.services import services_of
from toreshi.web.templates import render

MAX_PACK_BYTES = 64 * 1024 * 1024
"""The largest pack upload accepted (the archive's own limits inside are checked by :mod:`toreshi.quiz.limits`)."""
MAX_NAME = 60
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""Join-code letters: no 0/O, 1/I that people misread on a projector."""
ROOM_CODE_LENGTH = 4
TEAM_CODE_LENGTH = 5
THEMES_NEEDED = {GameKind.QUALIFYING: 5, GameKind.FINAL: 11, GameKind.SHOOTOUT: 1}
DEFAULT_KEYS = ("1", "2", "3", "4")
"""Keys a USB buzzer of team 1–4 types on the host's or projector's machine (changeable on the new-game form)."""


class SetupError(ValueError):
    """A new-game form that cannot become a game."""


def _code(length: int) -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def room_id_of(room_code: str) -> str:
    return f"q-{room_code.lower()}"


def split_join_code(code: str) -> tuple[str, str] | None:
    """``"7KDM-X4PQR"`` (any case, spaces or no dash) → (room id, team secret); ``None`` if it is not one."""
    cleaned = "".join(ch for ch in code.upper() if ch.isalnum())
    if len(cleaned) != ROOM_CODE_LENGTH + TEAM_CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in cleaned):
        return None
    return room_id_of(cleaned[:ROOM_CODE_LENGTH]), cleaned[ROOM_CODE_LENGTH:]


# --- from a pack to a game ---------------------------------------------------------------------------------------


def _notes(theme: Theme) -> list[dict[str, Any]]:
    """Per question: the comment, sources and authors the host sees (the question's own, else the theme's)."""
    notes = []
    for question in theme.questions:
        info = question.info
        notes.append(
            {
                "comment": info.comments or info.showman_comments,
                "sources": list(info.sources or theme.info.sources),
                "authors": list(info.authors or theme.info.authors),
            }
        )
    return notes


def setup_from_pack(
    package: Package,
    *,
    kind: GameKind,
    teams: Sequence[str],
    assistant: Assistant | None,
    round_number: int = 1,
    first_theme: int = 1,
    reading: ReadingMode = ReadingMode.HOST,
    advancing: int = 1,
) -> tuple[GameSetup, dict[str, dict[str, Any]]]:
    """The game setup and the host's notes for a game cut from a pack.

    Playable themes are the pack's themes of exactly 5 questions, in pack order. The game takes the themes it
    needs (5, 11 for a final, 1 for a shootout) starting at ``first_theme`` of round ``round_number`` (1-based), on
    into the next rounds if needed; every other playable theme becomes the reserve (SI-4.6, SI-2.2).
    """
    pool = [
        (r, theme) for r, round_ in enumerate(package.rounds) for theme in round_.themes if len(theme.questions) == 5
    ]
    if not pool:
        raise SetupError(_("The pack has no theme of 5 questions."))
    starts = [i for i, (r, _theme) in enumerate(pool) if r == round_number - 1]
    if not starts:
        raise SetupError(_("That round has no theme of 5 questions."))
    start = starts[0] + first_theme - 1
    needed = THEMES_NEEDED[kind]
    if first_theme < 1 or start + needed > len(pool):
        raise SetupError(_("The pack has too few themes from that point for this game."))
    picked = [theme for _r, theme in pool[start : start + needed]]
    reserve = [theme for i, (_r, theme) in enumerate(pool) if not start <= i < start + needed]
    board = Board.from_themes(picked, reserve)
    notes: dict[str, dict[str, Any]] = {}
    for index, theme in enumerate(picked):
        for value, note in enumerate(_notes(theme), start=1):
            notes[f"{index}:{value}"] = note
    spare = 0
    for theme in reserve:
        for question, note in zip(theme.questions, _notes(theme), strict=True):
            if not BoardQuestion.from_question(question, 1).empty:
                notes[f"r:{spare}"] = note
                spare += 1
    cuts = (advancing,) if kind is GameKind.SHOOTOUT else ()
    setup = GameSetup(tuple(teams), board, kind=kind, assistant=assistant, reading=reading, shootout_cuts=cuts)
    return setup, notes


async def create_quiz_room(
    request: Request,
    host: str,
    setup: GameSetup,
    notes: dict[str, dict[str, Any]],
    *,
    title: str,
    keys: dict[str, str],
    arbitration: str,
) -> tuple[str, dict[str, Any]]:
    """Create the room and its secrets; returns the room id and the links' tokens (shown once to the host)."""
    services = services_of(request)
    data = {
        "setup": setup.to_dict(),
        "notes": notes,
        "title": title,
        "keys": keys,
        "buttons": {str(seat): team for seat, team in enumerate(setup.teams, start=1)},
        "arbitration": {"mode": arbitration},
    }
    # Decided once on a blank room first: a refused game leaves no empty room behind in the store.
    refuse_unstorable(data)
    QuizRoom().decide(Command("create", Actor("host", host), data), 0)
    for _attempt in range(20):
        room_code = _code(ROOM_CODE_LENGTH)
        room_id = room_id_of(room_code)
        try:
            await services.store.create_room(room_id, RoomKind.QUIZ)
        except RoomExistsError:
            continue
        break
    else:  # pragma: no cover - 20 collisions among a million codes
        raise SetupError(_("Could not find a free room code; try again."))
    owner = await services.rooms.get(room_id, KIND)
    try:
        await owner.handle(Command("create", Actor("host", host), data))
    except Refused:
        await services.rooms.drop(room_id)
        raise
    tokens: dict[str, Any] = {"teams": {}}
    for seat, team in enumerate(setup.teams, start=1):
        secret = _code(TEAM_CODE_LENGTH)
        await services.accounts.grant(room_id, f"team:{seat}", team, token_digest(secret))
        tokens["teams"][team] = f"{room_code}-{secret}"
    for role, name in (
        ("host", host),
        ("projector", ""),
        ("assistant", setup.assistant.name if setup.assistant else ""),
    ):
        token = secrets.token_urlsafe(18)
        await services.accounts.grant(room_id, role, name, token_digest(token))
        tokens[role] = token
    return room_id, tokens


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
                room_id, tokens = await _create_from_form(request, values, upload)
            except (SetupError, PackError) as problem:
                error = str(problem)
            except Refused as refused:
                error = refusals.text_of(refused)
            else:
                request.session[f"quiz:{room_id}"] = tokens
                return RedirectResponse(f"/quiz/{room_id}/links", status_code=303)
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


async def _create_from_form(request: Request, values: dict[str, str], upload: UploadFile | None) -> tuple[str, Any]:
    teams = [values[f"team{i}"] for i in range(1, MAX_TEAMS + 1) if values[f"team{i}"]]
    if len(teams) < 2 or any(len(team) > MAX_NAME for team in teams):
        raise SetupError(_("Enter the names of 2 to 4 teams."))
    if len(set(teams)) != len(teams):
        raise SetupError(_("Team names must differ."))
    try:
        kind = GameKind(values["kind"])
        reading = ReadingMode(values["reading"])
        arbitration = ArbitrationMode(values["arbitration"]).value
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
    title = values["title"][:MAX_NAME] or package.name[:MAX_NAME]
    return await create_quiz_room(request, arbiter, setup, notes, title=title, keys=keys, arbitration=arbitration)


@auth.arbiter_only
async def quiz_links(request: Request) -> Response:
    """Join codes and QR codes for the teams, and the host's, projector's and assistant's links (shown once)."""
    room_id = request.path_params["room_id"]
    tokens = request.session.get(f"quiz:{room_id}")
    if not isinstance(tokens, dict):
        return RedirectResponse(f"/quiz/{room_id}/host", status_code=303)
    base = str(request.base_url).rstrip("/")
    teams = [
        {"name": team, "code": code, "url": f"{base}/j/{code}", "qr": qr_svg(f"{base}/j/{code}", scale=5)}
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
            config=json.dumps(config, ensure_ascii=False).replace("</", "<\\/"),
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
        return JSONResponse({"error": "no such game"}, status_code=404)
    if not await _may_see_report(request, owner):
        return JSONResponse({"error": "the report is open once the game is over"}, status_code=403)
    return JSONResponse(owner.logic.report())


async def quiz_list(request: Request) -> Response:
    services = services_of(request)
    games = []
    for room in await services.store.rooms(kind=RoomKind.QUIZ):
        try:
            owner = await services.rooms.get(room.id, KIND)
        except (UnknownRoomError, LookupError):  # pragma: no cover - a room of another build
            continue
        logic = owner.logic
        if isinstance(logic, QuizRoom) and logic.created:
            games.append(
                {
                    "id": room.id,
                    "title": logic.title,
                    "teams": list(logic.state.teams),
                    "status": logic.state.phase.value,
                }
            )
    return render(
        request, "quiz/list.html", games=games, arbiter=auth.signed_in(request), csrf=auth.csrf_token(request)
    )


SERIAL_PORT = re.compile(r"/dev/[\w.+-]+(?:/[\w.+-]+)*|COM[0-9]{1,3}")
"""Serial buttons are opened only on device paths (``/dev/ttyUSB0``, ``/dev/serial/by-id/…``) or Windows ports."""


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
    if not SERIAL_PORT.fullmatch(port):
        return JSONResponse({"error": "a serial port is a /dev/… path or COMn"}, status_code=400)
    buttons = SerialButtons(port, feed_owner(owner))
    try:
        buttons.open()
    except Exception as error:  # serial.SerialException, OSError: the port is absent or busy
        return JSONResponse({"error": f"cannot open {port}: {error}"}, status_code=400)
    readers[room_id] = (buttons, asyncio.get_running_loop().create_task(buttons.run()))
    return RedirectResponse(target, status_code=303)


def client_strings() -> dict[str, str]:
    """Texts the quiz scripts show, in the request's language."""
    return {
        "connecting": _("Connecting…"),
        "offline": _("Connection lost — reconnecting…"),
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
    Route("/api/quiz/{room_id}/report", report_json),
    Route("/quiz/{room_id}/host", _screen("host")),
    Route("/quiz/{room_id}/board", _screen("board")),
    Route("/quiz/{room_id}/buzzer", _screen("buzzer")),
    Route("/quiz/{room_id}/assistant", _screen("assistant")),
    Route("/quiz/{room_id}", _screen("spectator")),
]
