"""A private PostgreSQL schema and a private Redis key prefix for each scale-out test."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from redis.asyncio import Redis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from .servers import REDIS_URL, find_postgres, unavailable


@dataclass(frozen=True)
class Services:
    postgres_url: str
    schema: str
    redis: Redis
    prefix: str

    def server_args(self, data_dir: str) -> list[str]:
        return [
            "--data-dir", data_dir,
            "--db", self.postgres_url, "--db-schema", self.schema,
            "--bus", REDIS_URL, "--bus-prefix", self.prefix,
        ]  # fmt: skip

    async def lease_holder(self, room_id: str) -> str | None:
        raw = await self.redis.get(f"{self.prefix}lease:{room_id}")
        return raw.decode() if isinstance(raw, bytes) else raw


@pytest.fixture
async def services() -> AsyncIterator[Services]:
    url = await find_postgres()
    redis = Redis.from_url(REDIS_URL)
    try:
        await redis.ping()
    except Exception as error:
        await redis.aclose()
        unavailable(f"Redis is not reachable at {REDIS_URL}: {error}")
    schema = f"toreshi_cluster_{uuid.uuid4().hex[:12]}"
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    admin = create_async_engine(url)
    try:
        async with admin.begin() as connection:
            await connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        yield Services(url, schema, redis, prefix)
    finally:
        async with admin.begin() as connection:
            await connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        await admin.dispose()
        keys = [key async for key in redis.scan_iter(match=f"{prefix}*")]
        if keys:
            await redis.delete(*keys)
        await redis.aclose()
