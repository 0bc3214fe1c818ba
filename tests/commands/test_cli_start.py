"""``toreshi`` starts fast because a command imports only what it uses (issue 27).

Timing is measured by ``benchmarks/cli_start.py``; here the cause is checked deterministically: which modules a
real ``toreshi`` process has imported when a light command has finished.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

RUN_AND_LIST_MODULES = """
import json, sys
sys.argv = ["toreshi", *sys.argv[1:]]
from toreshi.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""

HEAVY = ("sqlalchemy", "alembic", "starlette", "uvicorn", "aiosqlite", "asyncpg", "toreshi.web", "toreshi.store")


def imported_by(*arguments: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_LIST_MODULES, *arguments], capture_output=True, text=True, timeout=60, check=True
    )
    return list(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "arguments",
    [
        ("--help",),
        ("--version",),
        ("togyz", "perft", "1"),
        ("togyz", "--help"),
        ("tournament", "berger", "4"),
        ("quiz", "--help"),
    ],
)
def test_a_light_command_imports_no_database_or_web_module(arguments: tuple[str, ...]) -> None:
    modules = imported_by(*arguments)
    assert "toreshi.cli" in modules  # the script did run the command line
    heavy = [name for name in modules if any(name == root or name.startswith(root + ".") for root in HEAVY)]
    assert heavy == []


def test_the_listing_imports_no_command_module() -> None:
    modules = imported_by("--help")
    loaded = [name for name in modules if name.startswith("toreshi.commands.")]
    assert loaded == ["toreshi.commands.errors"]
