"""Smoke test of ``benchmarks/cli_start.py``: one run of each command, and the shape of its report."""

from __future__ import annotations

import re

from .scripts import run_benchmark


def test_the_start_up_benchmark_prints_medians_and_ratios() -> None:
    out = run_benchmark("cli_start.py", ["--repeat", "1"], timeout=120)
    assert re.search(r"^import typer, rich +\d+\.\d{3} +1\.00$", out, re.MULTILINE), out
    for command in ("toreshi --help", "toreshi togyz perft 1"):
        row = rf"^{re.escape(command)} +\d+\.\d{{3}} +\d+\.\d{{3}} +\d+\.\d{{3}} +\d+\.\d{{2}}  (met|MISSED) "
        assert re.search(row, out, re.MULTILINE), out
