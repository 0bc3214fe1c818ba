"""Async engines from a database URL: SQLite (the embedded default) or PostgreSQL (several instances).

SQLite connections are set up for one busy writer and many readers: write-ahead log, ``synchronous=NORMAL`` by
default (see ``docs/decisions.md`` for what that risks and when to choose ``FULL``), foreign keys enforced, and a
busy timeout so that a second writer waits for the lock instead of failing at once.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

logger = logging.getLogger(__name__)

SQLITE_FILE_NAME = "toreshi.db"
SQLITE_BUSY_TIMEOUT_MS = 5_000

_SQLITE_SYNCHRONOUS: weakref.WeakKeyDictionary[Engine, SQLiteSynchronous] = weakref.WeakKeyDictionary()
"""How each async SQLite engine was set up, for :func:`sqlite_sync_engine` (keyed by its sync façade)."""


class UnsupportedDatabaseError(ValueError):
    """The URL names a database toreshi does not run on, or cannot be parsed."""


class SQLiteSynchronous(StrEnum):
    """When SQLite waits for the disk (https://www.sqlite.org/pragma.html#pragma_synchronous)."""

    NORMAL = "NORMAL"
    """In WAL mode: a commit survives a process crash; the newest commits may be lost on power loss or OS crash."""
    FULL = "FULL"
    """Every commit is on the disk before it is acknowledged: survives power loss, about four times slower."""


def default_url(data_dir: Path) -> str:
    """The embedded database inside ``data_dir``.

    >>> default_url(Path("/srv/toreshi"))
    'sqlite+aiosqlite:////srv/toreshi/toreshi.db'
    """
    return f"sqlite+aiosqlite:///{(data_dir / SQLITE_FILE_NAME).absolute()}"


def parse_url(url: str | URL) -> URL:
    """Check ``url`` and give it the async driver toreshi uses.

    ``sqlite:///…`` and ``postgresql://…`` (with any driver named) get ``aiosqlite`` and ``asyncpg``; other
    databases and in-memory SQLite (each pooled connection would see its own empty database) are refused.

    >>> parse_url("postgresql://toreshi@db.local/toreshi").render_as_string()
    'postgresql+asyncpg://toreshi@db.local/toreshi'
    >>> parse_url("mysql://x/y")
    Traceback (most recent call last):
    ...
    toreshi.store.engine.UnsupportedDatabaseError: unsupported database 'mysql': use sqlite+aiosqlite:///<file> \
or postgresql+asyncpg://<user>@<host>/<database>
    """
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise UnsupportedDatabaseError(f"cannot parse database URL {str(url)!r}: {error}") from None
    # Only the backend matters: whatever driver the URL names, toreshi talks through its async one.
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:") or "mode=memory" in str(parsed.query):
            raise UnsupportedDatabaseError("in-memory SQLite is not supported: give a file, sqlite+aiosqlite:///<path>")
        return parsed.set(drivername="sqlite+aiosqlite")
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+asyncpg")
    raise UnsupportedDatabaseError(
        f"unsupported database {backend!r}: use sqlite+aiosqlite:///<file> "
        "or postgresql+asyncpg://<user>@<host>/<database>"
    )


def sqlite_path(url: URL) -> Path:
    """The database file of a SQLite URL."""
    if url.get_backend_name() != "sqlite" or not url.database:
        raise UnsupportedDatabaseError(f"not a SQLite file URL: {url.render_as_string()}")
    return Path(url.database)


def create_engine(
    url: str | URL,
    *,
    schema: str | None = None,
    sqlite_synchronous: SQLiteSynchronous = SQLiteSynchronous.NORMAL,
    echo: bool = False,
) -> AsyncEngine:
    """An async engine for ``url`` (see :func:`parse_url`); nothing connects until first use.

    ``schema`` (PostgreSQL only) puts every table in that schema through the connection's ``search_path`` —
    for installs sharing a database, and for tests that must not collide. The schema must exist.
    For SQLite the folder of the database file is created if it is missing.
    """
    parsed = parse_url(url)
    if parsed.get_backend_name() == "sqlite":
        if schema is not None:
            raise UnsupportedDatabaseError("a schema is a PostgreSQL setting; SQLite keeps one database per file")
        sqlite_path(parsed).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(parsed, echo=echo)
        _configure_sqlite(engine, sqlite_synchronous)
        return engine
    connect_args: dict[str, Any] = {}
    if schema is not None:
        connect_args["server_settings"] = {"search_path": schema}
    # No ping before each use of a pooled connection: it was a round trip before every append (7 % of an instance's
    # CPU under load). A connection that broke meanwhile fails its statement once and is dropped from the pool; a
    # command whose append failed that way is answered `failed` and resent with the same id (the log de-duplicates).
    # Ten connections kept (SQLAlchemy keeps five): under a burst of appends the ones beyond the pool were opened and
    # closed again each time (a TCP connection, TLS negotiation, start-up), seen in the profile of a loaded instance.
    return create_async_engine(
        parsed, echo=echo, connect_args=connect_args, pool_pre_ping=False, pool_size=10, max_overflow=20
    )


def sqlite_synchronous(engine: AsyncEngine) -> SQLiteSynchronous:
    """How a SQLite engine made by :func:`create_engine` waits for the disk."""
    synchronous = _SQLITE_SYNCHRONOUS.get(engine.sync_engine)
    if synchronous is None:
        raise UnsupportedDatabaseError("not a SQLite engine made by toreshi.store.create_engine")
    return synchronous


def sqlite_sync_engine(engine: AsyncEngine, *, inline: bool = False) -> Engine:
    """A synchronous engine on the same SQLite file as ``engine``, its connections set up alike, with one pooled
    connection (see :mod:`toreshi.store.sqlite_writer`).

    ``inline`` connections are for writing on the event loop itself: they never wait for a lock (busy timeout 0:
    a busy database is reported at once, and the write is retried where waiting is harmless) and never checkpoint
    the write-ahead log on commit (a checkpoint waits for the disk; the writer runs it off the loop).
    """
    synchronous = sqlite_synchronous(engine)
    writer = create_sync_engine(engine.url.set(drivername="sqlite+pysqlite"), pool_size=1, max_overflow=0)
    event.listen(writer, "connect", _sqlite_pragmas(synchronous))
    if inline:
        event.listen(writer, "connect", _never_wait)
    return writer


def _never_wait(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    finally:
        cursor.close()


def _switch_to_wal(cursor: Any) -> str:
    """``PRAGMA journal_mode=WAL``, retried: on a new database several instances starting together race to switch
    it, and SQLite answers the losers "database is locked" at once, without waiting out the busy timeout."""
    deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            (mode,) = cursor.fetchone()
            return str(mode)
        except Exception as error:  # the driver adapter's OperationalError; only "locked" is retried
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            # A short blocking pause: this happens only while a new database file is being set up at start.
            time.sleep(0.02)


def _configure_sqlite(engine: AsyncEngine, synchronous: SQLiteSynchronous) -> None:
    synchronous = SQLiteSynchronous(synchronous)  # refuses anything but the two values before it reaches SQL
    _SQLITE_SYNCHRONOUS[engine.sync_engine] = synchronous
    event.listen(engine.sync_engine, "connect", _sqlite_pragmas(synchronous))


def _sqlite_pragmas(synchronous: SQLiteSynchronous) -> Callable[[Any, Any], None]:
    def set_pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            # The busy timeout first: switching a new database to WAL needs a moment of exclusive access, and a
            # connection opened at the same time by another instance must wait for it, not fail at once.
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
            mode = _switch_to_wal(cursor)
            if str(mode).lower() != "wal":
                # Network file systems cannot share the WAL index; SQLite then keeps its rollback journal.
                logger.warning("SQLite refused WAL mode (journal_mode=%s); commits will be slower", mode)
            cursor.execute(f"PRAGMA synchronous={synchronous.value}")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    return set_pragmas
