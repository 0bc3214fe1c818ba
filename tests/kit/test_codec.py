"""The codec: stored objects round-trip exactly and are read strictly; client commands are read with refusals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.kit.codec import Codec, CodecError, Converter, spec
from toreshi.kit.refusal import Refused
from toreshi.side import BLACK, WHITE, Side


class Mode(StrEnum):
    FAST = "fast"
    SLOW = "slow"


@dataclass(frozen=True)
class Limits:
    base_ms: int
    increment_ms: int = 0


@dataclass(frozen=True)
class Played:
    type: ClassVar[str] = "played"
    at_ms: int
    side: Side
    hole: int = field(metadata=spec(minimum=1, maximum=9))
    note: str | None = None


@dataclass(frozen=True)
class Configured:
    type: ClassVar[str] = "configured"
    at_ms: int
    mode: Mode
    limits: Limits
    names: tuple[str, ...] = field(default=(), metadata=spec(name=True, max_items=4))
    scores: dict[str, int] = field(default_factory=dict)


SIDES = Converter[Side](encode=lambda side: side.name.lower(), decode=lambda raw: Side[str(raw).upper()])
CODEC = Codec[Played | Configured](Played, Configured, converters={Side: SIDES})


def test_encode_writes_the_type_and_every_field() -> None:
    assert CODEC.encode(Played(5, WHITE, 7)) == {"type": "played", "at_ms": 5, "side": "white", "hole": 7, "note": None}
    configured = Configured(1, Mode.SLOW, Limits(60_000, 2_000), ("A", "B"), {"A": 3})
    assert CODEC.encode(configured) == {
        "type": "configured",
        "at_ms": 1,
        "mode": "slow",
        "limits": {"base_ms": 60_000, "increment_ms": 2_000},
        "names": ["A", "B"],
        "scores": {"A": 3},
    }


@given(
    at=st.integers(0, 2**53),
    side=st.sampled_from([WHITE, BLACK]),
    hole=st.integers(1, 9),
    note=st.none() | st.text(max_size=20),
)
def test_round_trip(at: int, side: Side, hole: int, note: str | None) -> None:
    event = Played(at, side, hole, note)
    assert CODEC.decode(CODEC.encode(event)) == event


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"type": "nope"}, "type"),
        ({"type": "played", "at_ms": 1, "side": "white"}, "played"),
        ({"type": "played", "at_ms": 1, "side": "white", "hole": 7, "extra": 1}, "played"),
        ({"type": "played", "at_ms": True, "side": "white", "hole": 7}, "played.at_ms"),
        ({"type": "played", "at_ms": 1, "side": "red", "hole": 7}, "played.side"),
        ({"type": "configured", "at_ms": 1, "mode": "warp", "limits": {"base_ms": 1}}, "configured.mode"),
        ({"type": "configured", "at_ms": 1, "mode": "fast", "limits": {"base": 1}}, "configured.limits"),
    ],
)
def test_decoding_a_stored_object_is_strict(data: dict[str, object], where: str) -> None:
    with pytest.raises(CodecError) as caught:
        CODEC.decode(data)
    assert caught.value.where == where


def test_the_type_may_be_stored_beside_the_object() -> None:
    assert CODEC.decode({"at_ms": 1, "side": "black", "hole": 2}, name="played") == Played(1, BLACK, 2)
    with pytest.raises(CodecError):
        CODEC.decode({"type": "configured", "at_ms": 1, "side": "black", "hole": 2}, name="played")


def test_reading_a_command_refuses_with_the_field() -> None:
    assert CODEC.read("played", {"at_ms": 3, "side": "black", "hole": 9, "unknown": 1}) == Played(3, BLACK, 9)
    cases: dict[str, tuple[dict[str, object], str]] = {
        "hole": ({"at_ms": 3, "side": "black", "hole": 0}, "field_too_small"),
        "side": ({"at_ms": 3, "side": 1, "hole": 1}, "bad_request"),
        "at_ms": ({"side": "white", "hole": 1}, "field_required"),
    }
    for name, (data, code) in cases.items():
        with pytest.raises(Refused) as caught:
            CODEC.read("played", data)
        assert (caught.value.code, caught.value.params.get("field")) == (code, name)
    with pytest.raises(Refused) as caught:
        CODEC.read("teleport", {})
    assert caught.value.code == "unknown_command"


def test_reading_nested_objects_and_lists_names_the_inner_field() -> None:
    good = {"at_ms": 0, "mode": "fast", "limits": {"base_ms": 1}, "names": [" Алма ", "Бота"]}
    assert CODEC.read("configured", good) == Configured(0, Mode.FAST, Limits(1), ("Алма", "Бота"))
    for data, code, where in [
        ({**good, "names": ["A\nB"]}, "field_control_characters", "names[0]"),
        ({**good, "names": ["a"] * 5}, "field_too_long", "names"),
        ({**good, "limits": {"base_ms": "1"}}, "field_not_integer", "limits.base_ms"),
        ({**good, "mode": "warp"}, "field_not_choice", "mode"),
    ]:
        with pytest.raises(Refused) as caught:
            CODEC.read("configured", data)
        assert (caught.value.code, caught.value.params.get("field")) == (code, where)


def test_two_classes_may_not_share_a_name() -> None:
    @dataclass(frozen=True)
    class Twin:
        type: ClassVar[str] = "played"

    with pytest.raises(TypeError):
        Codec(Played, Twin)


@dataclass(frozen=True)
class Tagged:
    type: ClassVar[str] = "tagged"
    name: str
    extras: tuple[str, ...] = field(default=(), metadata=spec(omit_default=True))
    level: int = field(default=80, metadata=spec(omit_default=True))
    kept: int = 0


def test_a_field_omitted_at_its_default_is_left_out_and_read_back() -> None:
    """A field added to stored values later (a board cell's media items) costs nothing where it is unused, and
    values written before it existed encode exactly as they did."""
    codec: Codec[Tagged] = Codec(Tagged)
    plain = Tagged("a")
    assert codec.encode(plain) == {"type": "tagged", "name": "a", "kept": 0}
    assert codec.decode(codec.encode(plain)) == plain
    full = Tagged("b", ("x",), 0, 1)
    assert codec.encode(full) == {"type": "tagged", "name": "b", "extras": ["x"], "level": 0, "kept": 1}
    assert codec.decode(codec.encode(full)) == full


@dataclass(frozen=True)
class Envelope:
    """A frame of a protocol named under ``t``, beside a ``type`` field of its own, carrying JSON it does not read."""

    t: ClassVar[str] = "envelope"
    type: str
    body: Mapping[str, Any]
    raw: Any = None
    token: str | None = field(default=None, metadata=spec(exact=True))


@dataclass(frozen=True)
class Bundle:
    t: ClassVar[str] = "bundle"
    inner: tuple[Envelope, ...]


ENVELOPES = Codec[Any](Envelope, Bundle, tag="t")


def test_a_codec_may_name_its_classes_under_another_tag() -> None:
    envelope = Envelope("move", {"hole": 7})
    assert ENVELOPES.encode(envelope) == {
        "t": "envelope",
        "type": "move",
        "body": {"hole": 7},
        "raw": None,
        "token": None,
    }
    assert ENVELOPES.decode({"t": "envelope", "type": "move", "body": {}}) == Envelope("move", {})
    with pytest.raises(TypeError, match="no 't' name"):
        Codec(Played, tag="t")


def test_json_fields_are_carried_untouched_both_ways() -> None:
    """``Any`` and ``Mapping[str, Any]`` are the JSON of another reader: not walked, not converted, not bounded."""
    body = {"side": WHITE, "deep": [{"n": 2**70}]}  # what the codec would convert or a reader would refuse
    encoded = ENVELOPES.encode(Envelope("x", body, raw=[1, {"a": Mode.FAST}]))
    assert encoded["body"] is body and encoded["raw"] == [1, {"a": Mode.FAST}]
    read = ENVELOPES.read("envelope", {"type": "x", "body": {"n": "anything", "m": [None]}, "raw": 1.5})
    assert read == Envelope("x", {"n": "anything", "m": [None]}, 1.5)
    with pytest.raises(Refused, match=r"bad_request \(field='body'\)"):
        ENVELOPES.read("envelope", {"type": "x", "body": [1]})


def test_a_member_of_the_family_inside_another_is_named_and_read_back() -> None:
    bundle = Bundle((Envelope("a", {}), Envelope("b", {"k": 1})))
    encoded = ENVELOPES.encode(bundle)
    assert [inner["t"] for inner in encoded["inner"]] == ["envelope", "envelope"]
    assert ENVELOPES.decode(encoded) == bundle


def test_an_exact_text_is_taken_as_sent() -> None:
    assert ENVELOPES.read("envelope", {"type": " x ", "body": {}, "token": " s "}) == Envelope("x", {}, None, " s ")


def test_an_exact_text_is_neither_cleaned_nor_refused_for_what_it_holds_only_for_its_length() -> None:
    token = "a\x00\u202eb"  # a NUL and a bidi override: a secret that opens nothing, not a malformed frame
    assert ENVELOPES.read("envelope", {"type": "x", "body": {}, "token": token}).token == token
    assert ENVELOPES.read("envelope", {"type": "x", "body": {}, "token": "t" * 500}).token == "t" * 500
    with pytest.raises(Refused, match="field_too_long"):
        ENVELOPES.read("envelope", {"type": "x", "body": {}, "token": "t" * 501})
    with pytest.raises(Refused, match="field_not_text"):
        ENVELOPES.read("envelope", {"type": "x", "body": {}, "token": 7})
