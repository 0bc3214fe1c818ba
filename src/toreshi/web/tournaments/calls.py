"""The arbiter's answer to a player's call from the round page (``POST /tournaments/{tid}/rounds/{number}/calls``).

The round page lists the round's calls (:mod:`toreshi.services.board_calls`, read from the logs: nothing written);
the answer is the room's own ``acknowledge_call``, refused by the room as it would be from the game's console."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.services import board_calls
from toreshi.services.tournament import UnknownTournamentError
from toreshi.web.accounts import auth
from toreshi.web.common.forms import read_form, text
from toreshi.web.common.templates import competition_loader, not_found
from toreshi.web.tournaments.pages import CALL_ANSWERED, _flash, service

_load = competition_loader(lambda request, tid: service(request).state(tid), UnknownTournamentError)


@auth.arbiter_only
async def acknowledge_call(request: Request) -> Response:
    """The arbiter answers a board's open call; back to the round page, which says so (or why not)."""
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    tid, state = loaded
    try:
        number = int(request.path_params["number"])
    except ValueError:
        return not_found(request)
    back = RedirectResponse(f"/tournaments/{tid}/rounds/{number}", status_code=303)
    form = await read_form(request)
    if not auth.csrf_ok(request, form.get("csrf")):
        request.session["flash"] = {"expired": True}
        return back
    board_text, side = text(form, "board"), text(form, "side")
    if not board_text.isdigit() or len(board_text) > 4:
        _flash(request, Refusal(Common.BAD_REQUEST, {"field": "board"}))
        return back
    board = int(board_text)
    by = auth.signed_in(request) or "arbiter"
    try:
        found = await board_calls.acknowledge(service(request), state, number, board, side, by)
    except Refused as why:
        _flash(request, why.refusal)
        return back
    if not found:  # no live game on that board, or no such side: nothing to answer
        _flash(request, Refusal(Common.BAD_REQUEST, {"field": "board" if side in board_calls.SIDES else "side"}))
        return back
    _flash(request, notice=CALL_ANSWERED, board=board)
    return back


routes = [Route("/tournaments/{tid}/rounds/{number}/calls", acknowledge_call, methods=["POST"])]
