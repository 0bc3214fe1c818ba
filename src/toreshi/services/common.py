"""What several services share: the server's wall clock, a stored room of one kind as a live room, the live rooms
attached after the service, and results pushed in the background from the rooms' ``on_finished`` hook."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from datetime import UTC, datetime

from toreshi.live.registry import LiveRoom, RoomSource
from toreshi.store import EventStore, RoomKind, UnknownRoomError


def utc_now() -> datetime:
    return datetime.now(UTC)


async def live_room_of_kind(
    store: EventStore, rooms: RoomSource, room_id: str, kind: RoomKind, unknown: type[LookupError]
) -> LiveRoom:
    """The live room ``room_id``; raises ``unknown(room_id)`` when the store has no room of ``kind`` by that id."""
    try:
        room = await store.room(room_id)
    except (UnknownRoomError, ValueError):
        raise unknown(room_id) from None
    if room.kind != kind:
        raise unknown(room_id)
    return await rooms.get(room.id, kind.value)


class AttachedRooms:
    """The live rooms of a service made before them (the rooms call its ``on_finished`` hook, it commands them):
    given with :meth:`attach` once they are made."""

    _rooms: RoomSource | None

    @property
    def rooms(self) -> RoomSource:
        if self._rooms is None:
            raise RuntimeError(f"the {type(self).__name__} has no rooms yet (attach them first)")
        return self._rooms

    def attach(self, rooms: RoomSource) -> None:
        """The live rooms, when they are made after the service."""
        self._rooms = rooms


class Pushes:
    """Pushes of finished rooms' results, each run in the background (the hook must not block the room); a push
    that fails is logged on the service's ``log`` with ``failure`` (a format of the room's id) and left to the
    service's reconciliation."""

    def __init__(self, log: logging.Logger, failure: str) -> None:
        self._log = log
        self._failure = failure
        self._running: set[asyncio.Task[None]] = set()

    def start(self, room_id: str, push: Awaitable[object]) -> None:
        task = asyncio.get_running_loop().create_task(self._logged(room_id, push))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _logged(self, room_id: str, push: Awaitable[object]) -> None:
        try:
            await push
        except Exception:  # the reconciliation makes the push later; the room's command has its answer
            self._log.exception(self._failure, room_id)

    async def settled(self) -> None:
        """Wait for the pushes under way (tests, and the app's shutdown)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
