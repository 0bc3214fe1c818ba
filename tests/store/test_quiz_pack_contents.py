"""A quiz pack's bytes stored once (revision 0013, issue 31): tours and rooms refer to them by their SHA-256, and the
rows written before, with their own copies, still load after the upgrade (and get them back on a downgrade)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import EventStore, RoomKind, upgrade
from toreshi.store.packs import QuizPacks, keep_content, pack_digest, stored_bytes
from toreshi.store.schema import quiz_pack_contents, quiz_packs, quiz_tour_packs, quiz_tours

from .conftest import downgrade

pytestmark = pytest.mark.anyio

OLD, NEW = b"PK\x03\x04 an old room's own copy", b"PK\x03\x04 a tour's pack"


async def tour_pack(engine: AsyncEngine, tour_id: str) -> bytes:
    query = select(stored_bytes(quiz_tour_packs.c.data, quiz_tour_packs.c.digest)).where(
        quiz_tour_packs.c.tour_id == tour_id
    )
    async with engine.connect() as connection:
        return bytes((await connection.execute(query)).scalar_one())


async def test_rows_with_their_own_copies_load_after_the_upgrade_and_get_their_bytes_back_on_a_downgrade(
    engine: AsyncEngine,
) -> None:
    await upgrade(engine, "0012")
    now = datetime.now(UTC)
    async with engine.begin() as connection:
        await connection.execute(insert(quiz_tours).values(id="qt-old", created_at=now))
        await connection.execute(insert(quiz_tour_packs).values(tour_id="qt-old", number=0, name="1", data=OLD))
    store = EventStore(engine)
    await store.create_room("q-old1", RoomKind.QUIZ)
    await QuizPacks(engine).put("q-old1", OLD)
    await upgrade(engine)
    packs = QuizPacks(engine)
    assert await packs.of_room("q-old1") == OLD and await tour_pack(engine, "qt-old") == OLD
    async with engine.begin() as connection:  # a new tour, and a room of it referring to its pack
        digest = await keep_content(connection, NEW)
        await connection.execute(insert(quiz_tours).values(id="qt-new", created_at=now))
        await connection.execute(insert(quiz_tour_packs).values(tour_id="qt-new", number=0, name="2", digest=digest))
    await store.create_room("q-new1", RoomKind.QUIZ)
    await packs.refer("q-new1", digest)
    assert await packs.of_room("q-new1") == NEW and await tour_pack(engine, "qt-new") == NEW
    await downgrade(engine, "0012")
    async with engine.connect() as connection:
        rooms = dict((await connection.execute(select(quiz_packs.c.room_id, quiz_packs.c.data))).all())
        tours = dict((await connection.execute(select(quiz_tour_packs.c.tour_id, quiz_tour_packs.c.data))).all())
    assert (rooms, tours) == ({"q-old1": OLD, "q-new1": NEW}, {"qt-old": OLD, "qt-new": NEW})
    await store.close()


async def test_the_same_bytes_are_kept_once(engine: AsyncEngine) -> None:
    await upgrade(engine)
    async with engine.begin() as connection:
        digests = [await keep_content(connection, data) for data in (NEW, OLD, NEW, NEW)]
    async with engine.connect() as connection:
        count = (await connection.execute(select(func.count()).select_from(quiz_pack_contents))).scalar_one()
    assert digests == [pack_digest(NEW), pack_digest(OLD), pack_digest(NEW), pack_digest(NEW)] and count == 2
    now = datetime.now(UTC)
    for values in ({}, {"data": NEW, "digest": pack_digest(NEW)}, {"digest": "0" * 64}):  # neither, both, unknown
        with pytest.raises(IntegrityError):
            async with engine.begin() as connection:
                await connection.execute(insert(quiz_packs).values(id="d-x", created_at=now, **values))
