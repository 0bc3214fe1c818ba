"""Quiz packs as uploaded: a draft while the host picks the game's questions, then the pack of its room.

The media of a SIGame pack (images, audio, video, HTML) are served from these bytes by room and content item
(:mod:`toreshi.web.quiz.media`); nothing is ever extracted to a file.

A tour's packs are kept once, by their SHA-256, in ``quiz_pack_contents`` (:func:`keep_content`); the tour's rows
and each of its rooms' rows hold that digest instead of a copy (:meth:`QuizPacks.refer`). Rows written before
(revision 0013) hold their bytes and are read as before.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta

from sqlalchemy import ColumnElement, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from toreshi.store.schema import quiz_pack_contents, quiz_packs

__all__ = ["DRAFT_LIFETIME", "MAX_DRAFTS", "QuizPacks", "keep_content", "pack_digest", "stored_bytes"]

DRAFT_LIFETIME = timedelta(hours=6)
"""A pack uploaded for a game that was never created is forgotten after this long."""

MAX_DRAFTS = 16
"""At most this many drafts are kept (the newest): a pack is at most 64 MiB, so drafts never hold more than 1 GiB
whatever uploads are made and abandoned."""


def pack_digest(data: bytes) -> str:
    """The key of a pack's bytes in ``quiz_pack_contents``: their SHA-256, in hex."""
    return hashlib.sha256(data).hexdigest()


async def keep_content(connection: AsyncConnection, data: bytes) -> str:
    """Store a pack's bytes once (nothing is written when the same bytes are there already); returns their digest.
    Runs in the caller's transaction, so a tour and its packs are written together."""
    digest = pack_digest(data)
    found = select(quiz_pack_contents.c.digest).where(quiz_pack_contents.c.digest == digest)
    if (await connection.execute(found)).first() is None:
        try:
            async with connection.begin_nested():  # another writer may store the same pack at the same moment
                await connection.execute(
                    insert(quiz_pack_contents).values(digest=digest, data=data, created_at=datetime.now(UTC))
                )
        except IntegrityError:
            pass  # it did: the bytes are the same
    return digest


def stored_bytes(data: ColumnElement[bytes | None], digest: ColumnElement[str | None]) -> ColumnElement[bytes]:
    """A pack's bytes where a row holds either its own copy (``data``) or a ``digest`` of quiz_pack_contents."""
    contents = select(quiz_pack_contents.c.data).where(quiz_pack_contents.c.digest == digest).scalar_subquery()
    return func.coalesce(data, contents)


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
            newest = (
                select(quiz_packs.c.id)
                .where(quiz_packs.c.room_id.is_(None))
                .order_by(quiz_packs.c.created_at.desc(), quiz_packs.c.id)
                .limit(MAX_DRAFTS)
            )
            kept = {row[0] for row in await connection.execute(newest)} | {draft}
            await connection.execute(
                delete(quiz_packs).where(quiz_packs.c.room_id.is_(None), quiz_packs.c.id.not_in(kept))
            )
        return draft

    async def discard(self, draft: str) -> None:
        """Forget a draft that is no longer needed (its game was made and does not serve media from it)."""
        async with self.engine.begin() as connection:
            await connection.execute(delete(quiz_packs).where(quiz_packs.c.id == draft, quiz_packs.c.room_id.is_(None)))

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

    async def refer(self, room_id: str, digest: str) -> None:
        """The room's pack is the stored one with this digest (:func:`keep_content`): a tour's rooms share it."""
        async with self.engine.begin() as connection:
            await connection.execute(
                insert(quiz_packs).values(
                    id="r-" + room_id, room_id=room_id, digest=digest, created_at=datetime.now(UTC)
                )
            )

    async def of_room(self, room_id: str) -> bytes | None:
        """The pack of a room, if it has one stored (its own copy, or the one its digest refers to)."""
        query = select(stored_bytes(quiz_packs.c.data, quiz_packs.c.digest)).where(quiz_packs.c.room_id == room_id)
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None or row[0] is None else bytes(row[0])
