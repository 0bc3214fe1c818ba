"""A team competition as a live room: the kit's adapter around :mod:`toreshi.tournament.journal.teams`.

Only the arbiter commands (through the pages, which stamp the wall time: a command without it is refused
``tournament_pages_only``); everyone reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from toreshi.kit.refusal import Common, Refused
from toreshi.live.room import Actor, Command, Decided, Payload
from toreshi.live.rooms.journal import JournalRoom, events_of, stamped
from toreshi.tournament.journal.teams import (
    ARBITER,
    COMMANDS,
    KIND,
    TeamJournalState,
    decide,
    decode_event,
    encode_event,
    evolve,
)
from toreshi.tournament.model import format_points
from toreshi.tournament.teams.tiebreaks import team_standings

__all__ = ["KIND", "TeamTournamentRoom"]


class TeamTournamentRoom(JournalRoom):
    """The :class:`~toreshi.live.room.RoomLogic` of a team competition."""

    kind = KIND

    def __init__(self) -> None:
        self.state = TeamJournalState()

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        if command.actor.role != ARBITER:
            raise Refused(Common.FORBIDDEN, command=command.type[:40], role=command.actor.role[:20])
        typed = COMMANDS.read(command.type, command.data)
        return events_of(decide(self.state, typed, stamped(command, now_ms)), encode_event)

    def apply(self, event: Decided, at_ms: int) -> None:
        self.state = evolve(self.state, decode_event(event.type, dict(event.payload)))

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        t = self.state.tournament
        if t is None:
            return {"kind": KIND, "status": "empty"}
        return {
            "kind": KIND,
            "name": t.settings.name,
            "teams": [{"number": x.number, "name": x.name} for x in t.teams],
            "standings": [
                {
                    "rank": r.rank,
                    "team": r.team,
                    "mp": format_points(r.match_points),
                    "gp": format_points(r.game_points),
                }
                for r in team_standings(t).rows
            ],
        }
