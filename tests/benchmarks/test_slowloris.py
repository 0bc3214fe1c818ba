"""Smoke test of ``benchmarks/slowloris.py``: a few slow sockets, a short deadline, and the shape of its report."""

from __future__ import annotations

import re

from .scripts import run_benchmark


def test_slow_sockets_stay_open_without_the_deadline_and_are_closed_with_it() -> None:
    arguments = ["--sockets", "6", "--seconds", "1.5", "--drip", "0.2", "--header-timeout", "0.5", "--cap", "4"]
    out = run_benchmark("slowloris.py", arguments, timeout=120)
    served = r"200 in \d+ ms"
    baseline = re.search(rf"^baseline +none +none +0 +0 +6 +{served} +{served}$", out, re.MULTILINE)
    guarded = re.search(rf"^guarded +0\.5 s +4 +2 +4 +0 +{served} +{served}$", out, re.MULTILINE)
    assert baseline and guarded, out
