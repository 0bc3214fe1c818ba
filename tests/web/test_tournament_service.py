"""Tournaments end to end through the service layer, on a real SQLite log: a 9-player round robin, a 30-player
Swiss paired round by round by the Dutch engine, TRF export and import, results flowing in from live games."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from toreshi.clock.presets import BLITZ, CLASSICAL_60
from toreshi.live.bus import InProcessBus
from toreshi.live.registry import Rooms
from toreshi.live.room import Actor, Command, CommandRefusedError
from toreshi.live.store_log import StoreLog
from toreshi.store import EventStore, RoomKind, RoomStatus, open_store
from toreshi.store.accounts import Accounts
from toreshi.tournament.dutch import pair_trf
from toreshi.tournament.journal import TournamentState
from toreshi.tournament.model import GameResult, ResultCode
from toreshi.tournament.standings import compute_standings, record_from_trf, trf_from_standings
from toreshi.tournament.trf import format_trf, parse_trf
from toreshi.web.app import ROOM_KINDS
from toreshi.web.tournament_service import TournamentService, UnknownTournamentError

pytestmark = pytest.mark.anyio

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    async with open_store(f"sqlite+aiosqlite:///{tmp_path / 'toreshi.db'}") as opened:
        yield opened


def make_service(store: EventStore, clock: Clock) -> tuple[TournamentService, Rooms]:
    rooms = Rooms(StoreLog(store), InProcessBus(), dict(ROOM_KINDS))
    return TournamentService(store, rooms, Accounts(store.engine), clock), rooms


async def play_round(svc: TournamentService, tid: str, decide: dict[tuple[int, int], str]) -> TournamentState:
    state = await svc.command(tid, "pair_round", {}, "chief")
    state = await svc.command(tid, "publish_round", {}, "chief")
    number = len(state.t.rounds)
    for game in state.t.round(number).games:
        result = decide[(game.white, game.black)]
        state = await svc.command(tid, "enter_result", {"round": number, "board": game.board, "result": result}, "a")
    return state


async def test_a_nine_player_round_robin_to_its_final_standings(store: EventStore) -> None:
    clock = Clock()
    svc, rooms = make_service(store, clock)
    tid = await svc.create("chief", {"name": "Club championship", "system": "round_robin", "tiebreaks": "DE, SB"})
    await svc.command(tid, "import_participants", {"csv": "name\n" + "\n".join(f"Player {i}" for i in range(1, 10))},
                      "chief")  # fmt: skip
    # The lower pairing number wins, except that 1–2 and 5–9 are drawn and 3 beats 2.
    results = {}
    for a in range(1, 10):
        for b in range(1, 10):
            if a != b:
                drawn = {a, b} in ({1, 2}, {5, 9})
                results[(a, b)] = "½-½" if drawn else ("1-0" if (a < b) != ({a, b} == {2, 3}) else "0-1")
    for _ in range(9):
        clock.now += timedelta(hours=3)
        state = await play_round(svc, tid, results)
    t = state.t
    assert len(t.rounds) == t.rounds_planned == 9
    met = [frozenset((g.white, g.black)) for r in t.rounds for g in r.games]
    assert len(met) == len(set(met)) == 36  # every pair exactly once
    assert sorted(b.player for r in t.rounds for b in r.byes) == list(range(1, 10))  # each sits out once
    rows = state.standings().rows
    assert [row.player.number for row in rows] == [1, 3, 2, 4, 5, 6, 7, 8, 9]
    assert [row.rank for row in rows] == list(range(1, 10))
    assert [row.points for row in rows] == [Fraction(15, 2), 7, Fraction(13, 2), 5, Fraction(7, 2), 3, 2, 1,
                                            Fraction(1, 2)]  # fmt: skip
    with pytest.raises(CommandRefusedError, match="all 9 rounds have been paired"):
        await svc.command(tid, "pair_round", {}, "chief")
    await rooms.close()


def simulated(rng: random.Random, white_rating: int, black_rating: int) -> str:
    expected = 1 / (1 + 10 ** ((black_rating - white_rating) / 400))
    roll = rng.random()
    if roll < expected - 0.1:
        return "1-0"
    if roll < expected + 0.1:
        return "½-½"
    return "0-1"


async def test_a_thirty_player_swiss_paired_round_by_round_by_the_dutch_system(store: EventStore) -> None:
    clock = Clock()
    svc, rooms = make_service(store, clock)
    tid = await svc.create("chief", {"name": "Open", "system": "swiss_dutch", "rounds": 7})
    rng = random.Random(2026)
    ratings = sorted((rng.randrange(1200, 2200) for _ in range(30)), reverse=True)
    csv = "name,rating\n" + "\n".join(f"Player {i:02},{r}" for i, r in enumerate(ratings[::-1], start=1))
    await svc.command(tid, "import_participants", {"csv": csv}, "chief")
    state = await svc.command(tid, "seed_by_rating", {}, "chief")
    assert [p.rating for p in sorted(state.t.participants, key=lambda p: p.number)] == ratings
    await svc.command(tid, "request_bye", {"number": 7, "round": 4, "code": "H"}, "chief")
    rating = {p.number: p.rating or 0 for p in state.t.participants}
    for number in range(1, 8):
        if number == 6:
            await svc.command(tid, "withdraw", {"number": 12, "reason": "went home"}, "chief")
        state = await svc.command(tid, "pair_round", {}, "chief")
        assert state.draft is not None and state.draft.method == "dutch"
        state = await svc.command(tid, "publish_round", {}, "chief")
        for game in state.t.round(number).games:
            result = simulated(rng, rating[game.white], rating[game.black])
            data = {"round": number, "board": game.board, "result": result}
            state = await svc.command(tid, "enter_result", data, "arbiter")
        clock.now += timedelta(hours=2)
    t = state.t
    played: set[frozenset[int]] = set()
    pab: list[int] = []
    for rnd in t.rounds:
        seen = [p for g in rnd.games for p in (g.white, g.black)] + [b.player for b in rnd.byes]
        expected = set(range(1, 31)) - ({12} if rnd.number >= 6 else set())
        assert sorted(seen) == sorted(expected), rnd.number  # everyone still in, exactly once
        pab += [b.player for b in rnd.byes if b.code is ResultCode.PAIRING_BYE]
        for g in rnd.games:
            pair = frozenset((g.white, g.black))
            assert pair not in played, (rnd.number, g)  # no rematch
            played.add(pair)
    assert len(pab) == len(set(pab))  # no one gets the pairing-allocated bye twice
    assert {b.code for b in t.round(4).byes if b.player == 7} == {ResultCode.HALF_BYE}
    standings = state.standings()
    assert len(standings.rows) == 30 and standings.rows[0].rank == 1
    record = t.record()
    assert record.rounds_of(12)[-1].code is ResultCode.ZERO_BYE  # a Swiss withdrawal: absent from round 6 on

    # The exported TRF reads back to the same standings, and the Dutch engine pairs its rounds as they were
    # published (rounds without a requested bye or a withdrawal, whose absences a results file does not hold).
    trf = trf_from_standings(standings, t.name, t.rounds_planned, "FIDE_DUTCH_2025")
    back = parse_trf(format_trf(trf))
    again = compute_standings(record_from_trf(back), standings.tiebreaks)
    assert [(r.rank, r.player.number, r.points) for r in again.rows] == [
        (r.rank, r.player.number, r.points) for r in standings.rows
    ]
    for number in (1, 2, 3, 5):
        pairing = pair_trf(back.truncated(number - 1), number)
        published = t.round(number)
        assert [(p.white, p.black) for p in pairing.pairs] == [(g.white, g.black) for g in published.games]
    await rooms.close()


async def test_results_flow_in_from_the_live_game_rooms(store: EventStore) -> None:
    clock = Clock()
    svc, rooms = make_service(store, clock)
    tid = await svc.create("chief", {"name": "Blitz", "system": "round_robin", "time_control": "blitz"})
    for name in ("Abay", "Bolat", "Dana", "Erlan"):
        await svc.command(tid, "add_participant", {"name": name}, "chief")
    await svc.command(tid, "pair_round", {}, "chief")
    state = await svc.command(tid, "publish_round", {}, "chief")
    # A classical control: its players sign score sheets (in blitz and rapid nobody does, TK-B2).
    made = await svc.create_game_rooms(tid, 1, "chief", CLASSICAL_60.to_dict(), {"flag_mode": "automatic"})
    assert sorted(made) == [1, 2]
    assert await svc.create_game_rooms(tid, 1, "chief", BLITZ.to_dict()) == {}  # a second press makes no new rooms
    state = await svc.state(tid)
    room_1, tokens = made[1]
    assert state.room_of(1, 1) == room_1 and set(tokens) == {"white", "black"}
    assert (await store.room(room_1)).kind is RoomKind.TOGYZ
    grant = await Accounts(store.engine).summary(room_1)
    assert grant  # the players' links exist
    assert await svc.collect_results(tid) == 0  # nothing finished yet
    owner = await rooms.get(room_1, "togyz")
    await owner.handle(Command("start", Actor("arbiter", "chief")))
    await owner.handle(Command("resign", Actor("white", "")))
    for side in ("white", "black"):
        await owner.handle(Command("sign", Actor(side, "")))
    assert (await store.room(room_1)).status is RoomStatus.FINISHED
    assert await svc.collect_results(tid) == 1
    assert await svc.collect_results(tid) == 0  # collecting again changes nothing
    state = await svc.state(tid)
    game = state.t.round(1).game(1)
    assert game.result is GameResult.BLACK_WINS and game.kazans == (0, 0) and game.ended_at is not None
    assert state.result_sources[(1, 1)] == "live"
    assert state.audit[-1].by == "live game" and "[live]" in state.audit[-1].detail
    signed = await svc.signed_times(tid, 1, 1)
    assert set(signed) == {"white_signed_at", "black_signed_at"}
    assert await svc.signed_times(tid, 1, 2) == {}  # not over yet
    # The arbiter's correction stands over the game room, which never overwrites it.
    await svc.command(tid, "enter_result", {"round": 1, "board": 1, "result": "½-½", "reason": "illegal move"}, "a")
    assert await svc.collect_results(tid) == 0
    assert (await svc.state(tid)).t.round(1).game(1).result is GameResult.DRAW
    await rooms.close()


async def test_tournaments_survive_a_restart_and_bad_ids_are_refused(store: EventStore) -> None:
    clock = Clock()
    svc, rooms = make_service(store, clock)
    with pytest.raises(CommandRefusedError, match="a Swiss needs its number of rounds"):
        await svc.create("chief", {"name": "Broken", "system": "swiss_dutch", "rounds": 0})
    assert await store.rooms(kind=RoomKind.TOURNAMENT) == []  # a refused creation leaves no room behind
    tid = await svc.create("chief", {"name": "Cup", "system": "swiss_dutch", "rounds": 5})
    await svc.command(tid, "add_participant", {"name": "Abay", "rating": 1500}, "chief")
    before = await svc.state(tid)
    await rooms.close()
    svc2, rooms2 = make_service(store, clock)
    after = await svc2.state(tid)
    assert after.t == before.t and after.audit == before.audit
    assert [(i, s.t.name) for i, s in await svc2.tournaments()] == [(tid, "Cup")]
    with pytest.raises(UnknownTournamentError):
        await svc2.state("t-missing")
    await store.create_room("g-1", RoomKind.TOGYZ)
    with pytest.raises(UnknownTournamentError):
        await svc2.state("g-1")
    await rooms2.close()
