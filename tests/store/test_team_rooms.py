"""Migration 0008: team competition rooms (kind ``teams``) are admitted; a downgrade is refused while one exists."""

from __future__ import annotations

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import EventStore, RoomKind, upgrade
from toreshi.store.migrate import head_revision

from .conftest import assert_kind_refused, downgrade, insert_room, upgrade_and_open_room

pytestmark = pytest.mark.anyio


async def test_team_rooms_are_admitted_from_revision_0008_and_hold_a_downgrade_back(engine: AsyncEngine) -> None:
    assert await upgrade(engine, "0006") == "0006"
    await insert_room(engine, "t-1", "tournament")
    await assert_kind_refused(engine, "tt-early", "teams")  # not before the migration
    store = await upgrade_and_open_room(engine, "tt-1", RoomKind.TEAMS, "teams_created")
    assert [(r.id, r.kind) for r in await store.rooms()] == [("t-1", RoomKind.TOURNAMENT), ("tt-1", RoomKind.TEAMS)]
    with pytest.raises(RuntimeError, match="1 team room"):
        await downgrade(engine, "0006")
    assert [r.kind for r in await EventStore(engine).rooms()] == [RoomKind.TOURNAMENT, RoomKind.TEAMS]


async def test_without_team_rooms_the_downgrade_restores_the_old_check(engine: AsyncEngine) -> None:
    await upgrade(engine)
    await downgrade(engine, "0006")
    await assert_kind_refused(engine, "tt-2", "teams")
    assert await upgrade(engine) == head_revision()
