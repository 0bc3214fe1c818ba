"""``toreshi db …``: schema migrations, backups and restores of the database.

The database is ``--db`` (or ``TORESHI_DB``), by default the SQLite file in ``--data-dir``, as for ``toreshi serve``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.console import Console
from sqlalchemy.exc import OperationalError

from toreshi.commands import GROUPS
from toreshi.commands.checks import check_sqlite_file
from toreshi.commands.errors import CommandError
from toreshi.store import MigrationError, StoreError, UnsupportedDatabaseError, create_engine, default_url, upgrade
from toreshi.store.backup import BackupFormat, BackupSummary, backup, restore
from toreshi.store.engine import parse_url, sqlite_path
from toreshi.store.migrate import current_revision

app = typer.Typer(help=GROUPS["db"][1], no_args_is_help=True, add_completion=False)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="TORESHI_DB",
        help="Database URL: sqlite+aiosqlite:///<file> or postgresql+asyncpg://<user>@<host>/<database>.",
        show_default="the SQLite file in --data-dir",
    ),
]
DataDirOption = Annotated[Path, typer.Option("--data-dir", help="Folder of the default SQLite database.")]
SchemaOption = Annotated[
    str | None, typer.Option("--schema", envvar="TORESHI_DB_SCHEMA", help="PostgreSQL schema holding the tables.")
]
ForceOption = Annotated[bool, typer.Option("--force", help="Overwrite what is there.")]

T = TypeVar("T")


def _url(db: str | None, data_dir: Path) -> str:
    """The database URL; a SQLite file that is a folder or not SQLite at all is refused before any driver opens it
    (a driver that fails to open a file leaves a thread behind that would print a traceback at exit)."""
    url = db if db is not None else default_url(data_dir)
    try:
        parsed = parse_url(url)
    except UnsupportedDatabaseError as error:
        raise CommandError(str(error)) from None
    if parsed.get_backend_name() == "sqlite":
        check_sqlite_file(sqlite_path(parsed))
    return url


def _run(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work``; a refusal or an unreachable database ends the command with its message and exit code 1."""
    try:
        return asyncio.run(work)
    except (StoreError, MigrationError, UnsupportedDatabaseError) as error:
        Console(stderr=True, soft_wrap=True).print(f"[bold red]error:[/] {error}", highlight=False)
        raise typer.Exit(1) from None
    except (OperationalError, OSError) as error:
        Console(stderr=True, soft_wrap=True).print(f"[bold red]cannot reach the database:[/] {error}", highlight=False)
        raise typer.Exit(1) from None


def _summary(verb: str, summary: BackupSummary) -> str:
    return (
        f"{verb} {summary.path} ({summary.format.value}): schema revision {summary.revision}, "
        f"{summary.rooms} rooms, {summary.events} events"
    )


@app.command("upgrade")
def upgrade_command(
    db: DbOption = None,
    data_dir: DataDirOption = Path("data"),
    schema: SchemaOption = None,
    revision: Annotated[str, typer.Option(help="Target revision.")] = "head",
) -> None:
    """Migrate the database to the newest schema (the app also does this when it starts)."""

    async def work() -> tuple[str | None, str]:
        engine = create_engine(_url(db, data_dir), schema=schema)
        try:
            before = await current_revision(engine)
            return before, await upgrade(engine, revision)
        finally:
            await engine.dispose()

    before, after = _run(work())
    if before == after:
        typer.echo(f"database already at schema revision {after}")
    else:
        typer.echo(f"database migrated from schema revision {before or '(empty)'} to {after}")


@app.command("backup")
def backup_command(
    destination: Annotated[Path, typer.Argument(help="The backup file to write.", dir_okay=False)],
    db: DbOption = None,
    data_dir: DataDirOption = Path("data"),
    schema: SchemaOption = None,
    format: Annotated[
        BackupFormat | None,
        typer.Option(
            "--format",
            help="sqlite (a copy of the file), pg_dump, or json (portable between SQLite and PostgreSQL).",
            show_default="sqlite for SQLite; pg_dump for PostgreSQL, json without pg_dump",
        ),
    ] = None,
    force: ForceOption = False,
) -> None:
    """Write a consistent backup while the server runs; refuses to overwrite a file without --force."""
    summary = _run(backup(_url(db, data_dir), destination, schema=schema, format=format, force=force))
    typer.echo(_summary("backed up to", summary))


@app.command("restore")
def restore_command(
    source: Annotated[Path, typer.Argument(help="A backup made by `toreshi db backup`.", dir_okay=False)],
    db: DbOption = None,
    data_dir: DataDirOption = Path("data"),
    schema: SchemaOption = None,
    force: ForceOption = False,
) -> None:
    """Restore a backup; refuses to replace a database with data without --force, and while a server uses it."""
    summary = _run(restore(_url(db, data_dir), source, schema=schema, force=force))
    typer.echo(_summary("restored", summary))
