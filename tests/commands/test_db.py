"""``toreshi db``: upgrade, backup and restore from the command line (SQLite; the store tests cover PostgreSQL)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.store import NewEvent, RoomKind, open_store
from toreshi.store.migrate import head_revision, known_revisions

from ..served import Server

runner = CliRunner()


def add_game(url: str, room_id: str) -> None:
    async def work() -> None:
        async with open_store(url, migrate=False) as store:
            await store.create_room(room_id, RoomKind.TOGYZ)
            await store.append(room_id, 0, [NewEvent("move", {"hole": 5}, 1_000)])

    asyncio.run(work())


def test_upgrade_backup_restore_round_trip(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = runner.invoke(app, ["db", "upgrade", "--data-dir", str(data)])
    assert first.exit_code == 0, first.output
    assert first.output.strip() == f"database migrated from schema revision (empty) to {head_revision()}"
    again = runner.invoke(app, ["db", "upgrade", "--data-dir", str(data)])
    assert again.output.strip() == f"database already at schema revision {head_revision()}"

    url = f"sqlite+aiosqlite:///{data / 'toreshi.db'}"
    add_game(url, "g1")
    saved = tmp_path / "saved.db"
    made = runner.invoke(app, ["db", "backup", str(saved), "--db", url])
    assert made.exit_code == 0, made.output
    assert made.output.strip() == f"backed up to {saved} (sqlite): schema revision {head_revision()}, 1 rooms, 1 events"

    add_game(url, "g2")
    refused = runner.invoke(app, ["db", "restore", str(saved), "--data-dir", str(data)])
    assert refused.exit_code == 1
    assert "already holds a toreshi database (2 rooms, 2 events); pass --force to replace it" in refused.stderr

    done = runner.invoke(app, ["db", "restore", str(saved), "--data-dir", str(data), "--force"])
    assert done.exit_code == 0, done.output
    assert done.output.strip() == f"restored {saved} (sqlite): schema revision {head_revision()}, 1 rooms, 1 events"
    with sqlite3.connect(data / "toreshi.db") as connection:
        assert connection.execute("SELECT id FROM rooms").fetchall() == [("g1",)]


def test_json_backup_from_the_environment_url(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    assert runner.invoke(app, ["db", "upgrade"], env={"TORESHI_DB": url}).exit_code == 0
    add_game(url, "g1")
    dump = tmp_path / "club.jsonl"
    made = runner.invoke(app, ["db", "backup", str(dump), "--format", "json"], env={"TORESHI_DB": url})
    assert made.exit_code == 0, made.output
    assert f"(json): schema revision {head_revision()}, 1 rooms, 1 events" in made.output
    again = runner.invoke(app, ["db", "backup", str(dump), "--format", "json"], env={"TORESHI_DB": url})
    assert again.exit_code == 1
    assert "already exists; pass --force to overwrite it" in again.stderr


def test_errors_are_one_clear_line(tmp_path: Path) -> None:
    bad = runner.invoke(app, ["db", "upgrade", "--db", "mysql://u@h/x"])
    assert bad.exit_code == 1
    assert "unsupported database 'mysql'" in bad.stderr
    down = runner.invoke(app, ["db", "upgrade", "--db", "postgresql://nobody@127.0.0.1:9/x"])
    assert down.exit_code == 1
    assert "cannot reach the database" in down.stderr
    junk = tmp_path / "junk.bak"
    junk.write_text("junk", encoding="utf-8")
    wrong = runner.invoke(app, ["db", "restore", str(junk), "--data-dir", str(tmp_path)])
    assert wrong.exit_code == 1
    assert "is not a toreshi backup" in wrong.stderr


def test_restore_is_refused_while_a_server_holds_the_database(tmp_path: Path) -> None:
    """Issue 26: `db restore --force` under a running `toreshi serve` would pull the database from under it."""
    data = tmp_path / "data"
    data.mkdir()
    server = Server(data)
    try:
        saved = tmp_path / "saved.db"
        assert runner.invoke(app, ["db", "backup", str(saved), "--data-dir", str(data)]).exit_code == 0
        refused = runner.invoke(app, ["db", "restore", str(saved), "--data-dir", str(data), "--force"])
        assert refused.exit_code == 1
        assert refused.stderr == (
            f"error: a toreshi server is using {(data / 'toreshi.db').absolute()}: stop it first, then restore "
            "(a server's data would be lost)\n"
        )
    finally:
        server.stop()
    done = runner.invoke(app, ["db", "restore", str(saved), "--data-dir", str(data), "--force"])
    assert done.exit_code == 0, done.output  # the lock went with the server


def test_backup_into_a_missing_folder_is_refused(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    assert runner.invoke(app, ["db", "upgrade", "--db", url]).exit_code == 0
    refused = runner.invoke(app, ["db", "backup", str(tmp_path / "typo" / "club.bak"), "--db", url])
    assert refused.exit_code == 1
    assert "the folder" in refused.stderr and "typo does not exist: create it first" in refused.stderr
    assert not (tmp_path / "typo").exists()


def test_upgrade_to_an_older_revision_exits_non_zero(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    assert runner.invoke(app, ["db", "upgrade", "--db", url]).exit_code == 0
    back = runner.invoke(app, ["db", "upgrade", "--db", url, "--revision", known_revisions()[0]])
    assert back.exit_code == 1
    assert "toreshi migrates forward only" in back.stderr
