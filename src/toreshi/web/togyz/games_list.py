"""The list of togyz games on the home page: statuses true to each game, results, filters, pages and the archive.

Reading it writes nothing. A room the store holds as live (a game not yet over) is read from its owner, which the
app resumed at start-up; a finished game is folded from its log once and kept in a small cache by its version (a
finished game changes only by signatures and protests, which move the version). A game linked to a tournament is
marked with the tournament, the round and the board; when the arbiter typed its result into the tournament instead
of the game being played, the list says so with that result.

Filters: ``all`` (not archived), ``live`` (being played: the clock running or stopped), ``adjourned`` (adjourned
or postponed), ``finished``, ``tournament`` (linked to a tournament), ``archived``. A practice game is listed
only when its player asked for it (``GameSettings.practice_listed``); a private one is archived when it ends.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from starlette.requests import HTTPConnection

from toreshi.live.room import Decided
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.live.rooms.tournament import TournamentRoom
from toreshi.store import Room, RoomKind, RoomStatus
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.state import GameState, GameStatus
from toreshi.web.common.services import services_of

FILTERS = ("all", "live", "adjourned", "finished", "tournament", "archived")
PAGE_SIZE = 20
_FINISHED_CACHE_SIZE = 2_000


@dataclass(frozen=True)
class TournamentBoard:
    """Where a game stands in a tournament: its name, the round and the board, and a result typed by hand."""

    tournament_id: str
    name: str
    round: int
    board: int
    result: GameResult | None


@dataclass(frozen=True)
class GameRow:
    room_id: str
    state: GameState
    created_at: datetime
    archived: bool
    tournament: TournamentBoard | None

    @property
    def status(self) -> GameStatus:
        return self.state.status

    @property
    def entered_result(self) -> GameResult | None:
        """A result the arbiter entered in the tournament for a game not finished in its room."""
        if self.tournament is None or self.state.is_over:
            return None
        return self.tournament.result

    @property
    def can_archive(self) -> bool:
        """Only a game that is not being played leaves the list: finished, or never started."""
        return self.status in (GameStatus.FINISHED, GameStatus.SCHEDULED, GameStatus.POSTPONED)


@dataclass(frozen=True)
class GamePage:
    rows: list[GameRow]
    filter: str
    page: int
    pages: int
    total: int


_finished: OrderedDict[tuple[str, int], GameState] = OrderedDict()


async def _state_of(connection: HTTPConnection, room: Room) -> GameState | None:
    """The game of ``room`` as it stands, without writing anything (``None``: no game was ever created in it)."""
    services = services_of(connection)
    if room.status is not RoomStatus.FINISHED:
        owner = await services.rooms.get(room.id, room.kind.value)
        logic = owner.logic
        game = logic.game if isinstance(logic, TogyzRoom) else None
        return None if game is None else game.state
    key = (room.id, room.version)
    cached = _finished.get(key)
    if cached is not None:
        _finished.move_to_end(key)
        return cached
    folded = TogyzRoom()
    for event in await services.store.load(room.id):
        folded.apply(Decided(event.type, event.payload), event.server_time_ms)
    if folded.game is None:
        return None
    state = folded.game.state
    _finished[key] = state
    if len(_finished) > _FINISHED_CACHE_SIZE:
        _finished.popitem(last=False)
    return state


async def tournament_boards(connection: HTTPConnection) -> dict[str, TournamentBoard]:
    """Every game room linked to a tournament, with where it stands there (tournaments are live rooms, in memory)."""
    services = services_of(connection)
    boards: dict[str, TournamentBoard] = {}
    for room in await services.store.rooms(kind=RoomKind.TOURNAMENT):
        owner = await services.rooms.get(room.id, room.kind.value)
        logic = owner.logic
        if not isinstance(logic, TournamentRoom) or logic.state.tournament is None:
            continue
        tournament = logic.state.tournament
        for (round_number, board), game_room in logic.state.game_rooms.items():
            entered = None
            for played in tournament.rounds[round_number - 1].games if round_number <= len(tournament.rounds) else ():
                if played.board == board and played.result is not None:
                    entered = GameResult[played.result.name]
            boards[game_room] = TournamentBoard(room.id, tournament.name, round_number, board, entered)
    return boards


def _matches(room: Room, state: GameState | None, board: TournamentBoard | None, wanted: str) -> bool:
    """Whether the game passes the filter; ``state`` is ``None`` for a finished game not folded yet (a finished
    game's status is known from its row)."""
    archived = room.archived_at is not None
    if wanted == "archived" or archived:
        return archived and wanted == "archived"
    if state is not None and state.settings.practice_level and not state.settings.practice_listed:
        return False  # a practice game is private unless its player listed it (once over, it is archived)
    if wanted == "tournament":
        return board is not None
    if state is None:
        return wanted in ("all", "finished")
    entered = board is not None and board.result is not None and not state.is_over
    status = state.status
    return {
        "all": True,
        "live": status in (GameStatus.LIVE, GameStatus.PAUSED) and not entered,
        "adjourned": status in (GameStatus.ADJOURNED, GameStatus.POSTPONED),
        "finished": status is GameStatus.FINISHED or entered,
    }[wanted]


async def list_games(connection: HTTPConnection, wanted: str = "all", page: int = 1) -> GamePage:
    """One page of the games that pass the filter ``wanted``, newest first. Only the games of the page shown are
    folded from their logs; the others are told apart by their rows (and live ones by their owners, in memory)."""
    if wanted not in FILTERS:
        wanted = "all"
    services = services_of(connection)
    boards = await tournament_boards(connection)
    passing: list[tuple[Room, GameState | None]] = []
    for room in reversed(await services.store.rooms(kind=RoomKind.TOGYZ)):
        state = None if room.status is RoomStatus.FINISHED else await _state_of(connection, room)
        if state is None and room.status is not RoomStatus.FINISHED:
            continue  # an empty room (a creation that failed before such rooms were cleaned up): not a game
        if _matches(room, state, boards.get(room.id), wanted):
            passing.append((room, state))
    pages = max(1, -(-len(passing) // PAGE_SIZE))
    page = min(max(1, page), pages)
    start = (page - 1) * PAGE_SIZE
    rows = []
    for room, known in passing[start : start + PAGE_SIZE]:
        state = known or await _state_of(connection, room)
        if state is not None:
            rows.append(GameRow(room.id, state, room.created_at, room.archived_at is not None, boards.get(room.id)))
    return GamePage(rows, wanted, page, pages, len(passing))
