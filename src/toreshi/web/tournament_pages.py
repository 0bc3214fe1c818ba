"""Tournament pages: list, create and configure, participants (add, edit, CSV import), rounds (pair, override,
publish, game rooms, results), standings and crosstable (with a print view), TRF and CSV export, protests,
warnings and the audit log.

Everyone may read a tournament; every change is an arbiter's form post (CSRF-checked) that becomes one command
to the tournament room through :class:`~toreshi.web.tournament_service.TournamentService`. A refused command
changes nothing; the page comes back with the reason (and, for a CSV import, every bad line).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

import segno
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from toreshi.clock.presets import PRESETS
from toreshi.kit.refusal import Refused
from toreshi.live.rooms.tournament import TEAM
from toreshi.tournament import crosstable as tables
from toreshi.tournament.journal import CSV_FIELDS, CsvImportError, TournamentState, decide
from toreshi.tournament.model import GameResult, TournamentSystem, format_points
from toreshi.tournament.protests import ProtestStatus
from toreshi.tournament.standings import trf_from_standings
from toreshi.tournament.tiebreaks import TieBreakCode
from toreshi.tournament.trf import format_trf, to_trf2026
from toreshi.web import auth, refusals, timecontrols
from toreshi.web.i18n import gettext as _
from toreshi.web.services import services_of
from toreshi.web.templates import render
from toreshi.web.tournament_service import TournamentService, UnknownTournamentError, utc_now

MAX_PROBLEMS = 25
MAX_CSV_BYTES = 512 * 1024
RESULTS = [r.value for r in GameResult]


def service(request: Request) -> TournamentService:
    services = services_of(request)
    clock: Callable[[], datetime] = getattr(request.app.state, "clock", utc_now)
    return TournamentService(services.store, services.rooms, services.accounts, clock)


async def _form(request: Request) -> dict[str, Any]:
    form = await request.form()
    data: dict[str, Any] = {}
    for key, value in form.multi_items():
        if isinstance(value, str):
            data[key] = value
        else:  # an uploaded file (the CSV import)
            raw = await value.read(MAX_CSV_BYTES + 1)
            data[key] = raw if len(raw) <= MAX_CSV_BYTES else None
    return data


def _flash(request: Request, error: str = "", problems: list[str] | None = None, notice: str = "") -> None:
    request.session["flash"] = {
        "error": error[:600],
        "problems": [p[:200] for p in (problems or [])[:MAX_PROBLEMS]],
        "notice": notice[:300],
    }


def _take_flash(request: Request) -> dict[str, Any]:
    flash = request.session.pop("flash", None)
    return flash if isinstance(flash, dict) else {"error": "", "problems": [], "notice": ""}


def _page(request: Request, name: str, status_code: int = 200, **context: Any) -> Response:
    return render(
        request,
        name,
        status_code=status_code,
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
        flash=_take_flash(request),
        system_names=system_names(),
        format_points=format_points,
        **context,
    )


def system_names() -> dict[str, str]:
    return {
        TournamentSystem.SWISS.value: _("Swiss (Dutch)"),
        TournamentSystem.ROUND_ROBIN.value: _("Round robin"),
        TournamentSystem.DOUBLE_ROUND_ROBIN.value: _("Double round robin"),
    }


def _not_found(request: Request) -> Response:
    return render(
        request, "not_found.html", status_code=404, arbiter=auth.signed_in(request), csrf=auth.csrf_token(request)
    )


def _back(tid: str, where: str = "") -> RedirectResponse:
    return RedirectResponse(f"/tournaments/{tid}{where}", status_code=303)


# --- reading ----------------------------------------------------------------------------------------------


async def tournament_list(request: Request) -> Response:
    found = await service(request).tournaments()
    items = [
        {"id": tid, "name": s.t.name, "system": s.t.system.value, "players": len(s.t.participants),
         "rounds": len(s.t.rounds), "planned": s.t.rounds_planned}
        for tid, s in found if s.tournament is not None
    ]  # fmt: skip
    return _page(request, "tournaments/list.html", tournaments=items)


async def _load(request: Request) -> tuple[str, TournamentState] | None:
    tid = request.path_params["tid"]
    try:
        return tid, await service(request).state(tid)
    except UnknownTournamentError:
        return None


def _names(state: TournamentState) -> dict[int, str]:
    return {p.number: p.name for p in state.t.participants}


async def overview(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None or loaded[1].tournament is None:
        return _not_found(request)
    tid, state = loaded
    t = state.t
    leaving = {lv.player: lv for lv in t.leavings}
    return _page(
        request,
        "tournaments/overview.html",
        tid=tid,
        state=state,
        t=t,
        leaving=leaving,
        csv_fields=", ".join(CSV_FIELDS),
        systems=[s.value for s in TournamentSystem],
        presets=timecontrols.preset_names(),
        entered=dict(t.entered_round),
    )


async def settings_page(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None or loaded[1].tournament is None:
        return _not_found(request)
    tid, state = loaded
    return _page(
        request,
        "tournaments/settings.html",
        tid=tid,
        t=state.t,
        state=state,
        systems=[s.value for s in TournamentSystem],
        presets=timecontrols.preset_names(),
        tiebreak_codes=[c.value for c in TieBreakCode],
    )


async def round_page(request: Request) -> Response:
    return await _round_response(request, {})


async def _round_response(request: Request, links: dict[int, dict[str, str]]) -> Response:
    loaded = await _load(request)
    if loaded is None or loaded[1].tournament is None:
        return _not_found(request)
    tid, state = loaded
    try:
        number = int(request.path_params["number"])
    except ValueError:
        return _not_found(request)
    if await service(request).collect_results(tid):
        state = await service(request).state(tid)
    draft = state.draft if state.draft is not None and state.draft.round == number else None
    if draft is None and not 1 <= number <= len(state.t.rounds):
        return _not_found(request)
    return _page(
        request,
        "tournaments/round.html",
        tid=tid,
        state=state,
        t=state.t,
        number=number,
        rnd=None if draft is not None else state.t.round(number),
        draft=draft,
        names=_names(state),
        results=RESULTS,
        links=links,
        presets=timecontrols.preset_names(),
        sources=state.result_sources,
    )


def _standings_context(state: TournamentState) -> dict[str, Any]:
    standings = state.standings()
    table = tables.crosstable(standings, state.t.name)
    return {"standings": standings, "table": table}


async def standings_page(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None or loaded[1].tournament is None:
        return _not_found(request)
    tid, state = loaded
    if await service(request).collect_results(tid):
        state = await service(request).state(tid)
    context = _standings_context(state)
    if request.query_params.get("print"):
        return Response(tables.to_html(context["table"]), media_type="text/html; charset=utf-8")
    return _page(request, "tournaments/standings.html", tid=tid, state=state, t=state.t, **context)


async def export(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None or loaded[1].tournament is None:
        return _not_found(request)
    tid, state = loaded
    t = state.t
    kind = request.path_params["format"]
    standings = state.standings()
    if kind == "trf":
        system = "ROUND_ROBIN" if t.system.is_round_robin else "FIDE_DUTCH_2025"
        trf = trf_from_standings(standings, t.name, t.rounds_planned, system)
        headers = {"Content-Disposition": f'attachment; filename="{tid}.trf"'}
        return PlainTextResponse(format_trf(trf, "\r\n"), headers=headers, media_type="text/plain; charset=utf-8")
    if kind == "trf26":
        system = "ROUND_ROBIN" if t.system.is_round_robin else "FIDE_DUTCH_2025"
        trf = to_trf2026(trf_from_standings(standings, t.name, t.rounds_planned, system))
        headers = {"Content-Disposition": f'attachment; filename="{tid}-trf2026.txt"'}
        return PlainTextResponse(format_trf(trf, "\r\n"), headers=headers, media_type="text/plain; charset=utf-8")
    if kind == "csv":
        headers = {"Content-Disposition": f'attachment; filename="{tid}.csv"'}
        body = tables.to_csv(tables.crosstable(standings, t.name))
        return Response(body, headers=headers, media_type="text/csv; charset=utf-8")
    return _not_found(request)


async def protests_page(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None or loaded[1].tournament is None:
        return _not_found(request)
    tid, state = loaded
    if await service(request).collect_results(tid):
        state = await service(request).state(tid)
    games = [
        (rnd.number, g.board, _names(state)[g.white], _names(state)[g.black])
        for rnd in state.t.rounds
        for g in rnd.games
        if g.result is not None
    ]
    return _page(
        request,
        "tournaments/protests.html",
        tid=tid,
        state=state,
        t=state.t,
        games=games,
        filers=sorted(state.t.protest_filers()),
        open_statuses={s.value for s in ProtestStatus if not s.closed},
        results=RESULTS,
        names=_names(state),
    )


async def audit_page(request: Request) -> Response:
    loaded = await _load(request)
    if loaded is None or loaded[1].tournament is None:
        return _not_found(request)
    tid, state = loaded
    return _page(request, "tournaments/audit.html", tid=tid, state=state, t=state.t, names=_names(state))


# --- changing ---------------------------------------------------------------------------------------------


@auth.arbiter_only
async def new_tournament(request: Request) -> Response:
    values: dict[str, Any] = {
        "name": "", "system": "swiss_dutch", "rounds": "7", "time_control": "rapid", "fee": "1000",
        "currency": "KZT", "tiebreaks": "", "venue": "", "start": "", "end": "",
    }  # fmt: skip
    error = ""
    if request.method == "POST":
        form = await _form(request)
        values.update({k: str(form.get(k, "")).strip() for k in values})
        if not auth.csrf_ok(request, form.get("csrf")):
            error = _("The form has expired; please try again.")
        else:
            data = {k: v for k, v in values.items() if v != "" or k in ("name", "rounds")}
            if values["system"] != "swiss_dutch" and not values["rounds"]:
                data["rounds"] = "0"
            try:
                tid = await service(request).create(auth.signed_in(request) or "arbiter", data)
            except Refused as refused:
                error = refusals.text_of(refused)
            else:
                return _back(tid)
    return render(
        request,
        "tournaments/new.html",
        values=values,
        error=error,
        systems=[s.value for s in TournamentSystem],
        presets=timecontrols.preset_names(),
        system_names=system_names(),
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
    )


def _pairs_text(text: str) -> list[list[int]]:
    """``12 7`` or ``12-7`` per line (White first) → pairs; refuses a line that is not two pairing numbers."""
    pairs = []
    for index, line in enumerate(text.splitlines(), start=1):
        cleaned = line.replace("-", " ").replace("–", " ").replace(",", " ").split()
        if not cleaned:
            continue
        if len(cleaned) != 2 or not all(x.isdigit() for x in cleaned):
            raise ValueError(_("Line %(line)s: write two pairing numbers, White first.") % {"line": index})
        pairs.append([int(cleaned[0]), int(cleaned[1])])
    return pairs


Converter = Callable[[dict[str, Any]], dict[str, Any]]


def _plain(*keys: str) -> Converter:
    def convert(form: dict[str, Any]) -> dict[str, Any]:
        return {k: form[k] for k in keys if k in form}

    return convert


def _configure(form: dict[str, Any]) -> dict[str, Any]:
    keys = ("name", "venue", "time_control", "start", "end", "tiebreaks", "fee", "currency", "chief_arbiter",
            "arbiters", "board", "committee", "expel_after", "max_half_byes", "late_entry_until",
            "last_half_bye_round", "initial_colour", "bye_points", "system", "rounds")  # fmt: skip
    return {k: form[k] for k in keys if k in form}


def _import(form: dict[str, Any]) -> dict[str, Any]:
    text = form.get("csv", "")
    upload = form.get("file", b"")
    if upload is None:
        raise ValueError(_("The CSV file is too large (at most 512 KiB)."))
    if isinstance(upload, bytes) and upload:
        try:
            text = upload.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(_("The CSV file must be UTF-8 text.")) from None
    return {"csv": text}


def _override(form: dict[str, Any]) -> dict[str, Any]:
    return {"pairs": _pairs_text(str(form.get("pairs", ""))), "bye": form.get("bye") or None,
            "reason": form.get("reason", "")}  # fmt: skip


def _result(form: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {k: form[k] for k in ("round", "board", "result", "reason") if k in form}
    white, black = str(form.get("kazan_white", "")).strip(), str(form.get("kazan_black", "")).strip()
    if white or black:
        if not (white.isdigit() and black.isdigit()):
            raise ValueError(_("Kazans are two whole numbers."))
        data["kazans"] = [int(white), int(black)]
    return data


def _decision(form: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {k: form[k] for k in ("id", "members", "reasons", "corrected_result") if k in form}
    data["upheld"] = form.get("upheld") == "yes"
    return data


def _fee(form: dict[str, Any]) -> dict[str, Any]:
    return {"id": form.get("id", ""), "amount": form.get("amount", "0"), "currency": form.get("currency", "")}


ACTIONS: dict[str, tuple[str, Converter, str]] = {
    # action: (command, form → data, where to go back)
    "configure": ("configure", _configure, "/settings"),
    "add-team": ("add_team", _plain("name", "representatives", "coaches"), ""),
    "add-participant": ("add_participant", _plain(*CSV_FIELDS), ""),
    "edit-participant": ("edit_participant", _plain("number", *CSV_FIELDS), ""),
    "import": ("import_participants", _import, ""),
    "seed": ("seed_by_rating", _plain(), ""),
    "withdraw": ("withdraw", _plain("number", "after_round", "reason"), ""),
    "expel": ("expel", _plain("number", "after_round", "reason"), ""),
    "bye": ("request_bye", _plain("number", "round", "code"), ""),
    "warn": ("warn", _plain("number", "round", "reason", "penalty"), "/audit"),
    "pair": ("pair_round", _plain(), "/rounds/{next}"),
    "override": ("override_pairing", _override, "/rounds/{draft}"),
    "discard": ("discard_pairing", _plain("reason"), ""),
    "publish": ("publish_round", _plain(), "/rounds/{draft}"),
    "result": ("enter_result", _result, "/rounds/{round}"),
    "file-protest": ("file_protest", _plain("round", "board", "filed_by", "role", "text", "fee_paid", "currency"),
                     "/protests"),
    "pay-fee": ("pay_protest_fee", _fee, "/protests"),
    "convene": ("convene_protest", _plain("id", "board", "committee"), "/protests"),
    "decide": ("decide_protest", _decision, "/protests"),
    "notify": ("notify_protest", _plain("id", "recipient"), "/protests"),
}  # fmt: skip


def _where(template: str, state: TournamentState, form: dict[str, Any]) -> str:
    draft = state.draft.round if state.draft is not None else len(state.t.rounds)
    return template.format(next=draft, draft=draft, round=form.get("round", draft))


@auth.arbiter_only
async def act(request: Request) -> Response:
    """``POST /tournaments/{tid}/do/{action}``: one arbiter action, then back to the page it belongs to."""
    tid, action = request.path_params["tid"], request.path_params["action"]
    if action not in ACTIONS:
        return _not_found(request)
    kind, convert, where = ACTIONS[action]
    form = await _form(request)
    back = str(form.get("back", "")) if str(form.get("back", "")).startswith("/tournaments/") else ""
    svc = service(request)
    try:
        state = await svc.state(tid)
    except UnknownTournamentError:
        return _not_found(request)
    if not auth.csrf_ok(request, form.get("csrf")):
        _flash(request, _("The form has expired; please try again."))
        return RedirectResponse(back or f"/tournaments/{tid}", status_code=303)
    by = auth.signed_in(request) or "arbiter"
    try:
        data = convert(form)
        if kind == "file_protest" and data.get("round") and data.get("board"):
            data.update(await svc.signed_times(tid, int(data["round"]), int(data["board"])))
        state = await svc.command(tid, kind, data, by)
    except Refused as refused:
        message = refusals.text_of(refused)
        problems: list[str] = []
        if kind == "import_participants":
            try:  # the same decision again, on the pure core, for the list of bad lines
                decide(state, kind, {**data, "at": utc_now().isoformat()}, by)
            except CsvImportError as error:
                problems = list(error.problems)
                message = _("The CSV was not imported; nothing changed. Fix these lines:")
            except ValueError:
                pass
        _flash(request, message, problems)
    except ValueError as error:
        _flash(request, str(error))
    else:
        _flash(request, notice=_("Done."))
        if state.draft is None and kind == "pair_round":
            where = ""
    return RedirectResponse(back or f"/tournaments/{tid}{_where(where, state, form)}", status_code=303)


@auth.arbiter_only
async def create_games(request: Request) -> Response:
    """Game rooms for the boards of a round; the players' links are shown once on the round page."""
    tid = request.path_params["tid"]
    form = await _form(request)
    try:
        number = int(request.path_params["number"])
    except ValueError:
        return _not_found(request)
    if not auth.csrf_ok(request, form.get("csrf")):
        _flash(request, _("The form has expired; please try again."))
        return _back(tid, f"/rounds/{number}")
    control = PRESETS.get(str(form.get("control", "")))
    try:
        state = await service(request).state(tid)
    except UnknownTournamentError:
        return _not_found(request)
    if control is None:
        preset = state.t.time_control or ""
        control = PRESETS.get(preset)
    if control is None:
        _flash(request, _("Choose a time control."))
        return _back(tid, f"/rounds/{number}")
    flag = "claim" if form.get("flag") == "claim" else "automatic"
    try:
        made = await service(request).create_game_rooms(
            tid, number, auth.signed_in(request) or "arbiter", control.to_dict(), {"flag_mode": flag}
        )
    except Refused as error:
        _flash(request, refusals.text_of(error))
    else:
        # The secret links are shown once, in this answer (not kept in the session cookie, which is small).
        base = str(request.base_url).rstrip("/")
        links = {
            board: {role: f"{base}/games/{room_id}?token={token}" for role, token in tokens.items()}
            for board, (room_id, tokens) in made.items()
        }
        _flash(request, notice=_("Game rooms created: %(count)s.") % {"count": len(made)})
        return await _round_response(request, links)
    return _back(tid, f"/rounds/{number}")


@auth.arbiter_only
async def collect(request: Request) -> Response:
    tid = request.path_params["tid"]
    form = await _form(request)
    if not auth.csrf_ok(request, form.get("csrf")):
        _flash(request, _("The form has expired; please try again."))
        return _back(tid)
    try:
        count = await service(request).collect_results(tid)
    except UnknownTournamentError:
        return _not_found(request)
    _flash(request, notice=_("Results collected from live games: %(count)s.") % {"count": count})
    back = str(form.get("back", ""))
    return RedirectResponse(back if back.startswith("/tournaments/") else f"/tournaments/{tid}", status_code=303)


@auth.arbiter_only
async def team_link(request: Request) -> Response:
    """A new secret protest link for a team's representatives and coaches, shown once (with a QR code)."""
    tid = request.path_params["tid"]
    form = await _form(request)
    if not auth.csrf_ok(request, form.get("csrf")):
        _flash(request, _("The form has expired; please try again."))
        return _back(tid)
    try:
        state = await service(request).state(tid)
        team = str(form.get("team", ""))
        token = await service(request).issue_team_link(tid, team)
    except UnknownTournamentError:
        return _not_found(request)
    except ValueError as error:
        _flash(request, str(error))
        return _back(tid)
    url = f"{str(request.base_url).rstrip('/')}/tournaments/{tid}/protest?token={token}"
    qr = segno.make(url, error="m").svg_inline(scale=4, dark="#1b1b1b", light="#ffffff")
    return _page(request, "tournaments/team_link.html", tid=tid, state=state, t=state.t, team=team, url=url, qr=qr)


async def team_protest(request: Request) -> Response:
    """The team's own page: its protests and their status, and the form to file one (TK-P1)."""
    tid = request.path_params["tid"]
    svc = service(request)
    form = await _form(request) if request.method == "POST" else {}
    token = str(form.get("token") or request.query_params.get("token", ""))
    try:
        team = await svc.team_of(tid, token)
        state = await svc.state(tid)
    except UnknownTournamentError:
        return _not_found(request)
    if team is None or state.tournament is None:
        return _not_found(request)
    if request.method == "POST":
        if not auth.csrf_ok(request, form.get("csrf")):
            _flash(request, _("The form has expired; please try again."))
        else:
            data: dict[str, Any] = {k: form[k] for k in ("round", "board", "filed_by", "role", "text") if k in form}
            try:
                if data.get("round") and data.get("board"):
                    data.update(await svc.signed_times(tid, int(data["round"]), int(data["board"])))
                await svc.command(tid, "file_protest", data, team, role=TEAM)
            except Refused as error:
                _flash(request, refusals.text_of(error))
            else:
                _flash(request, notice=_("The protest was received. Pay the fee to the chief arbiter."))
        return RedirectResponse(f"/tournaments/{tid}/protest?token={token}", status_code=303)
    await svc.collect_results(tid)
    state = await svc.state(tid)
    own = state.t.team(team)
    names = _names(state)
    games = [
        (rnd.number, g.board, names[g.white], names[g.black])
        for rnd in state.t.rounds
        for g in rnd.games
        if g.result is not None
    ]
    return _page(
        request,
        "tournaments/team_protest.html",
        tid=tid,
        state=state,
        t=state.t,
        team=own,
        token=token,
        games=games,
        protests=[p for p in state.protests if p.team == team],
    )


routes = [
    Route("/tournaments", tournament_list),
    Route("/tournaments/new", new_tournament, methods=["GET", "POST"]),
    Route("/tournaments/{tid}", overview),
    Route("/tournaments/{tid}/settings", settings_page),
    Route("/tournaments/{tid}/rounds/{number}", round_page),
    Route("/tournaments/{tid}/rounds/{number}/games", create_games, methods=["POST"]),
    Route("/tournaments/{tid}/standings", standings_page),
    Route("/tournaments/{tid}/export.{format}", export),
    Route("/tournaments/{tid}/protests", protests_page),
    Route("/tournaments/{tid}/audit", audit_page),
    Route("/tournaments/{tid}/collect", collect, methods=["POST"]),
    Route("/tournaments/{tid}/do/{action}", act, methods=["POST"]),
    Route("/tournaments/{tid}/team-link", team_link, methods=["POST"]),
    Route("/tournaments/{tid}/protest", team_protest, methods=["GET", "POST"]),
]
