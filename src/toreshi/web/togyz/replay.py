"""A finished (or running) togyz game move by move: ``GET /games/{room_id}/replay``, open to anyone.

The server replays the game's holes on a fresh :class:`~toreshi.togyz.position.Position` and hands the page one
frame per ply (the start included) with its FEN; ``static/js/togyz-replay.js`` only draws the frame chosen. The
counter counts moves, as a score sheet numbers them (a move is White's ply and Black's reply), the move list keeps
the ``=`` of a draw offer, and the page says how and why the game ended.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from toreshi.live.rooms.togyz import side_name
from toreshi.services.engine import review_payload
from toreshi.texts.i18n import gettext as _
from toreshi.togyz.fen import to_fen
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.state import GameState, GameStatus
from toreshi.togyz.position import BLACK, WHITE, Position
from toreshi.web.common import pagekit
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.services import services_of
from toreshi.web.rooms.api import owner_of
from toreshi.web.togyz.texts import RESULT_SYMBOLS, ending_text, result_headline, status_label


def _frame(
    position: Position, ply: int, side: str | None, hole: int | None, token: str | None, offer: bool = False
) -> dict[str, Any]:
    return {
        "ply": ply,
        "move": (ply + 1) // 2,
        "side": side,
        "hole": hole,
        "token": token,
        "draw_offer": offer,
        "fen": to_fen(position),
        "turn": side_name(position.turn),
        "board": {"white": list(position.holes(WHITE)), "black": list(position.holes(BLACK))},
        "kazans": {"white": position.kazans[WHITE], "black": position.kazans[BLACK]},
        "tuzdyks": {"white": position.tuzdyk(WHITE), "black": position.tuzdyk(BLACK)},
    }


def replay_frames(state: GameState) -> list[dict[str, Any]]:
    """The start position, then the position after each ply with the ply's mover, hole and token (the app's replay
    page and the results site's game pages step through the same frames)."""
    position = Position()
    frames = [_frame(position, 0, None, None, None)]
    for number, ply in enumerate(state.plies, start=1):
        position.play(ply.hole)
        frames.append(_frame(position, number, side_name(ply.side), ply.hole, ply.token, ply.draw_offered))
    return frames


async def replay_page(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    owner = await owner_of(request, room_id)
    game = getattr(owner.logic, "game", None) if owner is not None and owner.logic.kind == "togyz" else None
    if not isinstance(game, MatchGame):
        return not_found(request)
    state = game.state
    ending = state.ending
    reviewable = state.status is GameStatus.FINISHED and bool(state.plies)
    strings = {
        **review_strings(),
        "white": _("White"),
        "black": _("Black"),
        "kazan": _("kazan"),
        "tuzdyk": _("tuzdyk"),
        "start": _("Starting position"),
        "ply": _("Move {number} of {total}"),
        "copied": _("Copied"),
    }
    return pagekit.plain(
        request,
        "togyz/replay.html",
        room_id=room_id,
        names={"white": state.white, "black": state.black},
        result=RESULT_SYMBOLS[ending.result] if ending else None,
        headline=result_headline(state),
        ending=ending_text(state),
        status=status_label(state.status),
        moves=(len(state.plies) + 1) // 2,
        frames=replay_frames(state),
        reviewable=reviewable,
        strings=strings,
    )


def review_strings() -> dict[str, str]:
    """The review panel's texts, in the request's language."""
    return {
        "analysing": _("The engine is analysing the game… {done} of {total} positions"),
        "review_failed": _("The engine could not analyse this game."),
        "worst_none": _("The engine found no mistakes worth showing."),
        "worst_move": _("Move {number}, {side}: {token}"),
        "better": _("Better: {best}"),
        "line": _("Line: {line}"),
        "loss": _("gave away {percent} of the expected score"),
        "curve_label": _("White's chances after each move (up: White stands better)"),
        "depth": _("Depth {depth}"),
        "evaluation": _("Evaluation: White {percent}"),
        "evaluation_delayed": _("after move {move}, shown with a delay"),
    }


async def review_json(request: Request) -> Response:
    """``GET /games/{room_id}/review.json``: the engine's review of a finished game, or how far it has got.

    The first request starts the review in the engine's worker process; later ones read its progress and then
    its result (kept in memory: derived data, never written to the game's log). A game not finished has none:
    a review during play would be an engine's help to the players."""
    room_id = request.path_params["room_id"]
    owner = await owner_of(request, room_id)
    game = getattr(owner.logic, "game", None) if owner is not None and owner.logic.kind == "togyz" else None
    if not isinstance(game, MatchGame):
        return JSONResponse({"status": "not_found"}, status_code=404)
    state = game.state
    if state.status is not GameStatus.FINISHED or not state.plies:
        return JSONResponse({"status": "unavailable"})
    engine = services_of(request).engine
    moves = [ply.hole for ply in state.plies]
    job = engine.review_of(room_id, moves)
    if not job.future.done():
        done, total = engine.progress(room_id, len(moves))
        return JSONResponse({"status": "analysing", "done": done, "total": total})
    if job.future.exception() is not None:
        return JSONResponse({"status": "failed"}, status_code=500)
    return JSONResponse({"status": "ready", **review_payload(job.future.result())})


routes = [
    Route("/games/{room_id}/replay", replay_page),
    Route("/games/{room_id}/review.json", review_json),
]
