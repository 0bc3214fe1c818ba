"""A finished game's result reaches its tournament when the game and the tournament are owned by different
instances: the game's owner pushes it, and the command is forwarded to the tournament's owner."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from toreshi.clock.presets import BLITZ
from toreshi.live.cluster.redis_bus import RedisBus
from toreshi.live.cluster.rooms import ClusterConfig, ClusterRooms
from toreshi.live.room import Actor, Command
from toreshi.services.tournament import TournamentService
from toreshi.store import EventStore, open_store
from toreshi.tournament.journal import ResultOrigin, ResultSource
from toreshi.tournament.journal.commands import AddParticipant, Create, PairRound, PublishRound
from toreshi.tournament.model import GameResult, TournamentSystem
from toreshi.web.app import ROOM_KINDS

from .conftest import Services
from .servers import REDIS_URL

pytestmark = pytest.mark.anyio

CONFIG = ClusterConfig(lease_ms=1_500, scan_interval_s=60, command_timeout_s=5)


@asynccontextmanager
async def member(store: EventStore, services: Services, name: str) -> AsyncIterator[TournamentService]:
    """One instance as the app wires it: its rooms tell its tournament service when a room finishes."""
    bus = RedisBus(REDIS_URL, prefix=services.prefix)
    service = TournamentService(store)
    rooms = ClusterRooms(store, bus, ROOM_KINDS, instance=name, config=CONFIG, on_finished=service.game_room_finished)
    service.attach(rooms)
    await rooms.start()
    try:
        yield service
    finally:
        await service.settled()
        await rooms.close()
        await bus.close()


@pytest.fixture
async def store(services: Services) -> AsyncIterator[EventStore]:
    async with open_store(services.postgres_url, schema=services.schema) as opened:
        yield opened


async def test_a_game_finished_on_another_instance_reaches_the_tournament(
    store: EventStore, services: Services
) -> None:
    async with member(store, services, "x") as x, member(store, services, "y") as y:
        tid = await x.create("chief", Create(name="Cup", system=TournamentSystem.ROUND_ROBIN))
        for name in ("Abay", "Bolat"):
            await x.command(tid, AddParticipant(name=name), "chief")
        await x.command(tid, PairRound(), "chief")
        await x.command(tid, PublishRound(), "chief")
        ((room, _tokens),) = (await x.create_game_rooms(tid, 1, "chief", BLITZ.to_dict())).values()
        x_rooms, y_rooms = x.rooms, y.rooms
        assert isinstance(x_rooms, ClusterRooms) and isinstance(y_rooms, ClusterRooms)
        assert set(x_rooms.owned()) == {tid, room}
        await x_rooms.drop(room)  # the game moves to y (as when the players' connections land there)
        game = await y_rooms.get(room, "togyz")
        await game.handle(Command("start", Actor("arbiter", "chief")))
        assert room in y_rooms.owned() and tid not in y_rooms.owned()
        await game.handle(Command("resign", Actor("black", "")))
        await y.settled()  # y pushed it; x, the tournament's owner, applied it
        for service in (x, y):
            state = await service.state(tid)
            assert state.t.round(1).game(1).result is GameResult.WHITE_WINS
            assert state.origin(1, 1) == ResultOrigin(ResultSource.LIVE)
        assert x_rooms.owned() == [tid] and await x.reconcile() == 0
