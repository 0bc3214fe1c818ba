"""The arbiter's answer to a player's call from the round page (``POST /tournaments/{tid}/rounds/{number}/calls``).

The round page lists the round's calls (:mod:`toreshi.services.board_calls`, read from the logs: nothing written);
the answer is the room's own ``acknowledge_call``, refused by the room as it would be from the game's console."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.services import board_calls
from toreshi.services.tournament import UnknownTournamentError
from toreshi.web.accounts import auth
from toreshi.web.common import pagekit
from toreshi.web.common.forms import Form, text
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.templates import competition_loader
from toreshi.web.tournaments.pages import CALL_ANSWERED, round_post, round_url, service

_load = competition_loader(lambda request, tid: service(request).state(tid), UnknownTournamentError)


@auth.arbiter_only
@round_post
async def acknowledge_call(request: Request, tid: str, number: int, form: Form) -> Response:
    """The arbiter answers a board's open call; back to the round page, which says so (or why not)."""
    loaded = await _load(request)
    if loaded is None:
        return not_found(request)
    state, back = loaded[1], round_url(tid, number)
    board_text, side = text(form, "board"), text(form, "side")
    if not (board_text.isascii() and board_text.isdigit()) or len(board_text) > 4:  # int("²") fails
        return pagekit.refused(request, Refusal(Common.BAD_REQUEST, {"field": "board"}), back)
    board = int(board_text)
    by = auth.signed_in(request) or "arbiter"
    try:
        found = await board_calls.acknowledge(service(request), state, number, board, side, by)
    except Refused as why:
        return pagekit.refused(request, why, back)
    if not found:  # no live game on that board, or no such side: nothing to answer
        field = "board" if side in board_calls.SIDES else "side"
        return pagekit.refused(request, Refusal(Common.BAD_REQUEST, {"field": field}), back)
    return pagekit.done(request, back, CALL_ANSWERED, board=board)


routes = [Route("/tournaments/{tid}/rounds/{number}/calls", acknowledge_call, methods=["POST"])]
