"""The arbiter's fair-play reports (issue 28): ``fairplay_reports``, one row per tournament.

A report is started by the arbiter's request (a POST), computed by the engine in worker processes, and kept here
with its progress, so that reading the page recomputes nothing and writes nothing.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0014"
down_revision = "0013"


def upgrade() -> None:
    op.create_table(
        "fairplay_reports",
        sa.Column("tournament_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("requested_by", sa.String(80), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("report", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=True),
        sa.CheckConstraint("status IN ('running', 'ready', 'failed')", name=op.f("ck_fairplay_reports_status")),
        sa.ForeignKeyConstraint(["tournament_id"], ["rooms.id"], name=op.f("fk_fairplay_reports_tournament_id_rooms")),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_fairplay_reports")),
    )


def downgrade() -> None:
    op.drop_table("fairplay_reports")
