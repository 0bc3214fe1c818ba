"""Backups and restores of a toreshi database.

Three formats, told apart by their first bytes:

- **sqlite** — a copy of the SQLite file made with SQLite's online backup API (consistent while the server
  writes; https://www.sqlite.org/backup.html). The default for SQLite.
- **pg_dump** — PostgreSQL's own custom-format dump of toreshi's schema. The default for PostgreSQL when
  ``pg_dump`` is installed.
- **json** — JSON Lines: a header (format, schema revision), one line per row, table by table, and a closing
  line with the row counts. Portable: a SQLite backup restores into PostgreSQL and back. The fallback for
  PostgreSQL without ``pg_dump``.

A backup is written beside its destination and renamed into place when complete, so a crash never leaves half a
backup under the real name. A restore refuses to replace a database that holds toreshi data unless forced, and
applies completely or not at all; afterwards the database is migrated to this toreshi's newest schema.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import IO, Any

from sqlalchemy import Connection, DateTime, LargeBinary, MetaData, Table, func, insert, inspect, select, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from toreshi.store.engine import create_engine, parse_url, sqlite_path
from toreshi.store.errors import StoreError
from toreshi.store.migrate import known_revisions, lock_for_migration, upgrade_on
from toreshi.store.schema import metadata, room_events, rooms
from toreshi.store.serving import replacing, replacing_postgres

JSON_FORMAT_NAME = "toreshi-backup"
JSON_FORMAT_VERSION = 1
VERSION_TABLE = "alembic_version"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_PG_DUMP_MAGIC = b"PGDMP"
_INSERT_BATCH = 1_000


class BackupError(StoreError):
    """A backup or restore that cannot be done; nothing was changed."""


class BackupFormat(StrEnum):
    SQLITE = "sqlite"
    PG_DUMP = "pg_dump"
    JSON = "json"


@dataclass(frozen=True, slots=True)
class BackupSummary:
    """What a backup holds or a restore brought back."""

    path: Path
    format: BackupFormat
    revision: str
    rooms: int
    events: int


async def backup(
    url: str | URL,
    destination: Path,
    *,
    schema: str | None = None,
    format: BackupFormat | None = None,
    force: bool = False,
) -> BackupSummary:
    """Write a backup of the database at ``url`` to ``destination``; refuse to overwrite a file unless ``force``."""
    parsed = parse_url(url)
    is_sqlite = parsed.get_backend_name() == "sqlite"
    if format is None:
        format = BackupFormat.SQLITE if is_sqlite else _postgres_default_format()
    format = BackupFormat(format)
    if format is BackupFormat.SQLITE and not is_sqlite:
        raise BackupError("the sqlite format copies a SQLite file; for PostgreSQL use pg_dump or json")
    if format is BackupFormat.PG_DUMP and is_sqlite:
        raise BackupError("pg_dump backs up PostgreSQL; for SQLite use sqlite or json")
    if destination.exists() and not force:
        raise BackupError(f"{destination} already exists; pass --force to overwrite it")
    if is_sqlite and not sqlite_path(parsed).exists():
        raise BackupError(f"nothing to back up: {sqlite_path(parsed)} does not exist")
    if not destination.parent.is_dir():
        raise BackupError(f"the folder {destination.parent} does not exist: create it first, or back up elsewhere")

    engine = create_engine(parsed, schema=schema)
    try:
        async with engine.connect() as connection:
            revision, room_count, event_count = await _describe(connection, what=f"{_shown(parsed)}")
            current_schema = None if is_sqlite else await connection.scalar(text("SELECT current_schema()"))
        partial = destination.with_name(f".{destination.name}.partial")
        try:
            if format is BackupFormat.SQLITE:
                await asyncio.to_thread(_sqlite_backup, sqlite_path(parsed), partial)
            elif format is BackupFormat.PG_DUMP:
                await _pg_dump(parsed, str(current_schema), partial)
            else:
                await _json_backup(engine, partial)
            partial.replace(destination)
        finally:
            partial.unlink(missing_ok=True)
    finally:
        await engine.dispose()
    return BackupSummary(destination, format, revision, room_count, event_count)


async def restore(url: str | URL, source: Path, *, schema: str | None = None, force: bool = False) -> BackupSummary:
    """Restore the backup ``source`` into the database at ``url``, then migrate it to the newest schema.

    Refused if the database already holds toreshi tables, unless ``force``: then they are replaced. Refused, even
    with ``force``, while a server holds the database (:mod:`toreshi.store.serving`).
    """
    parsed = parse_url(url)
    _detect_format(source)  # a file that is no backup is refused before anything is locked or made
    if parsed.get_backend_name() != "sqlite":
        async with replacing_postgres(parsed, schema):
            return await _restore(parsed, source, schema=schema, force=force)
    database = sqlite_path(parsed)
    database.parent.mkdir(parents=True, exist_ok=True)
    with replacing(database):
        return await _restore(parsed, source, schema=schema, force=force)


async def _restore(parsed: URL, source: Path, *, schema: str | None, force: bool) -> BackupSummary:
    is_sqlite = parsed.get_backend_name() == "sqlite"
    format = _detect_format(source)
    if format is BackupFormat.SQLITE and not is_sqlite:
        raise BackupError(
            "a SQLite backup restores into SQLite only; to move to PostgreSQL, back up with --format json"
        )
    if format is BackupFormat.PG_DUMP and is_sqlite:
        raise BackupError(
            "a pg_dump backup restores into PostgreSQL only; to move to SQLite, back up with --format json"
        )

    if format is BackupFormat.SQLITE:
        await asyncio.to_thread(_check_sqlite_backup, source)
    engine = create_engine(parsed, schema=schema)
    try:
        async with engine.connect() as connection:
            existing = await connection.run_sync(_existing_toreshi_tables)
            if existing and not force:
                held = f"toreshi tables ({', '.join(sorted(existing))})"
                if VERSION_TABLE in existing and {rooms.name, room_events.name} <= existing:
                    _, room_count, event_count = await _describe(connection, what=_shown(parsed))
                    held = f"a toreshi database ({room_count} rooms, {event_count} events)"
                raise BackupError(f"{_shown(parsed)} already holds {held}; pass --force to replace it")
        if format is BackupFormat.SQLITE:
            await engine.dispose()  # no pooled connection may hold the file while its pages are replaced
            await asyncio.to_thread(_sqlite_restore, source, sqlite_path(parsed))
        elif format is BackupFormat.PG_DUMP:
            await _pg_restore(parsed, engine, source)
        else:
            await _json_restore(engine, source)
        async with engine.connect() as connection:
            await lock_for_migration(connection)
            await connection.run_sync(upgrade_on, "head")
            await connection.commit()
            revision, room_count, event_count = await _describe(connection, what=_shown(parsed))
    finally:
        await engine.dispose()
    return BackupSummary(source, format, revision, room_count, event_count)


# --- inspection ------------------------------------------------------------------------------------------------


def _shown(url: URL) -> str:
    return url.render_as_string(hide_password=True)


async def _describe(connection: AsyncConnection, *, what: str) -> tuple[str, int, int]:
    if VERSION_TABLE not in await connection.run_sync(_existing_toreshi_tables):
        raise BackupError(f"{what} holds no toreshi database (no {VERSION_TABLE} table)")
    revision = await connection.scalar(text(f"SELECT version_num FROM {VERSION_TABLE}"))
    room_count = await connection.scalar(select(func.count()).select_from(rooms))
    event_count = await connection.scalar(select(func.count()).select_from(room_events))
    return str(revision), int(room_count or 0), int(event_count or 0)


def _existing_toreshi_tables(connection: Connection) -> set[str]:
    ours = {*metadata.tables, VERSION_TABLE}
    return ours & set(inspect(connection).get_table_names())


def _detect_format(source: Path) -> BackupFormat:
    try:
        with source.open("rb") as handle:
            start = handle.read(len(_SQLITE_MAGIC))
    except OSError as error:
        raise BackupError(f"cannot read backup {source}: {error.strerror}") from None
    if start == _SQLITE_MAGIC:
        return BackupFormat.SQLITE
    if start.startswith(_PG_DUMP_MAGIC):
        return BackupFormat.PG_DUMP
    if start.startswith(b"{"):
        return BackupFormat.JSON
    raise BackupError(f"{source} is not a toreshi backup (neither a SQLite file, a pg_dump archive nor JSON Lines)")


# --- SQLite -----------------------------------------------------------------------------------------------------


def _sqlite_backup(database: Path, partial: Path) -> None:
    partial.unlink(missing_ok=True)
    with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(partial)) as target:
        source.backup(target)  # one step: a consistent copy even while the server writes
        # A self-contained file: rollback journal, not WAL, so the backup is one file that can be copied anywhere.
        target.execute("PRAGMA journal_mode=DELETE")


def _check_sqlite_backup(source: Path) -> None:
    with closing(sqlite3.connect(f"{source.absolute().as_uri()}?mode=ro", uri=True)) as connection:
        try:
            (verdict,) = connection.execute("PRAGMA quick_check").fetchone()
            tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            revision = None
            if VERSION_TABLE in tables:
                (revision,) = connection.execute(f"SELECT version_num FROM {VERSION_TABLE}").fetchone()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{source} is not a readable SQLite database: {error}") from None
    if verdict != "ok":
        raise BackupError(f"{source} is damaged (SQLite quick_check: {verdict})")
    _check_revision(revision, source)


def _sqlite_restore(source: Path, database: Path) -> None:
    database.parent.mkdir(parents=True, exist_ok=True)
    with closing(sqlite3.connect(source)) as backup_file, closing(sqlite3.connect(database)) as target:
        target.execute(f"PRAGMA busy_timeout={5_000}")
        # The backup API replaces every page of the target in one locked step: all of it or none of it.
        backup_file.backup(target)
        target.execute("PRAGMA journal_mode=WAL")


# --- PostgreSQL through pg_dump / pg_restore ----------------------------------------------------------------------


def _postgres_default_format() -> BackupFormat:
    return BackupFormat.PG_DUMP if shutil.which("pg_dump") else BackupFormat.JSON


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """A libpq connection URI and environment for the PostgreSQL tools (the password travels in the environment)."""
    plain = URL.create("postgresql", username=url.username, host=url.host, port=url.port, database=url.database)
    environment = dict(os.environ)
    if url.password is not None:
        environment["PGPASSWORD"] = str(url.password)
    return plain.render_as_string(), environment


async def _run_tool(*arguments: str, environment: dict[str, str]) -> str:
    tool = arguments[0]
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed; use --format json instead")
    process = await asyncio.create_subprocess_exec(
        *arguments, env=environment, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    stdout, stderr = await process.communicate()
    if process.returncode != 0:
        raise BackupError(f"{tool} failed (exit {process.returncode}): {stderr.decode(errors='replace').strip()}")
    return stdout.decode()


async def _pg_dump(url: URL, schema: str, partial: Path) -> None:
    dsn, environment = _libpq(url)
    await _run_tool(
        "pg_dump", "--format=custom", "--no-owner", "--no-privileges", f"--schema={schema}",
        f"--file={partial}", f"--dbname={dsn}",
        environment=environment,
    )  # fmt: skip


async def _pg_restore(url: URL, engine: AsyncEngine, source: Path) -> None:
    dsn, environment = _libpq(url)
    listing = await _run_tool("pg_restore", "--list", str(source), environment=environment)
    # Entries read "<id>; <oid> <oid> TABLE <schema> <name> <owner>" (TABLE DATA entries name the same tables).
    dumped_schemas = {
        fields[4] for fields in map(str.split, listing.splitlines())
        if len(fields) > 5 and not fields[0].startswith(";") and fields[3] == "TABLE" and fields[4] != "DATA"
    }  # fmt: skip
    async with engine.connect() as connection:
        target_schema = await connection.scalar(text("SELECT current_schema()"))
    if dumped_schemas != {target_schema}:
        raise BackupError(
            f"this pg_dump holds schema {', '.join(sorted(dumped_schemas)) or '(none)'}, but the target is "
            f"{target_schema!r}; restore into the same schema, or back up with --format json to move"
        )
    # The schema itself exists already (its objects are created in it): leave it out of the restore.
    kept = [line for line in listing.splitlines() if " SCHEMA - " not in line]
    use_list = source.with_name(f".{source.name}.list")
    use_list.write_text("\n".join(kept) + "\n", encoding="utf-8")
    try:
        await _run_tool(
            "pg_restore", "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
            "--exit-on-error", f"--use-list={use_list}", f"--dbname={dsn}", str(source),
            environment=environment,
        )  # fmt: skip
    finally:
        use_list.unlink(missing_ok=True)


# --- JSON Lines (portable) ------------------------------------------------------------------------------------------


async def _json_backup(engine: AsyncEngine, partial: Path) -> None:
    async with engine.connect() as connection:
        # One read snapshot for every table, so that no event is dumped without its room while the server writes.
        if connection.dialect.name == "sqlite":
            await connection.exec_driver_sql("BEGIN")
        else:
            await connection.execution_options(isolation_level="REPEATABLE READ")
        revision = await connection.scalar(text(f"SELECT version_num FROM {VERSION_TABLE}"))
        tables = await connection.run_sync(_reflect_tables)
        with partial.open("w", encoding="utf-8") as out:
            header = {"format": JSON_FORMAT_NAME, "format_version": JSON_FORMAT_VERSION, "revision": revision,
                      "dialect": connection.dialect.name, "created_at": datetime.now(UTC).isoformat(),
                      "tables": [table.name for table in tables]}  # fmt: skip
            _write_line(out, header)
            counts: dict[str, int] = {}
            for table in tables:
                counts[table.name] = 0
                key = list(table.primary_key.columns) or list(table.columns)
                async for row in await connection.stream(select(table).order_by(*key)):
                    _write_line(out, {"table": table.name, "row": {k: _to_json(v) for k, v in row._mapping.items()}})
                    counts[table.name] += 1
            _write_line(out, {"end": True, "counts": counts})
            out.flush()
            os.fsync(out.fileno())


async def _json_restore(engine: AsyncEngine, source: Path) -> None:
    with source.open("r", encoding="utf-8") as handle:
        lines = _json_lines(handle, source)
        header = next(lines, None)
        if not isinstance(header, dict) or header.get("format") != JSON_FORMAT_NAME:
            raise BackupError(f"{source} is not a toreshi JSON backup (its first line is no {JSON_FORMAT_NAME} header)")
        if header.get("format_version") != JSON_FORMAT_VERSION:
            raise BackupError(f"{source} has backup format version {header.get('format_version')!r}; "
                              f"this toreshi reads version {JSON_FORMAT_VERSION}")  # fmt: skip
        revision = header.get("revision")
        _check_revision(revision, source)
        async with engine.connect() as connection:
            # One transaction: drop, recreate at the backup's revision, load. A truncated file rolls it all back.
            await lock_for_migration(connection)
            await connection.run_sync(_drop_toreshi_tables)
            await connection.run_sync(upgrade_on, str(revision))
            tables = {table.name: table for table in await connection.run_sync(_reflect_tables)}
            await _load_rows(connection, tables, lines, source)
            await connection.commit()


async def _load_rows(connection: AsyncConnection, tables: dict[str, Table], lines: Iterator[Any], source: Path) -> None:
    counts = dict.fromkeys(tables, 0)
    expected: dict[str, int] | None = None
    batch: list[dict[str, Any]] = []
    batch_table: Table | None = None
    for line in lines:
        if expected is not None:
            raise BackupError(f"{source} has lines after its end line")
        if isinstance(line, dict) and line.get("end") is True and isinstance(line.get("counts"), dict):
            expected = {str(name): int(count) for name, count in line["counts"].items()}
            continue
        if not (isinstance(line, dict) and isinstance(line.get("table"), str) and isinstance(line.get("row"), dict)):
            raise BackupError(f"{source}: unexpected line {json.dumps(line)[:200]}")
        table = tables.get(line["table"])
        if table is None:
            raise BackupError(f"{source}: a row for unknown table {line['table']!r}")
        if table is not batch_table or len(batch) >= _INSERT_BATCH:
            await _insert(connection, batch_table, batch)
            batch = []
        batch_table = table
        batch.append(_from_json(table, line["row"]))
        counts[table.name] += 1
    await _insert(connection, batch_table, batch)
    if expected is None:
        raise BackupError(f"{source} is truncated: it has no end line (the backup did not finish)")
    if counts != expected:
        raise BackupError(f"{source} is inconsistent: it holds {counts} rows, its end line says {expected}")


async def _insert(connection: AsyncConnection, table: Table | None, rows: list[dict[str, Any]]) -> None:
    if table is not None and rows:
        await connection.execute(insert(table), rows)


def _json_lines(handle: IO[str], source: Path) -> Iterator[Any]:
    for number, line in enumerate(handle, start=1):
        if not line.strip():
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as error:
            raise BackupError(f"{source}, line {number}: not JSON ({error.msg})") from None


def _write_line(out: IO[str], value: object) -> None:
    out.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
    out.write("\n")


def _to_json(value: object) -> object:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")  # a quiz pack: read back by its column's type
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=UTC)).isoformat()
    return value


def _from_json(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    converted = dict(row)
    for name, value in row.items():
        if name not in table.columns:
            raise BackupError(f"backup row for {table.name} has column {name!r}, which the table does not have")
        if isinstance(table.columns[name].type, DateTime) and isinstance(value, str):
            converted[name] = datetime.fromisoformat(value)
        elif isinstance(table.columns[name].type, LargeBinary) and isinstance(value, str):
            converted[name] = base64.b64decode(value)
    return converted


def _reflect_tables(connection: Connection) -> list[Table]:
    """toreshi's tables as they are in the database, parents before children (foreign keys)."""
    reflected = MetaData()
    reflected.reflect(connection, only=sorted(_existing_toreshi_tables(connection)))
    return [table for table in reflected.sorted_tables if table.name != VERSION_TABLE]


def _drop_toreshi_tables(connection: Connection) -> None:
    metadata.drop_all(connection, checkfirst=True)
    connection.execute(text(f"DROP TABLE IF EXISTS {VERSION_TABLE}"))
    if connection.dialect.name == "postgresql":
        connection.execute(text("DROP FUNCTION IF EXISTS room_events_refuse_change()"))


def _check_revision(revision: object, source: Path) -> None:
    if revision is None:
        raise BackupError(f"{source} holds no toreshi database (no schema revision)")
    if revision not in known_revisions():
        raise BackupError(
            f"{source} was made at schema revision {revision!r}, which this toreshi does not know "
            f"(it knows {', '.join(known_revisions())}): restore it with a newer toreshi"
        )
