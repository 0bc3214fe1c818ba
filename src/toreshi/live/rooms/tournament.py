"""A tournament as a live room: the arbiter's commands → :mod:`toreshi.tournament.journal` events → the state.

Only arbiters act (role ``arbiter``), except that a team's representative or coach files a protest through the
team's secret link (role ``team``, TK-P1); everyone else reads (the view holds the public tournament: settings,
participants, published rounds, results, standings, protests' status). Every command carries ``at``, the aware
ISO wall time the web service stamped on it (see :class:`toreshi.web.tournament_service.TournamentService`);
room time is not used, so a tournament room never needs a timer.

Results flow in from live togyz games through the ``game_room_linked`` events: a game room made for a board is
linked to ``(round, board)`` in the tournament log, and the service reads the finished games and sends
``enter_result`` commands with ``source: live`` (see :mod:`toreshi.web.tournament_service`).
"""

from __future__ import annotations

from collections.abc import Sequence

from toreshi.live.room import Actor, Command, CommandRefusedError, Decided, Payload
from toreshi.tournament.journal import COMMANDS, TournamentState, apply_event, decide
from toreshi.tournament.model import format_points

KIND = "tournament"
ARBITER = "arbiter"
SYSTEM = "system"
"""The service itself (collecting results from finished game rooms) acts as ``system``; it may only enter them."""
TEAM = "team"
"""A team's representatives, by the team's secret link (``Actor("team", team name)``): they may only file protests."""


class TournamentRoom:
    """The :class:`~toreshi.live.room.RoomLogic` of a tournament."""

    kind = KIND

    def __init__(self) -> None:
        self.state = TournamentState()

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        role = command.actor.role
        if role == SYSTEM:
            if command.type != "enter_result" or command.data.get("source") != "live":
                raise CommandRefusedError("forbidden", "the system only reports results of live games")
        elif role == TEAM:
            self._check_team_protest(command)
        elif role != ARBITER:
            raise CommandRefusedError("forbidden", "only an arbiter changes a tournament")
        if command.type not in COMMANDS:
            raise CommandRefusedError("unknown", f"unknown tournament command {command.type!r}")
        if self.state.tournament is None and command.type != "create":
            raise CommandRefusedError("no_tournament", "the tournament has not been created yet")
        try:
            events = decide(self.state, command.type, command.data, command.actor.name or role)
        except (ValueError, TypeError) as error:
            raise CommandRefusedError("refused", str(error)) from None
        except KeyError as error:
            raise CommandRefusedError("refused", f"missing {error.args[0]!r}") from None
        return [Decided(event.type, event.payload) for event in events]

    def _check_team_protest(self, command: Command) -> None:
        """A team (by its representatives' secret link) may only file a protest, in the name of one of its own."""
        if command.type != "file_protest":
            raise CommandRefusedError("forbidden", "a team's link only files protests")
        t = self.state.tournament
        team = next((x for x in t.teams if x.name == command.actor.name), None) if t is not None else None
        if team is None:
            raise CommandRefusedError("forbidden", "this link belongs to no team of the tournament")
        if command.data.get("filed_by") not in (*team.representatives, *team.coaches):
            raise CommandRefusedError("forbidden", f"only a representative or coach of {team.name} files for it")

    def apply(self, event: Decided, at_ms: int) -> None:
        self.state = apply_event(self.state, event.type, event.payload)

    def deadline_ms(self) -> int | None:
        return None

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        return []

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        return view_of(self.state)

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        return {"event": dict(event.payload)}


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
