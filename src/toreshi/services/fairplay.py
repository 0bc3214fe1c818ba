"""The arbiter's fair-play report (issue 28): each finished game of a tournament that was played in the app is
reviewed by the engine in worker processes, and each player's share of the engine's first choices and average loss
are set beside the field's (:mod:`toreshi.togyz.engine.fairplay`).

Only the arbiter's request (a POST) starts a report; the service writes its progress (games done of how many) and
then its figures to ``fairplay_reports`` (:mod:`toreshi.store.fairplay`), so a page that reads it recomputes nothing
and writes nothing. The engine's C core holds the GIL through a search: the games go to a process pool of
``workers`` processes (``Settings.fairplay_workers``, 1 on a small machine), its own, so that a report never delays
a practice partner's reply or a replay's review (:mod:`toreshi.services.engine`). A report still running when the
server stopped is shown as interrupted and can be asked for again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from toreshi.live.room import Decided
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.services.common import utc_now
from toreshi.services.tournament import TournamentService
from toreshi.store import EventStore, UnknownRoomError
from toreshi.store.fairplay import RUNNING, FairPlayReports, StoredReport
from toreshi.togyz.engine import Limits
from toreshi.togyz.engine.fairplay import GameFigures, SideFigures, game_figures, summarise
from toreshi.tournament.journal import TournamentState

__all__ = ["FairPlayService", "Report", "game_moves", "games_of"]

log = logging.getLogger(__name__)


def _figures_job(moves: Sequence[int], limits: Limits) -> GameFigures:
    # No stop callable: each position's search is bounded by ``limits`` (its depth, a second at most), and the
    # figures stay those of the replay's review at the same limits (with a stop flag the C search's scores of a
    # few positions came out different, measured at depth 3).
    return game_figures(moves, limits, clock=time.monotonic)


@dataclass(frozen=True)
class BoardGame:
    round: int
    board: int
    room: str
    white: int
    black: int


def games_of(state: TournamentState) -> list[BoardGame]:
    """The tournament's games that were played (not forfeits, not byes) in a game room of the app."""
    found = []
    for rnd in state.t.rounds:
        for game in rnd.games:
            room = state.room_of(rnd.number, game.board)
            if room is not None and game.result is not None and game.result.played:
                found.append(BoardGame(rnd.number, game.board, room, game.white, game.black))
    return found


async def game_moves(store: EventStore, room_id: str) -> list[int] | None:
    """The holes played in a finished game room (from its stored log), or None while it is not over."""
    try:
        stored_events = await store.load(room_id)
    except (UnknownRoomError, ValueError):
        return None
    room = TogyzRoom()
    for stored in stored_events:
        room.apply(Decided(stored.type, stored.payload), stored.server_time_ms)
    if room.game is None or not room.game.state.is_over:
        return None
    return [ply.hole for ply in room.game.state.plies]


@dataclass(frozen=True)
class Report:
    """What the page shows: the stored row, and whether it is still being computed in this process."""

    stored: StoredReport
    computing: bool

    @property
    def interrupted(self) -> bool:
        return self.stored.status == RUNNING and not self.computing


def _side(figures: SideFigures) -> list[int]:
    return [figures.moves, figures.matches, figures.loss]


class FairPlayService:
    """Fair-play reports of the tournaments: started on request, computed in a pool of worker processes."""

    def __init__(
        self,
        store: EventStore,
        tournaments: TournamentService,
        *,
        limits: Limits,
        workers: int = 1,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.tournaments = tournaments
        self.reports = FairPlayReports(store.engine)
        self.limits = limits
        self.workers = max(1, workers)
        self.now = now
        self._pool: ProcessPoolExecutor | None = None  # its workers start with the first report
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a process with a running event loop
            self._pool = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._pool

    async def report(self, tournament_id: str) -> Report | None:
        stored = await self.reports.get(tournament_id)
        return None if stored is None else Report(stored, tournament_id in self._tasks)

    async def start(self, tournament_id: str, by: str) -> bool:
        """Start a new report of the tournament (its finished games played in the app), stored before this returns;
        False when one is being computed already."""
        if tournament_id in self._tasks:
            return False
        state = await self.tournaments.state(tournament_id)
        games = games_of(state)
        await self.reports.start(tournament_id, by, self.now(), len(games))
        task = asyncio.get_running_loop().create_task(self._run(tournament_id, state, games))
        self._tasks[tournament_id] = task
        task.add_done_callback(lambda _: self._tasks.pop(tournament_id, None))
        return True

    async def settled(self) -> None:
        """Wait for the reports being computed (tests; a server stopping cancels them in ``close``)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def _run(self, tournament_id: str, state: TournamentState, games: list[BoardGame]) -> None:
        try:
            report = await self._compute(tournament_id, state, games)
        except Exception:
            log.exception("the fair-play report of %s failed", tournament_id)
            await self.reports.fail(tournament_id, self.now())
        else:
            await self.reports.finish(tournament_id, self.now(), report)

    async def _compute(self, tournament_id: str, state: TournamentState, games: list[BoardGame]) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        pool = self._executor()
        jobs: dict[asyncio.Future[GameFigures], BoardGame] = {}
        skipped = 0
        for game in games:
            moves = await game_moves(self.store, game.room)
            if not moves:
                skipped += 1
                continue
            future = loop.run_in_executor(pool, _figures_job, tuple(moves), self.limits)
            jobs[asyncio.ensure_future(future)] = game
        done: list[tuple[BoardGame, GameFigures]] = []
        pending = set(jobs)
        while pending:
            finished, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            done += [(jobs[future], future.result()) for future in finished]
            await self.reports.progress(tournament_id, len(done) + skipped)
        done.sort(key=lambda item: (item[0].round, item[0].board))
        players, field = summarise([(game.white, game.black, figures) for game, figures in done])
        t = state.t
        rows: list[dict[str, Any]] = []
        by_share = sorted(players.items(), key=lambda item: (-(item[1].figures.share or 0.0), item[0]))
        for number, figures in by_share:  # the highest share of engine moves first
            person = t.participant(number)
            rows.append({"number": number, "name": person.name, "rating": person.rating, "games": figures.games,
                         "figures": _side(figures.figures), "outlier": figures.outlier})  # fmt: skip
        return {
            "depth": self.limits.depth,
            "seconds": round(sum(figures.seconds for _, figures in done), 2),
            "skipped": skipped,
            "field": _side(field),
            "players": rows,
            "games": [
                {
                    "round": game.round,
                    "board": game.board,
                    "room": game.room,
                    "white": game.white,
                    "black": game.black,
                    "white_figures": _side(figures.white),
                    "black_figures": _side(figures.black),
                    "plies": figures.plies,
                    "seconds": round(figures.seconds, 2),
                }
                for game, figures in done
            ],
        }

    def close(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
