"""Reading a time the arbiter types on the console (static/js/format.js, run under Node.js): impossible times
such as 999:99 are refused, and a change of a dial is shown exactly as typed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toreshi.togyz.match.commands import MAX_CLOCK_MS

from .helpers import run_node

MINUTES = (0, 1, 5, 59, 60, 90, 999, 1439, 1440, 1441, 100000)
SECONDS = range(100)
HOURS = ((0, 0, 0), (1, 5, 30), (23, 59, 59), (24, 0, 0), (24, 0, 1), (1, 60, 0), (1, 0, 60), (2, 99, 99))
ODD = ["999:99", "5:60", "5:00.5", "1.5:00", "-5:00", "", " 5:00 ", "five", "5:", ":30", "1:2:3:4", "90", "86400",
       "86401", "0:00", "5::00", "5:00:00.25", "٥:٠٠", "5:00\u0000"]  # fmt: skip
CHANGES = [90_000, -45_000, 1_500, 3_600_000, -86_400_000, 59_000, 600_000]

SCRIPT = """
import { formatChange, parseClock, MAX_CLOCK_MS } from "FORMAT_JS";
const texts = JSON.parse(TEXTS);
console.log(JSON.stringify({
  max: MAX_CLOCK_MS,
  parsed: texts.map((text) => parseClock(text)),
  changes: CHANGES.map((ms) => formatChange(ms)),
}));
"""


def expected(text: str) -> int | None:
    """What reading ``text`` should give: every part whole digits (a fraction only in the last), parts after a colon
    below 60, at most three parts, at most 24 hours."""
    parts = text.strip().split(":")
    if len(parts) > 3 or not all(part.isascii() and part.replace(".", "", 1).isdigit() for part in parts):
        return None
    if any("." in part for part in parts[:-1]) or any(float(part) >= 60 for part in parts[1:]):
        return None
    seconds = 0.0
    for part in parts:
        seconds = seconds * 60 + float(part)
    ms = round(seconds * 1000)
    return ms if ms <= MAX_CLOCK_MS else None


def typed_texts() -> list[str]:
    grid = [f"{minutes}:{seconds:02d}" for minutes in MINUTES for seconds in SECONDS]
    return grid + [f"{h}:{m:02d}:{s:02d}" for h, m, s in HOURS] + ODD


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    source = SCRIPT.replace("TEXTS", json.dumps(json.dumps(typed_texts()))).replace("CHANGES", json.dumps(CHANGES))
    script: Path = tmp_path_factory.mktemp("format") / "format.mjs"
    return run_node(script, source, {"FORMAT_JS": "format.js"}, "the browser test of the arbiter's console instead")


def test_the_page_knows_the_servers_limit(run: dict[str, Any]) -> None:
    assert run["max"] == MAX_CLOCK_MS


def test_impossible_times_are_refused_and_possible_ones_read(run: dict[str, Any]) -> None:
    texts = typed_texts()
    wrong = [
        (text, got, expected(text)) for text, got in zip(texts, run["parsed"], strict=True) if got != expected(text)
    ]
    assert wrong == []
    parsed = dict(zip(texts, run["parsed"], strict=True))
    assert parsed["999:99"] is None and parsed["5:60"] is None and parsed["1:60:00"] is None
    assert parsed["5:00"] == 300_000 and parsed["24:00:00"] == MAX_CLOCK_MS and parsed["24:00:01"] is None
    assert sum(value is not None for value in run["parsed"]) > 400  # the grid reads its possible times


def test_a_change_is_shown_as_typed(run: dict[str, Any]) -> None:
    assert run["changes"] == ["+1:30", "−0:45", "+0:01.5", "+1:00:00", "−24:00:00", "+0:59", "+10:00"]
