"""Server-side sessions, and a generation per room grant so that a link can be revoked and reissued.

``sessions`` holds what a browser's session carries (who is signed in, the form token, …) under the SHA-256 digest
of the random id in its cookie: the cookie holds nothing else, signing out deletes the row (a copied cookie is
worth nothing afterwards), and a copy of the database does not give away live sessions.

``room_grants.generation`` counts the reissues of a link: a player's or team's secret is derived from the app's
secret key, the room, the role and the generation, so the arbiter can show a link again at any time and revoke it
by moving to the next generation — no link is ever stored, only its digest.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("id_digest", sa.String(64), nullable=False),
        sa.Column("data", sa.JSON().with_variant(sa.dialects.postgresql.JSONB(), "postgresql"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id_digest", name="pk_sessions"),
    )
    op.create_index("ix_sessions_seen_at", "sessions", ["seen_at"])
    op.add_column("room_grants", sa.Column("generation", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    op.execute("ALTER TABLE room_grants DROP COLUMN generation")
    op.drop_index("ix_sessions_seen_at", table_name="sessions")
    op.drop_table("sessions")
