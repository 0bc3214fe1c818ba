"""An app on a fresh data folder (as the API sees it, or as an English-speaking browser does), and an arbiter signed
in through the first-start setup."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import sign_in


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path / "data")), base_url="http://testserver") as test_client:
        yield test_client


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a fresh data folder; the browser asks for English unless a test says otherwise."""
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "en"}) as client:
        yield client


@pytest.fixture
def arbiter(client: TestClient) -> str:
    return sign_in(client)
