"""The players' calls to the arbiter across a tournament round: which board called, when, and whether the arbiter
has answered; and the arbiter's answer sent from the round page.

A call lives in its game room's log (``arbiter_called`` / ``call_acknowledged``, :mod:`toreshi.togyz.match.core`).
The round page reads them from the store's logs with their wall times — reading loads no room and writes nothing —
and the answer is the arbiter's ``acknowledge_call`` sent to the room, as the game's console sends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from toreshi.live.room import Actor, Command
from toreshi.services.tournament import GAME_KIND, TournamentService
from toreshi.store import EventStore, UnknownRoomError
from toreshi.togyz.match.events import ArbiterCalled, CallAcknowledged, GameCreated
from toreshi.tournament.journal import TournamentState

SIDES = ("white", "black")


@dataclass(frozen=True)
class BoardCall:
    """A player's call on a board of the round, with the wall times of the call and of the arbiter's answer."""

    board: int
    room: str
    side: str
    player: str
    called_at: datetime
    answered_at: datetime | None = None

    @property
    def open(self) -> bool:
        return self.answered_at is None


async def calls_of_round(service: TournamentService, state: TournamentState, number: int) -> list[BoardCall]:
    """Every call of the round's live games, open calls first, each group oldest first."""
    calls: list[BoardCall] = []
    for game in state.t.round(number).games:
        room_id = state.room_of(number, game.board)
        if room_id is not None:
            calls.extend(await _calls_of_room(service, room_id, game.board))
    return sorted(calls, key=lambda call: (not call.open, call.called_at, call.board))


async def _calls_of_room(service: TournamentService, room_id: str, board: int) -> list[BoardCall]:
    return await calls_of_log(service.store, room_id, board)


async def calls_of_log(store: EventStore, room_id: str, board: int = 0) -> list[BoardCall]:
    """The calls of one game, oldest first, from its stored log (``board``: its place in a round, 0 outside)."""
    try:
        stored_events = await store.load(room_id)
    except (UnknownRoomError, ValueError):
        return []
    names = {"white": "", "black": ""}
    calls: list[BoardCall] = []
    for stored in stored_events:
        payload = stored.payload
        if stored.type == GameCreated.type:
            names = {side: str(payload.get(side, "")) for side in SIDES}
        elif stored.type == ArbiterCalled.type:
            side = str(payload.get("side"))
            calls.append(BoardCall(board, room_id, side, names.get(side, ""), stored.created_at))
        elif stored.type == CallAcknowledged.type:
            side = str(payload.get("side"))
            for index, call in enumerate(calls):
                if call.side == side and call.open:
                    calls[index] = BoardCall(board, room_id, side, call.player, call.called_at, stored.created_at)
    return calls


async def acknowledge(
    service: TournamentService, state: TournamentState, number: int, board: int, side: str, by: str
) -> bool:
    """The arbiter answers ``side``'s open call on ``board`` of round ``number``; False when the round has no such
    live game (a refusal of the room — no open call — is raised as it is)."""
    if side not in SIDES or not 1 <= number <= len(state.t.rounds):
        return False
    room_id = state.room_of(number, board)
    if room_id is None:
        return False
    owner = await service.rooms.get(room_id, GAME_KIND)
    await owner.handle(Command("acknowledge_call", Actor("arbiter", by), {"side": side}))
    return True
