"""A tournament as a live room: the room kit's adapter around :mod:`toreshi.tournament.journal`.

The edge: who may give a command (an arbiter; a team's link only files protests for its own people, TK-P1; a
player's link only checks its player in and gives the results of its player's physical boards; the service only
reports results of finished game rooms), then the client's JSON read into a typed command
(:data:`~toreshi.tournament.journal.commands.COMMANDS`), decided by the pure journal, its events encoded for the
log. Everyone else reads (the view holds the public tournament: settings, participants, published rounds, results,
standings, protests' status).

A command's wall time is the server's: ``meta["at"]``, the aware ISO time the tournament service stamped on it
(:mod:`toreshi.services.tournament`); a command without it — sent over a socket — is refused
``tournament_pages_only``. Room time is not used, so a tournament room never needs a timer.

Results of live games are pushed, not pulled: when a linked game room ends, the service sends ``enter_result``
as the ``system`` actor, with the game's end time (:class:`~toreshi.services.tournament.TournamentService`).
"""

from __future__ import annotations

from collections.abc import Sequence

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.room import Actor, Command, Decided, Payload
from toreshi.live.rooms.journal import JournalRoom, events_of, stamped
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import COMMANDS, TournamentState, decide, decode_event, encode_event, evolve
from toreshi.tournament.journal.commands import (
    ARBITER,
    PLAYER,
    SYSTEM,
    TEAM,
    CheckIn,
    EnterResult,
    RecordClockCorrection,
    ReportResult,
)
from toreshi.tournament.model import format_points

KIND = "tournament"

__all__ = ["ARBITER", "KIND", "SYSTEM", "TEAM", "TournamentRoom", "view_of"]


def _forbidden(command: Command, why: TournamentCode | None = None, **params: str) -> Refused:
    details = (Refusal(why, params),) if why is not None else ()
    return Refused(Common.FORBIDDEN, details=details, command=command.type[:40], role=command.actor.role[:20])


class TournamentRoom(JournalRoom):
    """The :class:`~toreshi.live.room.RoomLogic` of a tournament."""

    kind = KIND

    def __init__(self) -> None:
        self.state = TournamentState()

    def _check_actor(self, command: Command) -> None:
        """Who may give this command at all (before its fields are read: a stranger learns nothing of them)."""
        role = command.actor.role
        if role == ARBITER:
            if command.type == RecordClockCorrection.type:  # only a game room's own record carries one in
                raise _forbidden(command, TournamentCode.LIVE_RESULTS_ONLY)
            return
        if role == SYSTEM:
            if command.type not in (EnterResult.type, RecordClockCorrection.type):
                raise _forbidden(command, TournamentCode.LIVE_RESULTS_ONLY)
            return
        if role == PLAYER:
            # A player's own link: that player's check-in and results only (the journal checks the number).
            if command.type not in (CheckIn.type, ReportResult.type):
                raise _forbidden(command, TournamentCode.PLAYER_LINK_ONLY)
            return
        if role != TEAM or command.type != "file_protest":
            raise _forbidden(command)
        t = self.state.tournament
        team = next((x for x in t.teams if x.name == command.actor.name), None) if t is not None else None
        if team is None:
            raise _forbidden(command, TournamentCode.TEAM_LINK_UNKNOWN)
        filer = payload.read_name(command.data, "filed_by", max_length=80)
        if filer not in (*team.representatives, *team.coaches):
            raise _forbidden(command, TournamentCode.NOT_TEAM_PERSON, person=filer, team=team.name)

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        self._check_actor(command)
        typed = COMMANDS.read(command.type, command.data)
        if isinstance(typed, EnterResult) and typed.ended_at is not None and command.actor.role != SYSTEM:
            raise _forbidden(command, TournamentCode.LIVE_RESULTS_ONLY)  # only a game room's end is "when it ended"
        return events_of(decide(self.state, typed, stamped(command, now_ms)), encode_event)

    def apply(self, event: Decided, at_ms: int) -> None:
        self.state = evolve(self.state, decode_event(event.type, event.payload))

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        return view_of(self.state)


def view_of(state: TournamentState) -> Payload:
    """The tournament as JSON for a snapshot: settings, participants, rounds with results, standings."""
    t = state.tournament
    if t is None:
        return {"kind": KIND, "status": "empty"}
    standings = state.standings()
    return {
        "kind": KIND,
        "status": "running",
        "name": t.name,
        "system": t.system.value,
        "rounds_planned": t.rounds_planned,
        "time_control": t.time_control,
        "control": t.control.to_dict() if t.control is not None else None,
        "tiebreaks": [str(tb) for tb in standings.tiebreaks],
        "participants": [
            {"number": p.number, "name": p.name, "rating": p.rating, "club": p.club, "team": p.team}
            for p in t.participants
        ],
        "rounds": [
            {
                "round": r.number,
                "paired_at": r.paired_at.isoformat() if r.paired_at else None,
                "games": [
                    {
                        "board": g.board,
                        "white": g.white,
                        "black": g.black,
                        "result": g.result.value if g.result else None,
                        "room": state.room_of(r.number, g.board),
                    }
                    for g in r.games
                ],
                "byes": [{"player": b.player, "code": b.code.value} for b in r.byes],
            }
            for r in t.rounds
        ],
        "standings": [
            {"rank": row.rank, "number": row.player.number, "points": format_points(row.points)}
            for row in standings.rows
        ],
        "protests": [
            {"id": p.id, "round": p.game.round, "board": p.game.board, "status": p.status.value} for p in state.protests
        ],
    }
