"""Smoke test of ``benchmarks/live_games.py``: a tiny run against a real server, and the shape of its report."""

from __future__ import annotations

import re

from .scripts import NUMBER, run_benchmark


def test_a_tiny_run_prints_medians_ratios_and_the_goal() -> None:
    arguments = ["--games", "2", "--seconds", "1", "--runs", "1", "--pace", "4", "--no-pin"]
    out = run_benchmark("live_games.py", arguments, timeout=60)
    move = re.search(rf"move: moves/s=({NUMBER}) ack_p50_ms={NUMBER} ack_p99_ms=({NUMBER}) bcast_p50_ms=", out)
    assert move is not None, out
    assert float(move.group(1)) > 0, out  # moves were acknowledged
    assert re.search(rf"noop: cmds/s={NUMBER} ack_p50_ms={NUMBER} ack_p99_ms={NUMBER} cpu_us_per_cmd=", out), out
    assert re.search(rf"ratio move/noop: ack_p50={NUMBER} ack_p99={NUMBER} cpu_per_cmd={NUMBER}", out), out
    assert re.search(rf"memory: per_live_room_kib={NUMBER}", out), out
    assert re.search(r"problems: timeouts=0 games_replaced=\d+ refused=not_your_turn:\d+ client_errors=0", out), out
    assert re.search(r"goal p99 <= 50 ms for 2 games with 2 spectators each: (met|NOT met)", out), out
