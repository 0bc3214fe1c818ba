"""Several instances in front of one database: each live room has exactly one owner instance at a time.

Ownership is a Redis lease per room (``SET NX PX``, :mod:`toreshi.live.cluster.lease`), renewed in the background every
third of its length for every room this instance owns; a renewal that fails (the lease lapsed and someone else took
it, Redis unreachable, a renewal slower than a third of the lease) drops the room here at once. Whatever a dropped
or paused owner still tries to write is fenced by the event log: it appends at a version that has moved on and gets
a version conflict. Nothing else is shared: the database holds the rooms, Redis holds who owns them.

A command arriving here for a room:

1. owned here → handled by the local :class:`~toreshi.live.owner.RoomOwner`;
2. lease free, or its holder is dead (its request channel has no subscriber: a killed process's Redis connections
   close at once) → this instance takes the room over from the persisted events and handles it (takeover on the
   first command);
3. held by a live instance → forwarded to it (:mod:`toreshi.live.cluster.forward`); its answer (ack or refusal)
   comes back. If the owner has no socket of the room and the sender has some, the owner hands the lease over with
   its answer (:meth:`ClusterRooms._serve`): a room goes to where its sockets are, so with every socket of a room on
   one instance (nginx hashing on the room id, docs/deploy.md) forwarding is the exception, not the rule.

A command that was certainly not applied (not delivered, or the owner lost the room before appending) is retried
until ``command_timeout_s``; one that was delivered but never answered is reported as ``moved`` so that the client
looks at the room before it retries (the owner may have died after appending).

Every second a background scan lists the live rooms and takes over those whose lease is free or whose holder is
dead, so a room whose owner died moves within about a second even if nobody sends a command (its flag can fall on
time); the same scan repairs replicas that missed a bus message and closes replicas nobody watches.

Reads never cross instances: sockets subscribe to this instance's in-process bus. An owner here publishes there
directly (and announces each command once on Redis, for the other instances); for a room owned elsewhere a
:class:`~toreshi.live.cluster.replica.Replica` follows the Redis announcements, reads the events from the log and
publishes them there. Snapshots, catch-up and per-role views come from the local owner if there is one, else from
the replica.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError

from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.bus import Bus, InProcessBus, Message
from toreshi.live.cluster.forward import Body, Forwarder, NoAnswerError, NotDeliveredError
from toreshi.live.cluster.lease import LEASE_MS, RedisLeases
from toreshi.live.cluster.redis_bus import RedisBus
from toreshi.live.cluster.replica import Replica
from toreshi.live.cluster.tasks import stop
from toreshi.live.owner import Ack, FinishedHook, OwnershipLostError, RoomOwner, channel_of
from toreshi.live.protocol import AccessNotice, AnnounceNotice, EventFrame, SnapshotFrame
from toreshi.live.registry import LogicFactory, logic_factory
from toreshi.live.room import Actor, Command, Finishing, RoomLogic
from toreshi.live.store_log import StoreLog
from toreshi.live.timeline import Clocks
from toreshi.refusal_codes import EVERY_CODE
from toreshi.store import EventStore, Room, RoomStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClusterConfig:
    lease_ms: int = LEASE_MS
    """A lease not renewed for this long lapses (a dead owner whose Redis connection lingers is replaced by then)."""
    scan_interval_s: float = 1.0
    """How often the live rooms are scanned for a free or orphaned lease (and replicas for gaps)."""
    command_timeout_s: float = LEASE_MS / 1000 + 5.0
    """How long a command may wait for a reachable owner before it is answered ``moved``."""
    replica_idle_s: float = 60.0
    """A replica that no socket watches is closed after this long."""


def instance_name() -> str:
    return f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"


SCAN_TAKEOVERS = 8
"""How many orphaned rooms the scan loads at the same time (each is a read of its log)."""


class _Announcing:
    """The bus of the rooms owned here: this instance's sockets get the messages directly (no trip through Redis and
    back), the other instances one small announcement per command (:class:`~toreshi.live.protocol.AnnounceNotice`:
    no events, a replica reads them from the log, which holds what the bus may not carry)."""

    def __init__(self, local: InProcessBus, remote: RedisBus) -> None:
        self.local = local
        self.remote = remote

    async def publish(self, channel: str, message: Message) -> None:
        await self.local.publish(channel, message)
        await self.remote.publish(channel, message)

    async def publish_many(self, channel: str, messages: list[Message]) -> None:
        await self.local.publish_many(channel, messages)
        versions = [message.v for message in messages if not isinstance(message, AccessNotice)]
        if versions:
            await self.remote.publish(channel, AnnounceNotice(versions[-1]))

    def subscribe(self, channel: str) -> contextlib.AbstractAsyncContextManager[Any]:
        return self.local.subscribe(channel)

    async def close(self) -> None:
        return None


class RoomUnavailableError(OwnershipLostError):
    """No owner of the room could be reached or it failed: the command may or may not have been applied."""


class ClusterRooms:
    """The rooms of one instance among several (in place of :class:`toreshi.live.registry.Rooms`)."""

    def __init__(
        self,
        store: EventStore,
        bus: RedisBus,
        kinds: Mapping[str, LogicFactory],
        *,
        instance: str | None = None,
        clocks: Clocks | None = None,
        config: ClusterConfig | None = None,
        on_finished: FinishedHook | None = None,
    ) -> None:
        self.instance = instance or instance_name()
        self._on_finished = on_finished
        """Called by the owners here, so on the instance where a room finishes (whichever owns it then)."""
        self.config = config or ClusterConfig()
        self._store = store
        self._log = StoreLog(store)
        self._bus = bus
        self._kinds = dict(kinds)
        self._clocks = clocks or Clocks()
        self.leases = RedisLeases(bus.redis, self.instance, lease_ms=self.config.lease_ms, prefix=f"{bus.prefix}lease:")
        self.forwarder = Forwarder(bus.redis, self.instance, self._serve, prefix=bus.prefix)
        self._owners: dict[str, RoomOwner] = {}
        self._renewed_at: dict[str, int] = {}
        """Monotonic ms at which each lease held here was last claimed or renewed (sent, not answered: conservative)."""
        self._replicas: dict[str, Replica] = {}
        self.local_bus = InProcessBus()
        """Where this instance's sockets subscribe (every room's channel): owners here and replicas publish there."""
        self._announcing = _Announcing(self.local_bus, bus)
        self.handovers: list[tuple[str, str]] = []
        """(room, instance) of every lease this instance handed over, in order (for logs and tests)."""
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[None]] = set()
        self._closing = False
        self.takeovers: list[tuple[str, int]] = []
        """(room, version) of every room this instance took over, in order (for logs and tests)."""
        self.on_taken: Callable[[str, RoomOwner], None] | None = None
        """Told of every room this instance takes over (a lease it claimed, a log it loaded), after the owner is
        here: what runs beside a room on its owner's instance (the practice engine's seat) follows it there."""

    @property
    def bus(self) -> Bus:
        return self._bus

    def owned(self) -> list[str]:
        return [room_id for room_id, owner in self._owners.items() if not owner.lost]

    async def start(self) -> None:
        """Listen for forwarded commands, take the live rooms nobody holds (as a lone instance resumes its rooms
        before it serves), then renew and scan in the background."""
        await self.forwarder.start()
        self._tasks = [asyncio.create_task(self._renewing())]
        try:
            await self.scan()
        except Exception:
            log.exception("instance %s: the first room scan failed", self.instance)
        self._tasks.append(asyncio.create_task(self._scanning()))
        log.info("instance %s joined the cluster (lease %d ms)", self.instance, self.config.lease_ms)

    # --- rooms as the app sees them ---------------------------------------------------------------------

    async def get(self, room_id: str, kind: str) -> ClusterRoom:
        """A handle on the room: commands go to its owner wherever it is; reads come from this instance."""
        logic_factory(self._kinds, kind)  # an unknown kind is refused before anything is asked of Redis
        if self.local_owner(room_id) is None:
            await self._adopt(room_id, kind)
        return ClusterRoom(self, room_id, kind, await self._replica(room_id, kind))

    async def _adopt(self, room_id: str, kind: str) -> None:
        """A room whose lease names an instance that is gone (it was killed) is taken over here at once, where a socket
        of it just arrived, instead of reading it into a replica and waiting for a command or the scan. A room
        nobody holds (finished, or being created) is left alone: asking for a room does not claim it."""
        try:
            holder = await self.leases.holder_of(room_id)
            if holder is None or holder == self.instance or await self.forwarder.alive(holder):
                return
            await self._take(room_id, kind, suspect=holder)
        except (RedisError, OSError) as error:
            log.warning("room %s: cannot look at its lease: %s", room_id, error)

    async def drop(self, room_id: str) -> None:
        owner = self._owners.get(room_id)
        if owner is not None:
            await self._let_go(room_id, owner)
        replica = self._replicas.pop(room_id, None)
        if replica is not None:
            await replica.close()

    async def close(self) -> None:
        """Leave the cluster: stop the loops, close the rooms and release their leases (others take them at once)."""
        self._closing = True
        await stop(*self._tasks, *self._background)
        for room_id, owner in list(self._owners.items()):
            await self._let_go(room_id, owner)
        for replica in self._replicas.values():
            await replica.close()
        self._replicas.clear()
        await self.forwarder.close()

    def local_owner(self, room_id: str) -> RoomOwner | None:
        """The owner of ``room_id`` here, if its lease is held and not older than a lease (a process that was paused
        past its lease must not write before its renewal loop has noticed: another instance may own the room)."""
        owner = self._owners.get(room_id)
        if owner is None or owner.lost:
            return None
        if self._clocks.monotonic() - self._renewed_at.get(room_id, 0) >= self.config.lease_ms:
            return None
        return owner

    async def _replica(self, room_id: str, kind: str) -> Replica:
        replica = self._replicas.get(room_id)
        if replica is None:
            async with self._lock(f"replica:{room_id}"):
                replica = self._replicas.get(room_id)
                if replica is None:
                    replica = Replica(
                        room_id,
                        self._kinds[kind],
                        self._log,
                        self._bus,
                        clocks=self._clocks,
                        local=self.local_bus,
                        dormant=lambda: self.local_owner(room_id) is not None,
                    )
                    await replica.start()
                    self._replicas[room_id] = replica
        replica.last_used = self._clocks.monotonic()
        if replica.stale:
            await replica.sync()
        return replica

    def _lock(self, name: str) -> asyncio.Lock:
        return self._locks.setdefault(name, asyncio.Lock())

    # --- commands ---------------------------------------------------------------------------------------

    async def handle(self, room_id: str, kind: str, command: Command) -> Ack:
        """Handle ``command`` here if this instance owns (or can take) the room, else on its owner."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.command_timeout_s
        while True:
            owner = self.local_owner(room_id)
            if owner is not None:
                try:
                    return await owner.handle(command)
                except OwnershipLostError:  # the append was refused: nothing applied, so ask the new owner
                    await self._let_go(room_id, owner)
                    continue
            try:
                ack = await self._elsewhere(room_id, kind, command)
            except (RedisError, OSError) as error:  # Redis unreachable: nobody can be asked, nothing was applied
                log.warning("room %s: cannot reach Redis: %s", room_id, error)
                ack = None
            if ack is not None:
                return ack
            if loop.time() >= deadline:
                raise RoomUnavailableError(f"room {room_id}: no owner could be reached")
            await asyncio.sleep(0.05)

    async def _elsewhere(self, room_id: str, kind: str, command: Command) -> Ack | None:
        """Take the room over if its holder is gone, else forward; ``None``: not applied, look again."""
        holder = await self.leases.holder_of(room_id)
        if holder is None or holder == self.instance or not await self.forwarder.alive(holder):
            await self._take(room_id, kind, suspect=holder)
            return None  # the next round handles it here if the room is ours now
        body = {**_command_body(room_id, kind, command), "from": self.instance, "watchers": self.watchers(room_id)}
        try:
            answer = await self.forwarder.request(holder, body)
        except NotDeliveredError:
            return None  # the holder died just now: take the room over on the next round
        except NoAnswerError as error:
            raise RoomUnavailableError(f"room {room_id}: {error}") from None
        if answer.get("handover") is True:
            # The owner had no socket of the room and gave us its lease with this answer: load the room now, so
            # that its timers run here and the next command is handled here.
            task = asyncio.get_running_loop().create_task(self._take_quietly(room_id, kind))
            self._background.add(task)
            task.add_done_callback(self._background.discard)
        return _answer(room_id, answer)

    async def _take_quietly(self, room_id: str, kind: str) -> None:
        try:
            await self._take(room_id, kind)
        except Exception:
            log.exception("instance %s could not load room %s handed over to it", self.instance, room_id)

    def watchers(self, room_id: str) -> int:
        """This instance's sockets of the room."""
        return self.local_bus.subscribers(channel_of(room_id))

    async def _serve(self, body: Body) -> Body:
        """Answer a command forwarded by another instance (only if this instance owns the room)."""
        room_id, kind = body.get("room"), body.get("kind")
        if not isinstance(room_id, str) or not isinstance(kind, str) or kind not in self._kinds:
            return {"error": "bad forwarded command: room and kind"}
        # Not loaded here although the sender found our name on the lease (dropped a moment ago, or a renewal
        # came late): take it again if the lease is still, or again, ours.
        owner = self.local_owner(room_id) or await self._take(room_id, kind)
        if owner is None:
            return {"moved": "not the owner"}
        try:
            command = _command_of(body)
        except (KeyError, TypeError, ValueError) as error:
            return {"error": f"bad forwarded command: {error}"}
        try:
            ack = await owner.handle(command)
        except Refused as refused:
            return {"refused": refused.refusal.to_dict()}
        except OwnershipLostError:
            await self._let_go(owner.room_id, owner)
            return {"moved": "ownership lost"}
        answer: Body = {"ack": {"version": ack.version, "events": ack.events}}
        sender, watching = body.get("from"), body.get("watchers")
        if (
            isinstance(sender, str)
            and sender != self.instance
            and isinstance(watching, int)
            and watching > 0
            and self.watchers(room_id) == 0
            and await self._hand_over(room_id, owner, sender)
        ):
            answer["handover"] = True
        return answer

    async def _hand_over(self, room_id: str, owner: RoomOwner, to: str) -> bool:
        """Give the room's lease to instance ``to`` (it has the room's sockets, this instance none): the owner here
        stops once its command in hand is stored, then the lease changes holder in one step. A command that reaches
        this owner afterwards is answered ``moved`` and its sender asks ``to``."""
        async with self._lock(f"owner:{room_id}"):
            if self._owners.get(room_id) is not owner or owner.lost:
                return False
            await owner.retire()
            del self._owners[room_id]
            self._renewed_at.pop(room_id, None)
            try:
                moved = await self.leases.hand_over(room_id, to)
            except RedisError:
                moved = False
            if not moved:  # the lease was not ours any more (or Redis failed): let it lapse or be taken as usual
                with contextlib.suppress(Exception):
                    await self.leases.release(room_id)
                return False
            self.handovers.append((room_id, to))
            log.info("instance %s handed room %s over to %s at version %d", self.instance, room_id, to, owner.version)
        await self._replica_after_owner(room_id)
        return True

    async def _replica_after_owner(self, room_id: str) -> None:
        """The room is no longer owned here: a replica of it (sockets here) catches up from the log at once."""
        replica = self._replicas.get(room_id)
        if replica is not None and replica.watchers() == 0:
            replica.stale = True  # read from the log only when someone here reads it
        elif replica is not None:
            try:
                await replica.sync()
            except Exception:
                log.warning("replica %s: catching up after the owner left failed", room_id, exc_info=True)

    # --- ownership --------------------------------------------------------------------------------------

    async def _take(self, room_id: str, kind: str, *, suspect: str | None = None) -> RoomOwner | None:
        """Claim the lease (free, ours, or held by the dead ``suspect``) and rebuild the room from its log."""
        factory = logic_factory(self._kinds, kind)
        async with self._lock(f"owner:{room_id}"):
            owner = self.local_owner(room_id)
            if owner is not None:
                return owner
            stale = self._owners.pop(room_id, None)
            if stale is not None:
                await stale.close()
            started = self._clocks.monotonic()
            if not await self.leases.acquire(room_id, suspect=suspect):
                return None
            self._renewed_at[room_id] = started
            try:
                owner = await RoomOwner.load(
                    room_id, factory, self._log, self._announcing, clocks=self._clocks, on_finished=self._on_finished
                )
            except BaseException:
                with contextlib.suppress(Exception):
                    await self.leases.release(room_id)
                raise
            self._owners[room_id] = owner
            self.takeovers.append((room_id, owner.version))
            if self.on_taken is not None:
                try:
                    self.on_taken(room_id, owner)
                except Exception:  # the room is taken either way; what follows it must not undo that
                    log.exception("instance %s: what follows room %s here failed", self.instance, room_id)
            log.log(
                logging.WARNING if suspect and suspect != self.instance else logging.INFO,
                "instance %s owns room %s at version %d (lease was %s; loaded in %d ms)",
                self.instance,
                room_id,
                owner.version,
                suspect or "free",
                self._clocks.monotonic() - started,
            )
            return owner

    async def _let_go(self, room_id: str, owner: RoomOwner, *, release: bool = True) -> None:
        if self._owners.get(room_id) is owner:
            del self._owners[room_id]
            self._renewed_at.pop(room_id, None)
        await owner.close()
        if release:
            with contextlib.suppress(Exception):
                await self.leases.release(room_id)
        if not self._closing and self._owners.get(room_id) is None:
            await self._replica_after_owner(room_id)

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self.config.lease_ms / 3000)
            await self.renew()

    async def renew(self) -> None:
        """Renew every lease held here in one round trip; drop at once each room whose lease could not be renewed."""
        held = list(self._owners.items())
        if not held:
            return
        sent_at = self._clocks.monotonic()
        try:
            async with asyncio.timeout(self.config.lease_ms / 3000):
                results = await self.leases.renew_all([room_id for room_id, _owner in held])
        except Exception:
            log.exception("instance %s cannot renew its leases: dropping its %d rooms", self.instance, len(held))
            results = [False] * len(held)
        for (room_id, owner), renewed in zip(held, results, strict=True):
            if not renewed:
                log.warning("instance %s lost the lease of room %s: dropping it", self.instance, room_id)
                await self._let_go(room_id, owner, release=False)
                continue
            if self._owners.get(room_id) is owner:
                self._renewed_at[room_id] = sent_at
            if owner.lost or (isinstance(owner.logic, Finishing) and owner.logic.is_finished()):
                await self._let_go(room_id, owner)

    async def _scanning(self) -> None:
        while True:
            await asyncio.sleep(self.config.scan_interval_s)
            try:
                await self.scan()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("instance %s: the room scan failed", self.instance)

    async def scan(self) -> None:
        """Take over live rooms whose lease is free or whose holder is dead; repair and sweep replicas."""
        live = {room.id: room for room in await self._store.rooms(status=RoomStatus.LIVE) if room.kind in self._kinds}
        for room_id, replica in list(self._replicas.items()):
            room = live.get(room_id)
            idle_ms = self._clocks.monotonic() - replica.last_used
            if replica.watchers() == 0 and (room is None or idle_ms > self.config.replica_idle_s * 1000):
                del self._replicas[room_id]
                await replica.close()
            elif room is not None and room.version > replica.version and replica.watchers() > 0:
                await replica.sync()
        # A room still at version 0 is being created by the instance that made its row (which claims it next): it has
        # no clock to run, and taking it here would only race its creator. A command for it takes it on demand.
        candidates = [room for room_id, room in live.items() if room.version > 0 and self.local_owner(room_id) is None]
        if not candidates:
            return
        holders = await self.leases.holders_of([room.id for room in candidates])
        alive: dict[str, bool] = {}
        orphans: list[tuple[Room, str | None]] = []
        for room, holder in zip(candidates, holders, strict=True):
            if holder is not None and holder != self.instance:
                if holder not in alive:
                    alive[holder] = await self.forwarder.alive(holder)
                if alive[holder]:
                    continue
            orphans.append((room, holder))
        # A dead instance leaves many rooms at once: they are loaded side by side (each is a read of its log), not
        # one after the other, so the last of 30 does not wait for the other 29.
        loading = asyncio.Semaphore(SCAN_TAKEOVERS)

        async def take(room: Room, holder: str | None) -> None:
            async with loading:
                try:
                    await self._take(room.id, room.kind, suspect=holder)
                except Exception:
                    log.exception("instance %s could not take room %s over", self.instance, room.id)

        await asyncio.gather(*(take(room, holder) for room, holder in orphans))


class ClusterRoom:
    """One room as seen from this instance: a :class:`~toreshi.live.registry.LiveRoom` whose owner may be elsewhere."""

    def __init__(self, cluster: ClusterRooms, room_id: str, kind: str, replica: Replica) -> None:
        self.cluster = cluster
        self.room_id = room_id
        self.kind = kind
        self.replica = replica

    def _source(self) -> RoomOwner | Replica:
        return self.cluster.local_owner(self.room_id) or self.replica

    @property
    def logic(self) -> RoomLogic:
        return self._source().logic

    @property
    def version(self) -> int:
        return self._source().version

    @property
    def bus(self) -> Bus:
        """This instance's in-process bus: the room's messages from its owner here, or from the replica."""
        return self.cluster.local_bus

    @property
    def channel(self) -> str:
        return channel_of(self.room_id)

    def now_ms(self) -> int:
        return self._source().now_ms()

    async def handle(self, command: Command) -> Ack:
        """Handled by the owner wherever it is; returns once this instance's reads show the result too."""
        ack = await self.cluster.handle(self.room_id, self.kind, command)
        if self.cluster.local_owner(self.room_id) is None and self.replica.version < ack.version:
            await self.replica.sync()  # read-your-writes: do not wait for the bus message
        return ack

    def catch_up(self, last_version: int) -> list[EventFrame] | None:
        return self._source().catch_up(last_version)

    def snapshot(self, actor: Actor | None) -> SnapshotFrame:
        return self._source().snapshot(actor)


def _command_body(room_id: str, kind: str, command: Command) -> Body:
    return {
        "room": room_id,
        "kind": kind,
        "type": command.type,
        "actor": {"role": command.actor.role, "name": command.actor.name},
        "data": dict(command.data),
        "id": command.id,
        "meta": dict(command.meta),
    }


def _command_of(body: Body) -> Command:
    actor = body["actor"]
    command_id = body.get("id")
    if not isinstance(body["type"], str) or not isinstance(actor, dict) or not isinstance(body["data"], dict):
        raise TypeError("type, actor and data")
    if command_id is not None and not isinstance(command_id, str):
        raise TypeError("id")
    meta: Any = body.get("meta") or {}
    return Command(
        body["type"],
        Actor(str(actor["role"]), str(actor.get("name", ""))),
        body["data"],
        id=command_id,
        meta=meta if isinstance(meta, dict) else {},
    )


def _answer(room_id: str, answer: Body) -> Ack | None:
    """The owner's answer as an ack, a raised refusal or error, or ``None`` (not applied there: look again)."""
    ack = answer.get("ack")
    if isinstance(ack, dict):
        return Ack(int(ack["version"]), int(ack["events"]))
    refused = answer.get("refused")
    if isinstance(refused, dict):
        raise Refused(Refusal.from_dict(refused, EVERY_CODE))
    if "error" in answer:
        raise RoomUnavailableError(f"room {room_id}: the owner failed: {answer['error']}")
    return None
