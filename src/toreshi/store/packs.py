"""Quiz packs as uploaded: a draft while the host picks the game's questions, then the pack of its room.

The media of a SIGame pack (images, audio, video, HTML) are served from these bytes by room and content item
(:mod:`toreshi.web.quiz_media`); nothing is ever extracted to a file.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store.schema import quiz_packs

__all__ = ["DRAFT_LIFETIME", "QuizPacks"]

DRAFT_LIFETIME = timedelta(hours=6)
"""A pack uploaded for a game that was never created is forgotten after this long."""


class QuizPacks:
    """The ``quiz_packs`` table, on the same database as the event log."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def add_draft(self, data: bytes) -> str:
        """Keep an uploaded pack for a game being set up; returns the draft's id (random, unguessable)."""
        draft = "d-" + secrets.token_urlsafe(24)
        now = datetime.now(UTC)
        async with self.engine.begin() as connection:
            await connection.execute(
                delete(quiz_packs).where(quiz_packs.c.room_id.is_(None), quiz_packs.c.created_at < now - DRAFT_LIFETIME)
            )
            await connection.execute(insert(quiz_packs).values(id=draft, room_id=None, data=data, created_at=now))
        return draft

    async def draft(self, draft: str) -> bytes | None:
        """A draft's bytes, if it is still a draft (not yet the pack of a room)."""
        query = select(quiz_packs.c.data).where(quiz_packs.c.id == draft, quiz_packs.c.room_id.is_(None))
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else bytes(row[0])

    async def attach(self, draft: str, room_id: str) -> None:
        """The draft becomes the pack of the created room."""
        async with self.engine.begin() as connection:
            await connection.execute(update(quiz_packs).where(quiz_packs.c.id == draft).values(room_id=room_id))

    async def put(self, room_id: str, data: bytes) -> None:
        """Keep the pack of a room created in one step."""
        async with self.engine.begin() as connection:
            await connection.execute(
                insert(quiz_packs).values(id="r-" + room_id, room_id=room_id, data=data, created_at=datetime.now(UTC))
            )

    async def of_room(self, room_id: str) -> bytes | None:
        """The pack of a room, if it has one stored."""
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(quiz_packs.c.data).where(quiz_packs.c.room_id == room_id))).first()
        return None if row is None else bytes(row[0])
