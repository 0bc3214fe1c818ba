"""Smoke test of ``benchmarks/engine.py``: tiny searches and tiny matches, and the shape of the report."""

from __future__ import annotations

import re
from pathlib import Path

from .scripts import run_benchmark


def test_a_tiny_run_prints_speed_rows_and_match_lines(shared_data: Path) -> None:
    corpus = shared_data / "togyz" / "playok-2024-2025.pgn"
    arguments = ["--corpus", str(corpus), "--positions", "2", "--times", "0.05", "--match", "2:greedy:2"]
    out = run_benchmark("engine.py", arguments, timeout=120)
    for label in ("engine", "python", "plain"):
        assert re.search(rf"^{label} +\d+ +[\d.]+ \(\d+-\d+\) +[\d,]+$", out, re.MULTILINE), out
    for label in ("engine", "python"):
        ratio = rf"^ratio {label}/plain: middlegame depth [+-][\d.]+ plies, nodes/s ×\d+\.\d\d$"
        assert re.search(ratio, out, re.MULTILINE), out
    elo = r"[+-](\d+|inf)"
    match_line = rf"^match 2 vs greedy: 2 games, score \d+\.\d% for 2, Elo {elo} \(95 % {elo} to {elo}\), \d+ s$"
    assert re.search(match_line, out, re.MULTILINE), out
