"""Smoke test of ``benchmarks/engine_web.py``: one tiny review and one move per level, and the report's shape."""

from __future__ import annotations

import re
from pathlib import Path

from .scripts import run_benchmark


def test_a_tiny_run_prints_review_and_level_rows(shared_data: Path) -> None:
    corpus = shared_data / "togyz" / "playok-2024-2025.pgn"
    arguments = ["--corpus", str(corpus), "--games", "1", "--positions", "1", "--depth", "2"]
    out = run_benchmark("engine_web.py", arguments, timeout=180)
    summary = (
        r"^review in the pool: median [\d.]+ ms a position; worst loop lag [\d.]+ ms \(inline on the loop: \d+ ms\)$"
    )
    assert re.search(summary, out, re.MULTILINE), out
    for level in range(1, 7):
        # level, its budget (a depth or a time, and a node limit), median and max reply seconds, the loop's lag
        assert re.search(rf"^ +{level} +\S.*nodes +[\d.]+ +[\d.]+ +[\d.]+ms$", out, re.MULTILINE), out
