"""The team competition service: team tournaments stored as room event logs (kind ``teams``).

Every change is a typed command (:mod:`toreshi.tournament.journal.teams`) to the room's owner, stamped here with
the wall time from the injected ``clock`` and the acting arbiter's name; reading is the owner's in-memory state.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime

from toreshi.live.registry import LiveRoom, RoomSource
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.teams import TeamTournamentRoom
from toreshi.services.common import live_room_of_kind, utc_now
from toreshi.store import EventStore, RoomKind
from toreshi.tournament.journal.teams import ARBITER, COMMANDS, CreateTeams, TeamCommand, TeamJournalState

ROOM_ID_BYTES = 6


class UnknownTeamTournamentError(LookupError):
    """No team competition with that id."""


class TeamService:
    def __init__(self, store: EventStore, rooms: RoomSource, clock: Callable[[], datetime] = utc_now) -> None:
        self.store = store
        self.rooms = rooms
        self.clock = clock

    def _command(self, command: TeamCommand, by: str) -> Command:
        name, data = COMMANDS.encode_apart(command)
        return Command(name, Actor(ARBITER, by), data, meta={"at": self.clock().isoformat()})

    async def create(self, by: str, command: CreateTeams) -> str:
        """A new team competition; a refused creation leaves no room behind."""
        TeamTournamentRoom().decide(self._command(command, by), 0)
        room_id = f"tt-{secrets.token_hex(ROOM_ID_BYTES)}"
        await self.store.create_room(room_id, RoomKind.TEAMS)
        await self.command(room_id, command, by)
        return room_id

    async def command(self, tid: str, command: TeamCommand, by: str) -> TeamJournalState:
        owner = await self._owner(tid)
        await owner.handle(self._command(command, by))
        return _logic(owner.logic).state

    async def state(self, tid: str) -> TeamJournalState:
        return _logic((await self._owner(tid)).logic).state

    async def tournaments(self) -> list[tuple[str, TeamJournalState]]:
        return [(room.id, await self.state(room.id)) for room in await self.store.rooms(kind=RoomKind.TEAMS)]

    async def _owner(self, tid: str) -> LiveRoom:
        return await live_room_of_kind(self.store, self.rooms, tid, RoomKind.TEAMS, UnknownTeamTournamentError)


def _logic(logic: object) -> TeamTournamentRoom:
    if not isinstance(logic, TeamTournamentRoom):
        raise UnknownTeamTournamentError("not a team room")
    return logic
