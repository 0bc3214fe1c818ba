"""Whether a server is using a database, so that ``toreshi db restore`` never pulls it from under one.

A server holds a *shared* lock for its whole life, a restore takes the same lock *exclusively* without waiting:
a restore is refused (even forced) while any server holds it, and a server does not start during a restore.
Shared, because several instances may serve one database. The lock goes with the process or its connection, even
after SIGKILL: there is never a stale lock to clear by hand (docs/decisions.md, «Who holds the database»).

* **SQLite** — an ``flock`` on ``toreshi.db.serving``, an empty file beside the database file.
* **PostgreSQL** — a session advisory lock keyed by toreshi's schema (servers may run on other machines), held by
  the server on a connection of its own, in a thread of its own, until the process ends.
"""

from __future__ import annotations

import asyncio
import os
import queue
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import URL

from toreshi.store.engine import create_engine
from toreshi.store.errors import StoreError

if sys.platform != "win32":
    import fcntl

SUFFIX = ".serving"

_LOCK_CLASS = 0x746F7265  # "tore": the first key of the two-key advisory lock; the second is the schema's hash
_LOCK_KEYS = f"{_LOCK_CLASS}, hashtext(current_schema())"

_RESTORING = "{what} is being restored; start the server when the restore has finished"
_SERVED = "a toreshi server is using {what}: stop it first, then restore (a server's data would be lost)"


class DatabaseInUseError(StoreError):
    """The database is held by a server (for a restore), or being restored (for a server)."""


def lock_path(database: Path) -> Path:
    """The lock file of the SQLite database ``database``."""
    return database.with_name(database.name + SUFFIX)


_held: list[int] = []
"""The descriptors of the SQLite locks this process holds as a server: kept open until it exits."""


def hold_for_serving(database: Path) -> None:
    """Called by a server before it starts: hold the SQLite ``database`` until the process ends; refused while a
    restore replaces it."""
    descriptor = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    if not _try_lock(descriptor, exclusive=False):
        os.close(descriptor)
        raise DatabaseInUseError(_RESTORING.format(what=database))
    _held.append(descriptor)


@contextmanager
def replacing(database: Path) -> Iterator[None]:
    """Held by a restore while it replaces the SQLite ``database``: refused while any server holds it."""
    descriptor = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try_lock(descriptor, exclusive=True):
            raise DatabaseInUseError(_SERVED.format(what=database))
        yield
    finally:
        os.close(descriptor)


def _try_lock(descriptor: int, *, exclusive: bool) -> bool:
    """Take the ``flock`` without waiting; whether it was free. Windows has no ``flock``: there the SQLite lock is
    not taken (a restore is then only refused over data without ``--force``)."""
    if sys.platform == "win32":
        return True
    try:
        fcntl.flock(descriptor, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def hold_postgres_for_serving(url: URL, schema: str | None, *, timeout: float = 30) -> None:
    """Called by a server before it starts: hold the PostgreSQL database (toreshi's schema in it) until the process
    ends, on a connection of its own in a daemon thread; refused while a restore replaces it."""
    outcome: queue.Queue[BaseException | None] = queue.Queue()
    threading.Thread(
        target=lambda: asyncio.run(_hold_postgres(url, schema, outcome)), name="toreshi-serving-lock", daemon=True
    ).start()
    try:
        problem = outcome.get(timeout=timeout)
    except queue.Empty:
        raise DatabaseInUseError(f"no answer from the database in {timeout:.0f} s while taking its lock") from None
    if problem is not None:
        raise problem


async def _hold_postgres(url: URL, schema: str | None, outcome: queue.Queue[BaseException | None]) -> None:
    engine = create_engine(url, schema=schema)
    try:
        async with engine.connect() as connection:
            taken = await connection.scalar(text(f"SELECT pg_try_advisory_lock_shared({_LOCK_KEYS})"))
            await connection.commit()  # a session lock outlives the transaction; the session stays idle
            if not taken:
                outcome.put(DatabaseInUseError(_RESTORING.format(what=_shown(url, schema))))
                return
            outcome.put(None)
            await asyncio.Event().wait()  # until the process ends, and the session with it
    except Exception as error:  # the server's start is told why, and stops
        outcome.put(error)
    finally:
        await engine.dispose()


@asynccontextmanager
async def replacing_postgres(url: URL, schema: str | None) -> AsyncIterator[None]:
    """Held by a restore while it replaces the PostgreSQL database: refused while any server holds it."""
    engine = create_engine(url, schema=schema)
    try:
        async with engine.connect() as connection:
            taken = await connection.scalar(text(f"SELECT pg_try_advisory_lock({_LOCK_KEYS})"))
            await connection.commit()
            if not taken:
                raise DatabaseInUseError(_SERVED.format(what=_shown(url, schema)))
            try:
                yield
            finally:
                await connection.scalar(text(f"SELECT pg_advisory_unlock({_LOCK_KEYS})"))
                await connection.commit()
    finally:
        await engine.dispose()


def _shown(url: URL, schema: str | None) -> str:
    where = url.render_as_string(hide_password=True)
    return where if schema is None else f"{where} (schema {schema})"
