"""Shared set-up of the security tests: an app with an arbiter, a togyz game, a quiz game, and reading the store."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from starlette.testclient import TestClient

from toreshi.live.registry import LiveRoom
from toreshi.live.room import Decided
from toreshi.web.app import ROOM_KINDS

from ..web.helpers import ARBITER as ARBITER
from ..web.helpers import csrf_in
from ..web.helpers import session_csrf as session_csrf
from ..web.helpers import sign_in as sign_in

T = TypeVar("T")

TEAMS = ("Алтын", "Барыс", "Сұңқар")


def create_togyz(client: TestClient, csrf: str, flag: str = "claim") -> tuple[str, dict[str, str]]:
    """A togyz game made through the JSON API (flag falls claimed: the room has no timer of its own)."""
    body = {"white": "Ақ", "black": "Қара", "control": "blitz", "settings": {"flag_mode": flag}}
    response = client.post("/api/games", json=body, headers={"x-csrf-token": csrf})
    assert response.status_code == 201, response.text
    created = response.json()
    return str(created["id"]), dict(created["tokens"])


def create_quiz(
    client: TestClient, pack: Path, teams: tuple[str, ...] = TEAMS, **fields: str
) -> tuple[str, dict[str, str]]:
    """A qualifying quiz game from a real pack; returns the room id and a token per role (host, board, assistant,
    team)."""
    form = {
        "csrf": csrf_in(client.get("/quiz/new").text),
        "title": "Бой",
        "kind": "qualifying",
        "reading": "host",
        "arbitration": "compensated",
        "assistant": "Ерлан",
        "assistant_team": "Тұлпар",
        **{f"team{seat}": team for seat, team in enumerate(teams, start=1)},
        **fields,
    }
    files = {"pack": (pack.name, pack.read_bytes(), "application/zip")}
    response = client.post("/quiz/new", data=form, files=files, follow_redirects=False)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/quiz/(q-[a-z0-9]{4})/links", response.headers["location"])
    assert match is not None
    room_id = match.group(1)
    links = client.get(f"/quiz/{room_id}/links").text
    tokens = dict(re.findall(r"/quiz/" + room_id + r"/(host|board|assistant)\?token=([\w-]+)", links))
    codes = re.findall(r'<p class="join-code">([A-Z0-9-]+)</p>', links)
    assert len(codes) == len(teams) and set(tokens) == {"host", "board", "assistant"}
    tokens["team"] = codes[0].replace("-", "")[4:]
    return room_id, tokens


def greet(ws: Any, **hello: Any) -> dict[str, Any]:
    """Say hello on a fresh room socket (with the fields of ``hello``, such as a role's ``token``; without one, as
    whoever the client's session is) and check that the room welcomes it; returns the welcome."""
    ws.send_json({"t": "hello", "v": 0, **hello})
    welcome: dict[str, Any] = ws.receive_json()
    assert welcome["t"] == "welcome", welcome
    return welcome


def call(client: TestClient, function: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine on the app's own event loop (where its store and rooms live)."""
    portal = client.portal
    assert portal is not None, "the client must be entered (with TestClient(...) as client)"
    return portal.call(function)


def owner(client: TestClient, room_id: str, kind: str) -> LiveRoom:
    services = client.app.state.services  # type: ignore[attr-defined]

    async def get() -> LiveRoom:
        room: LiveRoom = await services.rooms.get(room_id, kind)
        return room

    return call(client, get)


def stored_version(client: TestClient, room_id: str) -> int:
    store = client.app.state.services.store  # type: ignore[attr-defined]

    async def load() -> int:
        return len(await store.load(room_id))

    return call(client, load)


def replay_agrees(client: TestClient, room_id: str, kind: str) -> tuple[int, dict[str, Any], dict[str, Any]]:
    """Rebuild the room from its stored events into a fresh logic; returns (stored events, live view, replayed view)
    both seen by a spectator at the same room time."""
    services = client.app.state.services  # type: ignore[attr-defined]

    async def compare() -> tuple[int, dict[str, Any], dict[str, Any]]:
        live: LiveRoom = await services.rooms.get(room_id, kind)
        events = await services.store.load(room_id)
        fresh = ROOM_KINDS[kind]()
        for event in events:
            fresh.apply(Decided(event.type, dict(event.payload)), event.server_time_ms)
        assert live.version == len(events), (live.version, len(events))
        now = live.now_ms()
        return len(events), dict(live.logic.view(None, now)), dict(fresh.view(None, now))

    return call(client, compare)
