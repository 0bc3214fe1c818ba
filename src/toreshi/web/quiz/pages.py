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
import dataclasses
import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from babel import numbers, units
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toreshi.devices.serial_buttons import SerialButtons, feed_owner, serial_port
from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.owner import channel_of
from toreshi.live.protocol import AccessNotice
from toreshi.live.room import Actor
from toreshi.live.rooms.quiz import KIND, QuizRoom, role_of
from toreshi.quiz.buzzer import DEFAULT_MAX_COMPENSATION_MS, ArbitrationMode
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import MAX_TEAMS, Assistant, GameKind, ReadingMode
from toreshi.quiz.formats import read_pack
from toreshi.quiz.pack import Package
from toreshi.quiz.play.commands import Arbitration, CreateGame
from toreshi.quiz.play.setup import (
    apply_picks,
    default_picks,
    needs_choice,
    pack_choices,
    setup_from_pack,
    unplayable_themes,
)
from toreshi.services.quiz import (
    GameLinks,
    GameSummary,
    create_quiz_room,
    end_quiz_game,
    quiz_games,
    quiz_room_links,
    reissue_quiz_link,
    split_join_code,
)
from toreshi.store.accounts import UnknownGrantError
from toreshi.store.packs import QuizPacks
from toreshi.texts import refusals
from toreshi.texts.formatting import format_clock
from toreshi.texts.i18n import N_, current_language
from toreshi.texts.i18n import gettext as _
from toreshi.web.accounts import auth
from toreshi.web.common import pagekit
from toreshi.web.common.forms import Form, read_form, text, texts
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.qr import qr_svg
from toreshi.web.common.services import kept_on_app, services_of
from toreshi.web.common.spreadsheets import csv_response
from toreshi.web.common.templates import embed_json
from toreshi.web.rooms.api import actor_for, grant_for_token, owner_of

MAX_PACK_BYTES = 64 * 1024 * 1024
"""The largest pack upload accepted (the archive's own limits inside are checked by :mod:`toreshi.quiz.limits`)."""
MAX_NAME = 60
DEFAULT_KEYS = ("1", "2", "3", "4")
"""Keys a USB buzzer of team 1–4 types on the host's or projector's machine (changeable on the new-game form)."""


class SetupError(ValueError):
    """A new-game form that cannot become a game (its message is already in the page's language)."""


class PackKeptError(SetupError):
    """Another field is wrong but the pack was read: it is kept as a draft (``token``) so that the form comes back
    with "pack already uploaded" instead of asking for the file again."""

    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.token = token


class ChoiceNeededError(Exception):
    """The pack has themes of other than 5 questions (or several rounds): the host picks before the game is made."""

    def __init__(self, package: Package, draft: str) -> None:
        super().__init__(draft)
        self.package = package
        self.draft = draft


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
    "stem": "",
    "kind": "qualifying",
    "round": "1",
    "first_theme": "1",
    "reading": "host",
    "arbitration": "compensated",
    "advancing": "1",
    "assistant": "",
    "assistant_team": "",
    "projector_keys": "",
    "show_prices": "",
    "special_questions": "",
    "max_compensation": str(DEFAULT_MAX_COMPENSATION_MS),
    "pack_token": "",
    **{f"team{i}": "" for i in range(1, MAX_TEAMS + 1)},
    **{f"key{i}": key for i, key in enumerate(DEFAULT_KEYS, start=1)},
}


def pack_size_error(request: Request) -> str:
    """What to tell the host when a form's body (by its Content-Length) is larger than one pack may be, before
    reading it; empty if it is not."""
    length = request.headers.get("content-length")
    if length is not None and length.isascii() and length.isdigit() and int(length) > MAX_PACK_BYTES:
        return _("The pack is too large (at most 64 MiB).")
    return ""


KEPT_PACKS = "quiz:kept-packs"
"""The session's list of the pack drafts it may use again by token (the newest few): a token alone is not enough."""
KEPT_PER_SESSION = 3


def _kept_tokens(request: Request) -> list[str]:
    kept = request.session.get(KEPT_PACKS)
    return [token for token in kept if isinstance(token, str)] if isinstance(kept, list) else []


def _keep_token(request: Request, token: str) -> None:
    request.session[KEPT_PACKS] = [*(t for t in _kept_tokens(request) if t != token), token][-KEPT_PER_SESSION:]


@auth.arbiter_only
async def new_quiz(request: Request) -> Response:
    values = dict(NEW_DEFAULTS)
    error = ""
    if request.method == "POST":
        error = pack_size_error(request)
        if not error:
            form, upload = await _read_upload(request)
            values.update({key: form.get(key, "").strip() for key in values})
            values["pack_token"] = values["pack_token"] if values["pack_token"] in _kept_tokens(request) else ""
            try:
                if not pagekit.fresh(request, form):
                    raise SetupError(pagekit.expired_text())
                links = await _create_from_form(request, values, upload)
            except PackKeptError as problem:
                error = str(problem)
                values["pack_token"] = problem.token
                _keep_token(request, problem.token)
            except SetupError as problem:
                error = str(problem)
            except Refused as refused:  # the pack, the game it should give, the room's own checks
                error = pagekit.refusal_text(refused)
            except ChoiceNeededError as choice:
                picks = default_picks(choice.package)
                start = _int_field(values, "round", 1, 1, 50) - 1
                rounds = {r for r, round_ in enumerate(choice.package.rounds) if r >= start and not round_.is_final}
                return _pick_page(request, values, choice.package, choice.draft, picks, rounds, "")
            else:
                request.session[f"quiz:{links.room_id}"] = links.to_session()
                return pagekit.redirect(f"/quiz/{links.room_id}/links")
    return pagekit.plain(
        request,
        "quiz/new.html",
        status_code=400 if error else 200,
        values=values,
        error=error,
        teams=range(1, MAX_TEAMS + 1),
    )


async def _create_from_form(request: Request, values: dict[str, str], upload: UploadFile | None) -> GameLinks:
    """The game the form describes. The pack is read first: when it is good and another field is wrong, it is kept
    as a draft under a token (:class:`PackKeptError`), and a form sent back with that token and no new file plays
    it, so a host never uploads a pack twice. A new file replaces the kept one."""
    packs = QuizPacks(services_of(request).store.engine)
    token = values["pack_token"]
    data: bytes | None = None
    if upload is not None and upload.filename:
        data = await upload.read(MAX_PACK_BYTES + 1)
        if len(data) > MAX_PACK_BYTES:
            raise SetupError(_("The pack is too large (at most 64 MiB)."))
        values["stem"] = (upload.filename or "").rsplit("/", 1)[-1].rsplit(".", 1)[0][:MAX_NAME]
        token = values["pack_token"] = ""
    elif token:
        data = await packs.draft(token)  # None if it expired or was pushed out by newer drafts
    if data is None:
        values["pack_token"] = ""
        raise SetupError(_both(_("Choose a pack file (.siq or db.chgk.info text)."), values))
    try:
        package = read_pack(data, name=values["stem"])
    except Refused as refused:
        values["pack_token"] = ""
        raise SetupError(_both(refusals.text_of(refused), values)) from None
    try:
        teams, kind, reading, arbitration, assistant = _form_parts(values)
        if needs_choice(package):
            raise ChoiceNeededError(package, token or await packs.add_draft(data))
        links = await _create_game(request, values, package, teams, kind, reading, arbitration, assistant)
    except (SetupError, Refused) as problem:
        message = str(problem) if isinstance(problem, SetupError) else refusals.text_of(problem)
        raise PackKeptError(message, token or await packs.add_draft(data)) from None
    if token and package.media:
        await packs.attach(token, links.room_id)  # its images, sounds and videos are served from it
    elif package.media:
        await packs.put(links.room_id, data)
    elif token:
        await packs.discard(token)
    request.session[f"quiz:unplayed:{links.room_id}"] = [list(t) for t in unplayable_themes(package)[:60]]
    return links


def _both(pack_problem: str, values: dict[str, str]) -> str:
    """The pack's problem and, if any, the other fields' first one: everything that is wrong, said at once."""
    try:
        _form_parts(values)
    except SetupError as problem:
        return f"{pack_problem} {problem}"
    return pack_problem


def _form_parts(
    values: dict[str, str],
) -> tuple[list[str], GameKind, ReadingMode, ArbitrationMode, Assistant | None]:
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
    for key, default, high in (("round", 1, 50), ("first_theme", 1, 200), ("advancing", 1, MAX_TEAMS - 1)):
        _int_field(values, key, default, 1, high)
    return teams, kind, reading, arbitration, assistant


async def _create_game(
    request: Request,
    values: dict[str, str],
    package: Package,
    teams: list[str],
    kind: GameKind,
    reading: ReadingMode,
    arbitration: ArbitrationMode,
    assistant: Assistant | None,
    *,
    picked: bool = False,
) -> GameLinks:
    setup, notes = setup_from_pack(
        package,
        kind=kind,
        teams=teams,
        assistant=assistant,
        round_number=1 if picked else _int_field(values, "round", 1, 1, 50),
        first_theme=1 if picked else _int_field(values, "first_theme", 1, 1, 200),
        reading=reading,
        advancing=_int_field(values, "advancing", 1, 1, MAX_TEAMS - 1),
    )
    setup = dataclasses.replace(
        setup, show_prices=values["show_prices"] == "on", special_questions=values["special_questions"] == "on"
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


def _pick_page(
    request: Request,
    values: dict[str, str],
    package: Package,
    draft: str,
    picks: dict[tuple[int, int], tuple[int, ...]],
    rounds: set[int],
    error: str,
) -> Response:
    """The host picks the game's rounds and, in each theme, its questions (five to a board theme)."""
    return pagekit.plain(
        request,
        "quiz/pick.html",
        status_code=400 if error else 200,
        values={key: value for key, value in values.items() if key in NEW_DEFAULTS},
        package=package,
        choices=pack_choices(package),
        names=item_names(),
        picks=picks,
        rounds=rounds,
        draft=draft,
        error=error,
    )


def _picks_of(form: Any) -> tuple[set[int], dict[tuple[int, int], tuple[int, ...]]]:
    rounds: set[int] = set()
    for raw in form.getlist("use_round"):
        if isinstance(raw, str) and raw.isascii() and raw.isdigit() and len(raw) < 4:  # int("²") fails
            rounds.add(int(raw))
    chosen: dict[tuple[int, int], list[int]] = {}
    for raw in form.getlist("q"):
        parts = raw.split(".") if isinstance(raw, str) else []
        if len(parts) == 3 and all(part.isascii() and part.isdigit() and len(part) < 5 for part in parts):
            r, t, i = (int(part) for part in parts)
            chosen.setdefault((r, t), []).append(i)
    return rounds, {key: tuple(value) for key, value in chosen.items()}


@auth.arbiter_only
async def pick_quiz(request: Request) -> Response:
    """The second step of a new game from a pack whose themes are not all of 5 questions: the host's picks."""
    fields = texts(await read_form(request, max_files=0, max_fields=4000))
    values = dict(NEW_DEFAULTS)
    values.update({key: fields.get(key, "").strip() for key in values})
    packs = QuizPacks(services_of(request).store.engine)
    draft = fields.get("draft", "")
    data = await packs.draft(draft) if draft.startswith("d-") and len(draft) <= 64 else None
    if data is None or not pagekit.fresh(request, fields):
        error = pagekit.expired_text()
        return pagekit.plain(
            request,
            "quiz/new.html",
            status_code=400,
            values=values,
            error=error,
            teams=range(1, MAX_TEAMS + 1),
        )
    package = read_pack(data, name=values["stem"])
    rounds, picks = _picks_of(await request.form())  # the body already read: every repeated pick
    try:
        teams, kind, reading, arbitration, assistant = _form_parts(values)
        cut = apply_picks(package, rounds, picks)
        links = await _create_game(request, values, cut, teams, kind, reading, arbitration, assistant, picked=True)
    except SetupError as problem:
        return _pick_page(request, values, package, draft, picks, rounds, str(problem))
    except Refused as refused:
        return _pick_page(request, values, package, draft, picks, rounds, pagekit.refusal_text(refused))
    await packs.attach(draft, links.room_id)
    request.session[f"quiz:{links.room_id}"] = links.to_session()
    return pagekit.redirect(f"/quiz/{links.room_id}/links")


@auth.arbiter_only
async def quiz_links(request: Request) -> Response:
    """Join codes and QR codes for the teams, and the host's, projector's and assistant's links."""
    room_id = request.path_params["room_id"]
    # The store's derived secrets first (they survive a restart and follow a reissue from any browser: a tour's
    # shootout is made by itself when its tie is recorded, with no host's session to keep its codes); the session's
    # copy for a room made before secrets were derived.
    stored = await quiz_room_links(services_of(request).accounts, room_id)
    tokens: Any = stored.to_session() if stored is not None else request.session.get(f"quiz:{room_id}")
    if not isinstance(tokens, dict):
        return pagekit.redirect(f"/quiz/{room_id}/host")
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
    unplayed = request.session.get(f"quiz:unplayed:{room_id}", [])
    # How the pack sits on the regulation's grid (issue 31): per theme, the pack's price behind each point 1-5.
    setup = owner.logic.game.setup if owner is not None and isinstance(owner.logic, QuizRoom) else None
    mapping = [] if setup is None else [
        {"name": theme.name, "prices": [None if cell.empty else cell.source_price for cell in theme.cells]}
        for theme in setup.board.themes
    ]  # fmt: skip
    return pagekit.page(
        request,
        "quiz/links.html",
        mapping=mapping,
        mapping_reshaped=any(None in theme["prices"] for theme in mapping),
        show_prices=setup is not None and setup.show_prices,
        special_questions=setup is not None and setup.special_questions,
        unplayed=unplayed if isinstance(unplayed, list) else [],
        room_id=room_id,
        teams=teams,
        links=links,
        join_url=f"{base}/quiz/join",
        shown_again=stored is not None,
    )


async def join(request: Request) -> Response:
    """The join page: type the code shown by the host (or scan its QR code, which lands on ``/j/{code}``)."""
    code = request.query_params.get("code") or request.path_params.get("code") or ""
    error = ""
    if code:
        target = await _resolve_code(request, code)
        if target is not None:
            return pagekit.redirect(target)
        error = _("No team has this code. Check it with the host.")
    return pagekit.plain(
        request,
        "quiz/join.html",
        status_code=404 if error else 200,
        code=code,
        error=error,
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
            return not_found(request)
        token = request.query_params.get("token", "")
        room_id = request.path_params["room_id"]
        actor = await actor_for(request, room_id, token or None)
        if screen == "host" and actor.role not in ("host", "arbiter"):
            return pagekit.redirect(f"/login?next=/quiz/{room_id}/host")
        config = {
            "room": room_id,
            "token": token,
            "screen": screen,
            "role": role_of(actor),
            "name": actor.name,
            "strings": client_strings(),
        }
        # The host's console shows what came of its forms (the serial box); the other screens show no flash.
        return (pagekit.page if screen == "host" else pagekit.plain)(
            request,
            SCREENS[screen],
            room_id=room_id,
            screen=screen,
            title=owner.logic.title if isinstance(owner.logic, QuizRoom) else "",
            config=embed_json(config),
            serial=serial_status(request, room_id) if screen == "host" else None,
            serial_error=_serial_error(request) if screen == "host" else "",
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
        return not_found(request)
    if not await _may_see_report(request, owner):
        return pagekit.plain(
            request,
            "quiz/report.html",
            status_code=403,
            report=None,
        )
    return pagekit.plain(
        request,
        "quiz/report.html",
        report=owner.logic.report(),
        room_id=request.path_params["room_id"],
        token=request.query_params.get("token", ""),
        print_view=request.query_params.get("print") == "1",
    )


async def report_csv(request: Request) -> Response:
    """The report as CSV: one row per question with the chooser, the outcome, the presses with their times from the
    question's start (mm:ss.s), the rulings, the host's tools and the running score of every team."""
    owner = await _quiz_owner(request)
    if owner is None:
        return not_found(request)
    if not await _may_see_report(request, owner):
        return _refused(Refusal(QuizCode.REPORT_CLOSED), 403)
    data = owner.logic.report()
    name = request.path_params["room_id"]
    return csv_response(report_rows(data), f"{name}-report.csv")


REPORT_COLUMNS = ("question", "theme", "value", "chooser", "outcome", "presses", "rulings", "host")
"""The report CSV's columns before the running score of each team (their headers are worded in the reader's
language: :data:`REPORT_HEADERS`)."""

REPORT_HEADERS = {
    "question": N_("Question"),
    "theme": N_("Theme"),
    "value": N_("Value"),
    "chooser": N_("Chose"),
    "outcome": N_("Outcome"),
    "presses": N_("Presses"),
    "rulings": N_("Rulings"),
    "host": N_("Host"),
}
OUTCOME_WORDS = {
    "right": N_("Right answer"),
    "time": N_("Time: nobody pressed"),
    "time_unanswered": N_("Time: nobody answered right"),
    "all_answered": N_("Everyone answered"),
    "decided": N_("The shootout is decided"),
}
"""The same words as the report page's (templates/quiz/report.html)."""
HOST_WORDS = {
    "score_corrected": N_("score corrected"),
    "question_replaced": N_("question replaced"),
    "host_error": N_("host's error"),
    "audience_prompt": N_("a prompt from the audience"),
}


def _host_cell(action: Mapping[str, object]) -> str:
    """A host's action (or an audience ruling, SI-4.5) in one cell: its type, then its values (time aside), the
    known words in the reader's language."""
    return " ".join(
        _(HOST_WORDS[str(v)]) if str(v) in HOST_WORDS else str(v)
        for k, v in action.items()
        if k != "at_ms" and v is not None
    )


def _audience_cell(ruling: Mapping[str, Any]) -> str:
    """An audience ruling (SI-4.5) as the report page words it: the person, then what was decided."""
    if ruling["type"] == "audience_warned":
        decided = _("warned")
    elif ruling.get("scope") == "round":
        decided = _("removed until the end of the round of games")
    else:
        decided = _("removed until the end of the game")
    return f"{ruling['person']}: {decided}"


def report_rows(data: Mapping[str, Any]) -> list[list[object]]:
    """The report's CSV rows: a header, one row per question, then one row per audience ruling (SI-4.5) with its
    question under ``question`` and the ruling under ``host`` (the host gives it), as wide as the header. Words are
    in the current language (the request's, or the bundle's)."""
    teams = list(data.get("teams", []))
    rows: list[list[object]] = [[*(_(REPORT_HEADERS[column]) for column in REPORT_COLUMNS), *teams]]
    right, wrong, time = _("right"), _("wrong"), _("time")
    for q in data.get("questions", []):
        presses = "; ".join(f"{p['team']} {format_clock(int(p.get('after_ms') or 0))}" for p in q["presses"])
        rulings = "; ".join(
            f"{r['team']} {right if r['correct'] else time if r['timed_out'] else wrong}" for r in q["rulings"]
        )
        host = "; ".join(_host_cell(h) for h in q["host"])
        running = q.get("running", {})
        head = [q["number"], q.get("theme_name") or "", q.get("value") or "", q.get("chooser") or ""]
        outcome = q.get("outcome") or ""
        outcome = _(OUTCOME_WORDS[outcome]) if outcome in OUTCOME_WORDS else outcome
        rows.append([*head, outcome, presses, rulings, host, *(running.get(t, "") for t in teams)])
    blank = [""] * (len(REPORT_COLUMNS) - 2)
    for a in data.get("audience", []):
        rows.append([a.get("question") or "", *blank, _audience_cell(a), *([""] * len(teams))])
    return rows


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


LIST_FILTERS = ("all", "live", "finished", "tour", "archived")
"""The games list's filters: ``all`` (not archived), being played, finished, games of a club tour, the archive."""


def _listed(game: GameSummary, chosen: str, in_tours: set[str]) -> bool:
    if chosen == "archived":
        return game.archived
    if chosen == "tour":
        return game.id in in_tours
    if game.archived:
        return False
    if chosen == "live":
        return game.status != "finished"
    return chosen != "finished" or game.status == "finished"


async def quiz_list(request: Request) -> Response:
    services = services_of(request)
    games = await quiz_games(services.store, services.rooms)
    in_tours: set[str] = set()
    if services.quiz_tours is not None:
        for ref in await services.quiz_tours.tours():
            in_tours.update(link.room_id for link in ref.state.links)
    chosen = request.query_params.get("filter", "all")
    chosen = chosen if chosen in LIST_FILTERS else "all"
    shown = [g for g in games if _listed(g, chosen, in_tours)]
    return pagekit.page(
        request,
        "quiz/list.html",
        games=shown,
        filter=chosen,
        filters=LIST_FILTERS,
        in_tours=in_tours,
    )


GameAction = Callable[[Request, str, Any, Form], Awaitable[Response]]


def _game_form(back: str) -> Callable[[GameAction], Callable[[Request], Awaitable[Response]]]:
    """A game's small form (archive, finish, reissue a link, the serial box) through the page kit: the action gets
    the room's id, its owner and the form (``action(request, room_id, owner, form)``), or the visitor the answer
    already due (back to ``back`` — ``{room_id}`` filled — when the form expired, a 404 for no such quiz game)."""

    def decorate(action: GameAction) -> Callable[[Request], Awaitable[Response]]:
        @functools.wraps(action)
        async def posted(request: Request) -> Response:
            room_id = request.path_params["room_id"]
            form = await pagekit.posted(request, back.format(room_id=room_id), max_files=0, max_fields=5)
            if isinstance(form, Response):
                return form
            owner = await _quiz_owner(request)
            return not_found(request) if owner is None else await action(request, room_id, owner, form)

        return posted

    return decorate


@auth.arbiter_only
@_game_form("/quiz")
async def archive_quiz(request: Request, room_id: str, owner: Any, form: Form) -> Response:
    """``POST /quiz/{room_id}/archive``: take a finished or never started game off the list (``archived=0``: back)."""
    archived = text(form, "archived") != "0"
    phase = owner.logic.game.phase.value
    if not archived or phase in ("finished", "draw"):
        await services_of(request).store.set_archived(room_id, archived)
    return pagekit.redirect("/quiz" + ("" if archived else "?filter=archived"))


@auth.arbiter_only
@_game_form("/quiz")
async def finish_quiz(request: Request, room_id: str, owner: Any, form: Form) -> Response:
    """``POST /quiz/{room_id}/finish``: end a live game with the scores as they stand (its confirmation is the
    form's); a tour game's result goes to its tour as at a normal end. A game over already or not started is
    refused with the refusal's sentence on the games list."""
    if not isinstance(owner.logic, QuizRoom):
        return not_found(request)
    try:
        await end_quiz_game(services_of(request).rooms, room_id, auth.signed_in(request) or "arbiter",
                            text(form, "reason"))  # fmt: skip
    except Refused as refused:
        return pagekit.refused(request, refused, "/quiz")
    return pagekit.redirect("/quiz?filter=finished")


def _serial_readers(request: Request) -> dict[str, tuple[SerialButtons, asyncio.Task[None]]]:
    return kept_on_app(request, "quiz_serial", dict[str, tuple[SerialButtons, asyncio.Task[None]]])


def serial_status(request: Request, room_id: str) -> dict[str, Any] | None:
    """The serial button box connected to a room: its port, presses read and bad lines; ``None`` if none."""
    entry = _serial_readers(request).get(room_id)
    if entry is None:
        return None
    buttons, task = entry
    return {"port": buttons.url, "presses": buttons.presses, "bad_lines": buttons.bad_lines, "running": not task.done()}


def _serial_error(request: Request) -> str:
    """Why the serial port the host tried could not be connected (from the console's address), translated."""
    reason = request.query_params.get("serial_error")
    port = request.query_params.get("port", "")[:80]
    if reason == "name":
        return refusals.text_of(Refused(QuizCode.SERIAL_PORT_NAME))
    if reason == "unavailable":
        return refusals.text_of(Refused(QuizCode.SERIAL_PORT_UNAVAILABLE, port=port))
    return ""


@auth.arbiter_only
@_game_form("/quiz/{room_id}/links")
async def reissue(request: Request, room_id: str, owner: Any, form: Form) -> Response:
    """Revoke a team's join code or the projector's or assistant's token and show the new one: the old one stops
    opening the game at once, and the sockets still open with it are closed (issue 13 §4)."""
    target = f"/quiz/{room_id}/links"
    role = text(form, "role")
    services = services_of(request)
    try:
        name, secret = await reissue_quiz_link(services.accounts, room_id, role)
    except UnknownGrantError:
        return pagekit.refused(request, Refusal(QuizCode.NO_SUCH_LINK, {"role": role[:20]}), target)
    await services.bus.publish(channel_of(room_id), AccessNotice(room_id, role))
    stored = request.session.get(f"quiz:{room_id}")
    tokens: dict[str, Any] = dict(stored) if isinstance(stored, dict) else {"teams": {}}
    if role.startswith("team:"):
        tokens["teams"] = {**tokens.get("teams", {}), name: secret}
    else:
        tokens[role] = secret
    request.session[f"quiz:{room_id}"] = tokens
    return pagekit.redirect(target)


@auth.arbiter_only
@_game_form("/quiz/{room_id}/host")
async def serial_buttons(request: Request, room_id: str, owner: Any, form: Form) -> Response:
    """Connect (or disconnect) a serial button box to this game: its presses go to the room's arbitration."""
    target = f"/quiz/{room_id}/host"
    readers = _serial_readers(request)
    previous = readers.pop(room_id, None)
    if previous is not None:
        previous[0].stop()
        await asyncio.wait([previous[1]], timeout=2)
    port = text(form, "port")
    if text(form, "action") == "disconnect" or not port:
        return pagekit.redirect(target)
    device = serial_port(port)
    if device is None:
        return pagekit.redirect(f"{target}?{urlencode({'serial_error': 'name', 'port': port[:80]})}")
    buttons = SerialButtons(device, feed_owner(owner))
    try:
        buttons.open()
    except Exception:  # serial.SerialException, OSError: the port is absent or busy
        return pagekit.redirect(f"{target}?{urlencode({'serial_error': 'unavailable', 'port': port[:80]})}")
    readers[room_id] = (buttons, asyncio.get_running_loop().create_task(buttons.run()))
    return pagekit.redirect(target)


def item_names() -> dict[str, str]:
    """The names of a pack's media types and SIGame's question types, in the page's language (a custom type keeps
    the pack's own name)."""
    return {
        "image": _("image"),
        "audio": _("audio"),
        "video": _("video"),
        "html": _("HTML page"),
        "stake": _("stake"),
        "stakeAll": _("stake for all"),
        "secret": _("secret"),
        "secretPublicPrice": _("secret, price known"),
        "secretNoQuestion": _("secret, no question"),
        "noRisk": _("no risk"),
        "forAll": _("for all"),
    }


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
        "link_lost": _("connection lost"),
        "link_never": _("not connected"),
        "seen_ago": _("last seen {seconds} s ago"),
        "ms": _("ms"),
        "suspect": _("suspect: its round trip of {rtt} ms is over {limit} ms"),
        "backdating": _("claims more delay than its link has ({count} presses)"),
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
        "lots_seed": _("Seed of the drawing of lots"),
        "lots_order": _("order of choice by lot"),
        "lots_overridden": _("the host chose {team} instead"),
        "finish_reading": _("Reading finished"),
        "clarify": _("Clarify"),
        "extend": _("More time"),
        "cancel_press": _("Cancel the press"),
        "replace": _("Replace the question"),
        "undo": _("Reverse the last ruling (right ↔ wrong)"),
        "announce_score": _("Score announced"),
        "score_due": _("The assistant must announce the score (SI-4.7)"),
        "score": _("Score"),
        "finished": _("End of the game"),
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
        "warned": _("warned"),
        "winner": _("Winner"),
        "removed_game": _("removed until the end of the game"),
        "removed_round": _("removed until the end of the round of games"),
        "spoken": _("Say aloud"),
        "external_media": _("A link outside the pack: not shown (the screens load nothing from other sites)"),
        "html_item": _("A page of the pack"),
        "media_playing": _("Media playing"),
        "lamp_pressed": _("Pressed"),
        "lamp_answering": _("Answering"),
        "lamp_locked": _("Already answered"),
        "lamp_late": _("Too late"),
        "pack_type": _("SIGame question type"),
        "played_ordinary": _("played as an ordinary question"),
        "mute": _("Mute"),
        "unmute": _("Sound on"),
        "reversed": _("ruling reversed"),
        **{f"kind_{key}": name for key, name in item_names().items()},
        "undo_confirm": _("Reverse the ruling on question {question}: {team}, {was} → {will}?"),
        "strike_prompt": _("{team} strikes a theme: click the theme on the board"),
        "strike_undo": _("Restore the last struck theme"),
        "end_game": _("End the game"),
        "end_game_confirm": _(
            "End the game now with the scores as they stand: {scores}? Nothing more is played. A reason for the "
            "report (may be left empty):"
        ),
        "your_strike": _("Your team strikes a theme: tell the host which one"),
        # The host's own dialogs (issue 31: no more browser prompt() and confirm()).
        "cancel": _("Cancel"),
        "reverse": _("Reverse the ruling"),
        "no_replacement": _("no question of the same value is left"),
        "replace_with": _("Replace it with"),
        "replace_reason": _("Why is it replaced?"),
        "reason_host_error": _("host's error"),
        "reason_audience_prompt": _("a prompt from the audience"),
        "ask_question": _("Ask this question"),
        "points": _("Points (+ or −)"),
        # Undo to any point (issue 31): the game's moments between questions, newest first.
        "history": _("Game history: undo to any point"),
        "undo_to_here": _("Undo to here"),
        "undo_to_confirm": _(
            "Take the game back to this moment ({moment})? Everything after it is undone: rulings, choices, "
            "corrections. The scores become: {scores}. The log keeps what was undone."
        ),
        "undo_to_ok": _("Undo to this moment"),
        "point_start": _("Start of the game"),
        "point_first_chooser_drawn": _("{team} chooses first (lot)"),
        "point_theme_struck": _("{team} struck a theme"),
        "point_theme_restored": _("Struck theme restored"),
        "point_theme_announced": _("Theme announced"),
        "point_question": _("Question {number}: {theme} {value}"),
        "point_score_corrected": _("Score corrected: {team} {delta}"),
        "point_decision_reversed": _("Ruling reversed: {team}"),
        "point_score_announced": _("Score announced"),
        "point_other": _("Between questions"),
        "game_closed": _("The game's result is closed (SI-6): nothing of it may change any more."),
        # SIGame's special questions played by SIGame's rules (a game setting, issue 31)
        "played_sigame": _("played by SIGame's rules (the game's setting)"),
        "special_stake": _("Stake question"),
        "special_secret": _("Secret question («кот в мешке»)"),
        "special_no_risk": _("No-risk question"),
        "stake_turn": _("{team} stakes now"),
        "your_stake_turn": _("your turn to stake"),
        "stake_pass": _("pass"),
        "stake": _("Stake"),
        "stake_for": _("Enter a stake"),
        "stake_amount": _("Points at stake"),
        "secret_giving": _("{team} hands it to another team"),
        "give": _("Hand the secret question"),
        "give_it": _("hand it to another team"),
        "give_to": _("Give it to {team}"),
        "answers_alone": _("{team} answers alone for {price}"),
    }


routes = [
    Route("/quiz", quiz_list),
    Route("/quiz/new", new_quiz, methods=["GET", "POST"]),
    Route("/quiz/new/pick", pick_quiz, methods=["POST"]),
    Route("/quiz/join", join),
    Route("/j/{code}", join),
    Route("/quiz/{room_id}/links", quiz_links),
    Route("/quiz/{room_id}/report", report_page),
    Route("/quiz/{room_id}/report.csv", report_csv),
    Route("/quiz/{room_id}/serial", serial_buttons, methods=["POST"]),
    Route("/quiz/{room_id}/archive", archive_quiz, methods=["POST"]),
    Route("/quiz/{room_id}/finish", finish_quiz, methods=["POST"]),
    Route("/quiz/{room_id}/links/reissue", reissue, methods=["POST"]),
    Route("/api/quiz/{room_id}/report", report_json),
    Route("/quiz/{room_id}/host", _screen("host")),
    Route("/quiz/{room_id}/board", _screen("board")),
    Route("/quiz/{room_id}/buzzer", _screen("buzzer")),
    Route("/quiz/{room_id}/assistant", _screen("assistant")),
    Route("/quiz/{room_id}", _screen("spectator")),
]
