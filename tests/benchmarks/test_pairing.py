"""Smoke test of ``benchmarks/pairing.py``: a tiny tournament, kept in a cache, and a stand-in for bbpPairings."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from .scripts import NUMBER, run_benchmark


def test_the_report_puts_the_other_engines_time_and_agreement_beside_ours(tmp_path: Path) -> None:
    # A stand-in that answers every file with one board, 1 against 2: timed like bbpPairings, never in agreement.
    other = tmp_path / "other-engine"
    other.write_text(
        f"#!{sys.executable}\nimport sys\nopen(sys.argv[sys.argv.index('-p') + 1], 'w').write('1\\n1 2\\n')\n"
    )
    other.chmod(0o755)
    cache = tmp_path / "cache"
    arguments = ["--players", "12", "--rounds", "3", "--pair-rounds", "1", "3", "--repeat", "1"]
    arguments += ["--cache", str(cache), "--bbp", str(other), "--bbp-rounds", "3"]
    first = run_benchmark("pairing.py", arguments, timeout=120)
    assert re.search(rf"^ +12 +1 +{NUMBER}( +{NUMBER}){{3}} +\d+ +- +-", first, re.MULTILINE), first
    assert re.search(rf"^ +12 +3 +{NUMBER}( +{NUMBER}){{3}} +\d+ +{NUMBER} +NO", first, re.MULTILINE), first
    assert [p.name for p in cache.iterdir()] == ["dutch-12p-3r-seed1.trf"]
    # The second run pairs the file it kept: the same rounds, the same verdicts.
    second = run_benchmark("pairing.py", arguments, timeout=120)
    assert re.findall(r"(?:-|NO|yes)$", second, re.MULTILINE) == re.findall(r"(?:-|NO|yes)$", first, re.MULTILINE)
