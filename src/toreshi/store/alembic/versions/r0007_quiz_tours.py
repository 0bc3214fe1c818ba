"""The club's «Своя игра» team register and its tours: ``quiz_teams``, ``quiz_tours``, their logs and packs.

A team lasts across tours (name, players, contact, active). A tour is an append-only log of typed events
(:mod:`toreshi.quiz.tour.core`) with the packs it was created with, so that every game of the tour is cut from
themes no other game of it played.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"

_JSON = sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "quiz_teams",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("players", _JSON, nullable=False),
        sa.Column("contact", sa.String(200), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_quiz_teams"),
        sa.UniqueConstraint("name", name="uq_quiz_teams_name"),
    )
    op.create_table(
        "quiz_tours",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_quiz_tours"),
    )
    op.create_table(
        "quiz_tour_events",
        sa.Column("tour_id", sa.String(64), nullable=False),
        sa.Column("version", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("payload", _JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(80), nullable=False),
        sa.CheckConstraint("version >= 1", name="ck_quiz_tour_events_version"),
        sa.ForeignKeyConstraint(["tour_id"], ["quiz_tours.id"], name="fk_quiz_tour_events_tour_id_quiz_tours"),
        sa.PrimaryKeyConstraint("tour_id", "version", name="pk_quiz_tour_events"),
    )
    op.create_table(
        "quiz_tour_packs",
        sa.Column("tour_id", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(["tour_id"], ["quiz_tours.id"], name="fk_quiz_tour_packs_tour_id_quiz_tours"),
        sa.PrimaryKeyConstraint("tour_id", "number", name="pk_quiz_tour_packs"),
    )


def downgrade() -> None:
    for table in ("quiz_tour_packs", "quiz_tour_events", "quiz_tours", "quiz_teams"):
        op.drop_table(table)
