"""The spectator and broadcast view of a round: every board at once, live (issue 5 §2).

``GET /tournaments/{tid}/rounds/{number}/live`` lists the boards of a published round. A board whose game room was
linked (``game_room_linked``) is drawn by ``static/js/broadcast.js`` from one spectator connection to that room;
a board without one shows its pairing and, once entered, its result. Anyone may read it, as a projector would.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toreshi.services.tournament import UnknownTournamentError
from toreshi.web import auth
from toreshi.web.i18n import gettext as _
from toreshi.web.pages import client_strings
from toreshi.web.templates import render
from toreshi.web.tournament_pages import service


@dataclass(frozen=True)
class LiveBoard:
    """One board of the round as the page shows it before (or without) a live connection."""

    board: int
    white: str
    black: str
    result: str
    kazans: tuple[int, int] | None
    room: str | None


def _not_found(request: Request) -> Response:
    return render(
        request, "not_found.html", status_code=404, arbiter=auth.signed_in(request), csrf=auth.csrf_token(request)
    )


def broadcast_strings() -> dict[str, str]:
    """Texts the broadcast script shows, in the request's language (the game page's, and a few of its own)."""
    return {
        **client_strings(),
        "tuzdyk": _("tuzdyk"),
        "last_move": _("Last move"),
        "no_moves": _("No moves yet."),
        "postponed": _("Postponed"),
        "term_kazan": _("82 or more kumalaks in the kazan"),
        "term_atsyz": _("No kumalak left to move (atsyz)"),
        "term_resignation": _("Resignation"),
        "term_time_forfeit": _("Flag fall"),
        "term_agreement": _("Draw by agreement"),
        "term_forfeit": _("Default: a player did not come"),
        "term_arbiter": _("Arbiter's decision"),
    }


async def live_round(request: Request) -> Response:
    tid = request.path_params["tid"]
    svc = service(request)
    try:
        state = await svc.state(tid)
    except UnknownTournamentError:
        return _not_found(request)
    try:
        number = int(request.path_params["number"])
    except ValueError:
        return _not_found(request)
    if state.tournament is None or not 1 <= number <= len(state.t.rounds):
        return _not_found(request)
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
    return render(
        request,
        "tournaments/live.html",
        arbiter=auth.signed_in(request),
        csrf=auth.csrf_token(request),
        tid=tid,
        t=state.t,
        number=number,
        boards=boards,
        strings=broadcast_strings(),
    )


routes = [Route("/tournaments/{tid}/rounds/{number}/live", live_round)]
