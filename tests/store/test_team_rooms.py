"""Migration 0008: team competition rooms (kind ``teams``) are admitted; a downgrade is refused while one exists."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import EventStore, NewEvent, RoomKind, upgrade
from toreshi.store.migrate import head_revision

from .conftest import INSERT_ROOM, downgrade

pytestmark = pytest.mark.anyio


async def test_team_rooms_are_admitted_from_revision_0008_and_hold_a_downgrade_back(engine: AsyncEngine) -> None:
    assert await upgrade(engine, "0006") == "0006"
    async with engine.begin() as connection:
        await connection.execute(INSERT_ROOM, {"id": "t-1", "kind": "tournament"})
    with pytest.raises(IntegrityError):  # not before the migration
        async with engine.begin() as connection:
            await connection.execute(INSERT_ROOM, {"id": "tt-early", "kind": "teams"})
    assert await upgrade(engine) == head_revision()
    store = EventStore(engine)
    await store.create_room("tt-1", RoomKind.TEAMS)
    await store.append("tt-1", 0, [NewEvent("teams_created", {"name": "Cup"}, 0)])
    assert [(r.id, r.kind) for r in await store.rooms()] == [("t-1", RoomKind.TOURNAMENT), ("tt-1", RoomKind.TEAMS)]
    with pytest.raises(RuntimeError, match="1 team room"):
        await downgrade(engine, "0006")
    assert [r.kind for r in await EventStore(engine).rooms()] == [RoomKind.TOURNAMENT, RoomKind.TEAMS]


async def test_without_team_rooms_the_downgrade_restores_the_old_check(engine: AsyncEngine) -> None:
    await upgrade(engine)
    await downgrade(engine, "0006")
    with pytest.raises(IntegrityError):
        async with engine.begin() as connection:
            await connection.execute(INSERT_ROOM, {"id": "tt-2", "kind": "teams"})
    assert await upgrade(engine) == head_revision()
