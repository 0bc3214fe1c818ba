"""Tournaments end to end through the service layer, on a real SQLite log: a 9-player round robin, a 30-player
Swiss paired round by round by the Dutch engine, TRF export and import, results pushed by the live games."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from toreshi.clock.presets import BLITZ, CLASSICAL_60
from toreshi.live.bus import InProcessBus
from toreshi.live.registry import Rooms
from toreshi.live.room import Actor, Command
from toreshi.live.store_log import StoreLog
from toreshi.services.tournament import TournamentService, UnknownTournamentError
from toreshi.store import EventStore, RoomKind, RoomStatus
from toreshi.store.accounts import Accounts
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.dutch import pair_trf
from toreshi.tournament.journal import ResultOrigin, ResultSource, TournamentState
from toreshi.tournament.journal.commands import (
    AddParticipant,
    Create,
    EnterResult,
    ImportParticipants,
    PairRound,
    PublishRound,
    RequestBye,
    SeedByRating,
    Withdraw,
)
from toreshi.tournament.model import GameResult, ResultCode, TournamentSystem
from toreshi.tournament.standings import compute_standings, record_from_trf, trf_from_standings
from toreshi.tournament.trf import format_trf, parse_trf
from toreshi.web.app import ROOM_KINDS

from ..tournament.refusals import refused

pytestmark = pytest.mark.anyio

START = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def make_service(store: EventStore, clock: Clock, *, push: bool = True) -> tuple[TournamentService, Rooms]:
    """The service and the rooms as the app wires them: a game room that finishes tells the service (``push``)."""
    svc = TournamentService(store, accounts=Accounts(store.engine), clock=clock)
    hook = svc.game_room_finished if push else None
    rooms = Rooms(StoreLog(store), InProcessBus(), dict(ROOM_KINDS), on_finished=hook)
    svc.attach(rooms)
    return svc, rooms


async def play_round(svc: TournamentService, tid: str, decide: dict[tuple[int, int], str]) -> TournamentState:
    state = await svc.command(tid, PairRound(), "chief")
    state = await svc.command(tid, PublishRound(), "chief")
    number = len(state.t.rounds)
    for game in state.t.round(number).games:
        result = decide[(game.white, game.black)]
        state = await svc.command(tid, EnterResult(round=number, board=game.board, result=result), "a")
    return state


async def test_a_nine_player_round_robin_to_its_final_standings(store: EventStore) -> None:
    clock = Clock()
    svc, rooms = make_service(store, clock)
    tid = await svc.create(
        "chief", Create(name="Club championship", system=TournamentSystem.ROUND_ROBIN, tiebreaks=("DE", "SB"))
    )
    players = "name\n" + "\n".join(f"Player {i}" for i in range(1, 10))
    await svc.command(tid, ImportParticipants(csv=players), "chief")
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
    with refused(TournamentCode.ALL_ROUNDS_PAIRED, rounds=9):
        await svc.command(tid, PairRound(), "chief")
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
    tid = await svc.create("chief", Create(name="Open", system=TournamentSystem.SWISS, rounds=7))
    rng = random.Random(2026)
    ratings = sorted((rng.randrange(1200, 2200) for _ in range(30)), reverse=True)
    csv = "name,rating\n" + "\n".join(f"Player {i:02},{r}" for i, r in enumerate(ratings[::-1], start=1))
    await svc.command(tid, ImportParticipants(csv=csv), "chief")
    state = await svc.command(tid, SeedByRating(), "chief")
    assert [p.rating for p in sorted(state.t.participants, key=lambda p: p.number)] == ratings
    await svc.command(tid, RequestBye(number=7, round=4), "chief")
    rating = {p.number: p.rating or 0 for p in state.t.participants}
    for number in range(1, 8):
        if number == 6:
            await svc.command(tid, Withdraw(number=12, reason="went home"), "chief")
        state = await svc.command(tid, PairRound(), "chief")
        assert state.draft is not None and state.draft.method.value == "dutch"
        state = await svc.command(tid, PublishRound(), "chief")
        for game in state.t.round(number).games:
            result = simulated(rng, rating[game.white], rating[game.black])
            state = await svc.command(tid, EnterResult(round=number, board=game.board, result=result), "arbiter")
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


async def test_results_are_pushed_by_the_live_game_rooms(store: EventStore) -> None:
    clock = Clock()
    svc, rooms = make_service(store, clock)
    tid = await svc.create("chief", Create(name="Blitz", system=TournamentSystem.ROUND_ROBIN, time_control="blitz"))
    for name in ("Abay", "Bolat", "Dana", "Erlan"):
        await svc.command(tid, AddParticipant(name=name), "chief")
    await svc.command(tid, PairRound(), "chief")
    state = await svc.command(tid, PublishRound(), "chief")
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
    assert await svc.reconcile() == 0  # nothing finished yet
    version = (await store.room(tid)).version
    owner = await rooms.get(room_1, "togyz")
    await owner.handle(Command("start", Actor("arbiter", "chief")))
    await owner.handle(Command("resign", Actor("white", "")))
    await svc.settled()
    # The game's end reached the tournament by itself: no page was read, no button pressed.
    assert (await store.room(room_1)).status is RoomStatus.FINISHED
    assert (await store.room(tid)).version == version + 1
    state = await svc.state(tid)
    game = state.t.round(1).game(1)
    assert game.result is GameResult.BLACK_WINS and game.kazans == (0, 0) and game.ended_at is not None
    assert state.origin(1, 1) == ResultOrigin(ResultSource.LIVE)
    assert state.audit[-1].by == "" and state.audit[-1].params["source_term"] == "result.live"
    for side in ("white", "black"):
        await owner.handle(Command("sign", Actor(side, "")))  # the game changes after its end: nothing more
    await svc.settled()
    assert (await store.room(tid)).version == version + 1
    assert await svc.reconcile() == 0  # nothing left to push
    white, black = await svc.signed_times(tid, 1, 1)
    assert white is not None and black is not None
    assert await svc.signed_times(tid, 1, 2) == (None, None)  # not over yet
    # The arbiter's correction stands over the game room, which never overwrites it.
    correction = EnterResult(round=1, board=1, result="½-½", reason="illegal move", confirmed=True)
    await svc.command(tid, correction, "a")
    assert await svc.push_result(room_1) is False
    assert (await svc.state(tid)).t.round(1).game(1).result is GameResult.DRAW
    await rooms.close()


async def test_a_push_that_was_lost_is_made_by_the_reconciliation(store: EventStore) -> None:
    """The game's owner died between the game's end and the push (here: no hook at all): the next start's
    reconciliation finds the finished game and enters its result, once."""
    clock = Clock()
    svc, rooms = make_service(store, clock, push=False)
    tid = await svc.create("chief", Create(name="Blitz", system=TournamentSystem.ROUND_ROBIN))
    for name in ("Abay", "Bolat"):
        await svc.command(tid, AddParticipant(name=name), "chief")
    await svc.command(tid, PairRound(), "chief")
    await svc.command(tid, PublishRound(), "chief")
    made = await svc.create_game_rooms(tid, 1, "chief", BLITZ.to_dict())
    owner = await rooms.get(made[1][0], "togyz")
    await owner.handle(Command("start", Actor("arbiter", "chief")))
    await owner.handle(Command("resign", Actor("black", "")))
    await svc.settled()
    assert (await svc.state(tid)).t.round(1).game(1).result is None  # nobody pushed it
    await rooms.close()
    again, rooms = make_service(store, clock)  # a restart, on this or another instance
    assert await again.link_of(made[1][0]) is not None
    assert await again.reconcile() == 1
    assert await again.reconcile() == 0
    assert (await again.state(tid)).t.round(1).game(1).result is GameResult.WHITE_WINS
    await rooms.close()


async def test_tournaments_survive_a_restart_and_bad_ids_are_refused(store: EventStore) -> None:
    clock = Clock()
    svc, rooms = make_service(store, clock)
    with refused(TournamentCode.SWISS_NEEDS_ROUNDS):
        await svc.create("chief", Create(name="Broken", system=TournamentSystem.SWISS, rounds=0))
    assert await store.rooms(kind=RoomKind.TOURNAMENT) == []  # a refused creation leaves no room behind
    tid = await svc.create("chief", Create(name="Cup", system=TournamentSystem.SWISS, rounds=5))
    await svc.command(tid, AddParticipant(name="Abay", rating=1500), "chief")
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
