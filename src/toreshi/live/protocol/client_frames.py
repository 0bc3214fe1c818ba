"""What a client sends, read once at the edge: ``hello``, ``pong`` and ``cmd``.

The socket turns the text into a JSON object (size, numbers and nesting bounded there); :func:`read_client_frame`
turns that object into one of these frames with the kit's codec, every field checked. A malformed ``hello`` or
``pong`` is a :class:`MalformedFrameError` (the connection closes); a ``cmd`` whose ``id`` cannot be read is answered
``error`` and one whose ``type`` or ``data`` cannot is refused (both :class:`UnreadableCommand`); a frame of a type no
client sends is :class:`UnknownFrame`. A command's ``data`` stays JSON here: the room reads it with its own codec.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toreshi.kit.codec import Codec, spec
from toreshi.kit.refusal import Refused
from toreshi.live.protocol.base import Direction, Frame

CLIENT_CLOCK_LIMIT_MS = 10**14
"""A client's clock reading (``pong.tc``) beyond ±3,000 years of milliseconds is not a clock: the frame is malformed."""
MAX_COMMAND_ID = 64
MAX_FRAME_TEXT = 4096
"""A text no longer than a whole frame (``web.rooms.wire.MAX_MESSAGE_BYTES``): bounded there, not here. A command's
``type`` is the room's to judge (an unknown one is ``unknown_command``), a hello's ``token`` the links'."""


class MalformedFrameError(ValueError):
    """A frame the protocol cannot take (``reason``: ``bad_hello``, ``bad_pong``, ``bad_json``, …): the connection
    is closed."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.code = reason


@dataclass(frozen=True, slots=True)
class HelloFrame(Frame):
    """(Re)join the room: ``v`` is the last version the client applied (0 for none), ``token`` a player's secret."""

    t: ClassVar[str] = "hello"
    direction: ClassVar[Direction] = Direction.TO_SERVER
    v: int = field(default=0, metadata=spec(minimum=0))
    token: str | None = field(default=None, metadata=spec(exact=True, max_length=MAX_FRAME_TEXT))


@dataclass(frozen=True, slots=True)
class PongFrame(Frame):
    """The answer to ping ``id``: the client's clock (``tc``, ms) when it answered."""

    t: ClassVar[str] = "pong"
    direction: ClassVar[Direction] = Direction.TO_SERVER
    id: int
    tc: float = field(metadata=spec(minimum=-CLIENT_CLOCK_LIMIT_MS, maximum=CLIENT_CLOCK_LIMIT_MS))


@dataclass(frozen=True, slots=True)
class CommandFrame(Frame):
    """An intent (a move, a press, a verdict); ``id`` is chosen by the client, unique per connection."""

    t: ClassVar[str] = "cmd"
    direction: ClassVar[Direction] = Direction.TO_SERVER
    id: str = field(metadata=spec(exact=True, max_length=MAX_COMMAND_ID))
    type: str = field(metadata=spec(exact=True, max_length=MAX_FRAME_TEXT))
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UnreadableCommand:
    """A ``cmd`` that cannot be read: without a readable ``id`` (``None``: answered ``error`` ``bad_command``), or
    with one but not its ``type`` or ``data`` (refused ``bad_request``, as an answer to that id)."""

    id: str | None


@dataclass(frozen=True, slots=True)
class UnknownFrame:
    """A frame of a type no client sends (answered ``error`` ``unknown_type``; the connection stays open)."""

    t: str


ClientFrame = HelloFrame | PongFrame | CommandFrame | UnreadableCommand | UnknownFrame

CLIENT_FRAMES = Codec[Frame](HelloFrame, PongFrame, CommandFrame, tag="t")
"""The frames a client sends (a part of :data:`toreshi.live.protocol.FRAMES`, read with the same codec)."""

_MALFORMED = {
    "hello": ("bad_hello", "a hello's 'v' is a whole number from 0 and its 'token' a text"),
    "pong": ("bad_pong", "a pong's 'id' is the whole number of its ping and 'tc' the client's clock in milliseconds"),
}


def read_client_frame(message: Mapping[str, Any]) -> ClientFrame:
    """The frame a client sent, from its JSON object (whose ``t`` is a text); raises :class:`MalformedFrameError`
    for a ``hello`` or a ``pong`` that is not well-formed."""
    name = str(message.get("t"))
    if CLIENT_FRAMES.class_of(name) is None:
        return UnknownFrame(name)
    try:
        frame = CLIENT_FRAMES.read(name, message)
    except Refused as refused:
        if name != "cmd":
            raise MalformedFrameError(*_MALFORMED[name]) from None
        return UnreadableCommand(None if refused.params.get("field") == "id" else str(message["id"]))
    if isinstance(frame, CommandFrame) and not frame.id:
        return UnreadableCommand(None)
    if isinstance(frame, HelloFrame) and frame.token == "":
        return HelloFrame(frame.v, None)
    assert isinstance(frame, HelloFrame | PongFrame | CommandFrame)
    return frame
