"""Finding the local PostgreSQL for the tests that need a real one (store, cluster)."""

from __future__ import annotations

import os

from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

POSTGRES_CANDIDATES = (
    "postgresql+asyncpg://postgres@127.0.0.1:5432/test",
    "postgresql+asyncpg://root@127.0.0.1:5432/test",
)


async def probe_postgres() -> tuple[str | None, list[str]]:
    """The first URL that answers (``TORESHI_TEST_POSTGRES_URL`` if set, else the local candidates), or ``None``
    with one line per URL that failed."""
    configured = os.environ.get("TORESHI_TEST_POSTGRES_URL")
    problems: list[str] = []
    for url in (configured,) if configured else POSTGRES_CANDIDATES:
        engine = create_async_engine(url, connect_args={"timeout": 3})
        try:
            async with engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        except Exception as error:  # any failure to connect means "not usable here"
            problems.append(f"{url}: {type(error).__name__}: {error}")
            continue
        finally:
            await engine.dispose()
        return url, problems
    return None, problems
