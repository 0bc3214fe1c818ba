"""What several web tests do the same way: create a game through the JSON API, wait for a socket message."""

from __future__ import annotations

from collections import deque
from typing import Any
from weakref import WeakKeyDictionary

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


_UNREAD: WeakKeyDictionary[Any, deque[dict[str, Any]]] = WeakKeyDictionary()


def receive_message(ws: Any) -> dict[str, Any]:
    """The next socket message; the events of an ``events`` frame come one by one, as ``event`` messages."""
    unread = _UNREAD.setdefault(ws, deque())
    if not unread:
        message: dict[str, Any] = ws.receive_json()
        if message["t"] != "events":
            return message
        assert message["events"], "an events frame carries at least one event"
        unread.extend(message["events"])
    return unread.popleft()


def receive_until(ws: Any, wanted: str, **match: Any) -> dict[str, Any]:
    """The next socket message of type ``wanted`` (and with the ``match`` fields), skipping the others."""
    for _ in range(500):
        message = receive_message(ws)
        if message["t"] == wanted and all(message.get(key) == value for key, value in match.items()):
            return message
    raise AssertionError(f"no {wanted} message")
