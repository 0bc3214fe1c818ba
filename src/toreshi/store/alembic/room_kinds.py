"""How a migration changes which room kinds ``rooms.kind`` admits (revisions 0003 and 0008).

PostgreSQL drops and re-creates the named constraint. SQLite cannot alter a constraint; Alembic's batch mode would
copy ``rooms`` and drop the original, but ``room_events`` and ``room_grants`` reference ``rooms`` and toreshi's
connections enforce foreign keys (``PRAGMA foreign_keys=ON``, which cannot be switched off inside the migration's
transaction), so ``DROP TABLE rooms`` fails as soon as one event exists — and renaming it first rewrites the
children's references. So on SQLite the constraint text in the schema is edited in place, the procedure SQLite
documents for changing a CHECK constraint that the stored rows already satisfy (lang_altertable.html, "Making
other kinds of table schema changes": writable_schema, then bump schema_version), all inside the transaction.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op


def kinds_check(*kinds: str) -> str:
    """The constraint's text for these kinds, exactly as the schema stores it."""
    return "kind IN (" + ", ".join(f"'{kind}'" for kind in kinds) + ")"


def set_kinds_check(old: str, new: str) -> None:
    """Replace the ``rooms.kind`` check ``old`` by ``new`` (texts made by :func:`kinds_check`)."""
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.drop_constraint(op.f("ck_rooms_kind"), "rooms", type_="check")
        op.create_check_constraint(op.f("ck_rooms_kind"), "rooms", new)
        return
    sql = bind.execute(sa.text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'rooms'")).scalar_one()
    if sql.count(old) != 1:
        raise RuntimeError(f"rooms.kind check constraint not found as {old!r} in the SQLite schema: {sql}")
    version = bind.execute(sa.text("PRAGMA schema_version")).scalar_one()
    bind.execute(sa.text("PRAGMA writable_schema = ON"))
    try:
        bind.execute(
            sa.text("UPDATE sqlite_master SET sql = :sql WHERE type = 'table' AND name = 'rooms'"),
            {"sql": sql.replace(old, new)},
        )
        bind.execute(sa.text(f"PRAGMA schema_version = {int(version) + 1}"))
    finally:
        bind.execute(sa.text("PRAGMA writable_schema = OFF"))


def refuse_downgrade_while(kind: str, revision: str, named: str) -> None:
    """A downgrade below ``revision`` would leave rooms of ``kind`` (``named`` so in the message) that the old check
    refuses: stop it."""
    count = op.get_bind().execute(sa.text("SELECT count(*) FROM rooms WHERE kind = :kind"), {"kind": kind}).scalar_one()
    if count:
        raise RuntimeError(f"{count} {named} room(s) exist; this database cannot go back before revision {revision}")
