"""Team competition pages: the list and the new-competition form, teams with their board order and reserves
(a form or a CSV list), rounds (pair, line-ups, one form per match with every board's result), standings, the
team crosstable and the board tables (on screen, in print), and CSV and TRF exports.

Reading never writes. Every change is an arbiter's form post (CSRF-checked) read into one typed command of
:mod:`toreshi.tournament.journal.teams` and handed to :class:`~toreshi.services.teams.TeamService`; a refused
command changes nothing and the page comes back with the reason in its reader's language.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refused
from toreshi.services.teams import TeamService, UnknownTeamTournamentError
from toreshi.texts import i18n
from toreshi.tournament.journal.teams import (
    CreateTeams,
    EnterMatch,
    FileTeamProtest,
    ImportTeams,
    PairTeamRound,
    RegisterTeam,
    SetLineup,
    SetTeamRepresentatives,
    TeamCommand,
    TeamJournalState,
)
from toreshi.tournament.model import GameResult
from toreshi.tournament.teams.boards import board_prizes, board_records, minimum_games, player_records
from toreshi.tournament.teams.model import PrimaryScore, TeamSystem, TeamTournament, first_team_white
from toreshi.tournament.teams.tables import board_rows, crosstable, crosstable_rows, standings_rows
from toreshi.tournament.teams.trf import team_trf
from toreshi.tournament.tiebreak_rules import TieBreakRules
from toreshi.web.accounts import auth
from toreshi.web.common import pagekit
from toreshi.web.common.forms import Form, optional_int
from toreshi.web.common.forms import text as _text
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.services import services_of
from toreshi.web.common.spreadsheets import csv_response
from toreshi.web.common.templates import competition_loader, pages_of
from toreshi.web.teams import results
from toreshi.web.tournaments import texts

MAX_CSV_BYTES = 256 * 1024
RESULTS = [r.value for r in GameResult]


def service(request: Request) -> TeamService:
    s = services_of(request)
    return TeamService(s.store, s.rooms)


def _int(form: Form, key: str, default: int = 0) -> int:
    value = optional_int(form, key)
    return default if value is None else value


def _lines(form: Form, key: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in _text(form, key).replace(",", "\n").splitlines() if part.strip())


def _create(form: Form) -> CreateTeams:
    system = payload.read_choice({"system": _text(form, "system") or "swiss"}, "system", TeamSystem)
    primary = payload.read_choice({"primary": _text(form, "primary") or "MP"}, "primary", PrimaryScore)
    tiebreaks = tuple(x.strip() for x in _text(form, "tiebreaks").split(",") if x.strip())
    name = payload.check_name(_text(form, "name"), "name", max_length=120)
    rules_text = _text(form, "tiebreak_rules")
    rules = payload.read_choice({"tiebreak_rules": rules_text}, "tiebreak_rules", TieBreakRules) if rules_text else None
    return CreateTeams(name=name, system=system, boards=_int(form, "boards", 4), rounds=_int(form, "rounds", 0),
                       primary=primary, match_win=_int(form, "match_win", 2), match_draw=_int(form, "match_draw", 1),
                       match_loss=_int(form, "match_loss", 0), tiebreaks=tiebreaks,
                       board_prize_min_games=_int(form, "board_prize_min_games", 0),
                       start=_text(form, "start")[:10], tiebreak_rules=rules)  # fmt: skip


def _register(form: Form) -> TeamCommand:
    players: list[str] = []
    ratings: list[int] = []
    for line in _text(form, "players").splitlines():
        if not line.strip():
            continue
        name, _sep, rating = line.rpartition(";") if ";" in line else (line, "", "")
        players.append(payload.check_name(name.strip(), "players", max_length=80))
        ratings.append(
            payload.int_from_text(rating.strip(), "rating", minimum=0, maximum=4000) if rating.strip() else 0
        )
    name = payload.check_name(_text(form, "name"), "name", max_length=80)
    reps = tuple(payload.check_name(r, "representatives", max_length=80) for r in _lines(form, "representatives"))
    return RegisterTeam(name=name, players=tuple(players), ratings=tuple(ratings), representatives=reps)


def _import(form: Form) -> TeamCommand:
    raw = form.get("file")
    if raw is None and "file" in form:
        raise Refused(Common.FIELD_TOO_LONG, field="file", maximum=MAX_CSV_BYTES)
    text = raw.decode("utf-8-sig", errors="replace") if isinstance(raw, bytes) and raw else _text(form, "text")
    if not text:
        raise Refused(Common.FIELD_REQUIRED, field="text")
    return ImportTeams(text=text)


def _lineup(form: Form) -> TeamCommand:
    places = tuple(
        payload.int_from_text(p, "places", minimum=1, maximum=18)
        for p in _text(form, "places").replace(",", " ").split()
    )
    return SetLineup(round=_int(form, "round"), team=_int(form, "team"), places=places)


def _enter(form: Form) -> TeamCommand:
    boards = _int(form, "boards")
    results = tuple(
        payload.read_choice({"result": _text(form, f"b{b}")}, "result", GameResult) for b in range(1, boards + 1)
    )
    return EnterMatch(
        round=_int(form, "round"), match=_int(form, "match"), results=results, reason=_text(form, "reason")
    )


def _protest(form: Form) -> TeamCommand:
    by_arbiter = _text(form, "by_arbiter") == "yes"
    # Filed by the arbiter: the journal records the signed-in arbiter as the filer, whatever the field says.
    filed_by = _text(form, "filed_by") or ("arbiter" if by_arbiter else "")
    return FileTeamProtest(round=_int(form, "round"), match=_int(form, "match"), board=_int(form, "board"),
                           team=_int(form, "team"), filed_by=payload.check_name(filed_by, "filed_by"),
                           text=_text(form, "text"), fee_paid=_int(form, "fee_paid"),
                           by_arbiter=by_arbiter)  # fmt: skip


def _representatives(form: Form) -> TeamCommand:
    reps = tuple(payload.check_name(r, "representatives", max_length=80) for r in _lines(form, "representatives"))
    return SetTeamRepresentatives(team=_int(form, "team"), representatives=reps)


ACTIONS: dict[str, Callable[[Form], TeamCommand]] = {
    "representatives": _representatives,
    "protest": _protest,
    "register": _register,
    "import": _import,
    "pair": lambda form: PairTeamRound(),
    "lineup": _lineup,
    "enter": _enter,
}


_load = competition_loader(lambda request, tid: service(request).state(tid), UnknownTeamTournamentError)


_reading = pages_of(_load)
"""A page of one team tournament: it gets its id and state, or the visitor a 404."""


async def team_list(request: Request) -> Response:
    items = []
    for tid, state in await service(request).tournaments():
        if state.tournament is not None:
            items.append({"id": tid, "t": state.tournament})
    return pagekit.page(request, "tournaments/teams/list.html", items=items, values={"boards": "4", "rounds": "5"},
                        format_points=texts.points)  # fmt: skip


@auth.arbiter_only
async def new_team_tournament(request: Request) -> Response:
    form = await pagekit.posted(request, "/teams", max_upload=MAX_CSV_BYTES)
    if isinstance(form, Response):
        return form
    try:
        tid = await service(request).create(auth.signed_in(request) or "arbiter", _create(form))
    except Refused as refused:
        return pagekit.refused(request, refused, "/teams")
    return pagekit.redirect(f"/teams/{tid}")


@_reading
async def overview(request: Request, tid: str, state: TeamJournalState) -> Response:
    t = state.t
    can_pair = len(t.rounds) < max(t.rounds_planned, 1) and (not t.rounds or t.rounds[-1].finished)
    return pagekit.page(request, "tournaments/teams/overview.html", tid=tid, t=t, results=RESULTS,
                        first_white=first_team_white, can_register=not t.rounds, can_pair=can_pair,
                        protests=state.protests, statuses=texts.status_names(),
                        format_points=texts.points)  # fmt: skip


@_reading
async def standings_page(request: Request, tid: str, state: TeamJournalState) -> Response:
    t = state.t
    standings, cross = crosstable(t)
    return pagekit.page(request, "tournaments/teams/standings.html", tid=tid, t=t, standings=standings, cross=cross,
                        boards=board_records(t), prizes=board_prizes(t), least=minimum_games(t),
                        players=player_records(t), printing=request.query_params.get("print") == "1",
                        format_points=texts.points)  # fmt: skip


@_reading
async def audit_page(request: Request, tid: str, state: TeamJournalState) -> Response:
    lines = results.audit_lines(state, signed_in=auth.signed_in(request) is not None)
    return pagekit.page(request, "tournaments/teams/audit.html", tid=tid, t=state.t, state=state, lines=lines,
                        format_points=texts.points)  # fmt: skip


@auth.arbiter_only
async def results_bundle(request: Request) -> Response:
    """``GET /teams/{tid}/export.zip``: the results bundle (:mod:`.results`) in the reader's language, for the
    arbiter (its audit log is the full one, corrections and their reasons)."""
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    tid, state = loaded
    language = i18n.current_language()
    data = results.bundle(state, tid, language, results.audit_lines(state))
    headers = {"Content-Disposition": f'attachment; filename="{tid}-results.zip"'}
    return Response(data, media_type="application/zip", headers=headers)


CSV_EXPORTS: dict[str, Callable[[TeamTournament], list[list[str]]]] = {
    "standings.csv": standings_rows,
    "crosstable.csv": crosstable_rows,
    "boards.csv": board_rows,
}
"""The tables as CSV (the app's one writer, :func:`toreshi.web.common.spreadsheets.csv_response`), named as served."""

TRF_EXPORTS: dict[str, tuple[Callable[[TeamTournament], str], str]] = {
    "trf": (team_trf, "teams.trf"),
    "trf16": (lambda t: team_trf(t, team_record="013"), "teams-trf16.trf"),
}


async def export(request: Request) -> Response:
    loaded = await _load(request)
    what = request.path_params["what"]
    if loaded is None or what not in CSV_EXPORTS.keys() | TRF_EXPORTS.keys():
        return not_found(request)
    t = loaded[1].t
    if what in CSV_EXPORTS:
        return csv_response(CSV_EXPORTS[what](t), what)
    make, filename = TRF_EXPORTS[what]
    return PlainTextResponse(make(t), media_type="text/plain; charset=utf-8",
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})  # fmt: skip


@auth.arbiter_only
async def act(request: Request) -> Response:
    tid, action = request.path_params["tid"], request.path_params["action"]
    if action not in ACTIONS:
        return not_found(request)
    back = f"/teams/{tid}"
    form = await pagekit.posted(request, back, max_upload=MAX_CSV_BYTES)
    if isinstance(form, Response):
        return form
    back += f"#round-{_text(form, 'round')}" if _text(form, "round") else ""
    try:
        await service(request).command(tid, ACTIONS[action](form), auth.signed_in(request) or "arbiter")
    except UnknownTeamTournamentError:
        return not_found(request)
    except Refused as refused:
        return pagekit.refused(request, refused, back)
    return pagekit.done(request, back)


routes = [
    Route("/teams", team_list),
    Route("/teams/new", new_team_tournament, methods=["POST"]),
    Route("/teams/{tid}", overview),
    Route("/teams/{tid}/standings", standings_page),
    Route("/teams/{tid}/audit", audit_page),
    Route("/teams/{tid}/export.zip", results_bundle),
    Route("/teams/{tid}/export/{what}", export),
    Route("/teams/{tid}/do/{action}", act, methods=["POST"]),
]
