"""Posted forms of the arbiter's pages (tournaments, team events): read once, then texts and whole numbers taken
out by name with the kit's readers, so that every page refuses a bad number the same way, in the page's language."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refused

__all__ = ["MAX_UPLOAD_BYTES", "Form", "optional_int", "read_form", "required_int", "text"]

MAX_UPLOAD_BYTES = 512 * 1024
"""An uploaded file (a CSV or TRF to import) larger than this is read as ``None``: refused, never held whole."""

Form = dict[str, Any]
"""A posted form: texts, and an uploaded file as bytes (``None`` when it was too large)."""


async def read_form(request: Request, max_upload: int = MAX_UPLOAD_BYTES) -> Form:
    """The posted fields; a repeated field keeps its last value, an uploaded file is read up to ``max_upload``."""
    form = await request.form()
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
