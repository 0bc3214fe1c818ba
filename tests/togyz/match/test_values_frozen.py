"""Every command and event of a togyz room is a frozen value with slots: a decided event cannot be changed after the
fold has judged it, and a command cannot be changed between the edge that read it and the core."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from toreshi.kit.codec import Codec
from toreshi.togyz.match.commands import COMMANDS
from toreshi.togyz.match.events import EVENTS

CODECS: dict[str, Codec[Any]] = {"togyz commands": COMMANDS, "togyz events": EVENTS}


@pytest.mark.parametrize("family", sorted(CODECS))
def test_every_command_and_event_is_frozen_with_slots(family: str) -> None:
    codec = CODECS[family]
    for name in codec.names:
        cls = codec.class_of(name)
        assert cls is not None and dataclasses.is_dataclass(cls), name
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen, f"{family}: {cls.__name__} is not frozen"
        assert "__slots__" in vars(cls), f"{family}: {cls.__name__} has no slots"
