"""Each event row names the command (or timer firing) it came from: ``room_events.command_id``.

Events decided together (a move and its clock press, a press and its ruling) share one id, so that a room rebuilt
from its log knows which events travelled in one frame (protocol 2 marks all but the last ``more``), and a new
owner knows which commands were already applied: a client that retries a command after ``moved`` gets the original
answer instead of having it applied twice. Rows written before this revision have no id (each event stands alone).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"

COMMAND_ID_LENGTH = 200


def upgrade() -> None:
    op.add_column("room_events", sa.Column("command_id", sa.String(COMMAND_ID_LENGTH), nullable=True))


def downgrade() -> None:
    # Both databases drop a column in place (SQLite since 3.35); a batch copy would fight the append-only triggers.
    op.execute("ALTER TABLE room_events DROP COLUMN command_id")
