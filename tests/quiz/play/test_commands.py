"""A quiz room's commands (a host's ruling, a team's press) are read once at the edge: every number within its bounds,
every text within its length, every team name folded — and anything else refused with a code that names the field.

The bounds are written here as numbers on purpose: a test that read them from the commands' own metadata would agree
with any change to it."""

from __future__ import annotations

from typing import Any

import pytest

from toreshi.kit.refusal import Common, Refused
from toreshi.quiz.board import Board
from toreshi.quiz.buzzer import ArbitrationMode, TieRule
from toreshi.quiz.events import GameSetup
from toreshi.quiz.play.commands import COMMANDS, Arbitration, Choose, Correct, CreateGame, Extend, Reverse

Data = dict[str, Any]

# (command, the other fields it needs, the bounded field, its lowest and highest accepted value)
NUMBER_BOUNDS: list[tuple[str, Data, str, int, int]] = [
    ("choose", {"theme": 0}, "value", 1, 5),
    ("choose", {"value": 1}, "theme", 0, 1_000),
    ("strike", {}, "theme", 0, 1_000),
    ("restore_theme", {}, "theme", 0, 1_000),
    ("announce", {}, "theme", 0, 1_000),
    ("reserve", {}, "reserve", 0, 1_000),
    ("extend", {}, "ms", 1, 60_000),
    ("replace", {}, "theme", 0, 1_000),
    ("replace", {}, "reserve", 0, 1_000),
    ("reverse", {"team": "Алтын"}, "question", 1, 1_000),
    ("correct", {"team": "Алтын"}, "delta", -10_000, 10_000),
]

# (command, the other fields it needs, the text field, its longest accepted length)
TEXT_LENGTHS: list[tuple[str, Data, str, int]] = [
    ("correct", {"team": "Алтын", "delta": 10}, "reason", 500),
    ("warn", {}, "person", 100),
    ("warn", {}, "note", 500),
    ("sanction", {}, "person", 100),
    ("key", {}, "key", 20),
    ("announce", {"theme": 0}, "explanation", 1_500),
    ("end_game", {}, "reason", 500),
]

TEAM_FIELDS: list[tuple[str, Data]] = [
    ("draw", {}),
    ("strike", {"theme": 0}),
    ("choose", {"theme": 0, "value": 1}),
    ("right", {}),
    ("wrong", {}),
    ("cancel_press", {}),
    ("request_score", {}),
    ("reverse", {"question": 1}),
    ("correct", {"delta": 10}),
]


def refusal(name: str, data: Data) -> tuple[Common, dict[str, object]]:
    with pytest.raises(Refused) as caught:
        COMMANDS.read(name, data)
    code = caught.value.refusal.code
    assert isinstance(code, Common)
    return code, dict(caught.value.params)


@pytest.mark.parametrize(("name", "base", "key", "lowest", "highest"), NUMBER_BOUNDS)
def test_a_number_is_taken_at_its_bounds_and_refused_beyond_naming_the_field(
    name: str, base: Data, key: str, lowest: int, highest: int
) -> None:
    assert getattr(COMMANDS.read(name, {**base, key: lowest}), key) == lowest
    assert getattr(COMMANDS.read(name, {**base, key: highest}), key) == highest
    assert refusal(name, {**base, key: lowest - 1}) == (Common.FIELD_TOO_SMALL, {"field": key, "minimum": lowest})
    assert refusal(name, {**base, key: highest + 1}) == (Common.FIELD_TOO_LARGE, {"field": key, "maximum": highest})


@pytest.mark.parametrize(("name", "base", "key", "longest"), TEXT_LENGTHS)
def test_a_text_is_taken_up_to_its_length_and_refused_beyond_naming_the_field(
    name: str, base: Data, key: str, longest: int
) -> None:
    assert getattr(COMMANDS.read(name, {**base, key: "ә" * longest}), key) == "ә" * longest
    assert refusal(name, {**base, key: "ә" * (longest + 1)}) == (
        Common.FIELD_TOO_LONG,
        {"field": key, "maximum": longest},
    )


@pytest.mark.parametrize(("name", "base"), TEAM_FIELDS)
def test_a_team_is_a_name_folded_and_never_empty(name: str, base: Data) -> None:
    assert COMMANDS.read(name, {**base, "team": "  Ақ   Жол "}).team == "Ақ Жол"  # type: ignore[union-attr]
    assert refusal(name, {**base, "team": "   "}) == (Common.FIELD_EMPTY, {"field": "team"})
    assert refusal(name, {**base, "team": "Ақ\nЖол"}) == (Common.FIELD_CONTROL_CHARACTERS, {"field": "team"})


def test_only_the_explanation_of_a_theme_may_hold_line_breaks() -> None:
    assert COMMANDS.read("announce", {"theme": 0, "explanation": "бірінші\nекінші"}).explanation == "бірінші\nекінші"  # type: ignore[union-attr]
    assert refusal("warn", {"note": "a\nb"}) == (Common.FIELD_CONTROL_CHARACTERS, {"field": "note"})


def test_optional_fields_keep_their_defaults_when_left_out() -> None:
    assert COMMANDS.read("extend", {}) == Extend(None)
    assert COMMANDS.read("correct", {"team": "A", "delta": -3}) == Correct("A", -3, "")
    assert COMMANDS.read("choose", {"theme": 2, "value": 5}) == Choose(2, 5, None)
    assert COMMANDS.read("reverse", {"question": 3, "team": "B"}) == Reverse(3, "B")


def _created(**arbitration: Any) -> Data:
    data = COMMANDS.encode(CreateGame(GameSetup(("Алтын", "Барыс"), Board.of(*"12345"))))
    data.pop("type")
    data["arbitration"] = {**data["arbitration"], **arbitration}
    return data


def test_the_arbitration_of_a_new_game_is_read_with_its_bounds() -> None:
    default = COMMANDS.read("create", _created())
    assert isinstance(default, CreateGame)
    assert default.arbitration == Arbitration(ArbitrationMode.COMPENSATED, TieRule.EARLIER_ARRIVAL, 300, 10)
    assert default.projector_keys is True
    read = COMMANDS.read("create", _created(random_window_ms=5_000, max_compensation_ms=0))
    assert isinstance(read, CreateGame)
    assert (read.arbitration.random_window_ms, read.arbitration.max_compensation_ms) == (5_000, 0)
    assert COMMANDS.read("create", _created(random_window_ms=1)).arbitration.random_window_ms == 1  # type: ignore[union-attr]
    assert COMMANDS.read("create", _created(max_compensation_ms=1_000)).arbitration.max_compensation_ms == 1_000  # type: ignore[union-attr]
    assert refusal("create", _created(random_window_ms=0))[0] is Common.FIELD_TOO_SMALL
    assert refusal("create", _created(random_window_ms=5_001))[0] is Common.FIELD_TOO_LARGE
    assert refusal("create", _created(max_compensation_ms=-1))[0] is Common.FIELD_TOO_SMALL
    assert refusal("create", _created(max_compensation_ms=1_001))[0] is Common.FIELD_TOO_LARGE
    assert refusal("create", {**_created(), "title": "я" * 101}) == (
        Common.FIELD_TOO_LONG,
        {"field": "title", "maximum": 100},
    )


def test_the_buzzers_of_a_game_are_at_most_64_keys_of_clean_names() -> None:
    keys = {str(n): "Алтын" for n in range(64)}
    assert len(COMMANDS.read("map_keys", {"keys": keys}).keys) == 64  # type: ignore[union-attr]
    assert refusal("map_keys", {"keys": {**keys, "64": "Алтын"}}) == (
        Common.FIELD_TOO_LONG,
        {"field": "keys", "maximum": 64},
    )
    assert refusal("map_keys", {"buttons": {str(n): "Барыс" for n in range(65)}})[0] is Common.FIELD_TOO_LONG
    assert COMMANDS.read("map_keys", {}).projector is None  # type: ignore[union-attr]
    assert COMMANDS.read("map_keys", {"projector": False}).projector is False  # type: ignore[union-attr]
