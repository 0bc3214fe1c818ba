"""Arbiter accounts and per-room grants (the players' secret links)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "arbiters",
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_arbiters"),
    )
    op.create_table(
        "room_grants",
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("token_digest", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("room_id", "role", name="pk_room_grants"),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name="fk_room_grants_room_id_rooms"),
        sa.UniqueConstraint("token_digest", name="uq_room_grants_token_digest"),
    )


def downgrade() -> None:
    op.drop_table("room_grants")
    op.drop_table("arbiters")
