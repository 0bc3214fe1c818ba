"""The owner's event log on top of :class:`toreshi.store.EventStore`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from toreshi.live.owner import Batch
from toreshi.live.room import Decided
from toreshi.store import EventStore, NewEvent, RoomStatus, StoredEvent


@dataclass(frozen=True)
class LogEntry:
    version: int
    type: str
    payload: Mapping[str, Any]
    server_time_ms: int
    wall_time_ms: int
    """The wall-clock time of the decision (of the write, for rows older than revision 0004's writers)."""
    command_id: str | None = None

    @classmethod
    def of(cls, event: StoredEvent) -> LogEntry:
        wall = int(event.created_at.timestamp() * 1000)
        return cls(event.version, event.type, event.payload, event.server_time_ms, wall, event.command_id)


class StoreLog:
    """Appends decided events at the room time they were decided; loads them back with their wall time."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def append(
        self, room_id: str, expected_version: int, events: Sequence[Decided], at_ms: int, *, batch: Batch
    ) -> int:
        wall_ms = batch.decided_wall_ms
        decided_at = None if wall_ms is None else datetime.fromtimestamp(wall_ms / 1000, UTC)
        return await self.store.append(
            room_id,
            expected_version,
            [NewEvent(event.type, event.payload, at_ms, batch.command_id, decided_at) for event in events],
            status=RoomStatus.FINISHED if batch.finished else None,
        )

    async def load(self, room_id: str, after_version: int = 0) -> list[LogEntry]:
        return [LogEntry.of(event) for event in await self.store.load(room_id, after_version)]

    async def mark_finished(self, room_id: str) -> None:
        room = await self.store.room(room_id)
        if room.status is not RoomStatus.FINISHED:
            await self.store.set_status(room_id, RoomStatus.FINISHED)
