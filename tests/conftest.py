"""Shared fixtures: the reference data beside the project (``../shared/data``)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``../shared/data``; tests that need it skip with a clear message when it is absent."""
    data = SHARED / "data"
    if not data.is_dir():
        pytest.skip(f"reference data not found at {data} (see ../shared/data/README.md)")
    return data
