"""Smoke test of ``benchmarks/quiz_lamps.py``: one question's presses in real browsers, and the report's shape."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .scripts import NUMBER, run_benchmark


def test_a_tiny_run_prints_the_host_and_projector_figures(shared_data: Path) -> None:
    if shutil.which("chromium") is None and not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
    pack = shared_data / "quiz" / "siq" / "1.siq"
    out = run_benchmark("quiz_lamps.py", ["--presses", "4", "--pack", str(pack)], timeout=240, stderr_tail=3000)
    assert re.search(r"^load average at start: [\d.]+ [\d.]+ [\d.]+$", out, re.MULTILINE), out
    figures = (
        rf"this checkout: presses=4 host_p50_ms={NUMBER} host_p99_ms={NUMBER} projector_p50_ms={NUMBER} "
        rf"projector_p99_ms={NUMBER} host/projector_p50={NUMBER}"
    )
    assert re.search(figures, out), out
    parts = rf"frame arrives: host_p50_ms={NUMBER} projector_p50_ms={NUMBER}; frame → shown: host_p50_ms={NUMBER}"
    assert re.search(parts, out), out
    assert re.search(r"^load average at end: .*\(uptime: .*load average", out, re.MULTILINE), out
