"""Smoke test of ``benchmarks/load.py``: one instance, one tiny room count, and the shape of its report."""

from __future__ import annotations

import re
from pathlib import Path

from .scripts import NUMBER, run_benchmark


def test_a_tiny_sweep_prints_a_row_per_room_count_and_a_conclusion() -> None:
    arguments = ["--rooms", "2", "--instances", "1", "--seconds", "1", "--runs", "1", "--pace", "4", "--no-pin"]
    out = run_benchmark("load.py", arguments, timeout=60)
    assert re.search(r"^rooms +moves/s +ev/s +deliv/s +ack p50 +ack p99 +bc p50 +bc p99 ", out, re.MULTILINE), out
    row = re.search(r"^ +2 +(\d+\.\d) +(\d+\.\d) +\d+ +[\d.]+ +[\d.]+ .*timeouts=0 .*client_errors=0$", out, re.M)
    assert row is not None, out
    assert float(row.group(1)) > 0 and float(row.group(2)) >= float(row.group(1)), out  # a move is 1 event or more
    assert re.search(r"^one instance \(SQLite, in-process bus\): (holds 2 games|no room count)", out, re.MULTILINE), out
    assert re.search(r"^CPU estimate: median \d+ µs of server CPU per move", out, re.MULTILINE), out


def test_a_tiny_quiz_sweep_prints_the_lockout_beside_its_baseline_and_the_machine_load(shared_data: Path) -> None:
    pack = shared_data / "quiz" / "siq" / "1.siq"
    arguments = ["--kind", "quiz", "--rooms", "2", "--instances", "1", "--runs", "1", "--presses", "2"]
    arguments += ["--baseline-presses", "2", "--spectators", "1", "--pace", "4", "--no-pin", "--pack", str(pack)]
    out = run_benchmark("load.py", arguments, timeout=120, stderr_tail=3000)
    assert re.search(r"^load: quiz rooms x \(4 phones \+ host \+ projector \+ 1 spectators\)", out, re.MULTILINE), out
    header = r"^rooms +press/s +lock p50 +lock p99 +1st p99 +base p99 +x base +x first +ms/press +problems$"
    assert re.search(header, out, re.MULTILINE), out
    row = re.search(
        rf"^ +2 +{NUMBER} +{NUMBER} +({NUMBER}) +{NUMBER} +({NUMBER}) +{NUMBER} +1\.0+ +{NUMBER} +"
        r"resyncs=0 answer_time_expired=\d+ load_average=[\d.]+ [\d.]+ [\d.]+$",
        out,
        re.MULTILINE,
    )
    assert row is not None, out
    assert float(row.group(1)) > 0 and float(row.group(2)) > 0, out
    conclusion = r"^one instance \(SQLite, in-process bus\): (holds 2 quiz rooms|no room count tried)"
    assert re.search(conclusion, out, re.MULTILINE), out
