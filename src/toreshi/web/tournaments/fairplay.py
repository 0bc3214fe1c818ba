"""The arbiter's fair-play report of a tournament (issue 28): ``GET /tournaments/{tid}/fairplay`` reads the stored
report (its progress while the engine works), ``POST`` asks for a new one. Arbiters only, never public: the figures
are evidence for an arbiter, not a verdict, and the page says so.

The GET only reads ``fairplay_reports``; the POST (CSRF-checked) starts the computation in the engine's worker
processes (:mod:`toreshi.services.fairplay`), after the new report's row is written.
"""

from __future__ import annotations

from typing import Any

from babel import numbers
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from toreshi.services.fairplay import FairPlayService, Report
from toreshi.texts import i18n
from toreshi.togyz.engine.fairplay import BOOK_PLIES, MIN_MOVES, OUTLIER_SPREAD
from toreshi.tournament.journal import TournamentState
from toreshi.web.accounts import auth
from toreshi.web.common import pagekit
from toreshi.web.common.pagekit import not_found
from toreshi.web.common.services import services_of
from toreshi.web.common.templates import pages_of
from toreshi.web.tournaments.pages import FAIRPLAY_RUNNING, FAIRPLAY_STARTED, _load, _page, _players

REFRESH_SECONDS = 5
"""While a report is computed, its page reloads itself this often (no script: a meta refresh)."""

_reading = pages_of(_load)


def _service(request: Request) -> FairPlayService | None:
    return services_of(request).fairplay


def _decimal(value: float, digits: int) -> str:
    """A number with ``digits`` decimals in the reader's language (``12,5`` in Kazakh and Russian)."""
    pattern = "0." + "0" * digits if digits else "0"
    return numbers.format_decimal(round(value, digits), format=pattern, locale=i18n.current_language())


def _percent(part: int, whole: int) -> str:
    if not whole:
        return "—"
    return _decimal(100 * part / whole, 1) + " %"


def _kumalaks(loss: int, moves: int) -> str:
    if not moves:
        return "—"
    return _decimal(loss / moves / 100, 2)


def _row(figures: list[int]) -> dict[str, Any]:
    moves, matches, loss = figures
    return {"moves": moves, "share": _percent(matches, moves), "loss": _kumalaks(loss, moves)}


def _shown(report: Report | None, state: TournamentState) -> dict[str, Any] | None:
    """The stored figures as the page shows them, worded in the reader's language."""
    if report is None or report.stored.report is None:
        return None
    data = report.stored.report
    names = _players(state)
    return {
        "depth": data["depth"],
        "seconds": _decimal(float(data["seconds"]), 1),
        "skipped": data["skipped"],
        "field": _row(data["field"]),
        "players": [{**player, **_row(player["figures"])} for player in data["players"]],
        "games": [
            {
                **game,
                "white_name": names.get(game["white"], ""),
                "black_name": names.get(game["black"], ""),
                "white_row": _row(game["white_figures"]),
                "black_row": _row(game["black_figures"]),
            }
            for game in data["games"]
        ],
    }


@auth.arbiter_only
@_reading
async def fairplay_page(request: Request, tid: str, state: TournamentState) -> Response:
    """The report as stored (or none yet), and the button that asks for a new one. Writes nothing."""
    service = _service(request)
    if service is None:
        return not_found(request)
    report = await service.report(tid)
    running = report is not None and report.computing
    return _page(
        request,
        "tournaments/fairplay.html",
        tid=tid,
        state=state,
        t=state.t,
        report=report,
        running=running,
        refresh=REFRESH_SECONDS if running else None,
        shown=_shown(report, state),
        depth=service.limits.depth,
        book_moves=BOOK_PLIES // 2,
        min_moves=MIN_MOVES,
        spread=_decimal(OUTLIER_SPREAD, 0),
    )


@auth.arbiter_only
async def ask_for_report(request: Request) -> Response:
    """``POST /tournaments/{tid}/fairplay``: a new report; back to its page, which shows the progress."""
    back = f"/tournaments/{request.path_params['tid']}/fairplay"
    form = await pagekit.posted(request, back)  # the form's token first, before the tournament is looked up
    if isinstance(form, Response):
        return form
    loaded = await _load(request)
    service = _service(request)
    if loaded is None or service is None:
        return not_found(request)
    tid, _state = loaded
    started = await service.start(tid, auth.signed_in(request) or "arbiter")
    return pagekit.done(request, back, FAIRPLAY_STARTED if started else FAIRPLAY_RUNNING)


routes = [
    Route("/tournaments/{tid}/fairplay", fairplay_page),
    Route("/tournaments/{tid}/fairplay", ask_for_report, methods=["POST"]),
]
