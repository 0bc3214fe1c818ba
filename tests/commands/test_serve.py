"""``toreshi serve`` before and at its start: what it checks first, and when it says where it listens (issue 26)."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.commands.checks import check_writable_folder
from toreshi.commands.errors import CommandError

from ..served import Server

runner = CliRunner()


def test_a_data_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    result = runner.invoke(app, ["serve", "--data-dir", str(tmp_path / "a-file" / "data")])
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot write to the data folder {tmp_path / 'a-file' / 'data'}: Not a directory\n"


def test_a_read_only_data_folder_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(self: Path, *_: object, **__: object) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))

    monkeypatch.setattr(Path, "touch", read_only)  # as on a read-only mount (root ignores a folder's mode bits)
    with pytest.raises(CommandError, match=r"cannot write to the data folder .*: the file system is read-only"):
        check_writable_folder(tmp_path, "the data folder")


def test_a_database_that_is_not_sqlite_is_refused_before_the_app_starts(tmp_path: Path) -> None:
    (tmp_path / "toreshi.db").write_bytes(b"\xff\xfe garbage")
    result = runner.invoke(app, ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and "is not a SQLite database" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_the_address_is_printed_only_once_the_socket_is_bound(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "toreshi", "serve", "--port", str(port), "--data-dir", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TERM": "dumb"},
        )
    assert done.returncode == 3, done.stdout + done.stderr  # uvicorn's "startup failed"
    assert "address already in use" in done.stderr
    assert "toreshi on http" not in done.stdout + done.stderr


def test_a_started_server_prints_its_address_after_listening(tmp_path: Path) -> None:
    server = Server(tmp_path)
    server.stop()
    log = (tmp_path / "server.log").read_text(encoding="utf-8")
    assert f"toreshi on http://127.0.0.1:{server.port}/" in log
    assert log.index("Uvicorn running on") < log.index("toreshi on http")


@pytest.mark.parametrize(("given", "expected"), [((), None), (("--fairplay-workers", "3"), 3)])
def test_the_fair_play_workers_reach_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: tuple[str, ...], expected: int | None
) -> None:
    """The report's engine processes: the option (or ``TORESHI_FAIRPLAY_WORKERS``), else the machine's default."""
    import toreshi.web.app
    from toreshi.web.common.settings import Settings, default_fairplay_workers

    seen: list[Settings] = []

    def stop(settings: Settings) -> None:
        seen.append(settings)
        raise SystemExit(0)

    monkeypatch.setattr(toreshi.web.app, "create_app", stop)
    result = runner.invoke(app, ["serve", "--data-dir", str(tmp_path), *given])
    assert result.exit_code == 0, result.output
    assert seen[0].fairplay_workers == (expected or default_fairplay_workers(os.cpu_count()))
    refused = runner.invoke(app, ["serve", "--data-dir", str(tmp_path), "--fairplay-workers", "0"])
    assert refused.exit_code == 2 and "fairplay-workers" in refused.output
