"""Arbiter accounts and room grants (who holds which per-game link)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store.errors import StoreError
from toreshi.store.schema import arbiters, room_events, room_grants


def token_digest(token: str) -> str:
    """Secret links are kept as SHA-256 digests: a leaked database does not leak the links."""
    return hashlib.sha256(token.encode()).hexdigest()


class AccountExistsError(StoreError):
    """An arbiter with that name exists already."""


@dataclass(frozen=True)
class Grant:
    room_id: str
    role: str
    name: str


class Accounts:
    """Arbiters (name + password hash) and room grants, on the same database as the event log."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def has_arbiters(self) -> bool:
        async with self.engine.connect() as connection:
            count = (await connection.execute(select(func.count()).select_from(arbiters))).scalar_one()
        return bool(count)

    async def add_arbiter(self, name: str, password_hash: str) -> None:
        try:
            async with self.engine.begin() as connection:
                await connection.execute(
                    insert(arbiters).values(name=name, password_hash=password_hash, created_at=datetime.now(UTC))
                )
        except IntegrityError:
            raise AccountExistsError(f"an arbiter called {name!r} exists already") from None

    async def arbiter_hash(self, name: str) -> str | None:
        async with self.engine.connect() as connection:
            row = (await connection.execute(select(arbiters.c.password_hash).where(arbiters.c.name == name))).first()
        return None if row is None else str(row[0])

    async def grant(self, room_id: str, role: str, name: str, token_digest: str) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                insert(room_grants).values(
                    room_id=room_id, role=role, name=name, token_digest=token_digest, created_at=datetime.now(UTC)
                )
            )

    async def grant_for(self, room_id: str, token_digest: str) -> Grant | None:
        query = select(room_grants.c.role, room_grants.c.name).where(
            room_grants.c.room_id == room_id, room_grants.c.token_digest == token_digest
        )
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else Grant(room_id, str(row[0]), str(row[1]))

    async def summary(self, room_id: str) -> dict[str, Any]:
        """What a list of games shows: the players' names and when the game was created (from its first event)."""
        query = select(room_events.c.payload, room_events.c.created_at).where(
            room_events.c.room_id == room_id, room_events.c.version == 1
        )
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        if row is None:
            return {"white": "", "black": "", "created": ""}
        payload = row[0] if isinstance(row[0], dict) else {}
        return {
            "white": str(payload.get("white", "")),
            "black": str(payload.get("black", "")),
            "created": row[1].isoformat(),
        }
