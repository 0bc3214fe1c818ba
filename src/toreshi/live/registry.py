"""The rooms this instance owns: loaded from the log on first use, one owner per room.

On one machine every room is owned here. With several instances a lease decides which instance owns a room, and
:class:`toreshi.live.cluster.rooms.ClusterRooms` takes this registry's place: an instance that does not hold the lease
forwards commands to the owner and serves reads from a replica. Both hand out a :class:`LiveRoom`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Protocol

from toreshi.live.bus import Bus
from toreshi.live.owner import Ack, EventLog, FinishedHook, RoomOwner
from toreshi.live.protocol import EventFrame, SnapshotFrame
from toreshi.live.room import Actor, Command, RoomLogic
from toreshi.live.timeline import Clocks

LogicFactory = Callable[[], RoomLogic]


class LiveRoom(Protocol):
    """What the socket and the API use of a room: a :class:`RoomOwner` here, or a cluster room whose owner may be
    another instance (commands are forwarded, reads come from a replica)."""

    @property
    def room_id(self) -> str: ...
    @property
    def logic(self) -> RoomLogic: ...
    @property
    def version(self) -> int: ...
    @property
    def bus(self) -> Bus: ...
    @property
    def channel(self) -> str: ...
    def now_ms(self) -> int: ...
    async def handle(self, command: Command) -> Ack: ...
    def catch_up(self, last_version: int) -> list[EventFrame] | None: ...
    def snapshot(self, actor: Actor | None) -> SnapshotFrame: ...


class RoomSource(Protocol):
    """Where the app gets its rooms: :class:`Rooms` on one machine, the cluster with several instances."""

    async def get(self, room_id: str, kind: str) -> LiveRoom: ...
    async def drop(self, room_id: str) -> None: ...
    async def close(self) -> None: ...


class UnknownRoomKindError(LookupError):
    """A room whose kind has no registered logic."""


def logic_factory(kinds: Mapping[str, LogicFactory], kind: str) -> LogicFactory:
    """The logic of rooms of ``kind``; raises :class:`UnknownRoomKindError` for a kind with none."""
    try:
        return kinds[kind]
    except KeyError:
        raise UnknownRoomKindError(f"no live logic for rooms of kind {kind!r}") from None


class Rooms:
    """Room owners by id; ``get`` loads a room from its log the first time it is asked for."""

    def __init__(
        self,
        event_log: EventLog,
        bus: Bus,
        kinds: dict[str, LogicFactory],
        *,
        clocks: Clocks | None = None,
        on_finished: FinishedHook | None = None,
    ) -> None:
        self._log = event_log
        self._on_finished = on_finished
        self._bus = bus
        self._kinds = kinds
        self._clocks = clocks or Clocks()
        self._owners: dict[str, RoomOwner] = {}
        self._loading: dict[str, asyncio.Lock] = {}

    @property
    def bus(self) -> Bus:
        return self._bus

    def loaded(self) -> list[str]:
        return list(self._owners)

    async def get(self, room_id: str, kind: str) -> RoomOwner:
        """The owner of ``room_id``, rebuilt from its log if it is not in memory (or was lost)."""
        owner = self._owners.get(room_id)
        if owner is not None and not owner.lost:
            return owner
        lock = self._loading.setdefault(room_id, asyncio.Lock())
        async with lock:
            owner = self._owners.get(room_id)
            if owner is not None and not owner.lost:
                return owner
            factory = logic_factory(self._kinds, kind)
            owner = await RoomOwner.load(
                room_id, factory, self._log, self._bus, clocks=self._clocks, on_finished=self._on_finished
            )
            self._owners[room_id] = owner
            return owner

    async def drop(self, room_id: str) -> None:
        owner = self._owners.pop(room_id, None)
        if owner is not None:
            await owner.close()

    async def close(self) -> None:
        for room_id in list(self._owners):
            await self.drop(room_id)
