"""What the store refuses, each with the facts needed to act on it. A refused call has written nothing."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every refusal by :mod:`toreshi.store`."""


class UnknownRoomError(StoreError, LookupError):
    """No room has this id."""

    def __init__(self, room_id: str) -> None:
        super().__init__(f"no room {room_id!r}")
        self.room_id = room_id


class RoomExistsError(StoreError):
    """A room with this id was already created."""

    def __init__(self, room_id: str) -> None:
        super().__init__(f"room {room_id!r} already exists")
        self.room_id = room_id


class VersionConflictError(StoreError):
    """An append was based on a version that is no longer the room's newest.

    Another writer appended first (or the caller's state is stale): reload the events after ``expected`` and
    decide again. Two owners can never both append at the same version.
    """

    def __init__(self, room_id: str, expected: int, actual: int) -> None:
        super().__init__(
            f"version conflict in room {room_id!r}: expected version {expected}, but the room is at {actual}"
        )
        self.room_id = room_id
        self.expected = expected
        self.actual = actual


class InvalidEventError(StoreError, ValueError):
    """An argument that can never be stored: a malformed id, type, time or payload."""


class SnapshotError(StoreError, ValueError):
    """A snapshot that does not fit the room's log (beyond its newest event, or older than the stored one)."""
