"""The ``toreshi`` command itself: its version, and the one handler that ends a failing command in one line."""

from __future__ import annotations

import errno
import os

import pytest
from typer.testing import CliRunner

import toreshi
from toreshi.cli import app
from toreshi.commands.errors import EXIT_SOFTWARE, CommandError, clip, explain

runner = CliRunner()


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output == f"toreshi {toreshi.__version__}\n"


def test_the_listing_names_every_command_with_its_module_help() -> None:
    listing = runner.invoke(app, ["--help"], env={"COLUMNS": "200"}).output
    for name in ("togyz", "tournament", "quiz", "db", "serve"):
        own = runner.invoke(app, [name, "--help"], env={"COLUMNS": "200"}).output
        summary = next(line for line in listing.splitlines() if f" {name} " in line).split(name, 1)[1].strip(" │")
        assert summary and summary in own  # the line in the listing is the command's own help


def test_explain_names_what_a_wrong_input_causes() -> None:
    assert explain(CommandError("no games", exit_code=3)) == ("no games", 3)
    assert explain(FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), "x.trf")) == (
        "x.trf: No such file or directory",
        1,
    )
    assert explain(OSError(errno.EROFS, os.strerror(errno.EROFS), "data/toreshi.db")) == (
        "data/toreshi.db: the file system is read-only",
        1,
    )
    assert explain(ZeroDivisionError("a bug")) is None


def test_clip_keeps_a_message_on_one_short_line() -> None:
    assert clip("line 1: expected Key=Value, not '" + "x" * 3_000_000 + "'") == (
        "line 1: expected Key=Value, not '" + "x" * 59 + "…"
    )
    assert clip("a\nb") == "a b"
    path = "/tmp/pytest-of-someone/pytest-123/test_a_rather_long_test_name_for_a_folder0/games.pgn"
    assert clip(f"cannot read {path}: gone", 300) == f"cannot read {path}: gone"  # a path is kept whole
    assert len(clip("word " * 100, 50)) == 50


def test_an_unexpected_error_is_one_line_with_exit_70(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object, **__: object) -> None:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("toreshi.commands.togyz.count_leaves", broken)
    result = runner.invoke(app, ["togyz", "perft", "1"])
    assert result.exit_code == EXIT_SOFTWARE
    assert result.stderr == "error: unexpected ZeroDivisionError: division by zero (TORESHI_DEBUG=1 shows where)\n"
    shown = runner.invoke(app, ["togyz", "perft", "1"], env={"TORESHI_DEBUG": "1"})
    assert isinstance(shown.exception, ZeroDivisionError)  # for the developer, the traceback
