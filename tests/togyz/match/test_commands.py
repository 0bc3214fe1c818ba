"""A client's command is read once, at the edge, into a typed command: every field checked and bounded, and a bad
one refused with a code that names it (never an exception of another kind)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.clock import BLITZ, CLASSICAL_40_2H_1H, ClockCode
from toreshi.clock.flag import FlagMode
from toreshi.kit.refusal import Common, ParamValue, Refusal, RefusalCode, Refused
from toreshi.togyz import BLACK
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.commands import COMMANDS, AddTime, Create, Move, PressClock, Start, TogyzCommand
from toreshi.togyz.match.settings import GameSettings


def refused(name: str, data: dict[str, Any]) -> tuple[RefusalCode, dict[str, ParamValue]]:
    with pytest.raises(Refused) as caught:
        COMMANDS.read(name, data)
    return caught.value.refusal.code, dict(caught.value.params)


def test_every_socket_command_has_its_class() -> None:
    assert set(COMMANDS.names) == {
        "create", "postpone", "start", "arrive", "declare_default", "move", "press", "offer_draw", "accept_draw",
        "decline_draw", "resign", "sign", "file_protest", "adjourn", "claim_flag", "pause", "resume", "add_time",
        "set_clocks", "extend_both_flags", "request_adjournment", "cancel_adjournment", "open_envelope", "decide",
        "confirm_setup", "complain_setup", "take_back", "call_arbiter", "acknowledge_call",
    }  # fmt: skip


def test_the_clock_press_keeps_its_wire_name_press_whatever_the_class_is_called() -> None:
    """The class was renamed ``PressClock`` (three other ``Press`` classes clashed); pages and logs still say
    ``press``, both ways."""
    assert COMMANDS.read("press", {"lag_ms": 40}) == PressClock(lag_ms=40)
    assert COMMANDS.decode({"type": "press", "lag_ms": 40}) == PressClock(lag_ms=40)
    assert COMMANDS.encode(PressClock(lag_ms=40)) == {"type": "press", "lag_ms": 40}


def test_commands_are_read_typed_with_their_defaults() -> None:
    assert COMMANDS.read("move", {"hole": 3}) == Move(3, press=True, offer_draw=False, lag_ms=0)
    assert COMMANDS.read("start", {"absent": ["black"]}) == Start((BLACK,))
    assert COMMANDS.read("add_time", {"side": "black", "ms": -60_000, "reason": "TK-C15"}) == AddTime(
        BLACK, -60_000, "TK-C15"
    )
    # A player's side is never taken from the data: a ``side`` in a move is not a field of it.
    assert COMMANDS.read("move", {"hole": 3, "side": "black"}) == Move(3)


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("move", {}, (Common.FIELD_REQUIRED, {"field": "hole"})),
        ("move", {"hole": 0}, (Common.FIELD_TOO_SMALL, {"field": "hole", "minimum": 1})),
        ("move", {"hole": True}, (Common.FIELD_NOT_INTEGER, {"field": "hole"})),
        ("move", {"hole": 1, "press": "yes"}, (Common.FIELD_NOT_BOOLEAN, {"field": "press"})),
        ("move", {"hole": 1, "lag_ms": -1}, (Common.FIELD_TOO_SMALL, {"field": "lag_ms", "minimum": 0})),
        ("start", {"absent": ["nobody"]}, (Common.BAD_REQUEST, {"field": "absent[0]"})),
        ("start", {"absent": "white"}, (Common.FIELD_NOT_LIST, {"field": "absent"})),
        ("adjourn", {"hole": 1, "salt": "x" * 201}, (Common.FIELD_TOO_LONG, {"field": "salt", "maximum": 200})),
        ("decide", {"result": "1-0", "reason": "a\nb"}, (Common.FIELD_CONTROL_CHARACTERS, {"field": "reason"})),
        ("claim_flag", {"side": 0}, (Common.BAD_REQUEST, {"field": "side"})),
        ("fly", {}, (Common.UNKNOWN_COMMAND, {"command": "fly"})),
    ],
)
def test_bad_fields_are_refused_with_the_field_named(
    name: str, data: dict[str, Any], expected: tuple[RefusalCode, dict[str, ParamValue]]
) -> None:
    assert refused(name, data) == expected


def _create(**fields: Any) -> dict[str, Any]:
    return {"white": "Асқар", "black": "Бекзат", "control": BLITZ.to_dict(), **fields}


def test_a_new_game_reads_its_names_time_control_and_settings() -> None:
    created = COMMANDS.read("create", _create(white="  Асқар   Оспанов ", settings={"flag_mode": "claim"}))
    assert created == Create("Асқар Оспанов", "Бекзат", BLITZ, GameSettings(flag_mode=FlagMode.CLAIM))
    long = COMMANDS.read("create", _create(control=CLASSICAL_40_2H_1H.to_dict()))
    assert isinstance(long, Create) and long.control == CLASSICAL_40_2H_1H
    assert COMMANDS.read("create", _create()) == Create("Асқар", "Бекзат", BLITZ, GameSettings())


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"white": " "}, (Common.FIELD_EMPTY, {"field": "white"})),
        ({"black": "A\r\n001 forged"}, (Common.FIELD_CONTROL_CHARACTERS, {"field": "black"})),
        ({"control": {}}, (Common.FIELD_REQUIRED, {"field": "control.periods"})),
        ({"control": {"periods": []}}, (ClockCode.NO_PERIOD, {})),
        ({"control": {"periods": [{"moves": 40, "time_ms": 1}]}}, (ClockCode.FINAL_PERIOD_HAS_MOVES, {})),
        (
            {"control": {"periods": [{"time_ms": 0}]}},
            (Common.FIELD_TOO_SMALL, {"field": "control.periods[0].time_ms", "minimum": 1}),
        ),
        (
            {"control": {"periods": [{"time_ms": 10**30}]}},
            (Common.FIELD_TOO_LARGE, {"field": "control.periods[0].time_ms", "maximum": 86_400_000}),
        ),
        (
            {"control": {"periods": [{"time_ms": 1000}], "increment_ms": 1, "delay_ms": 1}},
            (ClockCode.INCREMENT_AND_DELAY, {"clause": "TK-C4"}),
        ),
        ({"control": "blitz"}, (Common.BAD_REQUEST, {"field": "control"})),
        ({"settings": {"colour": "red"}}, (TogyzCode.UNKNOWN_SETTING, {"field": "colour"})),
        (
            {"settings": {"flag_mode": "sometimes"}},
            (Common.FIELD_NOT_CHOICE, {"field": "settings.flag_mode", "value": "sometimes"}),
        ),
        ({"settings": {"lag_compensation": 1}}, (Common.FIELD_NOT_BOOLEAN, {"field": "settings.lag_compensation"})),
        ({"settings": {"late_limit_ms": True}}, (Common.FIELD_NOT_INTEGER, {"field": "settings.late_limit_ms"})),
        (
            {"settings": {"late_limit_ms": -1}},
            (Common.FIELD_TOO_SMALL, {"field": "settings.late_limit_ms", "minimum": 0}),
        ),
        ({"settings": []}, (Common.BAD_REQUEST, {"field": "settings"})),
    ],
)  # fmt: skip
def test_a_bad_new_game_is_refused_naming_what_is_wrong(
    fields: dict[str, Any], expected: tuple[RefusalCode, dict[str, ParamValue]]
) -> None:
    assert refused("create", _create(**fields)) == expected


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(COMMANDS.names), data=st.dictionaries(st.sampled_from(
    ["hole", "salt", "side", "ms", "white_ms", "black_ms", "reason", "result", "absent", "lag_ms", "press",
     "offer_draw", "white", "black", "control", "settings"]), json_values, max_size=6))  # fmt: skip
def test_any_json_is_a_command_or_a_refusal(name: str, data: dict[str, Any]) -> None:
    outcome: TogyzCommand | Refusal
    try:
        outcome = COMMANDS.read(name, data)
    except Refused as refused:
        outcome = refused.refusal
    assert outcome.code.value if isinstance(outcome, Refusal) else outcome.type == name
