"""Broadcast overlays (issue 29): fixed URLs a streamer puts into OBS or vMix as browser sources, 1920×1080 with a
transparent background and no page chrome.

* ``/tournaments/{tid}/overlay/board/{n}`` — board ``n`` of the *current* round (the last published one), so the
  URL stays the same between rounds. The page asks ``…/board/{n}.json`` which game room that is now and follows it
  as a spectator (``static/js/overlay-board.js``, drawing with ``togyz-board.js`` like the round broadcast). A
  spectator's room state holds no sealed move before the envelope is opened (``live/rooms/togyz.py``); the overlay
  draws no evaluation bar at all.
* ``/tournaments/{tid}/overlay/standings`` — the standings as a ticker, refreshed from ``standings.json``.
* ``/quiz/{room_id}/overlay`` — the quiz scoreboard: teams, scores, lamps, the current theme and price. It always
  connects as a spectator (a token in its URL is ignored), whose view never holds an answer before it is revealed
  (``live/rooms/quiz/views.py``), and it shows no answer at all.
* ``/tournaments/{tid}/overlays`` — the page that lists these URLs for the arbiter.

Everything here only reads.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toreshi.live.rooms.quiz import KIND as QUIZ
from toreshi.services.tournament import UnknownTournamentError
from toreshi.texts.i18n import gettext as _
from toreshi.tournament.journal.state import TournamentState
from toreshi.web.common import pagekit
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.templates import embed_json
from toreshi.web.quiz.pages import client_strings as quiz_strings
from toreshi.web.rooms.api import owner_of
from toreshi.web.tournaments.broadcast import broadcast_strings
from toreshi.web.tournaments.pages import service

NOT_FOUND = {"status": "not_found"}


async def _state(request: Request) -> TournamentState | None:
    try:
        state = await service(request).state(request.path_params["tid"])
    except UnknownTournamentError:
        return None
    return state if state.tournament is not None else None


def _board_number(request: Request) -> int | None:
    text = request.path_params["number"]
    return int(text) if text.isdigit() and 1 <= int(text) <= 999 else None


def board_now(state: TournamentState, board: int) -> dict[str, object]:
    """Board ``board`` of the current round as the overlay follows it: the round, the live room (or ``None``), the
    players and the result once entered. Before the first round (or past the last board) nothing but the round."""
    number = len(state.t.rounds)
    names = {p.number: p.name for p in state.t.participants}
    found: dict[str, object] = {"round": number, "board": board, "room": None}
    if number == 0:
        return found
    for game in state.t.round(number).games:
        if game.board == board:
            found.update(
                room=state.room_of(number, board),
                white=f"{game.white}. {names[game.white]}",
                black=f"{game.black}. {names[game.black]}",
                result=game.result.value if game.result is not None else "",
            )
    return found


async def board_overlay(request: Request) -> Response:
    state = await _state(request)
    board = _board_number(request)
    if state is None or board is None:
        return not_found(request)
    tid = request.path_params["tid"]
    strings = {**broadcast_strings(), "round": _("Round %(n)s") % {"n": "{n}"}, "waiting": _("No live game")}
    return pagekit.plain(
        request,
        "overlays/board.html",
        source=f"/tournaments/{tid}/overlay/board/{board}.json",
        board=board,
        strings=embed_json(strings),
    )


async def board_overlay_json(request: Request) -> Response:
    state = await _state(request)
    board = _board_number(request)
    if state is None or board is None:
        return JSONResponse(NOT_FOUND, status_code=404)
    return JSONResponse(board_now(state, board))


def standings_now(state: TournamentState) -> dict[str, object]:
    rows = [
        {"rank": row.rank, "name": row.player.name, "points": _points(row.points.numerator, row.points.denominator)}
        for row in state.standings().rows
    ]
    return {"name": state.t.name, "round": len(state.t.rounds), "rows": rows}


def _points(numerator: int, denominator: int) -> str:
    """Points as a scoreboard prints them: 3, 2½, ½."""
    whole, rest = divmod(numerator, denominator)
    if rest == 0:
        return str(whole)
    half = "½" if 2 * rest == denominator else f"{rest}/{denominator}"
    return f"{whole}{half}" if whole else half


async def standings_overlay(request: Request) -> Response:
    state = await _state(request)
    if state is None:
        return not_found(request)
    tid = request.path_params["tid"]
    return pagekit.plain(
        request,
        "overlays/standings.html",
        source=f"/tournaments/{tid}/overlay/standings.json",
        standings=standings_now(state),
    )


async def standings_overlay_json(request: Request) -> Response:
    state = await _state(request)
    if state is None:
        return JSONResponse(NOT_FOUND, status_code=404)
    return JSONResponse(standings_now(state))


async def quiz_overlay(request: Request) -> Response:
    owner = await owner_of(request, request.path_params["room_id"])
    if owner is None or owner.logic.kind != QUIZ:
        return not_found(request)
    room_id = request.path_params["room_id"]
    # A spectator whatever the URL carries: a host's or a team's token pasted here must not put their view on air.
    config = {"room": room_id, "token": "", "screen": "overlay", "role": "spectator", "name": "",
              "strings": quiz_strings()}  # fmt: skip
    return pagekit.plain(request, "overlays/quiz.html", config=embed_json(config))


async def overlay_list(request: Request) -> Response:
    state = await _state(request)
    if state is None:
        return not_found(request)
    tid = request.path_params["tid"]
    base = str(request.base_url).rstrip("/")
    number = len(state.t.rounds)
    boards = len(state.t.round(number).games) if number else (len(state.t.participants) + 1) // 2
    return pagekit.plain(
        request,
        "overlays/list.html",
        tid=tid,
        t=state.t,
        boards=[f"{base}/tournaments/{tid}/overlay/board/{n}" for n in range(1, max(boards, 1) + 1)],
        standings=f"{base}/tournaments/{tid}/overlay/standings",
        quiz_example=f"{base}/quiz/q-…/overlay",
    )


routes = [
    Route("/tournaments/{tid}/overlays", overlay_list),
    # The JSON first: "{number}" alone would take "3.json" too.
    Route("/tournaments/{tid}/overlay/board/{number}.json", board_overlay_json),
    Route("/tournaments/{tid}/overlay/board/{number}", board_overlay),
    Route("/tournaments/{tid}/overlay/standings", standings_overlay),
    Route("/tournaments/{tid}/overlay/standings.json", standings_overlay_json),
    Route("/quiz/{room_id}/overlay", quiz_overlay),
]
