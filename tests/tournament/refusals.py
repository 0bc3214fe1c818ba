"""Asserting a refusal by its code and parameters (never by an English sentence)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from toreshi.kit.refusal import ParamValue, Refusal, RefusalCode, Refused


def assert_refusal(refusal: Refusal, code: RefusalCode, /, **params: ParamValue) -> None:
    """``refusal`` has ``code`` and (at least) ``params``."""
    assert refusal.code is code, str(refusal)
    for key, value in params.items():
        assert refusal.params.get(key) == value, (key, str(refusal))


@contextmanager
def refused(code: RefusalCode, /, **params: ParamValue) -> Iterator[pytest.ExceptionInfo[Refused]]:
    """Expect a :class:`~toreshi.kit.refusal.Refused` with ``code`` and ``params`` inside the block."""
    with pytest.raises(Refused) as caught:
        yield caught
    assert_refusal(caught.value.refusal, code, **params)
