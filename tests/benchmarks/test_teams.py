"""Smoke test of ``benchmarks/teams.py``: a tiny team Swiss, and the shape of its report."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "teams.py"


def test_a_tiny_team_swiss_prints_its_figures() -> None:
    arguments = ["--teams", "7", "--rounds", "3", "--pair-rounds", "1", "3", "--repeat", "1"]
    done = subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, timeout=120,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert re.search(r"^baseline \(sort 200,000 ints\): [\d.]+ ms CPU$", out, re.MULTILINE), out
    for what in ("pair R1", "pair R3", "standings", "TRF"):
        assert re.search(rf"^ +7 +{what} +\d+\.\d{{3}} +\d+\.\d$", out, re.MULTILINE), out
