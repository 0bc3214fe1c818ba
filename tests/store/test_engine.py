from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from toreshi.store import SQLiteSynchronous, UnsupportedDatabaseError, create_engine, default_url, parse_url

from .conftest import Database

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///data/toreshi.db", "sqlite+aiosqlite:///data/toreshi.db"),
        ("sqlite+aiosqlite:////srv/t.db", "sqlite+aiosqlite:////srv/t.db"),
        ("postgresql://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgresql+psycopg2://u@h:5433/db", "postgresql+asyncpg://u@h:5433/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+asyncpg://u@h/db"),
        ("postgresql+asyncpg://u:secret@h/db", "postgresql+asyncpg://u:***@h/db"),
    ],
)
def test_urls_get_the_async_driver(given: str, expected: str) -> None:
    assert parse_url(given).render_as_string() == expected


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("mysql://u@h/db", "unsupported database 'mysql'"),
        ("oracle+oracledb://u@h/db", "unsupported database 'oracle'"),
        ("sqlite://", "in-memory SQLite is not supported"),
        ("sqlite+aiosqlite:///:memory:", "in-memory SQLite is not supported"),
        ("not a url", "cannot parse database URL 'not a url'"),
    ],
)
def test_other_databases_are_refused(given: str, message: str) -> None:
    with pytest.raises(UnsupportedDatabaseError, match=message):
        parse_url(given)


def test_default_url_is_a_file_in_the_data_dir(tmp_path: Path) -> None:
    assert default_url(tmp_path) == f"sqlite+aiosqlite:///{tmp_path}/toreshi.db"
    assert default_url(Path("data")).endswith("/data/toreshi.db")


@pytest.mark.parametrize(("synchronous", "level"), [(SQLiteSynchronous.NORMAL, 1), (SQLiteSynchronous.FULL, 2)])
async def test_sqlite_connections_are_set_up_for_a_durable_log(
    tmp_path: Path, synchronous: SQLiteSynchronous, level: int
) -> None:
    database = tmp_path / "new" / "folder" / "toreshi.db"
    engine = create_engine(f"sqlite:///{database}", sqlite_synchronous=synchronous)
    try:
        async with engine.connect() as connection:
            pragmas = {
                name: (await connection.exec_driver_sql(f"PRAGMA {name}")).scalar()
                for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
            }
        assert pragmas == {"journal_mode": "wal", "synchronous": level, "foreign_keys": 1, "busy_timeout": 5_000}
        assert database.exists()
    finally:
        await engine.dispose()


def test_sqlite_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(UnsupportedDatabaseError, match="a schema is a PostgreSQL setting"):
        create_engine(f"sqlite:///{tmp_path / 'x.db'}", schema="s")
    with pytest.raises(ValueError, match="'OFF' is not a valid SQLiteSynchronous"):
        create_engine(f"sqlite:///{tmp_path / 'x.db'}", sqlite_synchronous="OFF")  # type: ignore[arg-type]


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_postgresql_schema_goes_into_the_search_path(database: Database, engine: AsyncEngine) -> None:
    async with engine.connect() as connection:
        assert (await connection.execute(text("SELECT current_schema()"))).scalar() == database.schema
