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
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

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
        self.inline_writes = 0
        """Transactions committed on the event loop."""
        self.thread_writes = 0
        """Transactions committed in the thread (busy database, or ``synchronous=FULL``)."""

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in one transaction and commit it; returns what ``work`` returned. An exception rolls the
        transaction back and propagates."""
        if self._inline is not None:
            try:
                result = _transaction(self._inline, work)
            except OperationalError as error:
                if not _busy(error):
                    raise
            else:
                self.inline_writes += 1
                self._schedule_checkpoint()
                return result
        result = await asyncio.get_running_loop().run_in_executor(self._thread, _transaction, self._waiting, work)
        self.thread_writes += 1
        return result

    def _schedule_checkpoint(self) -> None:
        if self._checkpoint is None:
            loop = asyncio.get_running_loop()
            self._checkpoint = loop.call_later(self._checkpoint_after_s, self._start_checkpoint)

    def _start_checkpoint(self) -> None:
        self._checkpoint = None
        self._thread.submit(self._checkpoint_now).add_done_callback(_log_failure)

    def _checkpoint_now(self) -> None:
        # PASSIVE: copies what it can without waiting for readers or blocking writers.
        with self._waiting.connect() as connection:
            connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Checkpoint what the loop's connection wrote, stop the thread, close the connections (blocks)."""
        if self._checkpoint is not None:
            self._checkpoint.cancel()
            self._checkpoint = None
        if self._inline is not None and self.inline_writes:
            self._thread.submit(self._checkpoint_now).add_done_callback(_log_failure)
        self._thread.shutdown(wait=True)
        if self._inline is not None:
            self._inline.dispose()
        self._waiting.dispose()


def _transaction(engine: Engine, work: Callable[[Connection], T]) -> T:
    with engine.begin() as connection:
        return work(connection)


def _busy(error: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds a lock (``SQLITE_BUSY``/``SQLITE_LOCKED``)."""
    code = getattr(error.orig, "sqlite_errorcode", None)
    if code is not None:
        return int(code) & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(error.orig)


def _log_failure(future: Future[None]) -> None:
    error = future.exception()
    if error is not None:
        log.warning("SQLite checkpoint failed: %s", error)
