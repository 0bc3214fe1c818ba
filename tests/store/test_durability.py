"""An append that returned is on disk: a writer killed with SIGKILL loses none of them."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from toreshi.store import EventStore, RoomKind

from .conftest import Database

pytestmark = pytest.mark.anyio

WRITER = Path(__file__).with_name("writer_process.py")
ROOMS = [f"g{n}" for n in range(40)]
ACKS_BEFORE_KILL = 600


async def test_sigkilled_writer_loses_no_acknowledged_append(database: Database, store: EventStore) -> None:
    for room_id in ROOMS:
        await store.create_room(room_id, RoomKind.TOGYZ)
    writer = await asyncio.create_subprocess_exec(
        sys.executable, str(WRITER), database.url, database.schema or "-", *ROOMS,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )  # fmt: skip
    assert writer.stdout is not None
    acknowledged: dict[str, int] = {}
    try:
        async with asyncio.timeout(60):
            for _ in range(ACKS_BEFORE_KILL):
                received = await writer.stdout.readline()
                if not received:
                    stderr = await writer.stderr.read() if writer.stderr else b""
                    pytest.fail(f"writer stopped early:\n{stderr.decode()}")
                room_id, version = received.decode().split()
                acknowledged[room_id] = int(version)
    finally:
        writer.send_signal(signal.SIGKILL)  # mid-write: other appends are in flight right now
        await writer.wait()
    assert writer.returncode == -signal.SIGKILL
    # Lines still in the pipe were acknowledged too, before the kill.
    assert writer.stdout is not None
    for line in (await writer.stdout.read()).decode().splitlines():
        room_id, version = line.split()
        acknowledged[room_id] = max(acknowledged.get(room_id, 0), int(version))

    assert sum(acknowledged.values()) >= ACKS_BEFORE_KILL
    for room_id in ROOMS:
        events = await store.load(room_id)
        versions = [event.version for event in events]
        assert versions == list(range(1, len(versions) + 1)), f"{room_id}: gap in {versions}"
        assert len(versions) >= acknowledged.get(room_id, 0), f"{room_id}: acknowledged events lost"
        assert (await store.room(room_id)).version == len(versions)
        assert [event.payload["hole"] for event in events] == [(v - 1) % 9 + 1 for v in versions]
