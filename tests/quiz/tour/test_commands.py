"""A quiz tour's commands are read once at the edge: numbers within their bounds, texts within their lengths, team
names folded, lists within their sizes — anything else refused with a code that names the field.

The bounds are written here as numbers (a test reading them from the commands' metadata would agree with any change
to it)."""

from __future__ import annotations

from typing import Any, TypeVar

import pytest

from toreshi.kit.refusal import Common, Refused
from toreshi.quiz.tour.core import (
    COMMANDS,
    ChangeFormula,
    ChangeTeams,
    CreateTour,
    FileProtest,
    Formula,
    LinkGame,
    PackInfo,
    RecordResult,
    RuleProtest,
    StageRule,
)

Data = dict[str, Any]
C = TypeVar("C")

LINK: Data = {"room_id": "r1", "stage": 0, "game": 0, "theme_start": 0}
CREATE: Data = {"name": "Кубок", "date": "2026-05-01", "teams": ["Алтын", "Барыс"], "packs": []}

# (command, the other fields it needs, the bounded field, its lowest and highest accepted value)
NUMBER_BOUNDS: list[tuple[str, Data, str, int, int]] = [
    ("link_game", LINK, "stage", 0, 10),
    ("link_game", LINK, "game", -1, 64),
    ("link_game", LINK, "theme_start", 0, 100_000),
    ("rule_protest", {"ruling": "отклонён"}, "number", 1, 10_000),
]

# (command, the other fields it needs, the text field, its longest accepted length)
TEXT_LENGTHS: list[tuple[str, Data, str, int]] = [
    ("create", CREATE, "name", 80),
    ("create", CREATE, "date", 10),
    ("link_game", LINK, "room_id", 64),
    ("link_game", LINK, "assistant_team", 80),
    ("record_result", {"scores": {}}, "room_id", 64),
    ("file_protest", {"team": "A", "text": "x"}, "room_id", 64),
    ("file_protest", {"room_id": "r1", "team": "A"}, "text", 2_000),
    ("file_protest", {"room_id": "r1", "text": "x"}, "team", 80),
    ("rule_protest", {"number": 1}, "ruling", 2_000),
    ("rule_protest", {"number": 1, "ruling": "x"}, "note", 2_000),
    ("seed", {}, "method", 10),
]


def read(cls: type[C], name: str, data: Data) -> C:
    command = COMMANDS.read(name, data)
    assert isinstance(command, cls)
    return command


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


def test_a_tours_name_and_its_teams_are_folded_names() -> None:
    created = read(CreateTour, "create", {**CREATE, "name": "  Кубок   Алматы ", "teams": [" Ақ  Жол ", "Барыс"]})
    assert (created.name, created.teams) == ("Кубок Алматы", ("Ақ Жол", "Барыс"))
    assert refusal("create", {**CREATE, "name": "  "}) == (Common.FIELD_EMPTY, {"field": "name"})
    assert refusal("create", {**CREATE, "teams": ["Алтын", " "]}) == (Common.FIELD_EMPTY, {"field": "teams[1]"})
    assert refusal("file_protest", {"room_id": "r", "team": " ", "text": "x"}) == (
        Common.FIELD_EMPTY,
        {"field": "team"},
    )
    assert refusal("change_teams", {"teams": ["Ақ\nЖол"]}) == (
        Common.FIELD_CONTROL_CHARACTERS,
        {"field": "teams[0]"},
    )


def test_a_tour_has_at_most_64_teams_and_20_packs() -> None:
    teams = [f"T{n}" for n in range(64)]
    assert len(read(ChangeTeams, "change_teams", {"teams": teams}).teams) == 64
    assert refusal("change_teams", {"teams": [*teams, "T64"]}) == (
        Common.FIELD_TOO_LONG,
        {"field": "teams", "maximum": 64},
    )
    packs = [{"name": f"P{n}", "themes": 10} for n in range(20)]
    assert len(read(CreateTour, "create", {**CREATE, "packs": packs}).packs) == 20
    assert refusal("create", {**CREATE, "packs": [*packs, packs[0]]}) == (
        Common.FIELD_TOO_LONG,
        {"field": "packs", "maximum": 20},
    )


def test_a_pack_counts_0_to_10000_themes_under_a_name_of_200() -> None:
    packs = [{"name": "я" * 200, "themes": 10_000}, {"name": "", "themes": 0}]
    assert read(CreateTour, "create", {**CREATE, "packs": packs}).packs == (
        PackInfo("я" * 200, 10_000),
        PackInfo("", 0),
    )
    assert refusal("create", {**CREATE, "packs": [{"name": "p", "themes": 10_001}]})[0] is Common.FIELD_TOO_LARGE
    assert refusal("create", {**CREATE, "packs": [{"name": "p", "themes": -1}]})[0] is Common.FIELD_TOO_SMALL
    assert refusal("create", {**CREATE, "packs": [{"name": "я" * 201, "themes": 1}]})[0] is Common.FIELD_TOO_LONG


def test_the_formula_is_read_with_its_bounds_and_defaults() -> None:
    assert read(CreateTour, "create", CREATE).formula == Formula((StageRule(2, 0),), final=True, game_size=4)
    formula = {"stages": [{"advance_per_game": 0, "advance_best_others": 64}] * 4, "game_size": 2, "final": False}
    changed = read(ChangeFormula, "change_formula", {"formula": formula})
    assert changed.formula == Formula((StageRule(0, 64),) * 4, final=False, game_size=2)
    highest = read(ChangeFormula, "change_formula", {"formula": {"stages": [{"advance_per_game": 3}], "game_size": 4}})
    assert highest.formula.stages == (StageRule(3, 0),)
    bad: Data
    for bad in (
        {"stages": [{"advance_per_game": 4}]},
        {"stages": [{"advance_per_game": -1}]},
        {"stages": [{"advance_best_others": 65}]},
        {"stages": [{"advance_best_others": -1}]},
        {"stages": [{}] * 5},
        {"game_size": 1},
        {"game_size": 5},
    ):
        assert refusal("change_formula", {"formula": bad})[0] in (
            Common.FIELD_TOO_SMALL,
            Common.FIELD_TOO_LARGE,
            Common.FIELD_TOO_LONG,
        ), bad


def test_a_game_links_at_most_four_teams_and_is_not_a_shootout_unless_said() -> None:
    assert COMMANDS.read("link_game", {**LINK, "teams": ["A", "B", "C", "D"]}) == LinkGame(
        "r1", 0, 0, 0, "", False, ("A", "B", "C", "D")
    )
    assert refusal("link_game", {**LINK, "teams": ["A", "B", "C", "D", "E"]}) == (
        Common.FIELD_TOO_LONG,
        {"field": "teams", "maximum": 4},
    )


def test_scores_of_a_room_are_at_most_four_teams_within_100000_points() -> None:
    scores = {"A": -100_000, "B": 100_000, "C": 0, "D": 5}
    assert dict(read(RecordResult, "record_result", {"room_id": "r", "scores": scores}).scores) == scores
    assert refusal("record_result", {"room_id": "r", "scores": {**scores, "E": 1}})[0] is Common.FIELD_TOO_LONG
    assert refusal("record_result", {"room_id": "r", "scores": {"A": -100_001}}) == (
        Common.FIELD_TOO_SMALL,
        {"field": "scores.A", "minimum": -100_000},
    )
    assert refusal("record_result", {"room_id": "r", "scores": {"A": 100_001}}) == (
        Common.FIELD_TOO_LARGE,
        {"field": "scores.A", "maximum": 100_000},
    )


def test_a_protests_text_may_hold_line_breaks() -> None:
    protest = read(FileProtest, "file_protest", {"room_id": "r", "team": "A", "text": "бірінші\nекінші"})
    assert protest.text == "бірінші\nекінші"
    ruled = read(RuleProtest, "rule_protest", {"number": 1, "ruling": "a\nb", "note": "c\nd"})
    assert (ruled.ruling, ruled.note) == ("a\nb", "c\nd")
    assert refusal("link_game", {**LINK, "room_id": "a\nb"})[0] is Common.FIELD_CONTROL_CHARACTERS
