"""Practice games: a togyz room in which the engine plays one side (issue 19 §2).

The room is an ordinary togyz game whose settings name the engine's level and side
(:attr:`~toreshi.togyz.match.settings.GameSettings.practice_level`); the person plays the other side with the
usual clocks and may take moves back. :class:`PracticeService` follows each practice room on the bus: when it is
the engine's turn, the move is chosen in the engine's worker process (off the event loop, the random draw seeded
by the room and the ply) and sent to the room as the engine's side — decided, stored and published like anyone's.

It also knows who holds each game (a browser, an address) and when its last move was made: the form asks it
whether a browser may start another (:mod:`toreshi.services.practice_quota`), and games left idle are reclaimed —
the absent person resigns them, in the log, so a restarted server does not resume them (issue 26).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from toreshi.kit.refusal import Refused
from toreshi.live.registry import RoomSource
from toreshi.live.room import Actor, Command
from toreshi.services.engine import EngineService
from toreshi.services.practice_quota import Admission, PracticeLimits, Seat, admit, idle_rooms
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.state import GameStatus
from toreshi.togyz.position import WHITE

__all__ = ["PracticeService", "is_practice"]

log = logging.getLogger(__name__)

SWEEP_EVERY_S = 30.0
"""How often idle practice games are looked for (besides when someone asks for a new game)."""


def is_practice(game: MatchGame | None) -> bool:
    return game is not None and game.state.settings.practice_level > 0


class PracticeService:
    """Plays the engine's moves in every practice room it watches."""

    def __init__(
        self,
        rooms: RoomSource,
        engine: EngineService,
        limits: PracticeLimits | None = None,
        *,
        archive: Callable[[str], Awaitable[object]] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._rooms = rooms
        self._engine = engine
        self.limits = limits or PracticeLimits()
        self._archive = archive
        """Takes a finished game off the public lists (the store's archive): a practice game is private unless
        its player asked for it to be listed."""
        self._clock = clock
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._seats: dict[str, Seat] = {}
        self._plies: dict[str, int] = {}

    def seats(self) -> list[Seat]:
        """Who holds each practice game being played."""
        return [seat for room_id, seat in self._seats.items() if room_id in self._tasks]

    def claim(self, room_ids: list[str], browser: str, address: str) -> None:
        """These games, resumed after a restart with their holder unknown, are held by ``browser`` at ``address``
        (its session lists them): they count against its quota again."""
        for room_id in room_ids:
            seat = self._seats.get(room_id)
            if seat is not None and not seat.browser:
                self._seats[room_id] = Seat(room_id, browser, address, seat.last_move)

    def admit(self, browser: str, address: str, *, end_oldest: bool = False) -> Admission:
        return admit(self.seats(), browser, address, self.limits, self._clock(), end_oldest=end_oldest)

    async def reclaim(self, room_ids: tuple[str, ...] | list[str]) -> None:
        """End these practice games: the absent person resigns (stored in the game's log like any resignation,
        so a restarted server does not resume them)."""
        for room_id in room_ids:
            with contextlib.suppress(Exception):  # one game that cannot be ended must not stop the others
                await self._resign_person(room_id)
            task = self._tasks.get(room_id)
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(asyncio.shield(task), timeout=5)

    async def _resign_person(self, room_id: str) -> None:
        owner = await self._rooms.get(room_id, "togyz")
        game = getattr(owner.logic, "game", None)
        if not isinstance(game, MatchGame) or game.state.is_over or game.state.settings.engine_side is None:
            return
        person = game.state.settings.engine_side.other
        role = "white" if person is WHITE else "black"
        with contextlib.suppress(Refused):
            await owner.handle(
                Command("resign", Actor(role, game.state.player(person)), {}, id=f"reclaim-{len(game.events)}")
            )
        log.info("practice room %s reclaimed", room_id)

    async def keep_swept(self) -> None:
        """Reclaim idle practice games, now and every :data:`SWEEP_EVERY_S` (a task of the app's lifespan)."""
        while True:
            await self.reclaim(idle_rooms(self.seats(), self.limits, self._clock()))
            await asyncio.sleep(SWEEP_EVERY_S)

    async def begin(self, room_id: str, browser: str = "", address: str = "") -> None:
        """A practice room just created for ``browser`` at ``address``: start its clock (nobody is waited for)
        and take the engine's seat."""
        self._seats[room_id] = Seat(room_id, browser, address, self._clock())
        owner = await self._rooms.get(room_id, "togyz")
        await owner.handle(Command("start", Actor("arbiter", "practice"), {}, id="practice-start"))
        self.watch(room_id)

    def watch(self, room_id: str) -> None:
        """Follow ``room_id`` until its game is over (again after a restart: the app watches resumed rooms, whose
        holder is then unknown and whose idle time counts from the restart)."""
        if room_id in self._tasks and not self._tasks[room_id].done():
            return
        self._seats.setdefault(room_id, Seat(room_id, "", "", self._clock()))
        self._tasks[room_id] = asyncio.get_running_loop().create_task(self._follow(room_id))

    async def _follow(self, room_id: str) -> None:
        try:
            owner = await self._rooms.get(room_id, "togyz")
            async with owner.bus.subscribe(owner.channel) as messages:
                if await self._turn(room_id):
                    async for _message in messages:
                        if not await self._turn(room_id):
                            break
            await self._finished(room_id)
        except asyncio.CancelledError:
            raise
        except Exception:  # a practice partner that stops must not take the server with it
            log.exception("practice room %s: the engine stopped playing", room_id)
        finally:
            self._tasks.pop(room_id, None)
            self._seats.pop(room_id, None)
            self._plies.pop(room_id, None)

    async def _finished(self, room_id: str) -> None:
        """A practice game just ended: unless its player wanted it listed, it leaves the public lists."""
        if self._archive is None:
            return
        owner = await self._rooms.get(room_id, "togyz")
        game = getattr(owner.logic, "game", None)
        if isinstance(game, MatchGame) and game.state.is_over and not game.state.settings.practice_listed:
            try:
                await self._archive(room_id)
            except Exception:  # the game is over either way; a listed practice game is no harm
                log.exception("practice room %s: could not take it off the lists", room_id)

    async def _turn(self, room_id: str) -> bool:
        """Play the engine's move if it is its turn; False once the game is over."""
        owner = await self._rooms.get(room_id, "togyz")
        game = getattr(owner.logic, "game", None)
        if not isinstance(game, MatchGame) or not is_practice(game):
            return False
        state = game.state
        if state.status is GameStatus.FINISHED:
            return False
        seat = self._seats.get(room_id)
        if seat is not None and self._plies.get(room_id) != len(state.plies):
            self._plies[room_id] = len(state.plies)  # a move (or a takeback): the game is not idle
            self._seats[room_id] = Seat(room_id, seat.browser, seat.address, self._clock())
        engine = state.settings.engine_side
        if engine is None or state.status is not GameStatus.LIVE or state.board.turn is not engine:
            return True
        if state.move_pending:
            return True
        moves = [ply.hole for ply in state.plies]
        choice = await self._engine.move(moves, state.settings.practice_level, f"{room_id}:{len(moves)}")
        again = getattr(owner.logic, "game", None)
        if not isinstance(again, MatchGame) or [ply.hole for ply in again.state.plies] != moves:
            return True  # the game moved on while the engine thought (a takeback, a resignation): ask again
        role = "white" if engine is WHITE else "black"
        command = Command(
            "move",
            Actor(role, state.player(engine)),
            {"hole": choice.hole, "press": True},
            id=f"engine-{len(moves)}-{len(again.events)}",
        )
        with contextlib.suppress(Refused):  # the position changed under it: the next message asks again
            await owner.handle(command)
        return True

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
