"""A quiz pack's bytes stored once: ``quiz_pack_contents``, and digests that refer to it (issue 31).

A tour kept its packs in ``quiz_tour_packs`` and every game room of it a copy of one of them in ``quiz_packs``.
Now the bytes go once to ``quiz_pack_contents`` under their SHA-256, and both tables may hold that digest instead
of bytes (``data`` becomes nullable; exactly one of the two is set). Rows made before keep their bytes and still
load. SQLite cannot drop a NOT NULL in place: both tables are rebuilt by Alembic's batch mode, which is safe here
because no table refers to them (unlike ``rooms``, see :mod:`toreshi.store.alembic.room_kinds`).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"

_ONE_OF = "(data IS NULL) <> (digest IS NULL)"


def upgrade() -> None:
    op.create_table(
        "quiz_pack_contents",
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("digest", name="pk_quiz_pack_contents"),
    )
    for table in ("quiz_tour_packs", "quiz_packs"):
        with op.batch_alter_table(table) as batch:
            batch.alter_column("data", existing_type=sa.LargeBinary(), nullable=True)
            batch.add_column(sa.Column("digest", sa.String(64), nullable=True))
            batch.create_foreign_key(
                op.f(f"fk_{table}_digest_quiz_pack_contents"), "quiz_pack_contents", ["digest"], ["digest"]
            )
            batch.create_check_constraint(op.f(f"ck_{table}_data_or_digest"), _ONE_OF)


def downgrade() -> None:
    for table in ("quiz_tour_packs", "quiz_packs"):
        # Each reference gets its bytes back before the contents go.
        op.execute(
            f"UPDATE {table} SET data = (SELECT c.data FROM quiz_pack_contents c WHERE c.digest = {table}.digest), "
            "digest = NULL WHERE data IS NULL"
        )
        with op.batch_alter_table(table) as batch:
            batch.drop_constraint(op.f(f"ck_{table}_data_or_digest"), type_="check")
            batch.drop_constraint(op.f(f"fk_{table}_digest_quiz_pack_contents"), type_="foreignkey")
            batch.drop_column("digest")
            batch.alter_column("data", existing_type=sa.LargeBinary(), nullable=False)
    op.drop_table("quiz_pack_contents")
