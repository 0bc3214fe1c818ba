"""``benchmarks/failover.py`` at a small size keeps the zero-loss property in the suite: the owner of most rooms is
killed with SIGKILL while togyz games and a quiz room are played (real PostgreSQL and Redis), and a single SQLite
instance is killed and restarted; every room takes commands again, no acknowledged command is lost, none is applied
twice, and every running clock moved by exactly the room time charged."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import anyio
import pytest

from .conftest import Services
from .servers import REDIS_URL

pytestmark = pytest.mark.anyio

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "failover.py"


async def test_killing_the_owner_loses_and_repeats_no_acknowledged_command(services: Services) -> None:
    arguments = ["--games", "4", "--quizzes", "1", "--before", "2", "--after", "3", "--mode", "both"]
    arguments += ["--db", services.postgres_url, "--bus", REDIS_URL]
    with anyio.fail_after(240):
        done = await anyio.run_process([sys.executable, str(SCRIPT), *arguments], check=False)
    out = done.stdout.decode()
    assert done.returncode == 0, out + done.stderr.decode()
    assert "two instances, PostgreSQL + Redis" in out and "one instance, SQLite" in out, out
    totals = re.findall(r"acknowledged commands: (\d+); lost: (\d+); applied twice: (\d+)", out)
    assert len(totals) == 2, out
    for acked, lost, twice in totals:
        assert int(acked) > 10 and (int(lost), int(twice)) == (0, 0), out
    for recovered, moved in re.findall(r"again: .*\((\d+) of (\d+) rooms\)", out):
        assert int(moved) >= 1 and recovered == moved, out  # every room whose owner died takes commands again
    clocks = re.findall(r"clocks of (\d+) of \d+ games .*?charged in (\d+); .*?first sent (min (-?\d+)|n/a)", out)
    assert len(clocks) == 2, out
    for compared, exact, _, earliest in clocks:
        assert exact == compared, out  # every dial moved by exactly the room time charged
        assert earliest == "" or int(earliest) >= -2, out  # never charged less than the wall time since the move
