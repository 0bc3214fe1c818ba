"""Team competitions: the rooms.kind check constraint admits 'teams'.

The same procedure as revision 0003 (PostgreSQL re-creates the named constraint; SQLite's schema text is edited in
place, inside the transaction), for one more kind.

Revision ID: 0008
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_NEW = "kind IN ('togyz', 'quiz', 'tournament', 'teams')"
_OLD = "kind IN ('togyz', 'quiz', 'tournament')"


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
    count = op.get_bind().execute(sa.text("SELECT count(*) FROM rooms WHERE kind = 'teams'")).scalar_one()
    if count:
        raise RuntimeError(f"{count} team room(s) exist; this database cannot go back before revision 0008")
    _set_check(_NEW, _OLD)
