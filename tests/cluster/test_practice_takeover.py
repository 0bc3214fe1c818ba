"""A practice game goes on after its owner is killed (issue 32): the instance that takes the room over takes the
engine's seat too, as a restarted lone instance does, on the real PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from ..web.helpers import csrf_in
from .conftest import Services
from .servers import RoomClient, Server, free_port, prepare_data_dir, running
from .test_takeover import owned_by

pytestmark = pytest.mark.anyio

ENGINE_REPLY_S = 20.0
"""Level 1 answers in milliseconds; the margin is for the takeover and a loaded 2-core machine."""


async def test_the_engine_plays_on_after_the_practice_games_owner_is_killed(services: Services, tmp_path: Path) -> None:
    data_dir = str(prepare_data_dir(tmp_path / "data"))
    servers = [Server(name, free_port(), services.server_args(data_dir), tmp_path / f"{name}.log") for name in "ab"]
    async with running(servers) as (a, b), httpx.AsyncClient(base_url=a.url, timeout=10) as http:
        page = await http.get("/practice?lang=kk")
        form = {"csrf": csrf_in(page.text), "name": "Асқар", "level": "1", "side": "white", "control": "blitz"}
        created = await http.post("/practice", data=form)
        assert created.status_code == 303, created.text
        location = urlparse(created.headers["location"])
        room, token = location.path.rsplit("/", 1)[1], parse_qs(location.query)["token"][0]
        assert owned_by(await services.lease_holder(room), a)  # the instance that made it owns it, and its engine

        # The person plays from instance B (forwarded to A); A's engine answers.
        person = await RoomClient.open(b.ws_url, room, token=token)
        try:
            await person.wait_for(lambda c: c.state.get("status") == "running" and bool(c.state.get("legal")))
            assert (await person.command("move", {"hole": person.state["legal"][0]}))["t"] == "ack"
            await person.wait_for(lambda c: len(c.state["moves"]) == 2, ENGINE_REPLY_S)

            a.kill()
            # The next move takes the room over on B; B's engine must answer it: without it the game would wait for
            # a computer that is no longer anywhere, and the person's clock would run out.
            await person.wait_for(lambda c: bool(c.state.get("legal")) and c.state["turn"] == "white")
            hole = person.state["legal"][0]
            for _ in range(5):  # "moved": sent to the dying owner; the client sends it again (docs/protocol.md)
                answer = await person.command("move", {"hole": hole}, timeout=20)
                if answer["t"] == "ack":
                    break
                assert answer["code"] == "moved", answer
                await asyncio.sleep(0.3)
            assert answer["t"] == "ack", answer
            assert owned_by(await services.lease_holder(room), b)
            await person.wait_for(lambda c: len(c.state["moves"]) == 4, ENGINE_REPLY_S)
            assert person.state["turn"] == "white" and person.state["status"] == "running"
        finally:
            await person.close()
