"""What the command line says when a command cannot do what it was asked: one short line, never a traceback.

A command raises :class:`CommandError` for what it checks itself; the ``toreshi`` group (:mod:`toreshi.cli`) turns
that and the other errors a wrong file or folder causes (:func:`explain`) into ``error: …`` on standard error and
an exit status. Only the standard library is imported here: every command, however light, goes through it.
"""

from __future__ import annotations

import errno
import re
import sys

EXIT_FAILURE = 1
EXIT_SOFTWARE = 70
"""BSD sysexits' EX_SOFTWARE: an error toreshi did not expect (a bug), told apart from a bad input."""

MAX_QUOTED = 120
"""At most this many characters of a file's content in a message: a 3 MB line is not echoed back."""


class CommandError(Exception):
    """A command that cannot do what was asked; its message is shown on one line, the exit status is ``exit_code``."""

    def __init__(self, message: str, exit_code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


def clip(text: str, limit: int = MAX_QUOTED) -> str:
    """``text`` on one line, each run of over 100 characters without a space (a file's content, not a path) cut to
    60, the whole to ``limit`` characters (an ellipsis marks each cut)."""
    one_line = " ".join(text.split()) if "\n" in text or "\r" in text else text
    shortened = _LONG_RUN.sub(lambda run: run.group()[:60] + "…", one_line)
    return shortened if len(shortened) <= limit else shortened[: limit - 1] + "…"


_LONG_RUN = re.compile(r"\S{101,}")


def explain(error: Exception) -> tuple[str, int] | None:
    """The message and exit status for an error a wrong input causes; ``None`` for one toreshi did not expect."""
    if isinstance(error, CommandError):
        return clip(error.message, 400), error.exit_code
    if isinstance(error, OSError):
        where = " → ".join(str(name) for name in (error.filename, error.filename2) if name is not None)
        reason = error.strerror or str(error)
        if error.errno == errno.EROFS:
            reason = "the file system is read-only"
        return (f"{where}: {reason}" if where else reason), EXIT_FAILURE
    if isinstance(error, UnicodeError):
        return f"a file is not UTF-8 text ({clip(str(error))})", EXIT_FAILURE
    if isinstance(error, MemoryError):
        return "not enough memory for this input", EXIT_FAILURE
    if isinstance(error, RecursionError):
        return "the input is nested too deeply", EXIT_FAILURE
    database = _database_problem(error)
    if database is not None:
        return database, EXIT_FAILURE
    return None


def _database_problem(error: Exception) -> str | None:
    """A database that cannot be used (a corrupt or foreign SQLite file, a server that refused), looked for only
    among the modules already imported: a command that never touched a database never imports a driver here."""
    sqlalchemy_errors = sys.modules.get("sqlalchemy.exc")
    if sqlalchemy_errors is not None and isinstance(error, sqlalchemy_errors.DBAPIError):
        cause = error.orig if isinstance(error.orig, Exception) else error
        return f"the database cannot be used: {clip(str(cause).splitlines()[0] if str(cause) else repr(cause))}"
    sqlite = sys.modules.get("sqlite3")
    if sqlite is not None and isinstance(error, sqlite.DatabaseError):
        return f"the database cannot be used: {clip(str(error))}"
    return None
