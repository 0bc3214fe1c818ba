"""Practice games: a togyz room in which the engine plays one side (issue 19 §2).

The room is an ordinary togyz game whose settings name the engine's level and side
(:attr:`~toreshi.togyz.match.settings.GameSettings.practice_level`); the person plays the other side with the
usual clocks and may take moves back. :class:`PracticeService` follows each practice room on the bus: when it is
the engine's turn, the move is chosen in the engine's worker process (off the event loop, the random draw seeded
by the room and the ply) and sent to the room as the engine's side — decided, stored and published like anyone's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from toreshi.kit.refusal import Refused
from toreshi.live.registry import RoomSource
from toreshi.live.room import Actor, Command
from toreshi.services.engine import EngineService
from toreshi.togyz.match.game import Game
from toreshi.togyz.match.state import GameStatus
from toreshi.togyz.position import WHITE

__all__ = ["PracticeService", "is_practice"]

log = logging.getLogger(__name__)

MAX_PRACTICE_GAMES = 50
"""Practice games played at once on this instance: the form is open to anyone, and each game takes an engine's
turn in the shared worker (an abandoned game ends on its own when its flag falls, in 7 or 20 minutes)."""


def is_practice(game: Game | None) -> bool:
    return game is not None and game.state.settings.practice_level > 0


class PracticeService:
    """Plays the engine's moves in every practice room it watches."""

    def __init__(self, rooms: RoomSource, engine: EngineService) -> None:
        self._rooms = rooms
        self._engine = engine
        self._tasks: dict[str, asyncio.Task[None]] = {}

    @property
    def playing(self) -> int:
        """Practice games being followed now (not over)."""
        return sum(not task.done() for task in self._tasks.values())

    async def begin(self, room_id: str) -> None:
        """A practice room just created: start its clock (nobody is waited for) and take the engine's seat."""
        owner = await self._rooms.get(room_id, "togyz")
        await owner.handle(Command("start", Actor("arbiter", "practice"), {}, id="practice-start"))
        self.watch(room_id)

    def watch(self, room_id: str) -> None:
        """Follow ``room_id`` until its game is over (again after a restart: the app watches resumed rooms)."""
        if room_id in self._tasks and not self._tasks[room_id].done():
            return
        self._tasks[room_id] = asyncio.get_running_loop().create_task(self._follow(room_id))

    async def _follow(self, room_id: str) -> None:
        try:
            owner = await self._rooms.get(room_id, "togyz")
            async with owner.bus.subscribe(owner.channel) as messages:
                if not await self._turn(room_id):
                    return
                async for _message in messages:
                    if not await self._turn(room_id):
                        return
        except asyncio.CancelledError:
            raise
        except Exception:  # a practice partner that stops must not take the server with it
            log.exception("practice room %s: the engine stopped playing", room_id)
        finally:
            self._tasks.pop(room_id, None)

    async def _turn(self, room_id: str) -> bool:
        """Play the engine's move if it is its turn; False once the game is over."""
        owner = await self._rooms.get(room_id, "togyz")
        game = getattr(owner.logic, "game", None)
        if not isinstance(game, Game) or not is_practice(game):
            return False
        state = game.state
        if state.status is GameStatus.FINISHED:
            return False
        engine = state.settings.engine_side
        if engine is None or state.status is not GameStatus.LIVE or state.board.turn is not engine:
            return True
        if state.move_pending:
            return True
        moves = [ply.hole for ply in state.plies]
        choice = await self._engine.move(moves, state.settings.practice_level, f"{room_id}:{len(moves)}")
        again = getattr(owner.logic, "game", None)
        if not isinstance(again, Game) or [ply.hole for ply in again.state.plies] != moves:
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
