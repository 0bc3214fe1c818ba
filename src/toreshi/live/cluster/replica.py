"""A read-only copy of a room on an instance that does not own it.

The replica follows the room's channel on the shared bus and folds the room's events in version order, so that the
sockets on this instance get snapshots, catch-up and per-role views without asking the owner. Bus messages carry
only what everyone may see of an event (a sealed move or a host's answer key are left out), so the replica never
folds a bus message: a message is a *notification* that version ``v`` exists, and the replica reads the events it
lacks from the event log — the record — and folds those. A lost or reordered message therefore costs nothing but a
little delay: the next message (or :meth:`Replica.sync`, called by the cluster's scan every second) repairs the gap.

The replica re-publishes the messages it built, in order and without gaps, on the instance's in-process bus, where
the sockets of this instance subscribe. Its room time continues from the newest event by wall time, as a takeover
would. While the room is owned on this instance the replica is *dormant* (``dormant()`` says so): the owner
publishes on that same in-process bus itself, so the replica reads nothing and only relays notices; when the room
moves away it catches up from the log (:meth:`sync`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from toreshi.live.bus import Bus, InProcessBus
from toreshi.live.cluster.tasks import stop
from toreshi.live.history import History
from toreshi.live.owner import EventLog, channel_of, event_frame, snapshot_frame
from toreshi.live.protocol import AccessNotice, EventFrame, SnapshotFrame
from toreshi.live.room import Actor, Decided, RoomLogic
from toreshi.live.timeline import Clocks, RoomTimeline

log = logging.getLogger(__name__)


class Replica:
    """Follows one room: ``start`` loads it and subscribes; ``close`` stops following."""

    def __init__(
        self,
        room_id: str,
        make_logic: Callable[[], RoomLogic],
        event_log: EventLog,
        bus: Bus,
        *,
        clocks: Clocks | None = None,
        history_size: int = 50,
        local: InProcessBus | None = None,
        dormant: Callable[[], bool] = lambda: False,
    ) -> None:
        self.room_id = room_id
        self.logic = make_logic()
        self.version = 0
        self.local = local if local is not None else InProcessBus()
        """Where this instance's sockets subscribe: the room's messages in order, each after it was folded here
        (shared by every room of the instance, and by the owners here)."""
        self._dormant = dormant
        self.stale = False
        """Versions were announced that this replica has not read (nobody watched it): :meth:`sync` before use."""
        self._log = event_log
        self._bus = bus
        self._clocks = clocks or Clocks()
        self._timeline = RoomTimeline.new(self._clocks.monotonic())
        self._history = History(history_size)
        self._history_size = history_size
        self._lock = asyncio.Lock()
        self._follower: asyncio.Task[None] | None = None
        self.last_used = self._clocks.monotonic()

    @property
    def channel(self) -> str:
        return channel_of(self.room_id)

    async def start(self) -> None:
        """Subscribe first, then load: whatever is published meanwhile is either in the load or comes after it."""
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._follower = asyncio.create_task(self._follow(ready))
        await ready

    async def _follow(self, ready: asyncio.Future[None]) -> None:
        while True:
            try:
                async with self._bus.subscribe(self.channel) as messages:
                    await self.sync()
                    if not ready.done():
                        ready.set_result(None)
                    async for message in messages:
                        if isinstance(message, AccessNotice):
                            # A revoked link (not an event): this instance's sockets of the room check theirs.
                            await self.local.publish(self.channel, message)
                        elif message.v > self.version:  # an event or an announcement: the log has more
                            if self.watchers() == 0:
                                self.stale = True  # nobody reads it here now: the log is read when someone does
                                continue
                            await self.sync()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # an overflowed or broken subscription: subscribe again, repair from the log
                if not ready.done():
                    ready.set_exception(error)
                    return
                log.warning("replica %s: bus subscription failed; subscribing again", self.room_id, exc_info=True)
                await asyncio.sleep(0.5)

    async def sync(self) -> None:
        """Fold (and announce on :attr:`local`) the events the log holds beyond this replica's version."""
        if self._dormant():
            return  # owned here: the owner publishes, and the log is read once the room moves away
        async with self._lock:
            self.stale = False
            events = await self._log.load(self.room_id, self.version)
            fresh = [event for event in events if event.version > self.version]
            quiet = len(fresh) - self._history_size  # older ones are folded only: nobody can ask for them any more
            for index, event in enumerate(fresh):
                if event.version != self.version + 1:
                    log.error("replica %s: the log skips from %d to %d", self.room_id, self.version, event.version)
                    return
                decided = Decided(event.type, dict(event.payload))
                self.logic.apply(decided, event.server_time_ms)
                self.version = event.version
                self._timeline = RoomTimeline.resume(
                    event.server_time_ms, event.wall_time_ms, self._clocks.wall(), self._clocks.monotonic()
                )
                if index < quiet:
                    continue
                shown = self.logic.public(decided)
                frame = event_frame(self.room_id, event.version, shown, decided, event.server_time_ms)
                self._history.add(event.version, frame)
                await self.local.publish(self.channel, frame)

    def now_ms(self) -> int:
        return self._timeline.room_ms(self._clocks.monotonic())

    def catch_up(self, last_version: int) -> list[EventFrame] | None:
        return self._history.since(last_version)

    def snapshot(self, actor: Actor | None) -> SnapshotFrame:
        return snapshot_frame(self.room_id, self.logic, self.version, actor, self.now_ms())

    def watchers(self) -> int:
        return self.local.subscribers(self.channel)

    async def close(self) -> None:
        await stop(self._follower)
