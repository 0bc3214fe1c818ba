"""Writing to a SQLite database without stalling the live rooms.

Through aiosqlite, every statement of a transaction is a trip from the event loop to aiosqlite's thread and back
(check out, update, insert, commit, reset): half a dozen trips per append, and on a busy loop each trip back
waits behind everything else that is ready to run; with the server on one core, the thread also waits for the
processor and for the GIL. Under load that multiplied an append's latency (``benchmarks/quiz_live.py``).

A commit in write-ahead-log mode with ``synchronous=NORMAL`` does not wait for the disk: it takes tens of
microseconds. So the writer commits on the event loop itself, through a connection that never waits:

- when the database is busy (another connection or process holds the write lock), the same work is done in the
  writer's thread, whose connection waits out the busy timeout there;
- with ``synchronous=FULL`` (every commit waits for the disk) every write goes to the thread;
- the write-ahead log is checkpointed (which waits for the disk) in the thread, a moment after writes.

A transaction is given the driver's own ``sqlite3`` connection, held for the writer's life (one on the loop, one in
the thread): no pool check-out, no SQLAlchemy transaction or statement objects per write. Its statements are plain
SQL with positional parameters; the driver begins the transaction implicitly at the first write, as SQLAlchemy's
pysqlite dialect lets it, and the writer commits or rolls back. A driver error comes out as SQLAlchemy's wrapper
(``sqlalchemy.exc.IntegrityError``, ``OperationalError``, …), as it did through SQLAlchemy.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.pool import PoolProxiedConnection

from toreshi.store.engine import SQLiteSynchronous, sqlite_sync_engine, sqlite_synchronous

log = logging.getLogger(__name__)

T = TypeVar("T")

CHECKPOINT_AFTER_S = 1.0
"""How long after a write the write-ahead log is checkpointed (at most once per this interval)."""


class SQLiteWriter:
    """Runs write transactions on one SQLite file: on the event loop when that costs no waiting, else in a thread."""

    def __init__(self, engine: AsyncEngine, *, checkpoint_after_s: float = CHECKPOINT_AFTER_S) -> None:
        inline = sqlite_synchronous(engine) is SQLiteSynchronous.NORMAL
        self._inline: Engine | None = sqlite_sync_engine(engine, inline=True) if inline else None
        self._waiting = sqlite_sync_engine(engine)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toreshi-sqlite-writer")
        self._checkpoint_after_s = checkpoint_after_s
        self._checkpoint: asyncio.TimerHandle | None = None
        # Checked out once and kept: the loop's connection (used on the loop only) and the thread's (in the thread).
        self._inline_held: PoolProxiedConnection | None = None
        self._waiting_held: PoolProxiedConnection | None = None
        self.inline_writes = 0
        """Transactions committed on the event loop."""
        self.thread_writes = 0
        """Transactions committed in the thread (busy database, or ``synchronous=FULL``)."""

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one transaction on the driver's connection and commit it; returns what ``work`` returned.
        An exception rolls the transaction back and propagates (a driver error as SQLAlchemy's wrapper of it)."""
        if self._inline is not None:
            try:
                result = _transaction(self._inline_connection(), work)
            except sqlite3.OperationalError as error:
                if not _busy(error):
                    raise _wrapped(error) from error
            except sqlite3.Error as error:
                raise _wrapped(error) from error
            else:
                self.inline_writes += 1
                self._schedule_checkpoint()
                return result
        result = await asyncio.get_running_loop().run_in_executor(self._thread, self._write_waiting, work)
        self.thread_writes += 1
        return result

    def _inline_connection(self) -> sqlite3.Connection:
        if self._inline_held is None:
            assert self._inline is not None
            self._inline_held = self._inline.raw_connection()
        return _driver(self._inline_held)

    def _waiting_connection(self) -> sqlite3.Connection:
        """The thread's connection (only ever called in the thread)."""
        if self._waiting_held is None:
            self._waiting_held = self._waiting.raw_connection()
        return _driver(self._waiting_held)

    def _write_waiting(self, work: Callable[[sqlite3.Connection], T]) -> T:
        try:
            return _transaction(self._waiting_connection(), work)
        except sqlite3.Error as error:
            raise _wrapped(error) from error

    def _schedule_checkpoint(self) -> None:
        if self._checkpoint is None:
            loop = asyncio.get_running_loop()
            self._checkpoint = loop.call_later(self._checkpoint_after_s, self._start_checkpoint)

    def _start_checkpoint(self) -> None:
        self._checkpoint = None
        self._thread.submit(self._checkpoint_now).add_done_callback(_log_failure)

    def _checkpoint_now(self) -> None:
        # PASSIVE: copies what it can without waiting for readers or blocking writers.
        self._waiting_connection().execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def close(self) -> None:
        """Checkpoint what the loop's connection wrote, stop the thread, close the connections (blocks)."""
        if self._checkpoint is not None:
            self._checkpoint.cancel()
            self._checkpoint = None
        if self._inline is not None and self.inline_writes:
            self._thread.submit(self._checkpoint_now).add_done_callback(_log_failure)
        self._thread.submit(self._release_waiting).add_done_callback(_log_failure)
        self._thread.shutdown(wait=True)
        inline, self._inline_held = self._inline_held, None
        if inline is not None:
            inline.close()
        if self._inline is not None:
            self._inline.dispose()
        self._waiting.dispose()

    def _release_waiting(self) -> None:
        waiting, self._waiting_held = self._waiting_held, None
        if waiting is not None:
            waiting.close()


def _transaction(connection: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    try:
        result = work(connection)
        connection.commit()
    except BaseException:
        connection.rollback()
        raise
    return result


def _driver(held: PoolProxiedConnection) -> sqlite3.Connection:
    connection = held.driver_connection
    assert isinstance(connection, sqlite3.Connection)
    return connection


def _wrapped(error: sqlite3.Error) -> DBAPIError:
    """The driver's error as SQLAlchemy would have raised it (callers catch ``sqlalchemy.exc.IntegrityError``)."""
    wrapped = DBAPIError.instance(None, None, error, sqlite3.Error)
    assert isinstance(wrapped, DBAPIError)
    return wrapped


def _busy(error: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection holds a lock (``SQLITE_BUSY``/``SQLITE_LOCKED``)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return int(code) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(error)


def _log_failure(future: Future[None]) -> None:
    error = future.exception()
    if error is not None:
        log.warning("SQLite checkpoint failed: %s", error)
