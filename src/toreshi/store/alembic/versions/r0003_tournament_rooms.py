"""Tournament rooms: the rooms.kind check constraint admits 'tournament'.

PostgreSQL drops and re-creates the named constraint. SQLite cannot alter a constraint; Alembic's batch mode would
copy ``rooms`` and drop the original, but ``room_events`` and ``room_grants`` reference ``rooms`` and toreshi's
connections enforce foreign keys (``PRAGMA foreign_keys=ON``, which cannot be switched off inside the migration's
transaction), so ``DROP TABLE rooms`` fails as soon as one event exists — and renaming it first rewrites the
children's references. So on SQLite the constraint text in the schema is edited in place, the procedure SQLite
documents for changing a CHECK constraint that the stored rows already satisfy (lang_altertable.html, "Making
other kinds of table schema changes": writable_schema, then bump schema_version), all inside the transaction.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_NEW = "kind IN ('togyz', 'quiz', 'tournament')"
_OLD = "kind IN ('togyz', 'quiz')"


def _set_check(old: str, new: str) -> None:
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


def upgrade() -> None:
    _set_check(_OLD, _NEW)


def downgrade() -> None:
    count = op.get_bind().execute(sa.text("SELECT count(*) FROM rooms WHERE kind = 'tournament'")).scalar_one()
    if count:
        raise RuntimeError(f"{count} tournament room(s) exist; this database cannot go back before revision 0003")
    _set_check(_NEW, _OLD)
