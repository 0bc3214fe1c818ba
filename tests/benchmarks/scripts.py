"""Running a script of ``benchmarks/`` as its users do, for the smoke tests of its report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
NUMBER = r"(?:\d+(?:\.\d+)?|n/a)"
"""A figure in a report: a number, or ``n/a`` where nothing was measured."""


def run_benchmark(script: str, arguments: list[str], timeout: float, stderr_tail: int | None = None) -> str:
    """Run ``benchmarks/<script>`` with ``arguments`` under this Python and check that it succeeded (saying what it
    printed if not, only the last ``stderr_tail`` characters of its errors where it logs a lot); its output."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    errors = done.stderr if stderr_tail is None else done.stderr[-stderr_tail:]
    assert done.returncode == 0, done.stdout + errors
    return done.stdout
