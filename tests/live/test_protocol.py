"""The room protocol's frames: what a client sends is read once into a typed frame (or refused the protocol's way),
every frame goes through the one codec and back, and the text on the wire is what the pages have always read."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toreshi.kit.codec import CodecError
from toreshi.live.cluster.redis_bus import read_bus_message
from toreshi.live.protocol import (
    FRAMES,
    AccessNotice,
    AckFrame,
    AnnounceNotice,
    CommandFrame,
    ErrorFrame,
    EventFrame,
    EventsFrame,
    FailedFrame,
    Frame,
    HelloFrame,
    MalformedFrameError,
    OffsetFrame,
    PersonShown,
    PingFrame,
    PongFrame,
    PresenceFrame,
    RefusalShown,
    RefusedFrame,
    ResyncFrame,
    SnapshotFrame,
    UnknownFrame,
    UnreadableCommand,
    WelcomeFrame,
    read_client_frame,
)
from toreshi.web.rooms.wire import encode, encode_events

EVENT = EventFrame("g-7", 13, "move_played", {"event": {"hole": 7}, "state": {"turn": "black"}}, ts=61_250)
EXAMPLES: list[Frame] = [
    HelloFrame(12, "s3cr3t"),
    WelcomeFrame(2, "g-7", "togyz", "white", "Абай"),
    WelcomeFrame(2, "g-7", "togyz", "spectator", "", link="refused"),
    SnapshotFrame("g-7", "togyz", 13, 61_250, {"kind": "togyz"}, 2),
    EVENT,
    EventsFrame("g-7", (EventFrame("g-7", 12, "move_played", {"event": {}}, 61_000, more=True), EVENT)),
    CommandFrame("c-1", "move", {"hole": 7}),
    AckFrame("c-1", 13),
    RefusedFrame("c-1", "not_your_turn", {"player": "Абай"}, "Сейчас ходит Болат."),
    RefusedFrame("c-2", "bad_lines", {}, "…", (RefusalShown("field_empty", {"field": "name", "line": 3}, "…"),)),
    FailedFrame("c-3", "server_error", "…"),
    PingFrame(1, 5_000),
    PongFrame(1, 1.7e12),
    OffsetFrame(offset=-12, rtt=6, room_delta=-400),
    ResyncFrame(),
    PresenceFrame(
        (PersonShown("team:1", "Алтын", "live", 800, 6), PersonShown("team:2", "Бүркіт", "lost", 9000, None))
    ),
    ErrorFrame("closing", "…", reason="flood"),
    ErrorFrame("link_revoked", "…"),
    AccessNotice("g-7", "white"),
    AnnounceNotice(40),
]


def test_every_frame_class_has_an_example() -> None:
    assert {type(frame).t for frame in EXAMPLES} == set(FRAMES.names)


@pytest.mark.parametrize("frame", EXAMPLES, ids=lambda frame: type(frame).__name__)
def test_every_frame_goes_through_the_codec_and_back(frame: Frame) -> None:
    encoded = json.loads(json.dumps(FRAMES.encode(frame)))
    assert encoded["t"] == type(frame).t
    assert FRAMES.decode(encoded) == frame


def test_the_text_on_the_wire_is_the_protocol_s_as_the_pages_read_it() -> None:
    """What the socket wrote before the frames were typed: compact JSON, the same keys in the same order for the
    frames every page reads (events, acks, welcomes), a field at its default left out (``more``, ``link``, ``reason``).
    Only an error's ``reason`` and an offset's fields changed places, which no JSON reader sees."""
    assert encode(EVENT) == (
        '{"t":"event","room":"g-7","v":13,"type":"move_played",'
        '"data":{"event":{"hole":7},"state":{"turn":"black"}},"ts":61250}'
    )
    assert encode(AckFrame("c-1", 13)) == '{"t":"ack","id":"c-1","v":13}'
    assert encode(WelcomeFrame(2, "g", "quiz", "host", "Ведущий")) == (
        '{"t":"welcome","protocol":2,"room":"g","kind":"quiz","role":"host","name":"Ведущий"}'
    )
    assert (
        encode(ErrorFrame("closing", "x", reason="flood"))
        == '{"t":"error","code":"closing","message":"x","reason":"flood"}'
    )
    assert encode(ResyncFrame()) == '{"t":"resync"}'


def test_an_events_frame_encoded_from_its_cached_parts_is_the_codec_s() -> None:
    events = EXAMPLES[5]
    assert isinstance(events, EventsFrame)
    assert json.loads(encode_events(events)) == FRAMES.encode(events)
    assert encode_events(events) is encode_events(events)  # the same frame objects: the text is built once


@pytest.mark.parametrize(
    ("message", "frame"),
    [
        ({"t": "hello"}, HelloFrame(0, None)),
        ({"t": "hello", "v": 12, "token": ""}, HelloFrame(12, None)),  # an empty token is no token
        ({"t": "hello", "v": 3, "token": " a "}, HelloFrame(3, " a ")),  # a secret is taken as sent
        ({"t": "pong", "id": 4, "tc": 1700000000123}, PongFrame(4, 1700000000123.0)),
        ({"t": "cmd", "id": "c 1", "type": "move", "data": {"hole": 7}}, CommandFrame("c 1", "move", {"hole": 7})),
        ({"t": "cmd", "id": "c1", "type": "resign"}, CommandFrame("c1", "resign", {})),
        (
            {"t": "cmd", "id": "c\x00", "type": "m\u202e"},
            CommandFrame("c\x00", "m\u202e", {}),
        ),  # as sent: the room judges
        ({"t": "cmd", "type": "move"}, UnreadableCommand(None)),
        ({"t": "cmd", "id": "", "type": "move"}, UnreadableCommand(None)),
        ({"t": "cmd", "id": 7, "type": "move"}, UnreadableCommand(None)),
        ({"t": "cmd", "id": "x" * 65, "type": "move"}, UnreadableCommand(None)),
        ({"t": "cmd", "id": "c1", "type": 3}, UnreadableCommand("c1")),
        ({"t": "cmd", "id": "c1", "type": "move", "data": [7]}, UnreadableCommand("c1")),
        ({"t": "ack", "id": "c1", "v": 3}, UnknownFrame("ack")),  # a server's frame is no client's
        ({"t": "subscribe"}, UnknownFrame("subscribe")),
    ],
)
def test_a_client_frame_is_read_once_into_its_type(message: dict[str, Any], frame: object) -> None:
    assert read_client_frame(message) == frame


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ({"t": "hello", "v": -1}, "bad_hello"),
        ({"t": "hello", "v": 1.5}, "bad_hello"),
        ({"t": "hello", "token": ["a"]}, "bad_hello"),
        ({"t": "pong", "id": 1}, "bad_pong"),
        ({"t": "pong", "id": "1", "tc": 5}, "bad_pong"),
        ({"t": "pong", "id": 1, "tc": -1e15}, "bad_pong"),
    ],
)
def test_a_malformed_hello_or_pong_is_the_protocol_s_error(message: dict[str, Any], reason: str) -> None:
    with pytest.raises(MalformedFrameError) as error:
        read_client_frame(message)
    assert error.value.code == reason


def test_what_the_redis_bus_cannot_read_is_dropped_not_delivered() -> None:
    assert read_bus_message({"t": "announce", "v": 3}) == AnnounceNotice(3)
    assert read_bus_message(FRAMES.encode(EVENT)) == EVENT
    assert read_bus_message({"t": "ack", "id": "c", "v": 1}) is None  # a frame, but not one for a room's channel
    assert read_bus_message({"t": "announce", "v": "3"}) is None
    assert read_bus_message({"v": 3}) is None
    assert read_bus_message([1]) is None
    with pytest.raises(CodecError):
        FRAMES.decode({"t": "announce"})
