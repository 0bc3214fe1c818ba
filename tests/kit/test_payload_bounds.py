"""No number read from a client is unbounded: whatever bounds a field states, nothing beyond ±2^53−1 is taken,
and a huge integer is refused naming its field instead of overflowing a float (issue 26: a press whose ``tc`` had
3,000 digits raised OverflowError, a traceback in the log)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.kit.payload import MAX_INTEGER, int_from_text, read_int, read_number
from toreshi.kit.refusal import Common, Refused
from toreshi.quiz.play.commands import COMMANDS

HUGE = int("9" * 3_000)


def test_a_press_with_a_3000_digit_touch_is_refused_naming_the_field() -> None:
    with pytest.raises(Refused) as refused:
        COMMANDS.read("press", {"tc": HUGE})
    assert refused.value.refusal.code is Common.FIELD_TOO_LARGE
    assert dict(refused.value.refusal.params)["field"] == "tc"


@pytest.mark.parametrize("value", [HUGE, -HUGE, MAX_INTEGER + 1, -(MAX_INTEGER + 1)])
def test_readers_without_bounds_still_refuse_what_no_client_sends(value: int) -> None:
    for read in (read_int, read_number):
        with pytest.raises(Refused) as refused:
            read({"n": value}, "n")
        code = Common.FIELD_TOO_LARGE if value > 0 else Common.FIELD_TOO_SMALL
        assert (refused.value.refusal.code, dict(refused.value.refusal.params)["field"]) == (code, "n")


def test_a_typed_number_beyond_the_bound_is_refused() -> None:
    with pytest.raises(Refused) as refused:
        int_from_text("100000000000000000", "rating")
    assert refused.value.refusal.code is Common.FIELD_TOO_LARGE


@settings(max_examples=60)
@given(st.integers(-(10**400), 10**400) | st.floats(allow_nan=True, allow_infinity=True) | st.booleans())
def test_a_reader_returns_a_bounded_number_or_refuses(value: object) -> None:
    """Property: read_int and read_number either return a number within ±MAX_INTEGER or refuse with a field code;
    they never raise anything else (no OverflowError, no TypeError)."""
    for read in (read_int, read_number):
        outcome = _outcome(read, value)
        assert outcome == "n" if isinstance(outcome, str) else abs(outcome) <= MAX_INTEGER


def _outcome(read: Callable[..., float], value: object) -> float | str:
    """What ``read`` made of ``value``: the number, or the field its refusal named."""
    try:
        return read({"n": value}, "n")
    except Refused as refused:
        return str(dict(refused.refusal.params).get("field"))
