"""Rooms and their append-only event log."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None

# Spelled out rather than imported from toreshi.store.schema: a migration must keep meaning what it meant when the
# schema module has moved on.
_json = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")

_SQLITE_APPEND_ONLY = [
    """
    CREATE TRIGGER room_events_no_update BEFORE UPDATE ON room_events
    BEGIN SELECT RAISE(ABORT, 'room_events is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER room_events_no_delete BEFORE DELETE ON room_events
    BEGIN SELECT RAISE(ABORT, 'room_events is append-only: DELETE refused'); END
    """,
]

_POSTGRESQL_APPEND_ONLY = [
    """
    CREATE FUNCTION room_events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION 'room_events is append-only: % refused', TG_OP;
    END
    $$
    """,
    """
    CREATE TRIGGER room_events_append_only BEFORE UPDATE OR DELETE ON room_events
    FOR EACH ROW EXECUTE FUNCTION room_events_refuse_change()
    """,
    """
    CREATE TRIGGER room_events_no_truncate BEFORE TRUNCATE ON room_events
    FOR EACH STATEMENT EXECUTE FUNCTION room_events_refuse_change()
    """,
]


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.Column("snapshot", _json, nullable=True),
        sa.Column("snapshot_version", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('togyz', 'quiz')", name=op.f("ck_rooms_kind")),
        sa.CheckConstraint("version >= 0", name=op.f("ck_rooms_version")),
        sa.CheckConstraint(
            "snapshot_version >= 0 AND snapshot_version <= version", name=op.f("ck_rooms_snapshot_version")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
    )
    op.create_index(op.f("ix_rooms_status"), "rooms", ["status"])
    op.create_table(
        "room_events",
        sa.Column("room_id", sa.String(64), nullable=False),
        sa.Column("version", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("room_kind", sa.String(16), nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("payload", _json, nullable=False),
        sa.Column("server_time_ms", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("version >= 1", name=op.f("ck_room_events_version")),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], name=op.f("fk_room_events_room_id_rooms")),
        sa.PrimaryKeyConstraint("room_id", "version", name=op.f("pk_room_events")),
    )
    # The log is append-only in the database too, not just in EventStore: see docs/decisions.md.
    statements = _POSTGRESQL_APPEND_ONLY if op.get_bind().dialect.name == "postgresql" else _SQLITE_APPEND_ONLY
    for statement in statements:
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("room_events")  # its triggers go with it
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION room_events_refuse_change()")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_table("rooms")
