"""A room can be archived: ``rooms.archived_at`` (null while it is not).

An arbiter archives a finished (or never started) game to take it off the games list; the room, its log and its
pages stay as they were and readable by their links. Archiving is a flag on the room's row, not an event in its log:
it says how the club files the game, not anything that happened in it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.add_column("rooms", sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE rooms DROP COLUMN archived_at")
