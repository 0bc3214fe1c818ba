"""The one set of readers for untrusted input: JSON objects from clients, form fields, CSV cells.

Each reader takes the whole mapping and a key, checks one field and returns it typed, or raises
:class:`~toreshi.kit.refusal.Refused` with a :class:`~toreshi.kit.refusal.Common` code that names the field — so that
a page can say *which* field is wrong, in its own language. Rules that hold everywhere:

- a whole number is a JSON integer, never ``true``/``false`` and never ``1.0``; from a form or a CSV cell, ASCII
  digits with an optional sign (``int_from_text``);
- a number is finite (``NaN`` and ``Infinity`` are refused, and so is anything beyond the stated bounds); whatever
  the bounds a reader states, no number beyond ±:data:`MAX_INTEGER` is taken (``field_too_large`` /
  ``field_too_small``): a 3,000-digit integer is refused, never converted, stored or added to anything;
- a text holds no control characters, no lone surrogates, no line or paragraph separators and no bidirectional
  overrides (a name can neither forge a line of a TRF export nor hide what it says); only a ``multiline`` text
  may hold ``\\n`` and ``\\t``.

>>> read_int({"hole": 7}, "hole", minimum=1, maximum=9)
7
>>> read_int({"hole": True}, "hole")
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_not_integer (field='hole')
>>> read_name({"name": "  Асқар  "}, "name")
'Асқар'
>>> read_name({"name": "A\\r\\n001 forged"}, "name")
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_control_characters (field='name')
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, TypeVar

from toreshi.kit.refusal import Common, Refused

E = TypeVar("E", bound=Enum)
T = TypeVar("T")


MAX_TEXT = 500
"""Texts from clients are at most this long unless a reader says otherwise."""
MAX_NAME = 100
"""A person's, a team's or an event's name."""
MAX_INTEGER = 2**53 - 1
"""The largest magnitude of any number read from a client (JavaScript's ``Number.MAX_SAFE_INTEGER``: a page cannot
send a larger whole number exactly, and no field of any room needs one). A field with bounds of its own is
narrower still."""

_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_MULTILINE_ALLOWED = frozenset("\n\t")


def _get(data: Mapping[str, Any], key: str) -> Any:
    """The field's value; absent or ``null`` is ``field_required`` (a field with a default is never read: the
    codec keeps the default of a field the client left out)."""
    value = data.get(key)
    if value is None:
        raise Refused(Common.FIELD_REQUIRED, field=key)
    return value


def _bounded(value: int | float, key: str, minimum: int | float | None, maximum: int | float | None) -> None:
    if value < -MAX_INTEGER:
        raise Refused(Common.FIELD_TOO_SMALL, field=key, minimum=_shown(-MAX_INTEGER if minimum is None else minimum))
    if value > MAX_INTEGER:
        raise Refused(Common.FIELD_TOO_LARGE, field=key, maximum=_shown(MAX_INTEGER if maximum is None else maximum))
    if minimum is not None and value < minimum:
        raise Refused(Common.FIELD_TOO_SMALL, field=key, minimum=_shown(minimum))
    if maximum is not None and value > maximum:
        raise Refused(Common.FIELD_TOO_LARGE, field=key, maximum=_shown(maximum))


def _shown(bound: int | float) -> int | str:
    return bound if isinstance(bound, int) else repr(bound)


def read_int(data: Mapping[str, Any], key: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """A JSON whole number within ``[minimum, maximum]``."""
    value = _get(data, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(Common.FIELD_NOT_INTEGER, field=key)
    _bounded(value, key, minimum, maximum)
    return value


def read_number(
    data: Mapping[str, Any], key: str, *, minimum: float | None = None, maximum: float | None = None
) -> float:
    """A finite JSON number (integer or not) within ``[minimum, maximum]``."""
    value = _get(data, key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(Common.FIELD_NOT_NUMBER, field=key)
    if isinstance(value, int):
        _bounded(value, key, minimum, maximum)  # before float(): a 3,000-digit integer overflows it
    number = float(value)
    if not math.isfinite(number):
        raise Refused(Common.FIELD_NOT_NUMBER, field=key)
    _bounded(number, key, minimum, maximum)
    return number


def read_bool(data: Mapping[str, Any], key: str) -> bool:
    value = _get(data, key)
    if not isinstance(value, bool):
        raise Refused(Common.FIELD_NOT_BOOLEAN, field=key)
    return value


def check_text(value: str, key: str, *, max_length: int = MAX_TEXT, multiline: bool = False) -> str:
    """``value`` if it is a clean text of at most ``max_length`` characters (see the module's rules)."""
    if len(value) > max_length:
        raise Refused(Common.FIELD_TOO_LONG, field=key, maximum=max_length)
    for char in value:
        if char.isprintable():  # letters, marks, symbols and the space; never a bidi control (those are Cf)
            continue
        if multiline and char in _MULTILINE_ALLOWED:
            continue
        if unicodedata.category(char) in ("Zs", "Cf") and char not in _BIDI_CONTROLS:
            continue  # no-break and other spaces, joiners: printable in context
        raise Refused(Common.FIELD_CONTROL_CHARACTERS, field=key)
    return value


def read_text(data: Mapping[str, Any], key: str, *, max_length: int = MAX_TEXT, multiline: bool = False) -> str:
    """A text, stripped of surrounding white space; may be empty."""
    value = _get(data, key)
    if not isinstance(value, str):
        raise Refused(Common.FIELD_NOT_TEXT, field=key)
    check_text(value, key, max_length=max_length, multiline=multiline)
    return value.strip()


def read_name(data: Mapping[str, Any], key: str, *, max_length: int = MAX_NAME) -> str:
    """A one-line name, stripped, not empty, inner runs of white space folded to one space."""
    value = read_text(data, key, max_length=max_length)
    return check_name(value, key, max_length=max_length)


def check_name(value: str, key: str, *, max_length: int = MAX_NAME) -> str:
    """The name check of :func:`read_name` for a value already read (a form field, a CSV cell)."""
    check_text(value, key, max_length=max_length)
    folded = " ".join(value.split())
    if not folded:
        raise Refused(Common.FIELD_EMPTY, field=key)
    return folded


def read_choice(data: Mapping[str, Any], key: str, choices: type[E]) -> E:
    """A member of the enumeration ``choices``, given by its value (``"1"`` is not the value ``1``)."""
    value = _get(data, key)
    for member in choices:
        if member.value == value and type(member.value) is type(value):
            return member
    raise Refused(Common.FIELD_NOT_CHOICE, field=key, value=str(value)[:40])


def read_list(
    data: Mapping[str, Any],
    key: str,
    item: Callable[[Any, str], T],
    *,
    max_items: int = 100,
) -> tuple[T, ...]:
    """A JSON list, each element read by ``item(element, field)`` where ``field`` is ``key[index]``."""
    value = _get(data, key)
    if not isinstance(value, list):
        raise Refused(Common.FIELD_NOT_LIST, field=key)
    if len(value) > max_items:
        raise Refused(Common.FIELD_TOO_LONG, field=key, maximum=max_items)
    return tuple(item(element, f"{key}[{index}]") for index, element in enumerate(value))


def read_object(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """A nested JSON object (its fields are read with these readers in turn)."""
    value = _get(data, key)
    if not isinstance(value, Mapping) or not all(isinstance(name, str) for name in value):
        raise Refused(Common.BAD_REQUEST, field=key)
    return value


def int_from_text(text: str, key: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """A whole number typed into a form or a CSV cell: ASCII digits with an optional sign, surrounding spaces
    allowed (``"٣"`` and ``"1_000"``, which ``int()`` would take, are refused).

    >>> int_from_text(" 1650 ", "rating", minimum=0)
    1650
    """
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] in ("+", "-") else stripped
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 18:
        raise Refused(Common.FIELD_NOT_INTEGER, field=key)
    value = int(stripped)
    _bounded(value, key, minimum, maximum)
    return value
