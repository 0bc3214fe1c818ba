"""Whether a server is using a SQLite database: a lock that ``toreshi serve`` holds for its whole life.

Beside the database file ``toreshi.db`` lies ``toreshi.db.serving``, an empty file locked with ``flock``: every
server holds a *shared* lock on it (several instances may serve one file together), a restore takes it
*exclusively*, without waiting. So ``toreshi db restore --force`` is refused while any server runs on the file, and a
server does not start in the middle of a restore. The operating system drops the lock when the process ends, even
killed: no stale lock is ever left to clear by hand (docs/decisions.md, «Who holds the database»).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from toreshi.store.errors import StoreError

SUFFIX = ".serving"


class DatabaseInUseError(StoreError):
    """The database is held by a server (for a restore), or being restored (for a server)."""


def lock_path(database: Path) -> Path:
    """The lock file of the SQLite database ``database``."""
    return database.with_name(database.name + SUFFIX)


_held: list[int] = []
"""The descriptors of the locks this process holds as a server: kept open until it exits."""


def hold_for_serving(database: Path) -> None:
    """Called by a server before it starts: hold ``database`` until the process ends; refused while a restore
    replaces it."""
    descriptor = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise DatabaseInUseError(
            f"{database} is being restored; start the server when the restore has finished"
        ) from None
    _held.append(descriptor)


@contextmanager
def replacing(database: Path) -> Iterator[None]:
    """Held by a restore while it replaces ``database``: refused while any server holds it."""
    with _locked(database, fcntl.LOCK_EX) as taken:
        if not taken:
            raise DatabaseInUseError(
                f"a toreshi server is using {database}: stop it first, then restore (a server's data would be lost)"
            )
        yield


@contextmanager
def _locked(database: Path, mode: int) -> Iterator[bool]:
    descriptor = os.open(lock_path(database), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(descriptor, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)
