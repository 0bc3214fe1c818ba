"""The tournament service: tournaments stored as room event logs, and the results of their live games.

Each tournament is a room of kind ``tournament`` (:mod:`toreshi.live.rooms.tournament`); every change is a typed
command (:mod:`toreshi.tournament.journal.commands`) to its owner, stamped here with the wall time from the
injected ``clock`` and the acting arbiter's name, decided by the pure journal, persisted, then applied. Reading is
the owner's (or, on another instance, the replica's) in-memory state: reading never writes.

Results from live games are pushed, not pulled. :meth:`TournamentService.create_game_rooms` creates one togyz room
per board of a published round, with the players' secret links, and records ``game_room_linked`` in the
tournament's log. When such a game room finishes, its owner calls :meth:`TournamentService.game_room_finished`
(the rooms' ``on_finished`` hook) on whichever instance owns the game; the result, the final kazans and the end
time (the wall time of the event that ended the game) go to the tournament as ``enter_result`` by the ``system``
actor — forwarded to the tournament's owner wherever it is. A push that could not be made (the instance died
between the game's end and the push, the tournament's owner was unreachable) is made by :meth:`reconcile`, which
the app runs at start-up and then periodically, in the background. Pushing twice changes nothing, and a result
the arbiter entered (or a protest changed) is never overwritten by a game room.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.registry import LiveRoom, RoomSource
from toreshi.live.room import Actor, Command, Decided
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.services.common import AttachedRooms, Pushes, live_room_of_kind, utc_now
from toreshi.store import EventStore, RoomKind, RoomStatus, UnknownRoomError
from toreshi.store.accounts import Accounts, UnknownGrantError, token_digest
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.events import TimeAdded, event_from_dict
from toreshi.togyz.position import BLACK, WHITE
from toreshi.tournament.journal import TournamentCommand, TournamentState
from toreshi.tournament.journal.commands import (
    ARBITER,
    SYSTEM,
    Create,
    EnterResult,
    LinkGameRoom,
    RecordClockCorrection,
    command_data,
)
from toreshi.tournament.model import GameResult

log = logging.getLogger(__name__)

ROOM_ID_BYTES = 6
GAME_KIND = "togyz"
RECONCILE_EVERY_S = 60.0
"""How often the app looks for finished linked games whose result did not reach the tournament."""


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


@dataclass(frozen=True)
class BoardLink:
    """A game room's place in a tournament."""

    tournament: str
    round: int
    board: int


class TournamentService(AttachedRooms):
    """Tournament rooms over an :class:`EventStore` and the live rooms (:class:`~toreshi.live.registry.RoomSource`)."""

    def __init__(
        self,
        store: EventStore,
        rooms: RoomSource | None = None,
        accounts: Accounts | None = None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = store
        self._rooms = rooms
        self.accounts = accounts
        self.clock = clock
        self._links: dict[str, BoardLink] = {}
        self._pushes = Pushes(log, "the result of game room %s could not be pushed to its tournament")

    # --- tournaments ------------------------------------------------------------------------------------

    async def create(self, by: str, command: Create) -> str:
        """A new tournament room with its settings; returns its id. Bad settings leave no room behind."""
        # Decide first on a scratch room, so a refused creation does not leave an empty room in the store.
        TournamentRoom().decide(self._command(command, by, ARBITER), 0)
        room_id = f"t-{secrets.token_hex(ROOM_ID_BYTES)}"
        await self.store.create_room(room_id, RoomKind.TOURNAMENT)
        await self.command(room_id, command, by)
        return room_id

    async def command(
        self, tournament_id: str, command: TournamentCommand, by: str, role: str = ARBITER
    ) -> TournamentState:
        """Run one command (raises :class:`~toreshi.kit.refusal.Refused`); returns the new state."""
        owner = await self._owner(tournament_id)
        await owner.handle(self._command(command, by, role))
        return _logic(owner.logic).state

    def _command(self, command: TournamentCommand, by: str, role: str) -> Command:
        return Command(command.type, Actor(role, by), command_data(command), meta={"at": self.clock().isoformat()})

    async def state(self, tournament_id: str) -> TournamentState:
        owner = await self._owner(tournament_id)
        return _logic(owner.logic).state

    async def tournaments(self) -> list[tuple[str, TournamentState]]:
        """Every tournament, oldest first."""
        return [(room.id, await self.state(room.id)) for room in await self.store.rooms(kind=RoomKind.TOURNAMENT)]

    async def _owner(self, tournament_id: str) -> LiveRoom:
        return await live_room_of_kind(
            self.store, self.rooms, tournament_id, RoomKind.TOURNAMENT, UnknownTournamentError
        )

    # --- team links (TK-P1: representatives and coaches file protests) -----------------------------------

    async def issue_team_link(self, tournament_id: str, team: str) -> str:
        """A new secret token for ``team``'s protest link; the team's previous link stops opening its page at once
        (issue 13 §4: a link given to the wrong person is replaced, not added to).

        One grant per team (``team<N>``, N its place in the list), at the next generation each time: derived from
        the app's key where the accounts have it (as the players' links are), else a random token whose digest
        replaces the old one. Refuses (``unknown_team``) a team the tournament does not have."""
        if self.accounts is None:
            raise RuntimeError("no accounts store: team links cannot be issued")
        state = await self.state(tournament_id)
        name = state.t.team(team).name
        role = _team_role([t.name for t in state.t.teams].index(name) + 1)
        if self.accounts.key is not None:
            try:
                link = await self.accounts.reissue_link(tournament_id, role)
            except UnknownGrantError:
                link = await self.accounts.issue_link(tournament_id, role, name)
            assert link.secret is not None  # derived with the accounts' own key
            return link.secret
        token = secrets.token_urlsafe(18)
        try:
            await self.accounts.replace_token(tournament_id, role, token_digest(token))
        except UnknownGrantError:
            await self.accounts.grant(tournament_id, role, name, token_digest(token))
        return token

    async def team_of(self, tournament_id: str, token: str) -> str | None:
        """The team whose current protest link ``token`` is, or None (a forged link, or one replaced since).

        A link issued before links were replaced (``team<N>.<M>``, every one kept) opens the page only until the
        team is given a link of today's kind."""
        if self.accounts is None or not token:
            return None
        grant = await self.accounts.grant_for(tournament_id, token_digest(token))
        if grant is None or not grant.role.startswith("team"):
            return None
        current, dot, _attempt = grant.role.partition(".")
        if dot and await self.accounts.link(tournament_id, current) is not None:
            return None  # an older kind of link, replaced by the team's one link
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
            room_id = f"g-{secrets.token_hex(ROOM_ID_BYTES)}"
            await self.store.create_room(room_id, RoomKind.TOGYZ)
            owner = await self.rooms.get(room_id, GAME_KIND)
            # A clock correction above the tournament's amount is a departure in the room (issue 29).
            limit = {"clock_correction_warning_ms": state.clock_correction_over_s * 1000}
            data = {"white": white, "black": black, "control": dict(control), "settings": {**limit, **(settings or {})},
                    "event": state.t.name[:100], "round": str(round_number), "board": game.board}  # fmt: skip
            await owner.handle(Command("create", Actor("arbiter", by), data))
            tokens = await self._player_links(room_id, white, black)
            await self.command(tournament_id, LinkGameRoom(round=round_number, board=game.board, room_id=room_id), by)
            self._links[room_id] = BoardLink(tournament_id, round_number, game.board)
            made[game.board] = (room_id, tokens)
        return made

    async def start_round_clocks(
        self, tournament_id: str, round_number: int, by: str
    ) -> tuple[int, dict[int, Refusal]]:
        """Start the clock of every live game of a round at once (the round's start): each room is sent the
        arbiter's ``start``, as its console would. Returns how many started and, by board, why the others did not
        (a game already running is left alone and not counted as either)."""
        state = await self.state(tournament_id)
        started, refused = 0, {}
        for game in state.t.round(round_number).games:
            room_id = state.room_of(round_number, game.board)
            if room_id is None or game.result is not None:
                continue
            owner = await self.rooms.get(room_id, GAME_KIND)
            try:
                await owner.handle(Command("start", Actor("arbiter", by), {}))
            except Refused as why:
                if why.refusal.code is not TogyzCode.ALREADY_STARTED:
                    refused[game.board] = why.refusal
            else:
                started += 1
        return started, refused

    async def _player_links(self, room_id: str, white: str, black: str) -> dict[str, str]:
        """The players' links of a new game room. Derived from the app's key where the accounts have it, so the
        arbiter can show and print them again at any time, from any browser (the round's link sheet); random
        secrets, shown once, otherwise."""
        if self.accounts is not None and self.accounts.key is not None:
            tokens = {}
            for role, name in (("white", white), ("black", black)):
                link = await self.accounts.issue_link(room_id, role, name)
                assert link.secret is not None  # derived with the accounts' own key
                tokens[role] = link.secret
            return tokens
        tokens = {"white": secrets.token_urlsafe(18), "black": secrets.token_urlsafe(18)}
        if self.accounts is not None:
            for role, token in tokens.items():
                await self.accounts.grant(room_id, role, white if role == "white" else black, token_digest(token))
        return tokens

    async def game_finish(self, room_id: str) -> GameFinish | None:
        """The outcome of a finished game room (its log, with the wall times), or None while it is not over."""
        try:
            room = await self.store.room(room_id)
        except (UnknownRoomError, ValueError):
            return None
        if room.status is not RoomStatus.FINISHED:
            return None  # still being played: no need to read its log
        game_room = TogyzRoom()
        ended_at: datetime | None = None
        signed: list[datetime | None] = [None, None]
        for stored in await self.store.load(room_id):
            game_room.apply(Decided(stored.type, stored.payload), stored.server_time_ms)
            if game_room.game is None:
                continue
            state = game_room.game.state
            if state.is_over and ended_at is None:
                ended_at = stored.created_at
            for index, side in enumerate((WHITE, BLACK)):
                if state.signed_at[side] is not None and signed[index] is None:
                    signed[index] = stored.created_at
        if game_room.game is None or ended_at is None or game_room.game.state.ending is None:
            return None
        state = game_room.game.state
        assert state.ending is not None
        result = GameResult[state.ending.result.name]
        kazans = (state.board.kazans[WHITE], state.board.kazans[BLACK]) if result.played else None
        return GameFinish(result, kazans, ended_at, signed[0], signed[1])

    def game_room_finished(self, room_id: str, kind: str) -> None:
        """The rooms' ``on_finished`` hook: a game room just finished (or changed after it), so its result is
        pushed to its tournament, if it has one, in the background."""
        if kind == GAME_KIND:
            self._pushes.start(room_id, self.push_result(room_id))

    async def settled(self) -> None:
        """Wait for the pushes under way (tests, and the app's shutdown)."""
        await self._pushes.settled()

    async def push_result(self, room_id: str) -> bool:
        """Enter the result of the finished game room ``room_id`` in its tournament; whether one was entered."""
        link = await self.link_of(room_id)
        if link is None:
            return False
        return await self._push(link, room_id)

    async def _push(self, link: BoardLink, room_id: str) -> bool:
        state = await self.state(link.tournament)
        state = await self.carry_clock_corrections(link, room_id, state)
        if state.t.round(link.round).game(link.board).result is not None:
            return False  # already there (pushed before, or entered by the arbiter): nothing to send
        finish = await self.game_finish(room_id)
        if finish is None:
            return False
        report = EnterResult(round=link.round, board=link.board, result=finish.result.value, kazans=finish.kazans,
                             ended_at=finish.ended_at)  # fmt: skip
        try:
            state = await self.command(link.tournament, report, "", role=SYSTEM)
        except Refused as refused:  # the tournament's rules refuse it (the round was changed meanwhile): logged
            log.warning("game room %s: its tournament refused the result: %s", room_id, refused)
            return False
        return state.t.round(link.round).game(link.board).result is finish.result

    async def carry_clock_corrections(self, link: BoardLink, room_id: str, state: TournamentState) -> TournamentState:
        """Carry the clock corrections of the finished game room ``room_id`` that departed from the regulation
        (above the tournament's amount, confirmed with a reason in the room) into its tournament, each once, with
        when and by whom it was made: they travel with the tournament (audit log, report, TRF). A room still
        being played is left alone (read when it finishes)."""
        try:
            room = await self.store.room(room_id)
        except (UnknownRoomError, ValueError):
            return state
        if room.status is not RoomStatus.FINISHED:
            return state
        game = state.t.round(link.round).game(link.board)
        for stored in await self.store.load(room_id):
            if stored.type != TimeAdded.type or not stored.payload.get("departure"):
                continue
            event = event_from_dict(stored.payload, name=stored.type)
            assert isinstance(event, TimeAdded)
            if (link.round, link.board, event.at_ms) in state.clock_corrections:
                continue
            record = RecordClockCorrection(
                round=link.round, board=link.board, number=game.white if event.side is WHITE else game.black,
                delta_ms=event.delta_ms, at_ms=event.at_ms, corrected_at=stored.created_at, arbiter=event.by[:80],
                reason=event.reason[:500], confirmed=True,
            )  # fmt: skip
            try:
                state = await self.command(link.tournament, record, "", role=SYSTEM)
            except Refused as refused:
                log.warning("game room %s: its tournament refused a clock correction: %s", room_id, refused)
        return state

    async def link_of(self, room_id: str) -> BoardLink | None:
        """The tournament, round and board a game room was made for (another instance may have made it)."""
        if room_id not in self._links:
            for tournament_id, state in await self.tournaments():
                for (round_number, board), linked in state.game_rooms.items():
                    self._links[linked] = BoardLink(tournament_id, round_number, board)
        return self._links.get(room_id)

    async def reconcile(self, tournament_id: str | None = None) -> int:
        """Push the result of every finished linked game (of every tournament, or of ``tournament_id``) that has
        none in its tournament; returns how many.

        Run in the background (at start-up and every :data:`RECONCILE_EVERY_S`) and by the arbiter's button,
        never by a page's GET."""
        entered = 0
        if tournament_id is None:
            found = await self.tournaments()
        else:
            found = [(tournament_id, await self.state(tournament_id))]
        for tid, state in found:
            if state.tournament is None:
                continue
            for (round_number, board), room_id in sorted(state.game_rooms.items()):
                if state.t.round(round_number).game(board).result is not None:
                    continue
                if await self._push(BoardLink(tid, round_number, board), room_id):
                    entered += 1
        return entered

    async def keep_reconciled(self, interval_s: float = RECONCILE_EVERY_S) -> None:
        """:meth:`reconcile` now, then every ``interval_s`` seconds, until cancelled."""
        while True:
            try:
                found = await self.reconcile()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the reconciliation of live results failed; trying again later")
            else:
                if found:
                    log.info("results of %d finished games reached their tournaments late", found)
            await asyncio.sleep(interval_s)

    async def signed_times(
        self, tournament_id: str, round_number: int, board: int
    ) -> tuple[datetime | None, datetime | None]:
        """When each player signed the game's result in its room (for a protest's TK-P2 check)."""
        state = await self.state(tournament_id)
        room_id = state.room_of(round_number, board)
        finish = await self.game_finish(room_id) if room_id is not None else None
        if finish is None:
            return None, None
        return finish.white_signed_at, finish.black_signed_at


def _logic(logic: object) -> TournamentRoom:
    if not isinstance(logic, TournamentRoom):
        raise UnknownTournamentError("not a tournament room")
    return logic


def _team_role(index: int) -> str:
    """The grant of the ``index``-th team's protest link (1-based)."""
    return f"team{index}"
