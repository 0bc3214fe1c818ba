"""Schema migrations: Alembic, configured in code, run on toreshi's own connection.

The migration scripts ship inside the package (``toreshi/store/alembic``); no ``alembic.ini`` is read. They run
from ``toreshi db upgrade`` and at every app start (:func:`toreshi.store.open_store`), so an instance never works
on an old schema. Instances starting at the same time take a lock first — a PostgreSQL advisory lock, or SQLite's
write lock — so exactly one of them migrates and the others find the schema current.

To add a migration, copy ``alembic/versions/r0001_rooms_and_events.py`` to ``rNNNN_<what>.py``, set ``revision``
and ``down_revision``, describe the change with ``op`` calls, and extend :mod:`toreshi.store.schema` to match;
``tests/store/test_migrate.py`` fails until the two agree.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command, context
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from toreshi.store.schema import metadata

SCRIPT_LOCATION = Path(__file__).parent / "alembic"

# Any fixed 64-bit number, the same in every instance: the key of the advisory lock held while migrating.
_MIGRATION_LOCK_KEY = 0x746F72657368_01  # "toresh" + 1


class MigrationError(RuntimeError):
    """The schema cannot be brought to the wanted revision."""


def alembic_config() -> Config:
    """Alembic's configuration for toreshi's migrations, without any file."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    return config


def head_revision() -> str:
    """The newest migration shipped with this version of toreshi."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:
        raise MigrationError(f"no migrations found in {SCRIPT_LOCATION}")
    return head


def known_revisions() -> list[str]:
    """Every migration shipped, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


def _order(revision: str) -> int:
    return known_revisions().index(revision)


async def current_revision(engine: AsyncEngine) -> str | None:
    """The revision the database is at; ``None`` for a database toreshi has never migrated."""
    async with engine.connect() as connection:
        return await connection.run_sync(_current_revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> str:
    """Migrate the database to ``revision`` (default: the newest) and return the revision it is at afterwards.

    The whole upgrade is one transaction (both databases have transactional DDL): it applies completely or not at
    all.
    """
    if revision != "head" and revision not in known_revisions():
        raise MigrationError(f"unknown revision {revision!r}; this toreshi knows {', '.join(known_revisions())}")
    async with engine.connect() as connection:
        await lock_for_migration(connection)
        before = await connection.run_sync(_current_revision)
        if before is not None and before not in known_revisions():
            await connection.rollback()
            raise MigrationError(
                f"the database is at revision {before!r}, which this toreshi does not know: "
                "it was written by a newer version; upgrade toreshi instead"
            )
        if revision != "head" and before is not None and _order(before) > _order(revision):
            await connection.rollback()
            raise MigrationError(
                f"the database is at revision {before!r}, newer than {revision!r}: toreshi migrates forward only "
                "(restore a backup made at that revision instead)"
            )
        await connection.run_sync(upgrade_on, revision)
        after = await connection.run_sync(_current_revision)
        await connection.commit()
    if after is None:
        raise MigrationError("the upgrade ran but left no revision in alembic_version")
    return after


async def lock_for_migration(connection: AsyncConnection) -> None:
    """Begin the transaction of a schema change on ``connection``, holding the lock that serialises them."""
    if connection.dialect.name == "postgresql":
        # Held until the transaction ends; a second instance waits here, then finds nothing left to do.
        await connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY})
    else:
        # Take the write lock before reading alembic_version: a deferred transaction that read first could not
        # upgrade to a writer once another process had migrated.
        await connection.exec_driver_sql("BEGIN IMMEDIATE")


def _current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def upgrade_on(connection: Connection, revision: str) -> None:
    """Migrate inside the caller's transaction (which should hold :func:`lock_for_migration`); no commit."""
    config = alembic_config()
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def run_in_alembic_environment(config: Config) -> None:
    """The body of ``env.py``: run the pending migrations on the connection toreshi passed in."""
    connection = config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise MigrationError(
            "toreshi's migrations run on a connection toreshi opens: use `toreshi db upgrade`, "
            "not the alembic command line"
        )
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite alters a table by copying it; batch mode does that for later migrations.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()
