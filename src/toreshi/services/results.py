"""What a tournament's published results are made of, read from the store: the tournament's state and the state of
every game room linked to its boards (issue 29: the results bundle and the public results site).

Only reading: the rooms' logs are replayed here as the live rooms replay them, so that ``toreshi publish`` reads a
database the app is not serving (or a copy of it) and the app reads the same as its pages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from toreshi.live.room import Decided
from toreshi.live.rooms.teams import TeamTournamentRoom
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.store import EventStore, RoomKind, UnknownRoomError
from toreshi.togyz.match.state import GameState
from toreshi.tournament.journal import TournamentState
from toreshi.tournament.journal.teams import TeamJournalState

Board = tuple[int, int]


class NotATournamentError(LookupError):
    """No tournament has this id (no room, or a room of another kind)."""


Logic = TypeVar("Logic", TournamentRoom, TeamTournamentRoom)


async def _folded(store: EventStore, tournament_id: str, kind: RoomKind, logic: Logic) -> Logic:
    """``logic`` after the whole log of the room ``tournament_id``, which must be a tournament of ``kind``."""
    try:
        room = await store.room(tournament_id)
    except (UnknownRoomError, ValueError):
        raise NotATournamentError(tournament_id) from None
    if room.kind is not kind:
        raise NotATournamentError(tournament_id)
    for stored in await store.load(tournament_id):
        logic.apply(Decided(stored.type, stored.payload), stored.server_time_ms)
    if logic.state.tournament is None:
        raise NotATournamentError(tournament_id)
    return logic


async def tournament_state(store: EventStore, tournament_id: str) -> TournamentState:
    """The tournament's state after its whole log."""
    return (await _folded(store, tournament_id, RoomKind.TOURNAMENT, TournamentRoom())).state


async def team_state(store: EventStore, tournament_id: str) -> TeamJournalState:
    """A team tournament's state after its whole log (:class:`NotATournamentError` for any other id)."""
    return (await _folded(store, tournament_id, RoomKind.TEAMS, TeamTournamentRoom())).state


async def game_states(
    store: EventStore, state: TournamentState, boards: Iterable[Board] | None = None
) -> dict[Board, GameState]:
    """The game of every board linked to a game room (only of ``boards`` when given), by ``(round, board)`` (a room
    that cannot be read is left out: its result is the tournament's all the same)."""
    games: dict[Board, GameState] = {}
    wanted = None if boards is None else set(boards)
    for board, room_id in sorted(state.game_rooms.items()):
        if wanted is not None and board not in wanted:
            continue
        try:
            stored_events = await store.load(room_id)
        except (UnknownRoomError, ValueError):
            continue
        room = TogyzRoom()
        for stored in stored_events:
            room.apply(Decided(stored.type, stored.payload), stored.server_time_ms)
        if room.game is not None:
            games[board] = room.game.state
    return games
