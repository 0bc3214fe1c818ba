"""Every command and event of the quiz rooms and the quiz tour is a frozen value with slots: a decided event cannot
be changed after the fold has judged it, and a command cannot be changed between the edge that read it and the core."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from toreshi.kit.codec import Codec
from toreshi.quiz import pack
from toreshi.quiz.events import GAME_EVENTS
from toreshi.quiz.play import commands as play_commands
from toreshi.quiz.play import events as play_events
from toreshi.quiz.tour import core as tour

CODECS: dict[str, Codec[Any]] = {
    "quiz commands": play_commands.COMMANDS,
    "quiz events": play_events.EVENTS,
    "quiz game events": GAME_EVENTS,
    "tour commands": tour.COMMANDS,
    "tour events": tour.EVENTS,
}


@pytest.mark.parametrize("family", sorted(CODECS))
def test_every_command_and_event_is_frozen_with_slots(family: str) -> None:
    codec = CODECS[family]
    for name in codec.names:
        cls = codec.class_of(name)
        assert cls is not None and dataclasses.is_dataclass(cls), name
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen, f"{family}: {cls.__name__} is not frozen"
        assert "__slots__" in vars(cls), f"{family}: {cls.__name__} has no slots"


PACK_VALUES = (
    pack.ContentItem,
    pack.NumberSet,
    pack.Parameter,
    pack.Step,
    pack.Info,
    pack.Question,
    pack.Theme,
    pack.Round,
    pack.MediaFile,
    pack.Package,
)


@pytest.mark.parametrize("cls", PACK_VALUES, ids=lambda cls: cls.__name__)
def test_a_read_pack_is_made_of_frozen_values(cls: type) -> None:
    """A pack read once is shared by the games cut from it: none of its parts can be changed under them."""
    assert dataclasses.is_dataclass(cls)
    assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert "__slots__" in vars(cls)
