"""Shared fixtures: the reference data beside the project (``../shared/data``), the event loop of the async tests and
an event store on a fresh SQLite file, a real server for the tests that need one (browsers, floods)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from toreshi.store import EventStore, open_store

from .served import Server

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

# Property tests check what is true, not how fast: on a loaded 2-core machine a 200 ms deadline per example fails
# tests that are right (speed has its own figures in benchmarks/). Each test keeps its own example count.
settings.register_profile("toreshi", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("toreshi")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; tests that need it skip with a clear message when it is absent."""
    data = SHARED / "data"
    if not data.is_dir():
        pytest.skip(f"reference data not found at {data} (see ../shared/data/README.md)")
    return data


@pytest.fixture
def anyio_backend() -> str:
    """The async tests run on asyncio, as the app does."""
    return "asyncio"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[EventStore]:
    """An event store on a fresh, migrated SQLite file (``tests/store`` has its own, on SQLite and PostgreSQL)."""
    async with open_store(f"sqlite+aiosqlite:///{tmp_path / 'store.db'}") as opened:
        yield opened


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A real ``toreshi serve`` on a data folder of its own, shared by the tests of a module."""
    running = Server(tmp_path_factory.mktemp("served"))
    try:
        yield running
    finally:
        running.stop()
