"""The spectator and broadcast view of a round: every board at once, live (issue 5 §2).

``GET /tournaments/{tid}/rounds/{number}/live`` lists the boards of a published round. A board whose game room was
linked (``game_room_linked``) is drawn by ``static/js/broadcast.js`` from one spectator connection to that room;
a board without one shows its pairing and, once entered, its result. Anyone may read it, as a projector would.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toreshi.services.broadcast import evaluation_for_spectators
from toreshi.services.tournament import UnknownTournamentError
from toreshi.texts.i18n import gettext as _
from toreshi.togyz.match.game import MatchGame
from toreshi.tournament.journal.state import EvaluationPolicy
from toreshi.web.common import pagekit
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.services import services_of
from toreshi.web.rooms.api import owner_of
from toreshi.web.togyz.pages import client_strings
from toreshi.web.tournaments.pages import service


@dataclass(frozen=True)
class LiveBoard:
    """One board of the round as the page shows it before (or without) a live connection."""

    board: int
    white: str
    black: str
    result: str
    kazans: tuple[int, int] | None
    room: str | None


def broadcast_strings() -> dict[str, str]:
    """Texts the broadcast script shows, in the request's language (the game page's, and a few of its own)."""
    return {
        **client_strings(),
        "tuzdyk": _("tuzdyk"),
        "last_move": _("Last move"),
        "no_moves": _("No moves yet."),
        "postponed": _("Postponed"),
        "evaluation": _("Evaluation: White {percent}"),
        "evaluation_delayed": _("after move {move}, shown with a delay"),
    }


async def live_round(request: Request) -> Response:
    tid = request.path_params["tid"]
    svc = service(request)
    try:
        state = await svc.state(tid)
    except UnknownTournamentError:
        return not_found(request)
    number = pagekit.path_number(request, "number")
    if state.tournament is None or number is None or not 1 <= number <= len(state.t.rounds):
        return not_found(request)
    names = {p.number: p.name for p in state.t.participants}
    boards = [
        LiveBoard(
            board=game.board,
            white=f"{game.white}. {names[game.white]}",
            black=f"{game.black}. {names[game.black]}",
            result=game.result.value if game.result is not None else "",
            kazans=game.kazans,
            room=state.room_of(number, game.board),
        )
        for game in state.t.round(number).games
    ]
    return pagekit.plain(
        request,
        "tournaments/live.html",
        tid=tid,
        t=state.t,
        number=number,
        boards=boards,
        evaluation=state.evaluation,
        strings=broadcast_strings(),
    )


async def _shown(request: Request, room_id: str, policy: EvaluationPolicy | None) -> dict[str, object] | None:
    owner = await owner_of(request, room_id)
    game = getattr(owner.logic, "game", None) if owner is not None and owner.logic.kind == "togyz" else None
    if owner is None or not isinstance(game, MatchGame):
        return None
    shown = evaluation_for_spectators(services_of(request).engine, game.state, policy, owner.now_ms())
    return None if shown is None else shown.to_json()


async def round_evaluation(request: Request) -> Response:
    """``GET /tournaments/{tid}/rounds/{number}/evaluation.json``: the bar of each board, as spectators may see it
    now (``services.broadcast``: a live game's only after the arbiter's delay, nothing when switched off). A board
    the engine is still thinking about is missing: the page asks again."""
    try:
        state = await service(request).state(request.path_params["tid"])
        number = int(request.path_params["number"])
    except (UnknownTournamentError, ValueError):
        return JSONResponse({"status": "not_found"}, status_code=404)
    if state.tournament is None or not 1 <= number <= len(state.t.rounds):
        return JSONResponse({"status": "not_found"}, status_code=404)
    policy = state.evaluation
    boards: dict[str, object] = {}
    if policy.shown:
        for game in state.t.round(number).games:
            room = state.room_of(number, game.board)
            shown = await _shown(request, room, policy) if room is not None else None
            if shown is not None:
                boards[str(game.board)] = shown
    return JSONResponse({"shown": policy.shown, "delay_minutes": policy.delay_minutes, "boards": boards})


async def game_evaluation(request: Request) -> Response:
    """``GET /games/{room_id}/evaluation.json``: the replay's bar — a tournament game's by its event's setting, any
    other game's only once it is over."""
    room_id = request.path_params["room_id"]
    link = await service(request).link_of(room_id)
    policy = None
    if link is not None:
        policy = (await service(request).state(link.tournament)).evaluation
    shown = await _shown(request, room_id, policy)
    return JSONResponse({"evaluation": shown})


routes = [
    Route("/tournaments/{tid}/rounds/{number}/live", live_round),
    Route("/tournaments/{tid}/rounds/{number}/evaluation.json", round_evaluation),
    Route("/games/{room_id}/evaluation.json", game_evaluation),
]
