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
    cache, keep = tmp_path / "cache", tmp_path / "keep"
    arguments = ["--players", "12", "--rounds", "3", "--pair-rounds", "1", "3", "--repeat", "1"]
    arguments += ["--cache", str(cache), "--bbp", str(other), "--bbp-rounds", "3", "--keep", str(keep)]
    first = run_benchmark("pairing.py", arguments, timeout=120)
    assert re.search(rf"^ +12 +1 +{NUMBER}( +{NUMBER}){{3}} +\d+ +- +-", first, re.MULTILINE), first
    differ = re.search(rf"^ +12 +3 +{NUMBER}( +{NUMBER}){{3}} +\d+ +{NUMBER} +NO \((\d+) boards differ\)", first, re.M)
    assert differ, first
    # Our six boards against its one: at least five of ours are not among its boards.
    assert int(differ.group(2)) >= 5
    assert [p.name for p in cache.iterdir()] == ["dutch-12p-3r-seed1.trf"]
    # What the other engine was given and both answers stay for a look; ours in the same -p format.
    assert sorted(p.name for p in keep.iterdir()) == ["12p-r3-bbp.txt", "12p-r3-in.trf", "12p-r3-ours.txt"]
    assert (keep / "12p-r3-bbp.txt").read_text() == "1\n1 2\n"
    ours = (keep / "12p-r3-ours.txt").read_text().split("\n")
    assert ours[0] == "6" and len(ours) == 8 and all(re.fullmatch(r"\d+ \d+", line) for line in ours[1:7])
    assert (keep / "12p-r3-in.trf").read_text().startswith("XXC white1")
    # The second run pairs the file it kept: the same rounds, the same verdicts.
    second = run_benchmark("pairing.py", arguments, timeout=120)
    verdict = r"(?:- +-|NO \(\d+ boards differ\)|yes) *$"
    assert re.findall(verdict, second, re.M) == re.findall(verdict, first, re.M) != []
