"""The tour service: the register, and a tour's log read by many while it is written (no event applied twice)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from toreshi.kit.refusal import Refused
from toreshi.quiz.tour.codes import QuizTourCode
from toreshi.quiz.tour.core import ChangeTeams, Formula
from toreshi.services.quiz_tours import QuizTourService
from toreshi.store import EventStore
from toreshi.store.accounts import Accounts

TEAMS = ("Алтын", "Арлан", "Барыс", "Бүркіт")


@pytest.mark.anyio
async def test_the_register_imports_csv_and_updates_teams_it_has(store: EventStore) -> None:
    service = QuizTourService(store, Accounts(store.engine, b"k" * 32))
    added, updated, skipped = await service.teams.import_csv("name;players;active\nАлтын;Асан|Бек;yes\n;x;no\n")
    assert (added, updated, skipped) == (1, 0, [3])
    added, updated, _ = await service.teams.import_csv("name,players,contact,active\nАлтын,Асан,+7 700,no\n")
    (team,) = await service.teams.all()
    assert (added, updated, team.players, team.contact, team.active) == (0, 1, ("Асан",), "+7 700", False)
    assert await service.teams.all(active_only=True) == []


@pytest.mark.anyio
async def test_readers_during_writes_see_every_event_once(store: EventStore, shared_data: Path) -> None:
    service = QuizTourService(store, Accounts(store.engine, b"k" * 32))
    pack = (shared_data / "quiz" / "siq" / "1.siq").read_bytes()
    tour = await service.create("Ерлан", "Тур", "2026-12-01", TEAMS, [("1", pack)], Formula((), final=True))
    fresh = QuizTourService(store, Accounts(store.engine, b"k" * 32))  # another instance: reads the log
    await fresh.state(tour)
    orders = [TEAMS, TEAMS[::-1]] * 5
    for order in orders:  # the other instance writes; this one's readers catch up at the same time
        await asyncio.gather(service.command(tour, ChangeTeams(order), "Ерлан"), *(fresh.state(tour) for _ in range(5)))
    state = await fresh.state(tour)
    assert len(state.log) == 1 + len(orders) and state.teams == orders[-1]
    assert (await service.state(tour)).log == state.log  # the first instance catches up from the log
    with pytest.raises(Refused) as refused:
        await service.create("Ерлан", "Тур", "2026-12-01", TEAMS, [], Formula())
    assert refused.value.refusal.code is QuizTourCode.NO_PACK
