"""Browser sessions kept on the server: a random id in the cookie, everything else in the ``sessions`` table.

A signed cookie cannot be revoked: signing out of one left a copied cookie valid for its whole life, and it carried
the join codes and screen links it held, readable in base64. Here the cookie is a random 256-bit id; the row is
found by its SHA-256 digest (a copy of the database does not give away live sessions); signing out deletes it; a
session idle for longer than ``idle_limit`` is gone.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store.schema import sessions

IDLE_LIMIT = timedelta(days=14)
TOUCH_EVERY = timedelta(hours=1)
"""``seen_at`` is written at most this often for a session that does not change (a read is not a write)."""


def _utc_now() -> datetime:
    return datetime.now(UTC)


def session_digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class Sessions:
    """Session data by the id in a browser's cookie."""

    def __init__(
        self, engine: AsyncEngine, *, now: Callable[[], datetime] = _utc_now, idle_limit: timedelta = IDLE_LIMIT
    ) -> None:
        self.engine = engine
        self.now = now
        self.idle_limit = idle_limit

    async def load(self, session_id: str) -> tuple[dict[str, Any], datetime] | None:
        """The session's data and when it was last seen, or ``None`` (unknown, or idle too long)."""
        query = select(sessions.c.data, sessions.c.seen_at).where(sessions.c.id_digest == session_digest(session_id))
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        if row is None or row.seen_at < self.now() - self.idle_limit:
            return None
        data = row.data if isinstance(row.data, dict) else {}
        return data, row.seen_at

    async def save(self, session_id: str, data: Mapping[str, Any]) -> None:
        """Write the session's data (creating the row the first time)."""
        digest, now = session_digest(session_id), self.now()
        async with self.engine.begin() as connection:
            changed = await connection.execute(
                update(sessions).where(sessions.c.id_digest == digest).values(data=dict(data), seen_at=now)
            )
            if changed.rowcount:
                return
            try:
                async with connection.begin_nested():
                    await connection.execute(
                        insert(sessions).values(id_digest=digest, data=dict(data), created_at=now, seen_at=now)
                    )
            except IntegrityError:  # two first requests of one browser at once: the other one wrote it
                await connection.execute(
                    update(sessions).where(sessions.c.id_digest == digest).values(data=dict(data), seen_at=now)
                )

    async def touch(self, session_id: str) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                update(sessions).where(sessions.c.id_digest == session_digest(session_id)).values(seen_at=self.now())
            )

    async def delete(self, session_id: str) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(delete(sessions).where(sessions.c.id_digest == session_digest(session_id)))

    async def purge(self) -> int:
        """Delete the sessions idle for longer than the limit; returns how many."""
        async with self.engine.begin() as connection:
            gone = await connection.execute(delete(sessions).where(sessions.c.seen_at < self.now() - self.idle_limit))
        return int(gone.rowcount or 0)
