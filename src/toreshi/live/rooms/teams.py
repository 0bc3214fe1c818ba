"""A team competition as a live room: the kit's adapter around :mod:`toreshi.tournament.journal.teams`.

Only the arbiter commands (through the pages, which stamp the wall time: a command without it is refused
``tournament_pages_only``); everyone reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from toreshi.kit.core import Context
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.room import Actor, Command, Decided, Payload
from toreshi.tournament.codes import TournamentCode
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


def _wall_time(meta: Mapping[str, Any]) -> datetime:
    stamped = meta.get("at")
    if stamped is None:
        raise Refused(TournamentCode.PAGES_ONLY)
    moment = datetime.fromisoformat(str(stamped))
    if moment.tzinfo is None:
        raise ValueError("the service stamps aware times")
    return moment


class TeamTournamentRoom:
    """The :class:`~toreshi.live.room.RoomLogic` of a team competition."""

    kind = KIND

    def __init__(self) -> None:
        self.state = TeamJournalState()

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        if command.actor.role != ARBITER:
            raise Refused(Common.FORBIDDEN, command=command.type[:40], role=command.actor.role[:20])
        typed = COMMANDS.read(command.type, command.data)
        context = Context(command.actor, now_ms, meta={"at": _wall_time(command.meta)})
        decision = decide(self.state, typed, context)
        if isinstance(decision, Refusal):
            raise Refused(decision)
        return [Decided(*encode_event(event)) for event in decision]

    def apply(self, event: Decided, at_ms: int) -> None:
        self.state = evolve(self.state, decode_event(event.type, dict(event.payload)))

    def deadline_ms(self) -> int | None:
        return None

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        return []

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

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        return {"event": dict(event.payload)}
