"""docs/protocol.md against the protocol's types (toreshi.live.protocol): the document cannot drift from the code.

Every message the tables list is a frame class of the codec, with the same direction, the same version, the same
fields in the same order (``?`` exactly where the field may be left out) and the same field versions; and every frame
class of the codec is listed. The OpenAPI description of a snapshot names the same fields.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from dataclasses import dataclass
from pathlib import Path

import pytest

from toreshi.live.protocol import FRAMES, PROTOCOL_VERSION, Frame, field_since
from toreshi.web.rooms.api import OPENAPI

DOC = Path(__file__).parents[2] / "docs" / "protocol.md"
FIELD = re.compile(r"`(\w+)(\?)?`(?: \(v(\d+)\))?")


@dataclass(frozen=True)
class Row:
    name: str
    direction: str
    since: int
    fields: tuple[tuple[str, bool, int | None], ...]
    """(name, may be left out, version written after it)"""
    text: str


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def documented(text: str) -> dict[str, Row]:
    """The rows of every table whose header is ``| `t` | Direction | Since | Fields | Meaning |``."""
    rows: dict[str, Row] = {}
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if _cells(line)[:4] != ["`t`", "Direction", "Since", "Fields"]:
            continue
        for row in lines[number + 2 :]:
            if not row.startswith("|"):
                break
            name, direction, since, fields, _meaning = _cells(row)
            found = tuple((f, bool(opt), int(v) if v else None) for f, opt, v in FIELD.findall(fields))
            assert name.strip("`") not in rows, f"{name} is listed twice"
            rows[name.strip("`")] = Row(name.strip("`"), direction, int(since), found, row)
    return rows


def _class(name: str) -> type[Frame]:
    cls = FRAMES.class_of(name)
    assert cls is not None, f"docs/protocol.md lists {name!r}, which is no frame of toreshi.live.protocol.FRAMES"
    return cls


def _fields(cls: type[Frame]) -> list[dataclasses.Field[object]]:
    return list(dataclasses.fields(cls))  # type: ignore[arg-type]


def drift(text: str) -> list[str]:
    """Every difference between the document's message tables and the frame classes of the codec."""
    rows = documented(text)
    problems = [f"{name}: not documented" for name in FRAMES.names if name not in rows]
    problems += [f"{name}: documented, but no frame" for name in rows if FRAMES.class_of(name) is None]
    for name in FRAMES.names:
        row, cls = rows.get(name), FRAMES.class_of(name)
        if row is None or cls is None:
            continue
        if row.direction != cls.direction.value:
            problems.append(f"{name}: direction {row.direction}, not {cls.direction.value}")
        if row.since != cls.since or cls.since > PROTOCOL_VERSION:
            problems.append(f"{name}: since {row.since}, not {cls.since}")
        fields = _fields(cls)
        if [f for f, _optional, _v in row.fields] != [f.name for f in fields]:
            problems.append(f"{name}: fields {[f for f, _o, _v in row.fields]}, not {[f.name for f in fields]}")
            continue
        for (field_name, optional, version), found in zip(row.fields, fields, strict=True):
            has_default = found.default is not dataclasses.MISSING or found.default_factory is not dataclasses.MISSING
            if optional != has_default:
                problems.append(f"{name}.{field_name}: '?' marks exactly a field that may be left out")
            added = field_since(cls, field_name)
            if (version or cls.since) != added or added > PROTOCOL_VERSION:
                problems.append(f"{name}.{field_name}: came in v{added}, documented v{version or cls.since}")
        hints = typing.get_type_hints(cls)
        for found in fields:  # a field of records (presence.people, refused.details): each of theirs is shown
            for inner in typing.get_args(hints[found.name]):
                if dataclasses.is_dataclass(inner) and FRAMES.class_of(getattr(inner, "t", "")) is None:
                    missing = [e.name for e in dataclasses.fields(inner) if f'"{e.name}"' not in row.text]
                    problems += [f"{name}.{found.name}: {entry} is not shown" for entry in missing]
    return problems


TEXT = DOC.read_text(encoding="utf-8")


def test_the_document_names_the_protocol_version() -> None:
    assert TEXT.startswith(f"# WebSocket protocol — version {PROTOCOL_VERSION}\n")


def test_the_message_tables_are_the_protocol_s_frames() -> None:
    assert len(documented(TEXT)) == len(FRAMES.names) > 10
    assert drift(TEXT) == []


@pytest.mark.parametrize(
    ("before", "after", "problem"),
    [
        ("| `ack` | s → c | 1 | `id`, `v` |", "| `ack` | s → c | 1 | `id` |", "ack: fields"),
        ("| `ack` | s → c | 1 | `id`, `v` |", "| `ack` | s → c | 1 | `id`, `v`, `at` |", "ack: fields"),
        ("| `ack` | s → c | 1 | `id`, `v` |", "| `ack` | c → s | 1 | `id`, `v` |", "ack: direction"),
        ("| `ack` | s → c | 1 | `id`, `v` |", "| `ack` | s → c | 2 | `id`, `v` |", "ack: since"),
        ("| `ack` | s → c | 1 | `id`, `v` |", "| `ack` | s → c | 1 | `id`, `v?` |", "ack.v: '?'"),
        ("| `ack` | s → c | 1 | `id`, `v` |", "| `ack2` | s → c | 1 | `id`, `v` |", "ack: not documented"),
        ("`ts`, `more?` (v2) |", "`ts`, `more?` |", "event.more: came in v2"),
        ("| `resync` |", "| `bye` | s → c | 2 | — | gone |\n| `resync` |", "bye: documented"),
        ('"seen_ago_ms": 800, ', "", "presence.people: seen_ago_ms"),
    ],
)
def test_the_check_finds_a_drifted_document(before: str, after: str, problem: str) -> None:
    assert before in TEXT
    assert any(found.startswith(problem) for found in drift(TEXT.replace(before, after))), drift(
        TEXT.replace(before, after)
    )


def test_the_openapi_snapshot_is_the_snapshot_frame() -> None:
    schema = OPENAPI.base_schema["components"]["schemas"]["Snapshot"]
    fields = ["t", *(f.name for f in _fields(_class("snapshot")))]
    assert schema["required"] == fields and list(schema["properties"]) == fields
