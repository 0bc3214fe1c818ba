"""The room socket: a thin layer between a browser and a room owner (protocol: docs/protocol.md).

One connection = three small loops: read client messages (hello, cmd, pong), forward the room's bus messages in
version order, and ping for clock synchronisation. The socket decides nothing itself: commands go to the owner,
and only its acknowledgement is passed back.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.bus import Message, SubscriberOverflowError
from toreshi.live.owner import OwnershipLostError
from toreshi.live.protocol import (
    PROTOCOL_VERSION,
    AccessNotice,
    AckFrame,
    CommandFrame,
    ErrorFrame,
    EventFrame,
    EventsFrame,
    FailedFrame,
    Frame,
    HelloFrame,
    OffsetFrame,
    PingFrame,
    PongFrame,
    PresenceFrame,
    RefusalShown,
    RefusedFrame,
    ResyncFrame,
    UnknownFrame,
    UnreadableCommand,
    WelcomeFrame,
    read_client_frame,
)
from toreshi.live.registry import LiveRoom
from toreshi.live.room import Actor, Command, Withholding
from toreshi.texts import refusals
from toreshi.texts.i18n import gettext as _
from toreshi.web.common.security import same_origin
from toreshi.web.rooms.budget import COMMANDS_PER_SECOND, CONNECTIONS_PER_ACTOR, ActorSockets, RateLimit
from toreshi.web.rooms.clock_sync import ClockSync, server_ms
from toreshi.web.rooms.presence import Presence
from toreshi.web.rooms.wire import MAX_MESSAGE_BYTES, ProtocolError, encode, encode_events, parse

log = logging.getLogger(__name__)

__all__ = [
    "ACTOR_SOCKETS",
    "CLOSE_POLICY",
    "CLOSE_REVOKED",
    "COMMANDS_PER_SECOND",
    "CONNECTIONS_PER_ACTOR",
    "MAX_MESSAGE_BYTES",
    "Connection",
    "ProtocolError",
    "serve_room",
]

HELLO_TIMEOUT_S = 10.0
IDLE_TIMEOUT_S = 30.0
PING_INTERVAL_S = 2.0
PHONE_PING_INTERVAL_S = 1.0
"""A quiz team's phone — and every other connection the quiz host's panel shows: the projector, the assistant — is
pinged every second: the phone's page shows «нет связи» after 1.5 s of silence (within 2 s of losing the link,
issue 14 §3), and the host's panel sees a connection lost after 2.5 s
(:data:`toreshi.web.rooms.presence.LOST_AFTER_MS`)."""
PRESENCE_INTERVAL_S = 1.0
"""How often a quiz host's console is told who is connected (a ``presence`` message)."""
MESSAGES_PER_SECOND = 50
"""Every frame a connection sends (commands, pongs, hellos — a hello costs a snapshot) counts against this; a
client far over it is closed. Commands have their own, lower budget besides."""
WATCHER_PING_INTERVAL_S = 10.0
"""Spectators press nothing: their clock estimate only draws countdowns, and a ping every 10 s is plenty (a room
with 20 spectators otherwise spends more on pings than on play). A quiz projector is no spectator: the host's
panel watches it (:data:`PHONE_PING_INTERVAL_S`)."""
PING_BURST = 8
CLOSE_POLICY = 1008  # WebSocket close code: policy violation
CLOSE_REVOKED = 4403
"""The connection's link was revoked (the arbiter reissued it): the page is told, then the socket is closed."""


ACTOR_SOCKETS = ActorSockets()
"""This process's count (with several instances, each counts its own sockets)."""
PRESENCE = Presence()
"""Who is connected to each room of this process, for the quiz host's connection panel."""

Resolve = Callable[[WebSocket, str | None], Awaitable[Actor]]
"""Who a connection is in a room, from its token (or its signed-in session)."""
OwnerOf = Callable[[], Awaitable[LiveRoom | None]]


async def serve_room(websocket: WebSocket, owner_of: OwnerOf, resolve: Resolve, origins: tuple[str, ...] = ()) -> None:
    """Run one connection to the end."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host")
    if origin is not None and origin not in origins and not same_origin(origin, host, websocket.url.scheme):
        await websocket.close(code=CLOSE_POLICY, reason="cross-origin WebSocket refused")
        return
    await websocket.accept()
    connection = Connection(websocket, owner_of, resolve)
    try:
        await connection.run()
    except WebSocketDisconnect:
        pass
    except ProtocolError as error:
        # One line, no traceback: a client's malformed frame is the client's fault, not the server's.
        room = connection.owner.room_id if connection.owner is not None else "-"
        log.warning("room %s: %s socket closed (%s): %s", room, connection.actor.role, error.code, error)
        await connection.send(ErrorFrame("closing", str(error), reason=error.code))
        await connection.close(CLOSE_POLICY)
    finally:
        await connection.stop()


class Connection:
    def __init__(self, websocket: WebSocket, owner_of: OwnerOf, resolve: Resolve) -> None:
        self.websocket = websocket
        self.owner_of = owner_of
        self.resolve = resolve
        self.sent_version = 0
        self.sync = ClockSync()
        self.limit = RateLimit(COMMANDS_PER_SECOND)
        self.frames = RateLimit(MESSAGES_PER_SECOND)
        self.tasks: list[asyncio.Task[None]] = []
        self.send_lock = asyncio.Lock()
        self.actor = Actor("spectator")
        self.token: str | None = None
        """The link's secret this connection came with (checked again when a link of its role is revoked)."""
        self.counted = False
        """Whether this socket is counted in :data:`ACTOR_SOCKETS` (it is from the welcome to the end)."""
        self.owner: LiveRoom | None = None
        self.received_ms = 0
        """When the message being handled arrived (server monotonic ms)."""
        self.last_estimate: OffsetFrame | None = None
        """The last clock estimate sent (``offset``)."""
        self.held: list[EventFrame] = []
        """Events held back until a later one (:meth:`withhold`)."""
        self._withholding: tuple[object, Withholding | None] = (None, None)
        """The room's logic and, when it holds some events back, the same as a :class:`Withholding` (asking a
        runtime protocol costs more than the rest of a fan-out's bookkeeping: asked once)."""

    async def send(self, frame: Frame) -> None:
        await self.send_text(encode(frame))

    async def send_events(self, events: list[EventFrame], at_ms: int | None = None) -> None:
        """Room events in version order, the last with this connection's own state (:meth:`personal`): one
        ``event`` frame, or one ``events`` frame for several."""
        assert self.owner is not None
        events = self.withhold(events)
        if not events:
            return
        shared = events[-1]
        events = [*events[:-1], self.personal(shared, at_ms)]
        if len(events) == 1:  # the bus's own frame is encoded once for all; a connection's own state just for it
            await self.send_text(encode(events[0], shared=events[0] is shared))
        else:
            await self.send_text(encode_events(EventsFrame(self.owner.room_id, tuple(events))))

    async def send_text(self, text: str) -> None:
        if self.websocket.application_state is not WebSocketState.CONNECTED:
            return
        async with self.send_lock:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):
                await self.websocket.send_text(text)

    async def close(self, code: int) -> None:
        with contextlib.suppress(RuntimeError):
            await self.websocket.close(code=code)

    async def receive(self, timeout: float) -> HelloFrame | PongFrame | CommandFrame | UnreadableCommand | UnknownFrame:
        """The client's next frame, read at the edge (:func:`~toreshi.live.protocol.read_client_frame`); raises
        :class:`ProtocolError` for a malformed one."""
        try:
            # A timeout scope, not wait_for: wait_for runs the receive as a task of its own, one more trip through
            # the loop's queue for every message (a press waits behind everything else ready to run).
            async with asyncio.timeout(timeout):
                frame = await self.websocket.receive()
        except TimeoutError:
            raise ProtocolError("idle", "no message in time") from None
        if frame["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
        raw = frame.get("text")
        if not isinstance(raw, str):  # a binary frame: the protocol is JSON text only
            raise ProtocolError("binary", "messages are JSON text frames")
        self.received_ms = server_ms()
        if not self.frames.allow():
            raise ProtocolError("flood", _("Too many messages at once: the connection is closed."))
        message = parse(raw)
        if self.counted and self.owner is not None:
            PRESENCE.heard(self.owner.room_id, self.actor.role, self.actor.name, self.received_ms)
        return read_client_frame(message)

    async def run(self) -> None:
        hello = await self.receive(HELLO_TIMEOUT_S)
        if not isinstance(hello, HelloFrame):
            raise ProtocolError("hello_first", "the first message must be 'hello'")
        self.token = hello.token
        owner = await self.owner_of()
        if owner is None:
            raise ProtocolError("no_room", "there is no such room")
        self.owner = owner
        actor = await self.resolve(self.websocket, self.token)
        if not ACTOR_SOCKETS.enter(owner.room_id, actor):
            raise ProtocolError("too_many_connections", _("This link is open on too many devices at once."))
        self.actor, self.counted = actor, True
        if actor.role != "spectator":
            PRESENCE.opened(owner.room_id, actor.role, actor.name, server_ms())
        # A link that opens nothing (revoked, or mistyped): the page says so instead of silently watching.
        refused_link = self.token is not None and actor.role in ("spectator", "arbiter")
        kind = owner.logic.kind
        await self.send(
            WelcomeFrame(
                PROTOCOL_VERSION, owner.room_id, kind, actor.role, actor.name, "refused" if refused_link else None
            )
        )
        async with owner.bus.subscribe(owner.channel) as messages:  # subscribe first: no gap before catch-up
            await self.catch_up(hello.v)
            self.tasks = [
                asyncio.create_task(self.forward(messages)),
                asyncio.create_task(self.ping()),
            ]
            if owner.logic.kind == "quiz" and actor.role in ("host", "arbiter"):
                self.tasks.append(asyncio.create_task(self.presence()))
            await self.read()

    async def catch_up(self, last_version: int) -> None:
        assert self.owner is not None
        # A client that has nothing (v = 0) gets the whole room at once, as its role sees it.
        missed = self.owner.catch_up(last_version) if last_version > 0 else None
        if missed is None:
            snapshot = self.owner.snapshot(None if self.actor.role == "spectator" else self.actor)
            # The snapshot is the room as this role may see it now; events it may not see yet (a press before its
            # decision) are not counted in its version either: they come with the next event, as they would have.
            self.held = self.withheld_tail(snapshot.v)
            if self.held:
                snapshot = dataclasses.replace(snapshot, v=self.held[0].v - 1)
            self.sent_version = snapshot.v
            await self.send(snapshot)
            return
        if missed:
            # The missed events in one frame; the last brings this connection's own state as of now.
            self.sent_version = missed[-1].v
            await self.send_events(missed, at_ms=self.owner.now_ms())
        self.sent_version = max(self.sent_version, last_version)

    def split_withheld(self, events: list[EventFrame]) -> tuple[list[EventFrame], list[EventFrame]]:
        """``events`` as (what may be sent now, what must wait). A room may ask that an event wait (a quiz press,
        which only the host and the projector may see before its decision): from it on, every event waits until
        one that releases it (the decision, any move of the game), and then all go out together in one frame."""
        logic = self.withholding()
        if logic is None:
            return events, []
        actor = None if self.actor.role == "spectator" else self.actor
        ready: list[EventFrame] = []
        waiting: list[EventFrame] = []
        for event in events:
            if waiting:
                waiting.append(event)
                if logic.releases(event):
                    ready.extend(waiting)
                    waiting = []
            elif logic.withholds(actor, event):
                waiting.append(event)
            else:
                ready.append(event)
        return ready, waiting

    def withheld_tail(self, version: int) -> list[EventFrame]:
        """The room's latest events up to ``version`` that this connection may not be sent yet."""
        assert self.owner is not None
        if version <= 0 or self.withholding() is None:
            return []
        recent = self.owner.catch_up(max(0, version - 50))
        if not recent:
            return []
        return self.split_withheld([event for event in recent if event.v <= version])[1]

    def withholding(self) -> Withholding | None:
        """The room's logic if it may hold events back from this connection, else ``None``."""
        assert self.owner is not None
        logic = self.owner.logic
        if self._withholding[0] is not logic:
            self._withholding = (logic, logic if isinstance(logic, Withholding) else None)
        return self._withholding[1]

    def withhold(self, events: list[EventFrame]) -> list[EventFrame]:
        """The events to send now; the others are held (:meth:`split_withheld`) and go out with a later one."""
        fresh = {event.v for event in events}
        events = [*(held for held in self.held if held.v not in fresh), *events]  # a catch-up resends some
        ready, self.held = self.split_withheld(events)
        return ready

    def personal(self, event: EventFrame, at_ms: int | None = None) -> EventFrame:
        """Events carry the public state; a player or an arbiter gets it as their role sees it (what they may do),
        as of the event (``at_ms``: its room time unless given)."""
        if self.owner is None or self.actor.role == "spectator" or not event.has_state:
            return event
        if event.more:
            return event  # the command's last event brings this connection's own state
        view = self.owner.logic.view(self.actor, at_ms if at_ms is not None else event.ts)
        return event.with_state(view)

    async def forward(self, messages: AsyncIterator[Message]) -> None:
        try:
            async for message in messages:
                if isinstance(message, AccessNotice):
                    await self.check_link(message)
                    continue
                if not isinstance(message, EventFrame):
                    continue  # an owner's announcement to other instances: nothing for a client
                batch = [message]
                while batch[-1].more:
                    # The command's other events were published with it: send them all in one frame.
                    following = await anext(messages)
                    if isinstance(following, EventFrame):
                        batch.append(following)
                fresh = [event for event in batch if event.v > self.sent_version]
                if not fresh:
                    continue  # already sent during catch-up
                first = self.sent_version + 1
                if [event.v for event in fresh] != list(range(first, first + len(fresh))):
                    await self.catch_up(self.sent_version)  # a gap: the history has what the bus lost
                    continue
                self.sent_version = fresh[-1].v
                await self.send_events(fresh)
        except SubscriberOverflowError:
            await self.send(ResyncFrame())

    async def check_link(self, notice: AccessNotice) -> None:
        """A link of ``notice.role`` was revoked: if it was this connection's, tell the page and close."""
        if self.token is None or notice.role != self.actor.role:
            return
        again = await self.resolve(self.websocket, self.token)
        if (again.role, again.name) == (self.actor.role, self.actor.name):
            return  # another device's link of the same role, or already reissued to this one
        text = _("This link no longer opens the game: the arbiter has issued a new one.")
        await self.send(ErrorFrame("link_revoked", text))
        await self.close(CLOSE_REVOKED)

    async def ping(self) -> None:
        ping_id = 0
        while True:
            ping_id += 1
            self.sync.sent[ping_id] = server_ms()
            await self.send(PingFrame(ping_id, self.sync.sent[ping_id]))
            await asyncio.sleep(0.1 if ping_id < PING_BURST else self.ping_interval())

    def ping_interval(self) -> float:
        role = self.actor.role
        if role == "spectator":
            return WATCHER_PING_INTERVAL_S
        if self.owner is not None and self.owner.logic.kind == "quiz" and role not in ("host", "arbiter"):
            # Everyone on the host's connections panel (the phones, the projector, the assistant) answers a ping
            # every second: the panel calls a connection lost after 2.5 s of silence, and a projector pinged every
            # 10 s showed as lost most of the time while it lit the lamps (issue 31).
            return PHONE_PING_INTERVAL_S
        return PING_INTERVAL_S

    async def presence(self) -> None:
        """Tell the host, every second, each phone's and screen's connection: live or lost, when it was last
        heard from and its round trip (issue 14 §3)."""
        assert self.owner is not None
        while True:
            now = server_ms()
            people = tuple(p.shown(now) for p in PRESENCE.of(self.owner.room_id) if p.role not in ("host", "arbiter"))
            await self.send(PresenceFrame(people))
            await asyncio.sleep(PRESENCE_INTERVAL_S)

    async def read(self) -> None:
        while True:
            frame = await self.receive(IDLE_TIMEOUT_S)
            if isinstance(frame, CommandFrame | UnreadableCommand):
                await self.command(frame)
            elif isinstance(frame, PongFrame):
                await self.pong(frame)
            elif isinstance(frame, HelloFrame):
                await self.catch_up(frame.v)
            else:
                await self.send(ErrorFrame("unknown_type", f"unknown message type {frame.t!r}"))

    async def pong(self, pong: PongFrame) -> None:
        best = self.sync.on_pong(pong.id, pong.tc, server_ms())
        if best is None or self.owner is None:
            return
        if self.counted:
            rtts = sorted(rtt for rtt, _offset in self.sync.samples)
            PRESENCE.heard(self.owner.room_id, self.actor.role, self.actor.name, server_ms(), rtts[len(rtts) // 2])
        # room time = server clock + room_delta, so a client maps room times with both numbers.
        room_delta = self.owner.now_ms() - server_ms()
        estimate = OffsetFrame(offset=best[1], rtt=best[0], room_delta=room_delta)
        if estimate != self.last_estimate:  # the client keeps the last one; most pongs change nothing
            self.last_estimate = estimate
            await self.send(estimate)

    async def command(self, frame: CommandFrame | UnreadableCommand) -> None:
        assert self.owner is not None
        if frame.id is None:
            await self.send(ErrorFrame("bad_command", "a command needs a string 'id'"))
            return
        command_id = frame.id
        if not self.limit.allow() or not ACTOR_SOCKETS.allow(self.owner.room_id, self.actor):
            await self.refuse(command_id, Refusal(Common.RATE_LIMITED))
            return
        if isinstance(frame, UnreadableCommand):
            await self.refuse(command_id, Refusal(Common.BAD_REQUEST))
            return
        # Scope the id to this connection's actor so that one client cannot replay another's acknowledgement.
        scoped = f"{self.actor.role}:{self.actor.name}:{command_id}"
        try:
            ack = await self.owner.handle(Command(frame.type, self.actor, frame.data, id=scoped, meta=self.measured()))
        except Refused as refused:
            await self.refuse(command_id, refused.refusal)
            return
        except OwnershipLostError:
            await self.refuse(command_id, Refusal(Common.MOVED))
            return
        except Exception:
            # A programming error, not a refusal: logged with its traceback, and the client is told that the
            # command's fate is unknown (it resyncs from the room's versions), never that nothing changed.
            log.exception("room %s: command %r from %s failed", self.owner.room_id, frame.type, self.actor.role)
            text = _("The server could not handle this; look at the board, then try again or call the arbiter.")
            await self.send(FailedFrame(command_id, "server_error", text))
            return
        # The room's version, as far as this connection has been shown it: an acknowledged request must not tell a
        # team that an event it may not see yet (another team's press) has happened.
        tail = self.withheld_tail(ack.version)
        await self.send(AckFrame(command_id, ack.version if not tail else tail[0].v - 1))

    def sees_clauses(self) -> bool:
        """Whether refusals name the regulation's clause: in a togyz room only the arbiter sees clause numbers
        (TK-…), on the console; players and spectators read what the rule says without its code."""
        return self.owner is None or self.owner.logic.kind != "togyz" or self.actor.role == "arbiter"

    async def refuse(self, command_id: str, refusal: Refusal) -> None:
        await self.send(RefusedFrame.of(command_id, shown_refusal(refusal, clauses=self.sees_clauses())))

    def measured(self) -> dict[str, Any]:
        """What this connection measured about the command being handled, in room time: when it arrived and the
        client's clock sync. Only the server sets this (``Command.meta``); nothing in it comes from the message."""
        assert self.owner is not None
        delta = self.owner.now_ms() - server_ms()  # room time runs at a fixed distance from the monotonic clock
        meta: dict[str, Any] = {"received_ms": self.received_ms + delta}
        profile = self.sync.profile(delta)
        if profile is not None:
            meta["sync"] = {
                "offset_ms": profile.offset_ms,
                "offset_low_ms": profile.offset_low_ms,
                "offset_high_ms": profile.offset_high_ms,
                "rtt_median_ms": profile.rtt_median_ms,
                "rtt_max_ms": profile.rtt_max_ms,
            }
        return meta

    async def stop(self) -> None:
        if self.counted and self.owner is not None:
            ACTOR_SOCKETS.leave(self.owner.room_id, self.actor)
            if self.actor.role != "spectator":
                PRESENCE.closed(self.owner.room_id, self.actor.role, self.actor.name, server_ms())
            self.counted = False
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def shown_refusal(refusal: Refusal, *, clauses: bool) -> RefusalShown:
    """A refusal as the connection reads it (``toreshi.texts.refusals``): its code, its parameters (without the
    regulation's clause unless ``clauses``) and its sentence in the connection's language."""
    params = dict(refusal.params)
    if not clauses:
        params.pop("clause", None)
    details = tuple(shown_refusal(detail, clauses=clauses) for detail in refusal.details)
    return RefusalShown(refusal.code.value, params, refusals.render(refusal, clauses=clauses), details)
