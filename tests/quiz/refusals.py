"""Asserting a refusal by its code and all of its parameters (never by an English sentence)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from toreshi.kit.refusal import ParamValue, RefusalCode, Refused
from toreshi.quiz.limits import UnsafePackError


@contextmanager
def refused(code: RefusalCode, /, **params: ParamValue) -> Iterator[pytest.ExceptionInfo[Refused]]:
    """Expect the block to raise :class:`~toreshi.kit.refusal.Refused` with exactly ``code`` and ``params``."""
    with pytest.raises(Refused) as caught:
        yield caught
    assert caught.value.refusal.code is code, str(caught.value)
    assert dict(caught.value.refusal.params) == params, str(caught.value)


@contextmanager
def unsafe(code: RefusalCode, /, **params: ParamValue) -> Iterator[pytest.ExceptionInfo[Refused]]:
    """:func:`refused`, by an :class:`~toreshi.quiz.limits.UnsafePackError` (a breached safety limit)."""
    with refused(code, **params) as caught:
        yield caught
    assert isinstance(caught.value, UnsafePackError), type(caught.value)
