"""The room socket's text: a client's JSON text into a JSON object, bounded once; frames into JSON text.

What a frame *means* is :mod:`toreshi.live.protocol`'s (read and written by its codec, ``FRAMES``); this module only
turns text into JSON objects and back, fast: a room event reaches every connection of the room as the very same
frame from the bus, and is encoded once for all of them.
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import orjson

from toreshi.kit.payload import MAX_INTEGER
from toreshi.live.protocol import FRAMES, EventFrame, EventsFrame, Frame, MalformedFrameError

__all__ = ["MAX_MESSAGE_BYTES", "ProtocolError", "encode", "encode_events", "parse"]

MAX_MESSAGE_BYTES = 4096
MAX_NUMBER_DIGITS = len(str(MAX_INTEGER)) + 1
"""A number literal longer than this (sign included) is beyond :data:`MAX_INTEGER` whatever its digits: refused
before Python turns it into an integer (which costs time quadratic in its length)."""

ProtocolError = MalformedFrameError
"""A frame the socket cannot take: the connection is closed (``code`` is the ``reason`` the client is told)."""

_ENCODED: OrderedDict[tuple[int, ...], tuple[tuple[Frame, ...], str]] = OrderedDict()
_ENCODED_SIZE = 1024


def _cached(frames: Sequence[Frame], build: Callable[[], str]) -> str:
    """The text built for exactly these frame objects. The cache holds the objects themselves, so their ids
    cannot be reused by other frames while the entry lives."""
    key = tuple(id(frame) for frame in frames)
    cached = _ENCODED.get(key)
    if cached is not None and all(a is b for a, b in zip(cached[0], frames, strict=True)):
        return cached[1]
    text = build()
    _ENCODED[key] = (tuple(frames), text)
    if len(_ENCODED) > _ENCODED_SIZE:
        _ENCODED.popitem(last=False)
    return text


def dumps(value: object) -> str:
    """Compact JSON text, as ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` writes it, by orjson
    (about ten times faster: every event is encoded once per player, arbiter or host connection)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # what orjson refuses (an integer over 64 bits, say): the standard encoder decides
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode(frame: Frame, *, shared: bool = True) -> str:
    """JSON text of a frame (``FRAMES.encode``). An event frame from the bus is encoded once for every connection;
    one made for a single connection (``shared=False``: its own state) is not kept."""
    if not shared or not isinstance(frame, EventFrame):
        return dumps(FRAMES.encode(frame))
    return _cached((frame,), lambda: dumps(FRAMES.encode(frame)))


def encode_events(frame: EventsFrame) -> str:
    """JSON text of an ``events`` frame, the same as :func:`encode` writes: each event is encoded once for all
    connections (and a spectator's whole frame too), then the texts are joined."""

    def build() -> str:
        inner = ",".join(encode(event) for event in frame.events)
        return f'{{"t":"events","room":{dumps(frame.room)},"events":[{inner}]}}'

    return _cached(frame.events, build)


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e400 reads as infinity, which JSON has no number for
        raise ValueError(f"{text} is too large")
    if abs(value) > MAX_INTEGER:
        raise ProtocolError("bad_number", f"numbers are at most {MAX_INTEGER} in magnitude")
    return value


def _whole(text: str) -> int:
    """A JSON integer literal, at most :data:`MAX_INTEGER` in magnitude: every integer a client sends is bounded
    here, once, whatever field it is in (a press's touch, a hello's version, a pong's id, a command's data)."""
    if len(text) > MAX_NUMBER_DIGITS or abs(value := int(text)) > MAX_INTEGER:
        raise ProtocolError("bad_number", f"numbers are at most {MAX_INTEGER} in magnitude")
    return value


def parse(raw: str) -> dict[str, Any]:
    """The JSON object of a client's text frame, whose ``t`` is a text (what the frame is, is read next:
    :func:`toreshi.live.protocol.read_client_frame`)."""
    if len(raw.encode()) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        # NaN and Infinity are not JSON (Python's reader would take them): refused here, once, for every message.
        message = json.loads(raw, parse_constant=_no_constant, parse_float=_finite, parse_int=_whole)
    except ProtocolError:
        raise
    except ValueError as error:
        if not isinstance(error, json.JSONDecodeError):
            raise ProtocolError("bad_json", f"not JSON: {error}") from None
        raise ProtocolError("bad_json", f"not JSON: {error.msg}") from None
    except RecursionError:  # "[[[[…" within the size limit nests deeper than the decoder recurses
        raise ProtocolError("bad_json", "not JSON: nested too deeply") from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise ProtocolError("bad_message", "a message is a JSON object with a string field 't'")
    return message
