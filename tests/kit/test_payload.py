"""The readers of untrusted fields: what they accept, and that every refusal names the field."""

from __future__ import annotations

import math
import unicodedata
from enum import StrEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toreshi.kit.payload import (
    check_text,
    int_from_text,
    read_bool,
    read_choice,
    read_int,
    read_list,
    read_name,
    read_number,
    read_text,
)
from toreshi.kit.refusal import Common, Refused


class Colour(StrEnum):
    WHITE = "white"
    BLACK = "black"


def refusal_of(call: object, *args: object, **kwargs: object) -> tuple[str, dict[str, object]]:
    assert callable(call)
    with pytest.raises(Refused) as caught:
        call(*args, **kwargs)
    return caught.value.code, dict(caught.value.params)


def test_whole_numbers_are_json_integers_within_bounds() -> None:
    assert read_int({"n": 0}, "n", minimum=0) == 0
    assert refusal_of(read_int, {}, "n") == ("field_required", {"field": "n"})
    assert refusal_of(read_int, {"n": None}, "n") == ("field_required", {"field": "n"})
    assert refusal_of(read_int, {"n": True}, "n") == ("field_not_integer", {"field": "n"})
    assert refusal_of(read_int, {"n": 1.0}, "n") == ("field_not_integer", {"field": "n"})
    assert refusal_of(read_int, {"n": "1"}, "n") == ("field_not_integer", {"field": "n"})
    assert refusal_of(read_int, {"n": 10}, "n", maximum=9) == ("field_too_large", {"field": "n", "maximum": 9})
    assert refusal_of(read_int, {"n": -1}, "n", minimum=0) == ("field_too_small", {"field": "n", "minimum": 0})


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, True, "1", None])
def test_numbers_are_finite(bad: object) -> None:
    code, params = refusal_of(read_number, {"x": bad}, "x")
    assert code in ("field_not_number", "field_required") and params["field"] == "x"


def test_a_huge_number_is_refused_by_its_bound() -> None:
    assert refusal_of(read_number, {"x": 1e308}, "x", maximum=1e6)[0] == "field_too_large"


def test_booleans_and_choices() -> None:
    assert read_bool({"b": False}, "b") is False
    assert refusal_of(read_bool, {"b": 0}, "b") == ("field_not_boolean", {"field": "b"})
    assert read_choice({"c": "black"}, "c", Colour) is Colour.BLACK
    assert refusal_of(read_choice, {"c": "red"}, "c", Colour) == ("field_not_choice", {"field": "c", "value": "red"})


@pytest.mark.parametrize(
    "text",
    ["a\x00b", "line\nbreak", "carriage\rreturn", "tab\tbed", "\u2028", "\u202eevil", "\x7f", "\x85", "\ud800"],
)
def test_control_characters_are_refused_in_names(text: str) -> None:
    assert refusal_of(read_name, {"name": text}, "name")[0] == "field_control_characters"


@pytest.mark.parametrize("text", ["Асқар\u00a0Жұмабай", "Ә\u0301", "a\u200db", "soft\u00adhyphen", "a\u3000b"])
def test_no_break_spaces_joiners_and_combining_marks_are_text(text: str) -> None:
    assert check_text(text, "t") == text


def test_multiline_texts_may_hold_line_breaks_but_no_other_control() -> None:
    assert read_text({"t": "a\nb\tc"}, "t", multiline=True) == "a\nb\tc"
    assert refusal_of(read_text, {"t": "a\rb"}, "t", multiline=True)[0] == "field_control_characters"


def test_names_are_folded_and_not_empty() -> None:
    assert read_name({"name": "  Асқар   Жұмабай "}, "name") == "Асқар Жұмабай"
    assert refusal_of(read_name, {"name": "   "}, "name") == ("field_empty", {"field": "name"})
    assert refusal_of(read_name, {"name": "я" * 101}, "name") == ("field_too_long", {"field": "name", "maximum": 100})


@given(st.text(max_size=50) | st.text(alphabet="a \u202e\u200f\u00ad\u200d\n\x00", max_size=8))
def test_an_accepted_text_holds_no_control_or_separator(text: str) -> None:
    bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    bad = [char for char in text if unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp", "Co", "Cn") or char in bidi]
    if bad:
        assert refusal_of(check_text, text, "t") == ("field_control_characters", {"field": "t"})
    else:
        assert check_text(text, "t") == text


def test_lists_name_their_bad_element() -> None:
    def whole(raw: object, where: str) -> int:
        return read_int({where: raw}, where)

    assert read_list({"xs": [1, 2]}, "xs", whole) == (1, 2)
    assert refusal_of(read_list, {"xs": [1, "x"]}, "xs", whole) == ("field_not_integer", {"field": "xs[1]"})
    assert refusal_of(read_list, {"xs": list(range(5))}, "xs", whole, max_items=4)[0] == "field_too_long"


@pytest.mark.parametrize("text", ["٣", "1_000", "", "+", "1.5", "12a", "9" * 19])
def test_typed_whole_numbers_are_ascii_digits(text: str) -> None:
    assert refusal_of(int_from_text, text, "rating")[0] == "field_not_integer"


def test_typed_whole_numbers_with_sign_and_spaces() -> None:
    assert int_from_text(" -12 ", "n") == -12
    assert refusal_of(int_from_text, "3000", "n", maximum=2999)[0] == "field_too_large"
    assert Common.FIELD_NOT_INTEGER.value == "field_not_integer"
