"""An app on a fresh data folder, and an arbiter signed in through the first-start setup."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.settings import Settings

ARBITER = ("Төреші Әлия", "kumalak-82!")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path / "data")), base_url="http://testserver") as test_client:
        yield test_client


def sign_in_first_arbiter(client: TestClient) -> str:
    """Set the first password through /setup and return the session's CSRF token."""
    csrf = client.get("/api/session").json()["csrf"]
    name, password = ARBITER
    response = client.post(
        "/setup", data={"name": name, "password": password, "confirm": password, "csrf": csrf}, follow_redirects=False
    )
    assert response.status_code == 303, response.text
    session = client.get("/api/session").json()
    assert session["arbiter"] == name
    return str(session["csrf"])


@pytest.fixture
def arbiter(client: TestClient) -> str:
    return sign_in_first_arbiter(client)
