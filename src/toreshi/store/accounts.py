"""Arbiter accounts and room grants (who holds which per-game link).

A player's link is *derived*, never stored: its secret is an HMAC of the room, the role and the grant's generation
under a key made from the app's secret key (``data_dir/secret.key``, shared by every instance). Only the digest of
the secret is stored (a copy of the database gives no link away), yet the arbiter can show and print a link again
at any time, from any browser; reissuing moves the grant to the next generation, so the old link stops matching at
once. A secret has a :class:`SecretShape`: a URL-safe link (the default) or a short code of letters people type
(a quiz team's join code). Grants made by :meth:`Accounts.grant` with a random secret (tournament team links, and
quiz codes and player links made before they were derived) work as before; they cannot be shown again, only
reissued.

>>> from toreshi.store.accounts import SecretShape, derive_secret
>>> key = b"k" * 32
>>> derive_secret(key, "g-1", "white", 0) == derive_secret(key, "g-1", "white", 0)
True
>>> derive_secret(key, "g-1", "white", 0) != derive_secret(key, "g-1", "white", 1)
True
>>> derive_secret(key, "q-7kdm", "team:1", 0, SecretShape("ABCDEFGHJKLMNPQRSTUVWXYZ23456789", 5)).isalnum()
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store.errors import StoreError
from toreshi.store.schema import arbiters, room_events, room_grants


class AccountExistsError(StoreError):
    """An arbiter with that name exists already."""


class UnknownGrantError(StoreError):
    """No grant for that room and role."""


@dataclass(frozen=True)
class Grant:
    room_id: str
    role: str
    name: str
    generation: int = 0


@dataclass(frozen=True)
class PlayerLink:
    """A grant as the arbiter sees it: who holds it, its generation, and its secret when it can be derived."""

    room_id: str
    role: str
    name: str
    generation: int
    secret: str | None
    """``None`` for a grant made with a random secret (before links were derived): it can only be reissued."""


LINK_CONTEXT = b"toreshi/room-link/v1"
SECRET_BYTES = 18
"""144 bits, as the random links had (24 URL-safe characters)."""


@dataclass(frozen=True)
class SecretShape:
    """How a derived secret is written: ``length`` bytes as URL-safe base64 when ``alphabet`` is empty (a link),
    else ``length`` letters of ``alphabet`` (a code people type from a projector)."""

    alphabet: str = ""
    length: int = SECRET_BYTES

    def __post_init__(self) -> None:
        # Each letter is one HMAC byte modulo the alphabet's size: a size dividing 256 keeps the letters uniform.
        if self.alphabet and 256 % len(self.alphabet):
            raise ValueError("a code alphabet's size must divide 256")
        if not 0 < self.length <= SECRET_BYTES:
            raise ValueError(f"a secret has 1 to {SECRET_BYTES} bytes or letters")


LINK_SHAPE = SecretShape()
"""The players' links: 24 URL-safe characters."""


def token_digest(token: str) -> str:
    """Secrets are kept as SHA-256 digests: a leaked database does not leak the links."""
    return hashlib.sha256(token.encode()).hexdigest()


def link_key(secret_key: str) -> bytes:
    """The key of the players' links, derived from the app's secret key (each use of that key gets its own)."""
    return hmac.new(secret_key.encode(), LINK_CONTEXT, hashlib.sha256).digest()


def derive_secret(key: bytes, room_id: str, role: str, generation: int, shape: SecretShape = LINK_SHAPE) -> str:
    """The secret of the link to ``role`` in ``room_id`` at ``generation`` (by default URL-safe, 24 characters)."""
    parts = (room_id, role, str(generation)) + ((shape.alphabet,) if shape.alphabet else ())  # a code's own HMAC
    digest = hmac.new(key, "\x00".join(parts).encode(), hashlib.sha256).digest()[: shape.length]
    if shape.alphabet:
        return "".join(shape.alphabet[byte % len(shape.alphabet)] for byte in digest)
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


class Accounts:
    """Arbiters (name + password hash) and room grants, on the same database as the event log.

    ``key`` (:func:`link_key`) derives the players' links; without it links can be granted with random secrets only.
    """

    def __init__(self, engine: AsyncEngine, key: bytes | None = None) -> None:
        self.engine = engine
        self.key = key

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
        query = select(room_grants.c.role, room_grants.c.name, room_grants.c.generation).where(
            room_grants.c.room_id == room_id, room_grants.c.token_digest == token_digest
        )
        async with self.engine.connect() as connection:
            row = (await connection.execute(query)).first()
        return None if row is None else Grant(room_id, str(row[0]), str(row[1]), int(row[2]))

    # --- derived links (the players' links of a game) ---------------------------------------------------

    @property
    def derives(self) -> bool:
        """Whether links can be derived (and so shown again): the accounts have the app's link key."""
        return self.key is not None

    def _secret(self, room_id: str, role: str, generation: int, shape: SecretShape = LINK_SHAPE) -> str:
        if self.key is None:
            raise StoreError("no link key: links cannot be derived (give Accounts the app's link key)")
        return derive_secret(self.key, room_id, role, generation, shape)

    async def issue_link(self, room_id: str, role: str, name: str, shape: SecretShape = LINK_SHAPE) -> PlayerLink:
        """The link to ``role`` in ``room_id`` for ``name``: made at generation 0 the first time, the same link
        (shown again) afterwards."""
        secret = self._secret(room_id, role, 0, shape)
        try:
            async with self.engine.begin() as connection:
                await connection.execute(
                    insert(room_grants).values(
                        room_id=room_id,
                        role=role,
                        name=name,
                        token_digest=token_digest(secret),
                        created_at=datetime.now(UTC),
                        generation=0,
                    )
                )
        except IntegrityError:
            found = await self.link(room_id, role, (shape,))
            if found is None:
                raise
            return found
        return PlayerLink(room_id, role, name, 0, secret)

    async def links(self, room_id: str, shapes: Sequence[SecretShape] = (LINK_SHAPE,)) -> list[PlayerLink]:
        """Every grant of the room, by role, with its secret wherever it can be derived in one of ``shapes``."""
        query = (
            select(room_grants.c.role, room_grants.c.name, room_grants.c.generation, room_grants.c.token_digest)
            .where(room_grants.c.room_id == room_id)
            .order_by(room_grants.c.role)
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(query)).all()
        return [self._shown(room_id, str(role), str(name), int(generation), str(digest), shapes)
                for role, name, generation, digest in rows]  # fmt: skip

    async def link(self, room_id: str, role: str, shapes: Sequence[SecretShape] = (LINK_SHAPE,)) -> PlayerLink | None:
        """The grant of ``role`` in the room, or ``None``."""
        return next((found for found in await self.links(room_id, shapes) if found.role == role), None)

    def _shown(
        self, room_id: str, role: str, name: str, generation: int, digest: str, shapes: Sequence[SecretShape]
    ) -> PlayerLink:
        if self.key is not None:
            for shape in shapes:
                secret = self._secret(room_id, role, generation, shape)
                if hmac.compare_digest(token_digest(secret), digest):
                    return PlayerLink(room_id, role, name, generation, secret)
        # A random secret (made before links were derived), another key's, or none of these shapes.
        return PlayerLink(room_id, role, name, generation, None)

    async def reissue_link(self, room_id: str, role: str, shape: SecretShape = LINK_SHAPE) -> PlayerLink:
        """Revoke ``role``'s link in the room and give it a new one (the next generation): the old secret stops
        matching at once. Raises :class:`UnknownGrantError` when the room has no such grant."""
        grant = await self._next_generation(
            room_id, role, lambda generation: token_digest(self._secret(room_id, role, generation, shape)), "link"
        )
        secret = self._secret(room_id, role, grant.generation, shape)
        return PlayerLink(room_id, role, grant.name, grant.generation, secret)

    async def replace_token(self, room_id: str, role: str, new_digest: str) -> Grant:
        """Revoke ``role``'s random token in the room (a quiz team's join code, a screen's token) and store the
        digest of its replacement, at the next generation: the old token stops opening the room at once. Raises
        :class:`UnknownGrantError` when the room has no such grant."""
        return await self._next_generation(room_id, role, lambda _generation: new_digest, "grant")

    async def _next_generation(self, room_id: str, role: str, digest_at: Callable[[int], str], what: str) -> Grant:
        """Move ``role``'s grant in the room to its next generation, with the digest ``digest_at(generation)``;
        :class:`UnknownGrantError` (naming the missing ``what``) when the room has no such grant."""
        query = select(room_grants.c.name, room_grants.c.generation).where(
            room_grants.c.room_id == room_id, room_grants.c.role == role
        )
        async with self.engine.begin() as connection:
            row = (await connection.execute(query.with_for_update())).first()
            if row is None:
                raise UnknownGrantError(f"room {room_id!r} has no {role!r} {what}")
            generation = int(row[1]) + 1
            await connection.execute(
                update(room_grants)
                .where(room_grants.c.room_id == room_id, room_grants.c.role == role)
                .values(generation=generation, token_digest=digest_at(generation))
            )
        return Grant(room_id, role, str(row[0]), generation)

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
