"""The question pack of a quiz game, kept as uploaded: ``quiz_packs``.

A «Своя игра» game shows the images, sounds, videos and HTML pages of its SIGame pack; they are served from the
stored ``.siq`` by room and content item (nothing is extracted to files). A pack uploaded for a game that the host
is still setting up (picking questions) is a row without a room yet; it gets its room when the game is created.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "quiz_packs",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("room_id", sa.String(64), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_quiz_packs"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_quiz_packs_room_id_rooms"),
        sa.UniqueConstraint("room_id", name="uq_quiz_packs_room_id"),
    )


def downgrade() -> None:
    op.drop_table("quiz_packs")
