"""The tournament service: what the pages (and tests) call to run a tournament stored as a room event log.

Each tournament is a room of kind ``tournament`` (:mod:`toreshi.live.rooms.tournament`); every change is a command
to its owner, stamped here with the wall time from the injected ``clock`` and the acting arbiter's name, decided
by the pure journal, persisted, then applied. Reading is the owner's in-memory state.

Results from live games (the hook): :meth:`TournamentService.create_game_rooms` creates one togyz room per board of
a published round, with the players' secret links, and records ``game_room_linked {round, board, room_id}`` in the
tournament's log — the reference from the tournament to its games. :meth:`TournamentService.collect_results` reads
each linked game room; a finished game's result, final kazans and end time (the wall time of the event that ended
it) are entered with ``source: live`` by the ``system`` actor. The round, standings and protest pages call it
before showing anything, and the arbiter can press "collect results"; collecting twice changes nothing, and a
result the arbiter already entered (or a protest changed) is never overwritten by a game room.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy.exc import IntegrityError

from toreshi.live.registry import LiveRoom, RoomSource
from toreshi.live.room import Actor, Command, Decided
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.live.rooms.tournament import ARBITER, KIND, SYSTEM, TournamentRoom
from toreshi.store import EventStore, RoomKind, UnknownRoomError
from toreshi.store.accounts import Accounts
from toreshi.togyz.position import BLACK, WHITE
from toreshi.tournament.journal import TournamentState
from toreshi.tournament.model import GameResult
from toreshi.web.rooms_api import new_room_id, refuse_unstorable, token_digest

ROOM_ID_BYTES = 6


def utc_now() -> datetime:
    return datetime.now(UTC)


class UnknownTournamentError(LookupError):
    """No tournament room with that id."""


@dataclass(frozen=True)
class GameFinish:
    """What a finished game room tells the tournament: result, final kazans, and the wall times that matter."""

    result: GameResult
    kazans: tuple[int, int] | None
    ended_at: datetime
    white_signed_at: datetime | None
    black_signed_at: datetime | None


class TournamentService:
    """Tournament rooms over an :class:`EventStore` and the live rooms (:class:`~toreshi.live.registry.RoomSource`)."""

    def __init__(
        self,
        store: EventStore,
        rooms: RoomSource,
        accounts: Accounts | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.accounts = accounts
        self.clock = clock

    # --- tournaments ------------------------------------------------------------------------------------

    async def create(self, by: str, settings: Mapping[str, Any]) -> str:
        """A new tournament room with its settings; returns its id. Bad settings leave no room behind."""
        room_id = f"t-{secrets.token_hex(ROOM_ID_BYTES)}"
        # Decide first on a scratch room, so a refused creation does not leave an empty room in the store.
        refuse_unstorable(dict(settings))
        TournamentRoom().decide(self._command("create", dict(settings), by, ARBITER), 0)
        await self.store.create_room(room_id, RoomKind.TOURNAMENT)
        await self.command(room_id, "create", settings, by)
        return room_id

    async def command(
        self, tournament_id: str, kind: str, data: Mapping[str, Any], by: str, role: str = ARBITER
    ) -> TournamentState:
        """Run one command (raises :class:`~toreshi.kit.refusal.Refused`); returns the new state."""
        owner = await self._owner(tournament_id)
        await owner.handle(self._command(kind, dict(data), by, role))
        return _logic(owner.logic).state

    def _command(self, kind: str, data: dict[str, Any], by: str, role: str) -> Command:
        return Command(kind, Actor(role, by), {**data, "at": self.clock().isoformat()})

    async def state(self, tournament_id: str) -> TournamentState:
        owner = await self._owner(tournament_id)
        return _logic(owner.logic).state

    async def tournaments(self) -> list[tuple[str, TournamentState]]:
        """Every tournament, oldest first."""
        found = []
        for room in await self.store.rooms(kind=RoomKind.TOURNAMENT):
            found.append((room.id, await self.state(room.id)))
        return found

    async def _owner(self, tournament_id: str) -> LiveRoom:
        try:
            room = await self.store.room(tournament_id)
        except (UnknownRoomError, ValueError):
            raise UnknownTournamentError(tournament_id) from None
        if room.kind != RoomKind.TOURNAMENT:
            raise UnknownTournamentError(tournament_id)
        return await self.rooms.get(room.id, KIND)

    # --- team links (TK-P1: representatives and coaches file protests) -----------------------------------

    async def issue_team_link(self, tournament_id: str, team: str) -> str:
        """A new secret token for ``team``'s protest link (kept as a digest; every link issued stays valid)."""
        if self.accounts is None:
            raise UnknownTournamentError("no accounts store: team links cannot be issued")
        state = await self.state(tournament_id)
        index = [t.name for t in state.t.teams].index(state.t.team(team).name) + 1
        token = secrets.token_urlsafe(18)
        for attempt in range(1, 100):
            try:
                await self.accounts.grant(tournament_id, f"team{index}.{attempt}", team, token_digest(token))
            except IntegrityError:
                continue
            return token
        raise UnknownTournamentError(f"team {team!r} has too many links")

    async def team_of(self, tournament_id: str, token: str) -> str | None:
        """The team whose protest link ``token`` is, or None."""
        if self.accounts is None or not token:
            return None
        grant = await self.accounts.grant_for(tournament_id, token_digest(token))
        if grant is None or not grant.role.startswith("team"):
            return None
        return grant.name

    # --- live games -------------------------------------------------------------------------------------

    async def create_game_rooms(
        self,
        tournament_id: str,
        round_number: int,
        by: str,
        control: Mapping[str, Any],
        settings: Mapping[str, Any] | None = None,
    ) -> dict[int, tuple[str, dict[str, str]]]:
        """A togyz room for every board of a published round that has none and no result yet.

        Returns ``{board: (room_id, {"white": token, "black": token})}`` — the secret link tokens, shown once.
        """
        state = await self.state(tournament_id)
        rnd = state.t.round(round_number)
        made: dict[int, tuple[str, dict[str, str]]] = {}
        for game in rnd.games:
            if state.room_of(round_number, game.board) is not None or game.result is not None:
                continue
            white, black = state.t.participant(game.white).name, state.t.participant(game.black).name
            room_id = new_room_id("g")
            await self.store.create_room(room_id, RoomKind.TOGYZ)
            owner = await self.rooms.get(room_id, "togyz")
            await owner.handle(
                Command(
                    "create",
                    Actor("arbiter", by),
                    {"white": white, "black": black, "control": dict(control), "settings": dict(settings or {})},
                )
            )
            tokens = {"white": secrets.token_urlsafe(18), "black": secrets.token_urlsafe(18)}
            if self.accounts is not None:
                for role, token in tokens.items():
                    await self.accounts.grant(room_id, role, white if role == "white" else black, token_digest(token))
            await self.command(
                tournament_id, "link_game_room", {"round": round_number, "board": game.board, "room_id": room_id}, by
            )
            made[game.board] = (room_id, tokens)
        return made

    async def game_finish(self, room_id: str) -> GameFinish | None:
        """The outcome of a linked game room, or None while it is not over."""
        owner = await self.rooms.get(room_id, "togyz")
        live = owner.logic
        if isinstance(live, TogyzRoom) and (live.game is None or not live.game.state.is_over):
            return None  # still being played: no need to read its log
        events = await self.store.load(room_id)
        room = TogyzRoom()
        ended_at: datetime | None = None
        signed: list[datetime | None] = [None, None]
        for stored in events:
            room.apply(Decided(stored.type, stored.payload), stored.server_time_ms)
            game = room.game
            assert game is not None
            state = game.state
            if state.is_over and ended_at is None:
                ended_at = stored.created_at
            for index, side in enumerate((WHITE, BLACK)):
                if state.signed_at[side] is not None and signed[index] is None:
                    signed[index] = stored.created_at
        if room.game is None or ended_at is None or room.game.state.ending is None:
            return None
        state = room.game.state
        assert state.ending is not None
        result = GameResult[state.ending.result.name]
        kazans = (state.board.kazans[WHITE], state.board.kazans[BLACK]) if result.played else None
        return GameFinish(result, kazans, ended_at, signed[0], signed[1])

    async def collect_results(self, tournament_id: str) -> int:
        """Enter the results of finished linked games that have none yet; returns how many were entered."""
        state = await self.state(tournament_id)
        entered = 0
        for (round_number, board), room_id in sorted(state.game_rooms.items()):
            game = state.t.round(round_number).game(board)
            if game.result is not None:
                continue
            finish = await self.game_finish(room_id)
            if finish is None:
                continue
            data: dict[str, Any] = {
                "round": round_number,
                "board": board,
                "result": finish.result.value,
                "ended_at": finish.ended_at.isoformat(),
                "source": "live",
            }
            if finish.kazans is not None:
                data["kazans"] = list(finish.kazans)
            state = await self.command(tournament_id, "enter_result", data, "live game", role=SYSTEM)
            entered += 1
        return entered

    async def signed_times(self, tournament_id: str, round_number: int, board: int) -> dict[str, str]:
        """When each player signed the game's result in its room (for a protest's TK-P2 check); {} if no room."""
        state = await self.state(tournament_id)
        room_id = state.room_of(round_number, board)
        if room_id is None:
            return {}
        finish = await self.game_finish(room_id)
        if finish is None:
            return {}
        times = {"white_signed_at": finish.white_signed_at, "black_signed_at": finish.black_signed_at}
        return {key: value.isoformat() for key, value in times.items() if value is not None}


def _logic(logic: object) -> TournamentRoom:
    if not isinstance(logic, TournamentRoom):
        raise UnknownTournamentError("not a tournament room")
    return logic
