"""What several web tests do the same way: create a game through the JSON API, wait for a socket message."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient


def create_game(client: TestClient, csrf: str, **body: Any) -> dict[str, Any]:
    """A togyz game created by the signed-in arbiter (``csrf`` from ``/api/session``); the API's answer."""
    response = client.post(
        "/api/games",
        json={"white": "Абай", "black": "Болат", "control": "blitz", **body},
        headers={"x-csrf-token": csrf},
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def receive_until(ws: Any, wanted: str) -> dict[str, Any]:
    """The next socket message of type ``wanted``, skipping the others (pings, events …)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["t"] == wanted:
            return message
