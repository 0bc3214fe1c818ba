"""The owner of one live room: the only writer of its event log.

Every command goes through one lock: decide (pure) → persist (append at the expected version, committed before
anything else happens) → apply → remember in the bounded history → publish on the bus → acknowledge. A refused
command changes nothing; a failed write changes nothing either, because the state is applied only after the log
accepted the events. If another instance took the room over, the append fails with a version conflict and this
owner stops (:attr:`RoomOwner.lost`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from toreshi.kit.refusal import Common, Refused
from toreshi.live.bus import Bus, Message
from toreshi.live.history import History
from toreshi.live.protocol import PROTOCOL_VERSION, EventFrame, SnapshotFrame
from toreshi.live.room import Actor, Command, Decided, Finishing, Foreseeing, RoomLogic
from toreshi.live.timeline import Clocks, RoomTimeline
from toreshi.store.errors import InvalidEventError, VersionConflictError

log = logging.getLogger(__name__)

__all__ = ["PROTOCOL_VERSION", "Ack", "Batch", "EventLog", "OwnershipLostError", "RoomOwner"]

RECENT_COMMANDS = 256
TIMER_BATCH = "~"
"""Batches with no client command (a timer firing, a command without an id) are named ``~<first version>``."""
MAX_COMMAND_ID = 200


class LoggedEvent(Protocol):
    """What the owner needs of a stored event."""

    @property
    def version(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def payload(self) -> Mapping[str, Any]: ...
    @property
    def server_time_ms(self) -> int: ...
    @property
    def wall_time_ms(self) -> int: ...
    @property
    def command_id(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Batch:
    """What the events of one append share besides their room time: ``command_id`` names the batch (events decided
    together share it), ``decided_wall_ms`` is the wall time of the decision, and ``finished`` marks the room
    finished in the same transaction."""

    command_id: str | None = None
    decided_wall_ms: int | None = None
    finished: bool = False


class EventLog(Protocol):
    """The persistence the owner needs (implemented by :class:`toreshi.live.store_log.StoreLog`).

    ``append`` must raise :class:`~toreshi.store.errors.VersionConflictError` when the room is not at
    ``expected_version``, and return only once the events are durable.
    """

    async def append(
        self, room_id: str, expected_version: int, events: Sequence[Decided], at_ms: int, *, batch: Batch
    ) -> int: ...

    async def load(self, room_id: str, after_version: int = 0) -> Sequence[LoggedEvent]: ...

    async def mark_finished(self, room_id: str) -> None: ...


FinishedHook = Callable[[str, str], None]
"""Told ``(room_id, kind)`` when a command or a timer leaves a room finished (and again after each later command
while it stays finished), once its events are stored and published. It must not block the room: it schedules its
work (the tournament service pushes a finished game's result to its tournament, :mod:`toreshi.services.tournament`).
"""


class OwnershipLostError(RuntimeError):
    """The room's log moved on without this owner (another instance owns it now)."""


@dataclass(frozen=True)
class Ack:
    """The answer to an accepted command: the room version after it and how many events it caused."""

    version: int
    events: int


def channel_of(room_id: str) -> str:
    return f"room:{room_id}"


class RoomOwner:
    """Holds one room's state and serialises everything that changes it."""

    def __init__(
        self,
        room_id: str,
        logic: RoomLogic,
        event_log: EventLog,
        bus: Bus,
        *,
        clocks: Clocks | None = None,
        timeline: RoomTimeline | None = None,
        version: int = 0,
        history: History | None = None,
        on_finished: FinishedHook | None = None,
    ) -> None:
        self.room_id = room_id
        self.logic = logic
        # Asked once: a runtime protocol check costs more than the rest of a commit's bookkeeping.
        self._foreseeing = logic if isinstance(logic, Foreseeing) else None
        self._finishing = logic if isinstance(logic, Finishing) else None
        self.version = version
        self.lost = False
        self._log = event_log
        self._bus = bus
        self._clocks = clocks or Clocks()
        self._timeline = timeline or RoomTimeline.new(self._clocks.monotonic())
        self._history = history or History()
        self._lock = asyncio.Lock()
        self._recent: OrderedDict[str, Ack] = OrderedDict()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_task: asyncio.Task[None] | None = None
        self._closed = False
        self._on_finished = on_finished

    @classmethod
    async def load(
        cls,
        room_id: str,
        make_logic: Callable[[], RoomLogic],
        event_log: EventLog,
        bus: Bus,
        *,
        clocks: Clocks | None = None,
        history_size: int = 50,
        on_finished: FinishedHook | None = None,
    ) -> RoomOwner:
        """Rebuild a room from its log (after a restart or a takeover) and arm its timers."""
        clocks = clocks or Clocks()
        logic = make_logic()
        history = History(history_size)
        events = await event_log.load(room_id)
        recent: OrderedDict[str, Ack] = OrderedDict()
        for index, event in enumerate(events):
            decided = Decided(event.type, dict(event.payload))
            logic.apply(decided, event.server_time_ms)
            # Events decided together share their batch id: as when they were live, all but the last are marked
            # `more` and carry no state (protocol 2), so a catch-up after a restart is the frame it was.
            batch = event.command_id
            following = events[index + 1] if index + 1 < len(events) else None
            more = batch is not None and following is not None and following.command_id == batch
            if index >= len(events) - history_size:
                shown = logic.public(decided, with_state=not more)
                frame = event_frame(room_id, event.version, shown, decided, event.server_time_ms, more)
                history.add(event.version, frame)
            if batch is not None and not batch.startswith(TIMER_BATCH) and not more:
                first = index
                while first > 0 and events[first - 1].command_id == batch:
                    first -= 1
                _remember(recent, batch, Ack(event.version, index - first + 1))
        if isinstance(logic, Finishing) and logic.is_finished():
            # The final event may have been written by an owner that died before marking the room finished
            # (rooms written before the status travelled with the final append): repair it now.
            await event_log.mark_finished(room_id)
        if events:
            last = events[-1]
            timeline = RoomTimeline.resume(last.server_time_ms, last.wall_time_ms, clocks.wall(), clocks.monotonic())
        else:
            timeline = RoomTimeline.new(clocks.monotonic())
        owner = cls(
            room_id,
            logic,
            event_log,
            bus,
            clocks=clocks,
            timeline=timeline,
            version=events[-1].version if events else 0,
            history=history,
            on_finished=on_finished,
        )
        owner._recent = recent
        owner._arm_timer()
        return owner

    @property
    def bus(self) -> Bus:
        return self._bus

    @property
    def channel(self) -> str:
        return channel_of(self.room_id)

    def now_ms(self) -> int:
        """The room time now."""
        return self._timeline.room_ms(self._clocks.monotonic())

    async def handle(self, command: Command) -> Ack:
        """Decide, persist, apply, publish; raises :class:`~toreshi.kit.refusal.Refused` for a refused one."""
        async with self._lock:
            if self.lost:
                raise OwnershipLostError(f"room {self.room_id} is owned elsewhere now")
            if command.id is not None and command.id in self._recent:
                # A retry of a command that was already applied — also one applied by an owner that died before
                # answering (the log remembers its id): the same answer, never a second application.
                return self._recent[command.id]
            now = self.now_ms()
            decided = list(self.logic.decide(command, now))
            ack = await self._commit(decided, now, command.id)
            if command.id is not None:
                _remember(self._recent, command.id, ack)
            return ack

    async def _commit(self, decided: list[Decided], now: int, command_id: str | None = None) -> Ack:
        if not decided:
            return Ack(self.version, 0)
        if command_id is not None and (command_id.startswith(TIMER_BATCH) or len(command_id) > MAX_COMMAND_ID):
            command_id = None  # never mistaken for a timer's batch, never too long to store
        # The final event and the room's "finished" commit together when the logic can tell beforehand.
        finishes = self._foreseeing is not None and self._foreseeing.finishes(decided)
        try:
            new_version = await self._log.append(
                self.room_id,
                self.version,
                decided,
                now,
                batch=Batch(
                    command_id=command_id or f"{TIMER_BATCH}{self.version + 1}",
                    decided_wall_ms=self._clocks.wall() - (self.now_ms() - now),
                    finished=finishes,
                ),
            )
        except VersionConflictError as error:
            self.lost = True
            self._cancel_timer()
            raise OwnershipLostError(f"room {self.room_id} moved on without this owner") from error
        except InvalidEventError as error:
            # Events the store can never hold (a NUL character in a name, say): the command is refused, and the
            # store, which refuses a whole append, holds nothing of it.
            log.info("room %s: the store refused the events: %s", self.room_id, error)
            raise Refused(Common.BAD_REQUEST) from None
        messages: list[Message] = []
        for offset, event in enumerate(decided, start=1):
            self.logic.apply(event, now)
            last = offset == len(decided)
            # Only the command's last event carries the state: the others travel in the same frame (docs/protocol.md)
            shown = self.logic.public(event, with_state=last)
            frame = event_frame(self.room_id, self.version + offset, shown, event, now, more=not last)
            self._history.add(self.version + offset, frame)
            messages.append(frame)
        self.version = new_version
        finished = finishes or (self._finishing is not None and self._finishing.is_finished())
        if finished and not finishes:  # the logic could not tell beforehand: a second write
            await self._log.mark_finished(self.room_id)
        await self._bus.publish_many(self.channel, messages)  # the command's events together (one frame, one send)
        self._arm_timer()
        if finished and self._on_finished is not None:
            try:
                self._on_finished(self.room_id, self.logic.kind)
            except Exception:  # the room's command is done and stored: a failing hook must not undo its answer
                log.exception("room %s: the finished-room hook failed", self.room_id)
        return Ack(self.version, len(decided))

    def catch_up(self, last_version: int) -> list[EventFrame] | None:
        """Events a reconnecting client missed, or ``None`` when it needs a snapshot instead."""
        return self._history.since(last_version)

    def snapshot(self, actor: Actor | None) -> SnapshotFrame:
        """The whole room as ``actor`` may see it, at the current version."""
        return snapshot_frame(self.room_id, self.logic, self.version, actor, self.now_ms())

    # --- timers ---------------------------------------------------------------------------------

    def _arm_timer(self) -> None:
        self._cancel_timer()
        if self._closed or self.lost:
            return
        deadline = self.logic.deadline_ms()
        if deadline is None:
            return
        delay = max(0, deadline - self.now_ms()) / 1000
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(delay, self._fire)

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _fire(self) -> None:
        self._timer = None
        self._timer_task = asyncio.get_running_loop().create_task(self._on_deadline())

    async def _on_deadline(self) -> None:
        async with self._lock:
            if self._closed or self.lost:
                return
            now = self.now_ms()
            try:
                decided = list(self.logic.on_deadline(now))
                await self._commit(decided, now)
            except OwnershipLostError:
                log.warning("room %s: ownership lost while its timer fired", self.room_id)
                return
            except Exception:
                log.exception("room %s: timer failed; retrying in 1 s", self.room_id)
                self._timer = asyncio.get_running_loop().call_later(1.0, self._fire)
                return
            if not decided:
                deadline = self.logic.deadline_ms()
                if deadline is not None and deadline <= now:
                    # The logic says a deadline has passed but decided nothing: re-arming would spin.
                    log.error("room %s: deadline %d passed with nothing to do", self.room_id, deadline)
                    return
                self._arm_timer()

    async def retire(self) -> None:
        """Stop acting for the room once the command being handled is done (its lease goes to another instance):
        every later command is answered :class:`OwnershipLostError`, so its sender asks the new owner."""
        async with self._lock:
            self.lost = True
            self._cancel_timer()
        await self.close()

    async def close(self) -> None:
        """Stop the timers; the room can be loaded again from its log."""
        self._closed = True
        self._cancel_timer()
        if self._timer_task is not None and not self._timer_task.done():
            self._timer_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer_task


def _remember(recent: OrderedDict[str, Ack], command_id: str, ack: Ack) -> None:
    """Keep the answer to a command (the newest :data:`RECENT_COMMANDS` of them), for a retry of the same id."""
    recent[command_id] = ack
    recent.move_to_end(command_id)
    if len(recent) > RECENT_COMMANDS:
        recent.popitem(last=False)


def event_frame(
    room_id: str, version: int, data: Mapping[str, Any], event: Decided, now: int, more: bool = False
) -> EventFrame:
    """The frame of one event: what everyone may see of it (``data``), at its version and room time; ``more``: more
    events of the same command follow at once (and ``data`` has no state)."""
    return EventFrame(room_id, version, event.type, dict(data), now, more)


def snapshot_frame(room_id: str, logic: RoomLogic, version: int, actor: Actor | None, now: int) -> SnapshotFrame:
    """The whole room as ``actor`` may see it at room time ``now`` (from its owner or a replica)."""
    return SnapshotFrame(room_id, logic.kind, version, now, logic.view(actor, now), PROTOCOL_VERSION)
