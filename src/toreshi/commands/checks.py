"""The checks every command makes of a file or folder it is given, before it reads or writes: each failure is a
:class:`~toreshi.commands.errors.CommandError` that says what is wrong (only the standard library is imported)."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TextIO

from toreshi.commands.errors import CommandError

MAX_TEXT_BYTES = 64 * 1024 * 1024
"""A text input (a TRF, a PGN record, a configuration) larger than this is refused before it is read."""

SQLITE_MAGIC = b"SQLite format 3\x00"


def read_text(path: Path, *, legacy_encoding: str | None = None) -> str:
    """The text of the file at ``path``: UTF-8 (a byte-order mark is dropped), else ``legacy_encoding`` if given.

    A folder, a missing or unreadable file, a file over :data:`MAX_TEXT_BYTES`, UTF-16/UTF-32 text and binary data
    are refused with a :class:`CommandError` saying which.
    """
    size = _readable_size(path)
    if size > MAX_TEXT_BYTES:
        raise CommandError(f"{path} is too large ({size:,} bytes; at most {MAX_TEXT_BYTES:,})")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    _check_text_start(path, data)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        if legacy_encoding is not None:
            return data.decode(legacy_encoding)
        raise CommandError(f"{path} is not UTF-8 text (byte {error.start}: {error.reason})") from None


def open_text(path: Path) -> TextIO:
    """The file at ``path`` opened as UTF-8 text to be read as a stream (any size), after the checks of
    :func:`read_text` on its first 64 KiB; a later byte that is not UTF-8 raises :class:`UnicodeDecodeError`."""
    _readable_size(path)
    try:
        with path.open("rb") as handle:
            _check_text_start(path, handle.read(_SNIFF_BYTES))
        return path.open(encoding="utf-8-sig", errors="strict", newline="")
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None


_SNIFF_BYTES = 65536


def _readable_size(path: Path) -> int:
    if path.is_dir():
        raise CommandError(f"{path} is a folder, not a file")
    try:
        return path.stat().st_size
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None


def _check_text_start(path: Path, start: bytes) -> None:
    if start.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CommandError(f"{path} is not UTF-8 text but UTF-16: save it as UTF-8")
    if b"\x00" in start[:_SNIFF_BYTES]:
        raise CommandError(f"{path} is not a text file (it holds binary data)")


def check_sqlite_file(path: Path) -> None:
    """Refuse a database path that is a folder or a file that is not SQLite (a missing or empty file is a new
    database)."""
    if path.is_dir():
        raise CommandError(f"{path} is a folder, not a database file")
    try:
        with path.open("rb") as handle:
            start = handle.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as error:
        raise CommandError(f"cannot read the database {path}: {error.strerror or error}") from None
    if start and start != SQLITE_MAGIC:
        raise CommandError(f"{path} is not a SQLite database (a SQLite file starts with 'SQLite format 3')")


def check_writable_folder(folder: Path, what: str) -> None:
    """Make sure ``folder`` exists (creating it) and that a file can be created in it, by creating one."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".toreshi-write-check-{os.getpid()}"
        probe.touch()
        probe.unlink()
    except OSError as error:
        reason = "the file system is read-only" if error.errno == errno.EROFS else (error.strerror or str(error))
        raise CommandError(f"cannot write to {what} {folder}: {reason}") from None
