"""Posted forms, read once (:func:`read_form`), then texts, whole numbers and choices taken out by name with the
kit's readers (:mod:`toreshi.kit.payload`), so that every page refuses a bad field the same way: a refusal naming the
field, worded in the page's language. The flow around them (the form token, the command, the redirect with its
flash) is :mod:`toreshi.web.common.pagekit`."""

from __future__ import annotations

from enum import Enum
from typing import Any, TypeVar

from starlette.requests import Request

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refused

__all__ = [
    "MAX_UPLOAD_BYTES", "Form", "choice", "optional_int", "read_form", "repeated", "required_int", "text", "texts",
]  # fmt: skip

E = TypeVar("E", bound=Enum)

MAX_UPLOAD_BYTES = 512 * 1024
"""An uploaded file (a CSV or TRF to import) larger than this is read as ``None``: refused, never held whole."""

Form = dict[str, Any]
"""A posted form: texts, and an uploaded file as bytes (``None`` when it was too large)."""


MAX_FIELDS = 1000
"""Starlette's own default: a form of more fields is refused (400) before a handler sees it."""


async def read_form(
    request: Request, max_upload: int = MAX_UPLOAD_BYTES, *, max_fields: int = MAX_FIELDS, max_files: int = MAX_FIELDS
) -> Form:
    """The posted fields; a repeated field keeps its last value (all of them: :func:`repeated`), an uploaded file is
    read up to ``max_upload``. Starlette parses a body once: the limits of the first read hold."""
    form = await request.form(max_fields=max_fields, max_files=max_files)
    data: Form = {}
    for key, value in form.multi_items():
        if isinstance(value, str):
            data[key] = value
        else:
            raw = await value.read(max_upload + 1)
            data[key] = raw if len(raw) <= max_upload else None
    return data


def text(form: Form, key: str) -> str:
    """A field's text without surrounding spaces; an absent field or a file reads as ``""``."""
    value = form.get(key, "")
    return value.strip() if isinstance(value, str) else ""


def texts(form: Form) -> dict[str, str]:
    """Every text field without surrounding spaces (uploaded files left out)."""
    return {key: value.strip() for key, value in form.items() if isinstance(value, str)}


async def repeated(request: Request, key: str) -> list[str]:
    """Every value of a field the form repeats (checkboxes of one name), from the body already read once."""
    form = await request.form()
    return [value for value in form.getlist(key) if isinstance(value, str)]


def choice(form: Form, key: str, choices: type[E], default: E) -> E:
    """One of an enumeration's values, ``default`` when the field is empty (refused, naming it, if not a value)."""
    typed = text(form, key)
    return payload.read_choice({key: typed}, key, choices) if typed else default


def optional_int(form: Form, key: str) -> int | None:
    """A whole number typed into a field, or ``None`` when it is empty (refused, naming the field, if not a number)."""
    typed = text(form, key)
    return payload.int_from_text(typed, key) if typed else None


def required_int(form: Form, key: str) -> int:
    """A whole number the form must have."""
    value = optional_int(form, key)
    if value is None:
        raise Refused(Common.FIELD_REQUIRED, field=key)
    return value
