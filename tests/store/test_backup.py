from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from toreshi.store import EventStore, NewEvent, RoomKind, RoomStatus, create_engine, upgrade
from toreshi.store.backup import BackupError, BackupFormat, backup, restore
from toreshi.store.migrate import head_revision
from toreshi.store.serving import DatabaseInUseError

from .conftest import Database

pytestmark = pytest.mark.anyio


async def populate(store: EventStore) -> None:
    await store.create_room("g1", RoomKind.TOGYZ)
    await store.create_room("q1", RoomKind.QUIZ)
    await store.create_room("g2", RoomKind.TOGYZ, status=RoomStatus.PAUSED)
    await store.append("g1", 0, [NewEvent("move", {"hole": n, "note": "қазан"}, n * 1_000) for n in range(1, 10)])
    await store.save_snapshot("g1", 5, {"ply": 5, "board": list(range(18))})
    await store.append("q1", 0, [NewEvent("press", {"team": "Арман", "t": 12.5}, 77)], status=RoomStatus.FINISHED)


async def state(store: EventStore) -> list[tuple[Any, ...]]:
    """Everything a restore must bring back, in a comparable form."""
    result: list[tuple[Any, ...]] = []
    for room in await store.rooms():
        result.append((room, await store.load_snapshot(room.id), await store.load(room.id)))
    return result


async def test_default_backup_restores_what_was_there(database: Database, store: EventStore, tmp_path: Path) -> None:
    await populate(store)
    before = await state(store)
    target = tmp_path / "backup.bin"

    made = await backup(database.url, target, schema=database.schema)
    expected_format = BackupFormat.SQLITE if database.dialect == "sqlite" else BackupFormat.PG_DUMP
    assert (made.format, made.revision, made.rooms, made.events) == (expected_format, head_revision(), 3, 10)
    assert not list(tmp_path.glob(".*partial"))

    # Life goes on after the backup, then the database is lost or damaged: restore the backup over it.
    await store.append("g1", 9, [NewEvent("move", {"hole": 1}, 99_000)])
    with pytest.raises(BackupError, match=r"already holds a toreshi database \(3 rooms, 11 events\); pass --force"):
        await restore(database.url, target, schema=database.schema)
    assert len(await store.load("g1")) == 10  # refused: untouched

    restored = await restore(database.url, target, schema=database.schema, force=True)
    assert (restored.format, restored.rooms, restored.events) == (expected_format, 3, 10)
    await store.engine.dispose()  # forget pooled connections to the replaced database
    assert await state(store) == before
    # The restored log takes appends again, and still refuses edits.
    assert await store.append("g1", 9, [NewEvent("move", {"hole": 2}, 100_000)]) == 10


async def test_json_backup_moves_between_sqlite_and_postgresql(
    database: Database, store: EventStore, tmp_path: Path
) -> None:
    """A SQLite club database restored into ``database`` (either dialect) and dumped back out again."""
    club_url = f"sqlite+aiosqlite:///{tmp_path / 'club.db'}"
    club_engine = create_engine(club_url)
    try:
        await upgrade(club_engine)
        club = EventStore(club_engine)
        await populate(club)
        before = await state(club)
    finally:
        await club_engine.dispose()

    dump = tmp_path / "club.jsonl"
    made = await backup(club_url, dump, format=BackupFormat.JSON)
    assert (made.format, made.rooms, made.events) == (BackupFormat.JSON, 3, 10)
    assert dump.read_text(encoding="utf-8").startswith('{"format":"toreshi-backup"')

    with pytest.raises(BackupError, match="already holds a toreshi database"):
        await restore(database.url, dump, schema=database.schema)  # the fixture's store migrated it: empty but ours
    restored = await restore(database.url, dump, schema=database.schema, force=True)
    assert (restored.format, restored.rooms, restored.events) == (BackupFormat.JSON, 3, 10)
    await store.engine.dispose()
    assert await state(store) == before

    back = tmp_path / "back.jsonl"
    await backup(database.url, back, schema=database.schema, format=BackupFormat.JSON)
    again_url = f"sqlite+aiosqlite:///{tmp_path / 'again.db'}"
    await restore(again_url, back)
    again_engine = create_engine(again_url)
    try:
        assert await state(EventStore(again_engine)) == before
    finally:
        await again_engine.dispose()


async def test_a_truncated_json_backup_changes_nothing_even_when_forced(
    database: Database, store: EventStore, tmp_path: Path
) -> None:
    await populate(store)
    before = await state(store)
    dump = tmp_path / "full.jsonl"
    await backup(database.url, dump, schema=database.schema, format=BackupFormat.JSON)
    lines = dump.read_text(encoding="utf-8").splitlines(keepends=True)

    truncated = tmp_path / "truncated.jsonl"
    truncated.write_text("".join(lines[:-1]), encoding="utf-8")
    with pytest.raises(BackupError, match="truncated: it has no end line"):
        await restore(database.url, truncated, schema=database.schema, force=True)

    garbled = tmp_path / "garbled.jsonl"
    garbled.write_text("".join(lines[:3]) + "{not json\n" + "".join(lines[3:]), encoding="utf-8")
    with pytest.raises(BackupError, match=r"line 4: not JSON"):
        await restore(database.url, garbled, schema=database.schema, force=True)

    miscounted = tmp_path / "miscounted.jsonl"
    miscounted.write_text("".join(lines[:2] + lines[3:]), encoding="utf-8")
    with pytest.raises(BackupError, match="inconsistent"):
        await restore(database.url, miscounted, schema=database.schema, force=True)

    await store.engine.dispose()
    assert await state(store) == before


async def test_backup_refuses_to_overwrite_and_to_back_up_nothing(
    database: Database, store: EventStore, tmp_path: Path
) -> None:
    target = tmp_path / "exists.bak"
    target.write_bytes(b"precious")
    with pytest.raises(BackupError, match="already exists; pass --force"):
        await backup(database.url, target, schema=database.schema)
    assert target.read_bytes() == b"precious"
    await backup(database.url, target, schema=database.schema, force=True)
    assert target.read_bytes() != b"precious"

    with pytest.raises(BackupError, match="does not exist"):
        await backup(f"sqlite+aiosqlite:///{tmp_path / 'missing.db'}", tmp_path / "x.bak")
    # A mistyped folder is said, not made (issue 26).
    with pytest.raises(BackupError, match=r"the folder .*typo does not exist: create it first"):
        await backup(database.url, tmp_path / "typo" / "club.bak", schema=database.schema)
    assert not (tmp_path / "typo").exists()
    empty = tmp_path / "empty.db"
    empty.touch()
    with pytest.raises(BackupError, match="holds no toreshi database"):
        await backup(f"sqlite+aiosqlite:///{empty}", tmp_path / "y.bak")
    wrong = BackupFormat.PG_DUMP if database.dialect == "sqlite" else BackupFormat.SQLITE
    with pytest.raises(BackupError, match="use"):
        await backup(database.url, tmp_path / "z.bak", schema=database.schema, format=wrong, force=True)


async def test_restore_refuses_files_that_are_no_backups(database: Database, tmp_path: Path) -> None:
    for name, content in [("notes.txt", b"hello"), ("empty", b"")]:
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(BackupError, match="is not a toreshi backup"):
            await restore(database.url, path, schema=database.schema)
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"format": "other"}\n', encoding="utf-8")
    with pytest.raises(BackupError, match="is not a toreshi JSON backup"):
        await restore(database.url, foreign, schema=database.schema)
    future = tmp_path / "future.jsonl"
    future.write_text('{"format": "toreshi-backup", "format_version": 1, "revision": "9999"}\n', encoding="utf-8")
    with pytest.raises(BackupError, match="revision '9999', which this toreshi does not know"):
        await restore(database.url, future, schema=database.schema)
    with pytest.raises(BackupError, match="cannot read backup"):
        await restore(database.url, tmp_path / "missing.bak", schema=database.schema)


@pytest.mark.parametrize("database", ["postgresql"], indirect=True)
async def test_postgresql_falls_back_to_json_without_pg_dump(
    database: Database, store: EventStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await populate(store)
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump to be found
    made = await backup(database.url, tmp_path / "fallback.bak", schema=database.schema)
    assert (made.format, made.events) == (BackupFormat.JSON, 10)
    with pytest.raises(BackupError, match="pg_dump is not installed; use --format json"):
        await backup(database.url, tmp_path / "explicit.bak", schema=database.schema, format=BackupFormat.PG_DUMP)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
async def test_sqlite_backup_is_a_single_self_contained_file(
    database: Database, store: EventStore, tmp_path: Path
) -> None:
    url = database.url
    await populate(store)
    copy = tmp_path / "copy" / "toreshi.db"
    copy.parent.mkdir()
    await backup(url, copy)
    assert not copy.with_name("toreshi.db-wal").exists()
    moved = tmp_path / "moved.db"
    copy.rename(moved)  # no -wal or -shm file left behind: the one file is the whole backup
    restored_url = f"sqlite+aiosqlite:///{tmp_path / 'restored.db'}"
    assert (await restore(restored_url, moved)).events == 10
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(moved.read_bytes()[:4096])
    with pytest.raises(BackupError, match=r"damaged|not a readable SQLite database"):
        await restore(f"sqlite+aiosqlite:///{tmp_path / 'other.db'}", damaged)


async def test_restore_is_refused_while_a_server_holds_the_database(
    database: Database, store: EventStore, tmp_path: Path
) -> None:
    """Issue 26: even forced, a restore waits for the servers to stop — on SQLite and on PostgreSQL alike."""
    saved = await backup(database.url, tmp_path / "saved.bak", schema=database.schema, format=BackupFormat.JSON)
    await store.create_room("kept", RoomKind.TOGYZ, status=RoomStatus.FINISHED)  # made after the backup
    arguments = ["--db", database.url, "--data-dir", str(tmp_path / "data")]
    server = await start_server([*arguments, *(["--db-schema", database.schema] if database.schema else [])])
    try:
        with pytest.raises(DatabaseInUseError, match=r"a toreshi server is using .*: stop it first, then restore"):
            await restore(database.url, saved.path, schema=database.schema, force=True)
        assert [room.id for room in await store.rooms()] == ["kept"]  # nothing was touched
    finally:
        server.terminate()
        await asyncio.to_thread(server.wait, 10)
    assert (await restore(database.url, saved.path, schema=database.schema, force=True)).rooms == 0


async def start_server(arguments: list[str]) -> subprocess.Popen[bytes]:
    """A real ``toreshi serve`` on a free port, once it answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "toreshi", "serve", "--port", str(port), *arguments],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path), "TERM": "dumb"},
    )
    async with httpx.AsyncClient(timeout=1) as client:
        for _ in range(300):
            if server.poll() is not None:
                pytest.fail(f"toreshi serve exited: {server.stderr.read().decode() if server.stderr else ''}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"http://127.0.0.1:{port}/api/health")).status_code == 200:
                    return server
            await asyncio.sleep(0.1)
    server.kill()
    pytest.fail("toreshi serve did not answer in 30 s")
