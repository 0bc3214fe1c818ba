"""Every command, given what a newcomer gives it by mistake, says what is wrong in a few lines and fails (issue 26).

Each command runs over a missing file, a folder, an empty file, binary data, UTF-16 text and a 3 MB file of one
line, and with wrong option values. None may succeed, print a traceback, fall into the catch-all for errors
toreshi did not expect, or flood the terminal.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.commands.errors import EXIT_SOFTWARE

from ..togyz.test_pgn import GAME_1
from .test_standings import TRF

runner = CliRunner()

MAX_LINES = 8
"""Typer's box for a usage error is five lines with a one-line message; a wrapped message takes a few more."""

REPLAY_REPORT = re.compile(r"^\d+ games, \d+ valid, \d+ invalid$", re.MULTILINE)
"""The last line of ``togyz replay``'s table: it lists each «game» read (text that is no record is one invalid game,
its first token named), a report as long as the file, not an error message."""

BAD_FILES: dict[str, bytes | None] = {
    "missing.txt": None,
    "folder": b"",  # made a folder below
    "empty.txt": b"",
    "binary.bin": bytes(range(256)) * 8,
    "utf16.txt": "012 Tournament\n001    1 m    Player A\n1. 12 34\n".encode("utf-16"),
    "huge.txt": b"x" * 3_000_000,
}

COMMANDS = [
    ["togyz", "replay", "{file}"],
    ["togyz", "review", "{file}"],
    ["tournament", "standings", "{file}"],
    ["tournament", "check", "{file}"],
    ["tournament", "review", "{file}", "-r", "1"],
    ["tournament", "prohibit", "{file}", "1", "2"],
    ["tournament", "baku", "{file}"],
    ["tournament", "pair", "{file}", "-r", "1"],
    ["tournament", "generate", "{file}"],
    ["quiz", "inspect", "{file}"],
    ["quiz", "convert", "{file}", "out.siq"],
    ["db", "restore", "{file}", "--data-dir", "restored"],
    ["db", "backup", "out.db", "--db", "sqlite+aiosqlite:///{file}"],
]

# A missing or empty file is a new database to `db upgrade`: only the files that cannot be one are wrong for it.
NOT_A_DATABASE = ["folder", "binary.bin", "utf16.txt", "huge.txt"]


@pytest.fixture
def bad_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The bad files in the current folder, named by short relative paths as a user types them."""
    monkeypatch.chdir(tmp_path)
    for name, content in BAD_FILES.items():
        if name == "folder":
            (tmp_path / name).mkdir()
        elif content is not None:
            (tmp_path / name).write_bytes(content)
    (tmp_path / "good.trf").write_text(TRF, encoding="utf-8")
    (tmp_path / "good.pgn").write_text(GAME_1, encoding="utf-8")
    return tmp_path


def assert_short_failure(arguments: list[str]) -> None:
    result = runner.invoke(app, arguments)
    shown = f"toreshi {' '.join(arguments)} →\n{result.output}"
    assert result.exit_code != 0, shown
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    assert "Traceback" not in result.output and result.exit_code != EXIT_SOFTWARE, shown
    if not REPLAY_REPORT.search(result.output):  # a table of the «games» read is a report, not an error message
        assert len(result.output.strip().splitlines()) <= MAX_LINES, shown
    assert result.output.strip(), shown  # it says something


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: " ".join(command[:2]))
@pytest.mark.parametrize("name", list(BAD_FILES))
def test_a_bad_file_is_a_short_failure(bad_files: Path, command: list[str], name: str) -> None:
    assert_short_failure([part.replace("{file}", name) for part in command])


@pytest.mark.parametrize("name", NOT_A_DATABASE)
def test_db_upgrade_of_a_file_that_is_not_a_database(bad_files: Path, name: str) -> None:
    assert_short_failure(["db", "upgrade", "--db", f"sqlite+aiosqlite:///{name}"])


WRONG_OPTIONS = [
    ["togyz", "perft", "-1"],
    ["togyz", "perft", "deep"],
    ["togyz", "show", "nonsense"],
    ["togyz", "analyse", "1,2,3", "--depth", "2"],
    ["togyz", "analyse", "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1", "--depth", "0"],
    ["togyz", "review", "good.pgn", "--game", "0"],
    ["togyz", "review", "good.pgn", "--game", "7"],
    ["tournament", "berger", "1"],
    ["tournament", "berger", "many"],
    ["tournament", "pair", "good.trf", "-r", "0"],
    ["tournament", "standings", "good.trf", "--rules", "1999"],
    ["tournament", "standings", "good.trf", "-t", "NOPE"],
    ["tournament", "generate", "--players", "-4"],
    ["quiz", "convert", "good.pgn", "good.pgn"],
    ["db", "backup", "out.db", "--format", "zip"],
    ["db", "upgrade", "--data-dir", "data", "--revision", "9999"],
    ["db", "upgrade", "--db", "mysql://someone@somewhere/club"],
    ["serve", "--port", "eighty"],
    ["serve", "--port", "99999"],
    ["serve", "--timezone", "Mars/Olympus"],
    ["nonsense"],
]


@pytest.mark.parametrize("arguments", WRONG_OPTIONS, ids=" ".join)
def test_a_wrong_option_value_is_a_short_failure(bad_files: Path, arguments: list[str]) -> None:
    assert_short_failure(arguments)


def test_a_real_process_prints_no_traceback(bad_files: Path) -> None:
    """Outside the test runner, too: a corrupt database and a UTF-16 record, in the ``toreshi`` process itself."""
    (bad_files / "corrupt.db").write_bytes(b"SQLite format 3\x00" + b"\x13" * 8192)
    for arguments in (["db", "upgrade", "--db", "sqlite:///corrupt.db"], ["togyz", "review", "utf16.txt"]):
        done = subprocess.run(
            [sys.executable, "-m", "toreshi", *arguments],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},  # this tree's toreshi, from any folder
        )
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert done.stderr.startswith("error: "), done.stderr


FILE_COMMANDS = [
    ["togyz", "replay", "input"],
    ["togyz", "review", "input", "--depth", "1"],
    ["tournament", "standings", "input"],
    ["tournament", "check", "input"],
    ["tournament", "pair", "input", "-r", "2"],
    ["tournament", "generate", "input", "--seed", "1"],
    ["quiz", "inspect", "input"],
]

TRF_LIKE = st.lists(
    st.sampled_from(["001", "012", "XXR", "092", "###", "250", "260", "13"]).flatmap(
        lambda code: st.text(st.characters(codec="latin-1"), max_size=120).map(lambda rest: f"{code} {rest}")
    ),
    max_size=6,
).map("\r".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    command=st.sampled_from(FILE_COMMANDS),
    content=st.one_of(
        st.binary(max_size=600),
        st.text(max_size=300).map(str.encode),
        TRF_LIKE.map(lambda text: text.encode("latin-1")),
    ),
)
def test_any_file_content_is_a_result_or_a_short_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], content: bytes
) -> None:
    """Whatever bytes a file holds, a command either does its work or fails in a few lines: no traceback, never the
    catch-all for errors toreshi did not expect."""
    monkeypatch.chdir(tmp_path)
    Path("input").write_bytes(content)
    result = runner.invoke(app, command)
    shown = f"toreshi {' '.join(command)} on {content[:80]!r} →\n{result.output[-2000:]}"
    assert result.exception is None or isinstance(result.exception, SystemExit), shown
    assert result.exit_code != EXIT_SOFTWARE, shown
    if result.exit_code != 0 and not REPLAY_REPORT.search(result.output):
        assert len(result.output.strip().splitlines()) <= MAX_LINES, shown
