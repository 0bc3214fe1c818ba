"""Drafts of uploaded quiz packs (issue 30: a pack is never uploaded twice because another field was wrong): kept
under an unguessable id, bounded in number and age, forgotten when no longer needed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import upgrade
from toreshi.store.packs import DRAFT_LIFETIME, MAX_DRAFTS, QuizPacks
from toreshi.store.schema import quiz_packs

pytestmark = pytest.mark.anyio


async def drafts_held(engine: AsyncEngine) -> int:
    async with engine.connect() as connection:
        query = select(func.count()).select_from(quiz_packs).where(quiz_packs.c.room_id.is_(None))
        return int((await connection.execute(query)).scalar_one())


async def test_drafts_are_bounded_in_number_the_oldest_going_first(engine: AsyncEngine) -> None:
    await upgrade(engine)
    packs = QuizPacks(engine)
    ids = [await packs.add_draft(f"PK pack {n}".encode()) for n in range(MAX_DRAFTS + 3)]
    assert await drafts_held(engine) == MAX_DRAFTS
    assert [await packs.draft(draft) for draft in ids[:3]] == [None, None, None]
    assert await packs.draft(ids[-1]) == f"PK pack {MAX_DRAFTS + 2}".encode()
    assert await packs.draft(ids[3]) == b"PK pack 3"


async def test_an_old_draft_is_forgotten_and_a_discarded_one_at_once(engine: AsyncEngine) -> None:
    await upgrade(engine)
    packs = QuizPacks(engine)
    old, kept = await packs.add_draft(b"PK old"), await packs.add_draft(b"PK kept")
    async with engine.begin() as connection:
        stale = datetime.now(UTC) - DRAFT_LIFETIME * 2
        await connection.execute(update(quiz_packs).where(quiz_packs.c.id == old).values(created_at=stale))
    newest = await packs.add_draft(b"PK newest")
    assert await packs.draft(old) is None and await packs.draft(kept) == b"PK kept"
    await packs.discard(newest)
    assert await packs.draft(newest) is None and await drafts_held(engine) == 1
