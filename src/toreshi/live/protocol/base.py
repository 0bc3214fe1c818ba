"""What every frame of the room protocol has: a direction, the protocol version it appeared in, and its fields'.

Frames are frozen dataclasses named by their ``t`` class attribute (the JSON object's ``t`` field), read and written
by the kit's codec (:data:`toreshi.live.protocol.FRAMES`). docs/protocol.md lists each of them with its direction,
its fields and their versions; ``tests/live/test_protocol_doc.py`` holds the document to these classes.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import Any, ClassVar

PROTOCOL_VERSION = 2
"""Announced in ``welcome.protocol`` and ``snapshot.protocol``; a page that does not know it reloads."""

SINCE = "toreshi.since"
"""Field metadata: the protocol version a field was added in, when later than its frame's."""


class Direction(StrEnum):
    """Who sends a frame (written as in docs/protocol.md)."""

    TO_SERVER = "c → s"
    TO_CLIENT = "s → c"
    BETWEEN_SERVERS = "bus"
    """On a room's channel between the server's own parts and instances; never sent to a client."""


class Frame:
    """Base of every frame class: its name (``t``), its direction and the version it appeared in."""

    t: ClassVar[str]
    direction: ClassVar[Direction]
    since: ClassVar[int] = 1


def since(version: int, **spec: Any) -> dict[str, Any]:
    """Metadata of a field added in protocol ``version`` (beside the codec's ``spec`` of it, if any)."""
    return {**spec, SINCE: version}


def field_since(frame: type[Frame], name: str) -> int:
    """The protocol version field ``name`` of ``frame`` appeared in."""
    for found in dataclasses.fields(frame):  # type: ignore[arg-type]
        if found.name == name:
            return int(found.metadata.get(SINCE, frame.since))
    raise KeyError(name)
