"""Team competitions: the rooms.kind check constraint admits 'teams'.

The same procedure as revision 0003 (:mod:`toreshi.store.alembic.room_kinds`), for one more kind.
"""

from __future__ import annotations

from toreshi.store.alembic.room_kinds import kinds_check, refuse_downgrade_while, set_kinds_check

revision = "0008"
down_revision = "0007"

_NEW = kinds_check("togyz", "quiz", "tournament", "teams")
_OLD = kinds_check("togyz", "quiz", "tournament")


def upgrade() -> None:
    set_kinds_check(_OLD, _NEW)


def downgrade() -> None:
    refuse_downgrade_while("teams", "0008", named="team")
    set_kinds_check(_NEW, _OLD)
