"""Tournament rooms: the rooms.kind check constraint admits 'tournament'.

How the constraint is changed on PostgreSQL and on SQLite: :mod:`toreshi.store.alembic.room_kinds`.
"""

from __future__ import annotations

from toreshi.store.alembic.room_kinds import kinds_check, refuse_downgrade_while, set_kinds_check

revision = "0003"
down_revision = "0002"

_NEW = kinds_check("togyz", "quiz", "tournament")
_OLD = kinds_check("togyz", "quiz")


def upgrade() -> None:
    set_kinds_check(_OLD, _NEW)


def downgrade() -> None:
    refuse_downgrade_while("tournament", "0003", named="tournament")
    set_kinds_check(_NEW, _OLD)
