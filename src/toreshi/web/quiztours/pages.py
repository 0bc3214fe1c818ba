"""The club's «Своя игра» tours: the team register, a tour from registration to results, league table and ratings.

Pages parse forms and render; every change goes through :mod:`toreshi.services.quiz_tours` (the pure core
:mod:`toreshi.quiz.tour.core` decides it). A refusal is kept as its code for the next page, which words it in its
reader's language. GET pages never write: results reach a tour from its rooms' ends, and the host's "check the
results" button (a POST) pushes what a room could not.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.quiz.formats import read_pack
from toreshi.quiz.tour.core import (
    ChangeFormula,
    ChangeTeams,
    CloseStage,
    FileProtest,
    Formula,
    GameLink,
    RuleProtest,
    SeedStage,
    StageRule,
    TourState,
    game_outcome,
    stage_outcome,
)
from toreshi.quiz.tournament import Scoring
from toreshi.services.quiz_tours import QuizTourService, UnknownTourError
from toreshi.texts import i18n
from toreshi.texts.i18n import N_
from toreshi.texts.i18n import gettext as _
from toreshi.web.accounts import auth
from toreshi.web.common import forms, pagekit
from toreshi.web.common.services import services_of
from toreshi.web.common.spreadsheets import csv_response
from toreshi.web.common.templates import pages_of
from toreshi.web.quiz.pages import MAX_PACK_BYTES, pack_size_error, report_rows
from toreshi.web.quiztours import results
from toreshi.web.quiztours.results import KINDS, LOG_TYPES, METHODS, REASONS, points_text
from toreshi.web.rooms.api import owner_of

MAX_CSV_BYTES = 1024 * 1024

NOTICES = {
    key: pagekit.notice(msgid)
    for key, msgid in {
        "imported": N_("Teams imported: %(added)s new, %(updated)s updated."),
        "saved": N_("The team is saved."),
        "rooms": N_("Game rooms created: %(count)s."),
        "seeded": N_("The stage is seeded."),
        "formula": N_("The formula is changed."),
        "protest": N_("The protest is recorded. Results do not change (SI-6)."),
        "ruled": N_("The ruling is recorded."),
        "checked": N_("Results checked: %(count)s recorded."),
        "closed": N_("The stage is closed: its results are final (SI-6)."),
    }.items()
}
"""The notices of the tour's pages (msgids registered with the page kit), by the action that gives them."""


def _service(request: Request) -> QuizTourService:
    service = services_of(request).quiz_tours
    assert isinstance(service, QuizTourService)
    return service


# --- the register ----------------------------------------------------------------------------------------------


async def teams_page(request: Request) -> Response:
    service = _service(request)
    if request.method == "POST":
        if not auth.signed_in(request):
            return pagekit.redirect("/login?next=/quiz/teams")
        form = await pagekit.posted(request, "/quiz/teams", max_upload=MAX_CSV_BYTES, max_files=1, max_fields=20)
        if isinstance(form, Response):
            return form
        fields = forms.texts(form)
        upload = form.get("csv")
        if upload is None and "csv" in form:
            return pagekit.refused(request, Refusal(Common.FIELD_TOO_LONG, {"field": "csv", "maximum": MAX_CSV_BYTES}),
                                   "/quiz/teams")  # fmt: skip
        text = fields.get("csv_text", "")
        if isinstance(upload, bytes) and upload:
            text = upload.decode("utf-8-sig", errors="replace")
        if text:
            added, updated, _skipped = await service.teams.import_csv(text)
            return pagekit.done(request, "/quiz/teams", NOTICES["imported"], added=added, updated=updated)
        if fields.get("name"):
            players = [p for line in fields.get("players", "").splitlines() for p in line.split(";")]
            await service.teams.save(fields["name"], players, fields.get("contact", ""), "active" in fields)
            return pagekit.done(request, "/quiz/teams", NOTICES["saved"])
        return pagekit.redirect("/quiz/teams")
    teams = await service.teams.all()
    ratings, _history = await service.ratings()
    return pagekit.page(request, "quiztour/teams.html", points=points_text, teams=teams, ratings=dict(ratings.ratings))


async def team_page(request: Request) -> Response:
    service = _service(request)
    number = pagekit.path_number(request, "team_id")
    team = await service.teams.get(number) if number is not None else None
    if team is None:
        return pagekit.not_found(request)
    if request.method == "POST":
        if not auth.signed_in(request):
            return pagekit.redirect(f"/login?next=/quiz/teams/{team.id}")
        form = await pagekit.posted(request, f"/quiz/teams/{team.id}", max_files=0, max_fields=200)
        if isinstance(form, Response):
            return form
        fields = forms.texts(form)
        players = [p for line in fields.get("players", "").splitlines() for p in line.split(";")]
        await service.teams.save(team.name, players, fields.get("contact", ""), "active" in fields)
        return pagekit.done(request, f"/quiz/teams/{team.id}", NOTICES["saved"])
    record = await service.team_record(team.name)
    return pagekit.page(request, "quiztour/team.html", points=points_text, team=team, record=record, kinds=KINDS)


# --- tours ------------------------------------------------------------------------------------------------------


def formula_of(fields: dict[str, str]) -> Formula:
    """The formula from the form: 1–3 qualifying stages, their advancing numbers, scoring, the final."""

    def number(key: str, default: int) -> int:
        try:
            return max(0, min(64, int(fields.get(key, "") or default)))
        except ValueError:
            return default

    count = max(0, min(3, number("stages", 1)))
    rules = tuple(StageRule(number(f"advance{i}", 2), number(f"best{i}", 0)) for i in range(1, count + 1))
    scoring = Scoring.RAW_SCORE if fields.get("scoring") == "raw_score" else Scoring.BATTLE_POINTS
    return Formula(rules, scoring, final="final" in fields)


async def tours_page(request: Request) -> Response:
    tours = await _service(request).tours()
    return pagekit.page(request, "quiztour/tours.html", points=points_text, tours=tours)


@auth.arbiter_only
async def new_tour(request: Request) -> Response:
    service = _service(request)
    teams = await service.teams.all(active_only=True)
    values: dict[str, Any] = {"name": "", "date": "", "stages": "1", "advance1": "2", "best1": "0", "final": "on",
                              "scoring": "battle_points", "chosen": []}  # fmt: skip
    error = ""
    if request.method == "POST":
        error = pack_size_error(request)
        if not error:
            form = await request.form(max_files=5, max_fields=200)
            fields = {k: v.strip() for k, v in form.multi_items() if isinstance(v, str) and k != "team"}
            chosen = [v for k, v in form.multi_items() if k == "team" and isinstance(v, str)]
            values.update(fields)
            values["chosen"] = chosen
            packs = []
            for upload in form.getlist("pack"):
                if isinstance(upload, UploadFile) and upload.filename:
                    data = await upload.read(MAX_PACK_BYTES + 1)
                    stem = upload.filename.rsplit("/", 1)[-1].rsplit(".", 1)[0]
                    packs.append((stem, data))
            if not pagekit.fresh(request, fields):
                error = pagekit.expired_text()
            else:
                try:
                    for _stem, data in packs:
                        read_pack(data)
                    tour_id = await service.create(
                        auth.signed_in(request) or "host", fields.get("name", ""), fields.get("date", ""), chosen,
                        packs, formula_of(fields),
                    )  # fmt: skip
                except Refused as refused:
                    error = pagekit.refusal_text(refused)
                else:
                    return pagekit.redirect(f"/quiz/tours/{tour_id}")
    return pagekit.page(request, "quiztour/new.html", 400 if error else 200, points=points_text, teams=teams,
                        values=values, error=error)  # fmt: skip


async def _tour(request: Request) -> tuple[str, TourState] | None:
    tour_id = request.path_params["tour_id"]
    try:
        return tour_id, await _service(request).state(tour_id)
    except UnknownTourError:
        return None


_of_tour = pages_of(_tour)
"""A page of one tour: it gets the tour's id and state, or the visitor a 404."""


def _stages(state: TourState) -> list[dict[str, Any]]:
    shown = []
    for index, stage in enumerate(state.tour.stages):
        rows = stage.standings()
        shown.append(
            {
                "number": index + 1,
                "final": state.formula.is_final(index),
                "method": state.seeding[index] if index < len(state.seeding) else "",
                "games": [
                    {"number": g + 1, "teams": teams, "link": state.game_link(index, g)}
                    for g, teams in enumerate(stage.games)
                ],
                "shootouts": [x for x in state.links if x.stage == index and x.kind.value == "shootout"],
                "pending": [n.tie.teams for n in stage.pending_shootouts()],
                "rows": rows,
                "reasons": stage_outcome(state, index),
                "closed": index in state.closed or index < state.stage_index,
                "closable": index not in state.closed
                and index == state.stage_index
                and stage.complete
                and not stage.pending_shootouts()
                and all(x.scores is not None for x in state.links if x.stage == index),
            }
        )
    return shown


async def _reports(request: Request, state: TourState) -> dict[str, Any]:
    """The reports (SI-9) of the tour's game rooms, by room id (a room that cannot be read is left out)."""
    found: dict[str, Any] = {}
    for link in state.links:
        owner = await owner_of(request, link.room_id)
        if owner is not None and isinstance(owner.logic, QuizRoom):
            found[link.room_id] = owner.logic.report()
    return found


def _audience(state: TourState, reports: dict[str, Any]) -> list[tuple[GameLink, Any]]:
    """Warnings and removals in the tour's games (SI-4.5), read from their rooms' reports."""
    return [(link, entry) for link in state.links for entry in reports.get(link.room_id, {}).get("audience", [])]


@_of_tour
async def tour_page(request: Request, tour_id: str, state: TourState) -> Response:
    service = _service(request)
    places = state.tour.final_places() if state.finished else ()
    register = await service.teams.all(active_only=True)
    audience = _audience(state, await _reports(request, state))
    return pagekit.page(
        request, "quiztour/tour.html", points=points_text, tid=tour_id, state=state, stages=_stages(state),
        places=places, reasons=REASONS, kinds=KINDS, methods=METHODS, log_types=LOG_TYPES, register=register,
        audience=audience, print_view=request.query_params.get("print") == "1",
    )  # fmt: skip


async def tour_action(request: Request) -> Response:
    tour_id = request.path_params["tour_id"]
    target = f"/quiz/tours/{tour_id}"
    by = auth.signed_in(request)
    if by is None:
        return pagekit.redirect(f"/login?next={target}")
    form = await pagekit.posted(request, target, max_files=0, max_fields=200)
    if isinstance(form, Response):
        return form
    if await _tour(request) is None:
        return pagekit.not_found(request)
    fields = forms.texts(form)
    service = _service(request)
    action = request.path_params["action"]
    try:
        if action == "formula":
            await service.command(tour_id, ChangeFormula(formula_of(fields)), by)
            pagekit.keep(request, notice=NOTICES["formula"])
        elif action == "teams":
            chosen = tuple(await forms.repeated(request, "team"))
            await service.command(tour_id, ChangeTeams(chosen), by)
            pagekit.keep(request, notice=NOTICES["saved"])
        elif action == "seed":
            method = fields.get("method", "rating")
            order = tuple(await service.rating_order()) if method == "rating" else ()
            games: tuple[tuple[str, ...], ...] = ()
            if method == "hand":
                games = tuple(
                    tuple(t.strip() for t in line.split(",") if t.strip())
                    for line in fields.get("games", "").splitlines()
                    if line.strip()
                )
            await service.command(tour_id, SeedStage(method, order, games), by)
            pagekit.keep(request, notice=NOTICES["seeded"])
        elif action == "rooms":
            made = await service.create_rooms(tour_id, by)
            for links in made:
                request.session[f"quiz:{links.room_id}"] = links.to_session()
            pagekit.keep(request, notice=NOTICES["rooms"], count=len(made))
        elif action == "reconcile":
            count = await service.reconcile(tour_id)
            pagekit.keep(request, notice=NOTICES["checked"], count=count)
        elif action == "close":
            stage = payload.int_from_text(fields.get("stage") or "0", "stage", minimum=1, maximum=11)
            await service.command(tour_id, CloseStage(stage - 1), by)
            pagekit.keep(request, notice=NOTICES["closed"])
        elif action == "protest":
            await service.command(tour_id, FileProtest(fields.get("room", ""), fields.get("team", ""),
                                                       fields.get("text", "")), by)  # fmt: skip
            pagekit.keep(request, notice=NOTICES["protest"])
        elif action == "rule":
            number = payload.int_from_text(fields.get("number") or "0", "id")  # a bad one names the protest
            await service.command(tour_id, RuleProtest(number, fields.get("ruling", ""), fields.get("note", "")), by)
            pagekit.keep(request, notice=NOTICES["ruled"])
    except Refused as refused:
        return pagekit.refused(request, refused, target)
    except ValueError:
        return pagekit.refused(request, Refusal(Common.BAD_REQUEST), target)
    return pagekit.redirect(target)


@auth.arbiter_only
@_of_tour
async def tour_bundle(request: Request, tour_id: str, state: TourState) -> Response:
    """``GET /quiz/tours/{tour_id}/export.zip``: the tour's results bundle (:mod:`.results`) in the reader's
    language, for the tour's host (signed in): its log and the games' full protocols are in it."""
    reports = await _reports(request, state)
    protocols = {room: report_rows(report) for room, report in reports.items()}
    data = results.bundle(state, tour_id, i18n.current_language(), protocols, _audience(state, reports))
    headers = {"Content-Disposition": f'attachment; filename="{tour_id}-results.zip"'}
    return Response(data, media_type="application/zip", headers=headers)


@_of_tour
async def tour_standings_csv(request: Request, tour_id: str, state: TourState) -> Response:
    rows: list[list[object]] = [["stage", "place", "team", "points", "score", "game", "place_in_game", "outcome"]]
    for stage in _stages(state):
        for place, row in enumerate(stage["rows"], start=1):
            rows.append([stage["number"], place, row.team, points_text(row.points), row.raw, row.game + 1,
                         row.place_in_game, stage["reasons"].get(row.team, "")])  # fmt: skip
    if state.finished:
        start = 1
        for group in state.tour.final_places():
            for team in group:
                rows.append(["tour", start, team, "", "", "", "", ""])
            start += len(group)
    return csv_response(rows, f"{tour_id}-standings.csv")


async def league_page(request: Request) -> Response:
    service = _service(request)
    table, done = await service.league()
    ratings, history = await service.ratings()
    rows = table.rows()
    if request.path_params.get("fmt") == "csv":
        return csv_response(
            [["place", "team", "points", "tours", "best_place", "rating"]]
            + [[i, r.team, points_text(r.points), r.tours, r.best_place, f"{ratings.get(r.team).ordinal:.2f}"]
               for i, r in enumerate(rows, start=1)],
            "league.csv",
        )  # fmt: skip
    teams = {t.name: t.id for t in await service.teams.all()}
    return pagekit.page(request, "quiztour/league.html", points=points_text, rows=rows, tours=done, ratings=ratings,
                        history=history, team_ids=teams,
                        print_view=request.query_params.get("print") == "1")  # fmt: skip


async def ratings_csv(request: Request) -> Response:
    _ratings, history = await _service(request).ratings()
    rows: list[list[object]] = [["team", "tour", "date", "mu", "sigma", "rating"]]
    for team, points in sorted(history.items()):
        rows.extend([team, p.name, p.date, f"{p.rating.mu:.3f}", f"{p.rating.sigma:.3f}", f"{p.rating.ordinal:.2f}"]
                    for p in points)  # fmt: skip
    return csv_response(rows, "ratings.csv")


GAME_OUTCOMES = {
    "advances": N_("advances"),
    "out": N_("does not advance"),
    "shootout": N_("plays a shootout (SI-2.2)"),
    "waiting": N_("waits for the other games"),
}


async def game_tour_json(request: Request) -> Response:
    """``GET /api/quiz/{room_id}/tour``: what a finished game means in its tour (who advances), for the projector.

    ---
    summary: A quiz game's place in its tour
    operationId: getQuizGameTour
    tags: [quiz]
    parameters:
      - {name: room_id, in: path, required: true, schema: {type: string, maxLength: 64}}
    responses:
      "200":
        description: The tour (null when the game is not a tour's) and, per team, what the result means
        content: {application/json: {schema: {type: object}}}
    """
    service = _service(request)
    room_id = request.path_params["room_id"]
    tour_id = await service.tour_of(room_id)
    if tour_id is None:
        return JSONResponse({"tour": None, "teams": {}})
    state = await service.state(tour_id)
    outcome = game_outcome(state, room_id)
    return JSONResponse(
        {
            "tour": tour_id,
            "name": state.name,
            "teams": {team: {"code": code, "text": _(GAME_OUTCOMES[code])} for team, code in outcome.items()},
        }
    )


routes = [
    Route("/api/quiz/{room_id}/tour", game_tour_json),
    Route("/quiz/teams", teams_page, methods=["GET", "POST"]),
    Route("/quiz/teams/{team_id}", team_page, methods=["GET", "POST"]),
    Route("/quiz/tours", tours_page),
    Route("/quiz/tours/new", new_tour, methods=["GET", "POST"]),
    Route("/quiz/tours/{tour_id}", tour_page),
    Route("/quiz/tours/{tour_id}/standings.csv", tour_standings_csv),
    Route("/quiz/tours/{tour_id}/export.zip", tour_bundle),
    Route("/quiz/tours/{tour_id}/{action}", tour_action, methods=["POST"]),
    Route("/quiz/league", league_page),
    Route("/quiz/league.{fmt}", league_page),
    Route("/quiz/ratings.csv", ratings_csv),
]
