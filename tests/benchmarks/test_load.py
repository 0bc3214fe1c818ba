"""Smoke test of ``benchmarks/load.py``: one instance, one tiny room count, and the shape of its report."""

from __future__ import annotations

import re

from .scripts import run_benchmark


def test_a_tiny_sweep_prints_a_row_per_room_count_and_a_conclusion() -> None:
    arguments = ["--rooms", "2", "--instances", "1", "--seconds", "1", "--runs", "1", "--pace", "4", "--no-pin"]
    out = run_benchmark("load.py", arguments, timeout=60)
    assert re.search(r"^rooms +moves/s +ev/s +deliv/s +ack p50 +ack p99 +bc p50 +bc p99 ", out, re.MULTILINE), out
    row = re.search(r"^ +2 +(\d+\.\d) +(\d+\.\d) +\d+ +[\d.]+ +[\d.]+ .*timeouts=0 .*client_errors=0$", out, re.M)
    assert row is not None, out
    assert float(row.group(1)) > 0 and float(row.group(2)) >= float(row.group(1)), out  # a move is 1 event or more
    assert re.search(r"^one instance \(SQLite, in-process bus\): (holds 2 games|no room count)", out, re.MULTILINE), out
    assert re.search(r"^CPU estimate: median \d+ µs of server CPU per move", out, re.MULTILINE), out
