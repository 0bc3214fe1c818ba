"""Smoke test of ``benchmarks/teams.py``: a tiny team Swiss, and the shape of its report."""

from __future__ import annotations

import re

from .scripts import run_benchmark


def test_a_tiny_team_swiss_prints_its_figures() -> None:
    arguments = ["--teams", "7", "--rounds", "3", "--pair-rounds", "1", "3", "--repeat", "1"]
    out = run_benchmark("teams.py", arguments, timeout=120)
    assert re.search(r"^baseline \(sort 200,000 ints\): [\d.]+ ms CPU$", out, re.MULTILINE), out
    for what in ("pair R1", "pair R3", "standings", "TRF"):
        assert re.search(rf"^ +7 +{what} +\d+\.\d{{3}} +\d+\.\d$", out, re.MULTILINE), out
