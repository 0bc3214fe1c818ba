"""Smoke test of ``benchmarks/engine.py``: tiny searches and tiny matches, and the shape of the report."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "engine.py"


def test_a_tiny_run_prints_speed_rows_and_match_lines(shared_data: Path) -> None:
    corpus = shared_data / "togyz" / "playok-2024-2025.pgn"
    arguments = ["--corpus", str(corpus), "--positions", "2", "--times", "0.05", "--match", "2:greedy:2"]
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    for label in ("engine", "python", "plain"):
        assert re.search(rf"^{label} +\d+ +[\d.]+ \(\d+-\d+\) +[\d,]+$", out, re.MULTILINE), out
    for label in ("engine", "python"):
        ratio = rf"^ratio {label}/plain: middlegame depth [+-][\d.]+ plies, nodes/s ×\d+\.\d\d$"
        assert re.search(ratio, out, re.MULTILINE), out
    elo = r"[+-](\d+|inf)"
    match_line = rf"^match 2 vs greedy: 2 games, score \d+\.\d% for 2, Elo {elo} \(95 % {elo} to {elo}\), \d+ s$"
    assert re.search(match_line, out, re.MULTILINE), out
