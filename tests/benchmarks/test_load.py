"""Smoke test of ``benchmarks/load.py``: one instance, two tiny room counts, and the shape of its report."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load.py"


def test_a_tiny_sweep_prints_one_row_per_room_count_and_a_conclusion() -> None:
    arguments = ["--rooms", "1,2", "--instances", "1", "--seconds", "1", "--runs", "1", "--pace", "4", "--no-pin"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    rows = re.findall(r"^\s+([12]) +(\d+\.\d) +\d+\.\d +\d+ +[\d.]+ +[\d.]+ .*timeouts=0", out, re.MULTILINE)
    assert [rooms for rooms, _ in rows] == ["1", "2"], out
    assert all(float(events) > 0 for _, events in rows), out
    assert re.search(r"^one instance \(SQLite, in-process bus\): (holds \d+ games|no room count)", out, re.M), out
