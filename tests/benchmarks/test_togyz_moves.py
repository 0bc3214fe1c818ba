"""Smoke test of ``benchmarks/togyz_moves.py``: playouts and perft, each beside the plain engine's in the same run."""

from __future__ import annotations

import re

from .scripts import run_benchmark


def test_a_tiny_run_prints_playouts_and_perft_beside_the_plain_engines() -> None:
    out = run_benchmark("togyz_moves.py", ["--runs", "1", "--games", "20", "--perft-depth", "5"], timeout=120)
    for line in (
        r"playout moves/s +[\d,]+",
        r"baseline moves/s +[\d,]+ +\(plain engine, same games\)",
        r"ratio to baseline +\d+\.\d\dx",
        r"perft\(5\) seconds +\d+\.\d\d +\(43,184 leaves\)",
        r"baseline perft s +\d+\.\d\d +\(plain engine, a copy per node\)",
        r"perft speed-up +\d+\.\d\dx",
    ):
        assert re.search(rf"^{line}$", out, re.MULTILINE), (line, out)
