"""The tables, as SQLAlchemy Core metadata: the single description that code and migrations agree on.

Migrations in ``alembic/versions`` create these tables explicitly (they never import this module, so an old
migration keeps meaning what it meant); ``tests/store/test_migrate.py`` checks that the head of the migrations and
this metadata describe the same columns. A later table (users, tournaments, …) is added here and in a new
migration, nothing else.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    TypeDecorator,
)
from sqlalchemy.dialects.postgresql import JSONB

# Deterministic constraint names: Alembic can only alter or drop what it can name, and SQLite's batch mode
# needs the names to rebuild a table.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)


class RoomKind(StrEnum):
    """What a room runs: one togyz kumalak game, one «Своя игра» game, or one tournament (its arbiter's log)."""

    TOGYZ = "togyz"
    QUIZ = "quiz"
    TOURNAMENT = "tournament"
    TEAMS = "teams"
    """A team competition (its arbiter's log, :mod:`toreshi.tournament.journal.teams`)."""


class RoomStatus(StrEnum):
    """Where a room stands. Only ``live`` rooms get an owner at start-up (resume after a restart)."""

    LIVE = "live"
    """Running: an owner holds its state and clocks."""
    PAUSED = "paused"
    """Persisted but idle: adjourned or postponed (TK-A1..A4); resumed by an arbiter, not automatically."""
    FINISHED = "finished"
    """Over: the log is complete; only read from now on."""


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on every dialect.

    SQLite has no timestamp type and hands back naive values; PostgreSQL keeps the zone. Both come back aware
    and in UTC, and a naive value is refused rather than guessed.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value.isoformat()} refused: pass an aware (UTC) timestamp")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime):
            raise TypeError(f"expected a datetime from the database, got {value!r}")
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# JSONB on PostgreSQL: compact, validated on the way in, indexable later if a projection needs it.
JsonColumn = JSON().with_variant(JSONB(), "postgresql")

ROOM_ID_LENGTH = 64
PACK_DIGEST_LENGTH = 64
"""A SHA-256 in hex: the key of a quiz pack's bytes (quiz_pack_contents)."""
EVENT_TYPE_LENGTH = 64
COMMAND_ID_LENGTH = 200

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(ROOM_ID_LENGTH), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    # The version of the newest event: the compare-and-set target of every append.
    Column("version", BigInteger, nullable=False),
    Column("snapshot", JsonColumn, nullable=True),
    # The version the snapshot covers: replay starts after it. 0 with no snapshot.
    Column("snapshot_version", BigInteger, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    # When an arbiter took the room off the lists (null: listed); the room and its log stay readable.
    Column("archived_at", UTCDateTime, nullable=True),
    CheckConstraint("kind IN ('togyz', 'quiz', 'tournament', 'teams')", name="kind"),
    CheckConstraint("version >= 0", name="version"),
    CheckConstraint("snapshot_version >= 0 AND snapshot_version <= version", name="snapshot_version"),
    Index("ix_rooms_status", "status"),
)

room_events = Table(
    "room_events",
    metadata,
    Column("room_id", String(ROOM_ID_LENGTH), ForeignKey("rooms.id"), primary_key=True),
    # 1, 2, 3, … per room, without gaps; the primary key makes (room, version) unique.
    Column("version", BigInteger, primary_key=True, autoincrement=False),
    Column("room_kind", String(16), nullable=False),
    Column("type", String(EVENT_TYPE_LENGTH), nullable=False),
    Column("payload", JsonColumn, nullable=False),
    # The owner's server time (integer ms, realtime.md §1): the clock the rules ran on.
    Column("server_time_ms", BigInteger, nullable=False),
    # Wall-clock time of the decision (the owner's, when it read the room time): a new owner resumes the room's
    # timeline from it, so the time an append waited to be written is still charged.
    Column("created_at", UTCDateTime, nullable=False),
    # The command (a client's id, scoped to its role) or timer firing the event came from; events decided together
    # share it. Null for rows written before revision 0004.
    Column("command_id", String(COMMAND_ID_LENGTH), nullable=True),
    CheckConstraint("version >= 1", name="version"),
)

NAME_LENGTH = 80

arbiters = Table(
    "arbiters",
    metadata,
    Column("name", String(NAME_LENGTH), primary_key=True),
    # Argon2id hash in its PHC string form ($argon2id$v=19$…); never the password.
    Column("password_hash", String(255), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

room_grants = Table(
    "room_grants",
    metadata,
    Column("room_id", String(ROOM_ID_LENGTH), ForeignKey("rooms.id"), primary_key=True),
    # The role the link grants in its room (white, black, a team …) and who holds it.
    Column("role", String(32), primary_key=True),
    Column("name", String(NAME_LENGTH), nullable=False),
    # SHA-256 of the secret in the player's link: a copy of the database does not give away the links.
    Column("token_digest", String(64), nullable=False, unique=True),
    Column("created_at", UTCDateTime, nullable=False),
    # How many times the link was reissued: the secret is derived from the app's key, the room, the role and this.
    Column("generation", Integer, nullable=False, server_default="0"),
)

sessions = Table(
    "sessions",
    metadata,
    # SHA-256 of the random id in the browser's cookie (the cookie carries nothing else).
    Column("id_digest", String(64), primary_key=True),
    Column("data", JsonColumn, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    # The last request seen: sessions idle for longer than the limit are gone.
    Column("seen_at", UTCDateTime, nullable=False),
    Index("ix_sessions_seen_at", "seen_at"),
)

# --- the club's «Своя игра» register and tours (toreshi.services.quiz_tours) -----------------------------------

quiz_teams = Table(
    "quiz_teams",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(NAME_LENGTH), nullable=False, unique=True),
    # The players' names, in the order the team gives them.
    Column("players", JsonColumn, nullable=False),
    Column("contact", String(200), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

quiz_tours = Table(
    "quiz_tours",
    metadata,
    Column("id", String(ROOM_ID_LENGTH), primary_key=True),
    Column("created_at", UTCDateTime, nullable=False),
)

quiz_tour_events = Table(
    "quiz_tour_events",
    metadata,
    Column("tour_id", String(ROOM_ID_LENGTH), ForeignKey("quiz_tours.id"), primary_key=True),
    # 1, 2, 3, … per tour: the primary key refuses a second writer of the same version.
    Column("version", BigInteger, primary_key=True, autoincrement=False),
    Column("type", String(EVENT_TYPE_LENGTH), nullable=False),
    Column("payload", JsonColumn, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("by", String(NAME_LENGTH), nullable=False),
    CheckConstraint("version >= 1", name="version"),
)

# A pack's bytes once, by their SHA-256 (revision 0013): a tour's packs and its rooms' packs refer to them.
quiz_pack_contents = Table(
    "quiz_pack_contents",
    metadata,
    Column("digest", String(PACK_DIGEST_LENGTH), primary_key=True),
    Column("data", LargeBinary, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)

quiz_tour_packs = Table(
    "quiz_tour_packs",
    metadata,
    Column("tour_id", String(ROOM_ID_LENGTH), ForeignKey("quiz_tours.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("name", String(200), nullable=False),
    # Its own copy in a tour made before revision 0013; the digest of its quiz_pack_contents row since.
    Column("data", LargeBinary, nullable=True),
    Column("digest", String(PACK_DIGEST_LENGTH), ForeignKey("quiz_pack_contents.digest"), nullable=True),
    CheckConstraint("(data IS NULL) <> (digest IS NULL)", name="data_or_digest"),
)


quiz_packs = Table(
    "quiz_packs",
    metadata,
    # A random id while the host sets the game up (picks questions); the room once the game is created.
    Column("id", String(64), primary_key=True),
    Column("room_id", String(ROOM_ID_LENGTH), ForeignKey("rooms.id"), nullable=True, unique=True),
    # The pack as uploaded (a .siq is a ZIP archive; its own limits were checked when it was read), or, for a
    # tour's room (revision 0013), the digest of the tour's pack in quiz_pack_contents.
    Column("data", LargeBinary, nullable=True),
    Column("digest", String(PACK_DIGEST_LENGTH), ForeignKey("quiz_pack_contents.digest"), nullable=True),
    Column("created_at", UTCDateTime, nullable=False),
    CheckConstraint("(data IS NULL) <> (digest IS NULL)", name="data_or_digest"),
)


# --- the arbiter's fair-play reports (toreshi.services.fairplay, revision 0014) ---------------------------------

fairplay_reports = Table(
    "fairplay_reports",
    metadata,
    # One report per tournament (its room): a new request replaces the old one.
    Column("tournament_id", String(ROOM_ID_LENGTH), ForeignKey("rooms.id"), primary_key=True),
    # running, ready or failed
    Column("status", String(16), nullable=False),
    Column("requested_by", String(NAME_LENGTH), nullable=False),
    Column("requested_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime, nullable=True),
    # Games analysed so far, of how many: the page's progress.
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    # The figures per game and per player (derived data: computed again on request, never by a GET).
    Column("report", JsonColumn, nullable=True),
    CheckConstraint("status IN ('running', 'ready', 'failed')", name="status"),
)
