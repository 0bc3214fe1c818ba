"""A togyz game written out, from its page and its replay, open to anyone who may watch it:

- ``GET /games/{room_id}/export.pgn`` — PlayOK PGN with the clock after each move and ``{=}`` for draw offers
  (:func:`toreshi.togyz.match.export.to_pgn`), the date of the game's creation in the club's time zone;
- ``GET /games/{room_id}/sheet`` — the printable score sheet in the page's language (TK form: №, бастаушы,
  қостаушы, the ``=`` marks, the result, how it ended, the signatures; in blitz and rapid, where no sheet is kept
  (TK-B2), the record without signature lines);
- ``GET /games/{room_id}/position.fen?ply=N`` — PlayStrategy FEN of the position after ``N`` plies (the last one
  by default).
"""

from __future__ import annotations

from datetime import datetime
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from toreshi.services import board_calls
from toreshi.texts import formatting
from toreshi.togyz.fen import to_fen
from toreshi.togyz.match.export import score_sheet, to_pgn
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.position import Position
from toreshi.web.common import pagekit
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.services import services_of
from toreshi.web.common.templates import club_timezone
from toreshi.web.togyz import timecontrols
from toreshi.web.togyz.texts import RESULT_SYMBOLS, ending_text, result_headline


async def game_of(request: Request) -> MatchGame | None:
    """The created togyz game of the request's ``room_id``, or ``None``."""
    from toreshi.web.rooms.api import owner_of

    owner = await owner_of(request, request.path_params["room_id"])
    game = getattr(owner.logic, "game", None) if owner is not None and owner.logic.kind == "togyz" else None
    return game if isinstance(game, MatchGame) else None


async def created_at(request: Request, room_id: str) -> datetime | None:
    """When the game was created (its first event's wall time)."""
    events = await services_of(request).store.load(room_id)
    return events[0].created_at if events else None


def _filename(game: MatchGame, room_id: str, extension: str) -> str:
    """``attachment`` with an ASCII name and the players' names for browsers that read ``filename*``."""
    state = game.state
    readable = f"{state.white} – {state.black}.{extension}"
    return f"attachment; filename=\"togyz-{room_id}.{extension}\"; filename*=UTF-8''{quote(readable)}"


async def export_pgn(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    game = await game_of(request)
    if game is None:
        return not_found(request)
    headers = {}
    when = await created_at(request, room_id)
    if when is not None:
        local = when.astimezone(formatting.zone(club_timezone(request)))
        headers["Date"] = local.strftime("%Y.%m.%d")
    text = to_pgn(game.state, headers)
    return PlainTextResponse(
        text,
        media_type="application/x-chess-pgn",
        headers={"content-disposition": _filename(game, room_id, "pgn")},
    )


async def sheet(request: Request) -> Response:
    room_id = request.path_params["room_id"]
    game = await game_of(request)
    if game is None:
        return not_found(request)
    state = game.state
    return pagekit.plain(
        request,
        "togyz/sheet.html",
        room_id=room_id,
        sheet=score_sheet(state),
        control=timecontrols.describe(state.control),
        created=await created_at(request, room_id),
        result=RESULT_SYMBOLS.get(state.result) if state.result else "",
        headline=result_headline(state),
        ending=ending_text(state),
        calls=await board_calls.calls_of_log(services_of(request).store, room_id),
    )


def position_after(game: MatchGame, ply: int) -> Position:
    """The position after the first ``ply`` plies of the game (clamped to the plies played)."""
    position = Position()
    for record in game.state.plies[: max(0, ply)]:
        position.play(record.hole)
    return position


async def position_fen(request: Request) -> Response:
    game = await game_of(request)
    if game is None:
        return not_found(request)
    plies = len(game.state.plies)
    raw = request.query_params.get("ply", "")
    ply = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else plies
    return PlainTextResponse(to_fen(position_after(game, min(ply, plies))) + "\n")


routes = [
    Route("/games/{room_id}/export.pgn", export_pgn),
    Route("/games/{room_id}/sheet", sheet),
    Route("/games/{room_id}/position.fen", position_fen),
]
