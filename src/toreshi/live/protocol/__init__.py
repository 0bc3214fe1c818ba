"""The room protocol (docs/protocol.md) as types: every frame a room's socket reads or writes, and what travels on a
room's channel between the server's parts.

Each frame is a frozen dataclass (:mod:`~toreshi.live.protocol.room_frames` — the room's events and snapshots;
:mod:`~toreshi.live.protocol.replies` — what one connection is told; :mod:`~toreshi.live.protocol.client_frames` —
what a client sends; :mod:`~toreshi.live.protocol.notices` — never sent to clients), and :data:`FRAMES`, a codec of
the kit, is the one way between them and JSON objects, in and out:

>>> FRAMES.encode(AckFrame("c-7", 12))
{'t': 'ack', 'id': 'c-7', 'v': 12}
>>> FRAMES.decode({"t": "announce", "v": 40})
AnnounceNotice(v=40)
>>> read_client_frame({"t": "hello", "v": 12, "token": "s3cr3t"})
HelloFrame(v=12, token='s3cr3t')
"""

from __future__ import annotations

from toreshi.kit.codec import Codec
from toreshi.live.protocol.base import PROTOCOL_VERSION, Direction, Frame, field_since
from toreshi.live.protocol.client_frames import (
    CLIENT_FRAMES,
    ClientFrame,
    CommandFrame,
    HelloFrame,
    MalformedFrameError,
    PongFrame,
    UnknownFrame,
    UnreadableCommand,
    read_client_frame,
)
from toreshi.live.protocol.notices import AccessNotice, AnnounceNotice
from toreshi.live.protocol.replies import (
    AckFrame,
    ErrorFrame,
    FailedFrame,
    OffsetFrame,
    PersonShown,
    PingFrame,
    PresenceFrame,
    RefusalShown,
    RefusedFrame,
    WelcomeFrame,
)
from toreshi.live.protocol.room_frames import EventFrame, EventsFrame, ResyncFrame, SnapshotFrame

__all__ = [
    "CLIENT_FRAMES",
    "FRAMES",
    "PROTOCOL_VERSION",
    "AccessNotice",
    "AckFrame",
    "AnnounceNotice",
    "BusMessage",
    "ClientFrame",
    "CommandFrame",
    "Direction",
    "ErrorFrame",
    "EventFrame",
    "EventsFrame",
    "FailedFrame",
    "Frame",
    "HelloFrame",
    "MalformedFrameError",
    "OffsetFrame",
    "PersonShown",
    "PingFrame",
    "PongFrame",
    "PresenceFrame",
    "RefusalShown",
    "RefusedFrame",
    "ResyncFrame",
    "SnapshotFrame",
    "UnknownFrame",
    "UnreadableCommand",
    "WelcomeFrame",
    "field_since",
    "read_client_frame",
]

FRAMES = Codec[Frame](
    HelloFrame,
    WelcomeFrame,
    SnapshotFrame,
    EventFrame,
    EventsFrame,
    CommandFrame,
    AckFrame,
    RefusedFrame,
    FailedFrame,
    PingFrame,
    PongFrame,
    OffsetFrame,
    ResyncFrame,
    PresenceFrame,
    ErrorFrame,
    AccessNotice,
    AnnounceNotice,
    tag="t",
)
"""Every frame of the protocol, in the order docs/protocol.md lists them."""

BusMessage = EventFrame | AccessNotice | AnnounceNotice
"""What a room's channel carries: its events (to every socket of the room), and notices between the server's parts."""
