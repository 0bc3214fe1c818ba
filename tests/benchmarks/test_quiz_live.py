"""Smoke test of ``benchmarks/quiz_live.py``: a tiny run against a real server, and the shape of its report."""

from __future__ import annotations

import re
from pathlib import Path

from .scripts import NUMBER, run_benchmark


def test_a_tiny_run_prints_latencies_cpu_medians_ratios_and_the_goal(shared_data: Path) -> None:
    pack = shared_data / "quiz" / "siq" / "1.siq"
    arguments = ["--rooms", "2", "--spectators", "2", "--presses", "2", "--pace", "5", "--runs", "1"]
    arguments += ["--baseline-presses", "2", "--idle-seconds", "0.2", "--pack", str(pack), "--no-pin"]
    out = run_benchmark("quiz_live.py", arguments, timeout=90, stderr_tail=3000)
    assert re.search(r"2 rooms \(\+1 baseline room\) x \(4 teams \+ host \+ projector \+ 2 spectators\) = 24 conn", out)
    figures = (
        rf"lockout_p50_ms={NUMBER} lockout_p99_ms={NUMBER} first_p50_ms={NUMBER} first_p99_ms={NUMBER} "
        rf"received_p50_ms={NUMBER} received_p99_ms={NUMBER}"
    )
    for phase in ("baseline (1 room)", "load (2 rooms)"):
        found = re.search(rf"run 1: {re.escape(phase)}: presses=(\d+) presses/s={NUMBER} {figures} ", out)
        assert found is not None, out
        assert int(found.group(1)) == 4 if phase.startswith("load") else 2, out
    for label in ("baseline", "load"):
        assert re.search(rf"median {label}: presses/s={NUMBER} {figures} server_cpu_ms_per_press={NUMBER}", out), out
    assert re.search(rf"ratio load/baseline: lockout_p50={NUMBER} lockout_p99={NUMBER} cpu_per_press={NUMBER}", out)
    assert re.search(r"problems: resyncs=0 answer_time_expired=\d+", out), out
    assert re.search(r"goal lockout p99 <= 20 ms for 2 rooms .*\(arrival\): (met|NOT met)", out), out
    # Tap -> lamp (issue 31): the press to the host's console and to the projector, beside the bare relay's baseline
    assert re.search(rf"run 1: bare websocket relay: messages=2 p50_ms={NUMBER} p99_ms={NUMBER} max_ms={NUMBER}", out)
    assert re.search(rf"tap -> lamp baseline, bare websocket relay \(8 sockets\): p50_ms={NUMBER} p99_ms={NUMBER}", out)
    for phase in ("baseline \\(1 room\\)", "load \\(2 rooms\\)"):
        for role in ("host", "projector"):
            line = (
                rf"tap -> lamp {phase}, {role}: p50_ms={NUMBER} \({NUMBER}x relay\) p99_ms={NUMBER} \({NUMBER}x relay\)"
            )
            assert re.search(line + rf" max_ms={NUMBER}", out), out
    assert re.search(rf"tap_lamp_projector_p50_ms={NUMBER} tap_lamp_projector_p99_ms={NUMBER}", out), out
