"""``toreshi serve`` instances on the real PostgreSQL and Redis; the owner of a game (or a quiz) is killed with SIGKILL.

The players sit on the two other instances (their commands are forwarded to the owner, the events come back through
Redis and each instance's replica), a spectator on the owner. After the kill the next move takes the room over on
its own instance, a second game that nobody touches is taken over by the background scan, no acknowledged move is
missing from the log, and the clock of the side to move was charged the outage by wall time.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from toreshi.store import EventStore, create_engine

from .conftest import Services
from .servers import RoomClient, Server, create_game, free_port, prepare_data_dir, running, session_cookie, sign_in

pytestmark = pytest.mark.anyio

log = logging.getLogger(__name__)

PLIES_BEFORE_KILL = 6
PLIES_AFTER_KILL = 6
TAKEOVER_LIMIT_S = 3.0
"""A killed owner's Redis connections close at once, so the first command finds it dead without waiting."""
SCAN_TAKEOVER_LIMIT_S = 4.0
"""The scan runs every second and loads a room in milliseconds; the margin is for a loaded 2-core machine."""
CLOCK_TOLERANCE_MS = 1_500
"""How far the room time charged may stray from the wall time the test measured around it: each end is observed
through a socket, so each carries a delivery delay (small, but not on a loaded 2-core machine)."""


async def play(clients: dict[str, RoomClient], plies: int, rng: random.Random, acked: list[tuple[int, str]]) -> None:
    """Play ``plies`` moves, each by the side to move through its own socket; remember every acknowledged move."""
    for _ in range(plies):
        side = await side_to_move(clients)
        mover = clients[side]
        answer = await mover.command("move", {"hole": rng.choice(mover.state["legal"])})
        assert answer["t"] == "ack", answer
        await remember(mover, answer, acked)


async def remember(mover: RoomClient, answer: dict[str, Any], acked: list[tuple[int, str]]) -> None:
    """Wait until the mover's socket has the event of its acknowledged move; remember its version and token."""
    await mover.wait_for(lambda c: c.version >= answer["v"])
    acked.append((answer["v"], mover.state["moves"][-1]["token"]))


async def move_through_outage(mover: RoomClient, rng: random.Random, acked: list[tuple[int, str]]) -> float:
    """Play a random legal move while the room's owner is down, remember it; returns the seconds until it was
    acknowledged. A move sent while its room's owner dies may be answered ``moved`` (delivered to the dying owner, fate
    unknown): the client looks at the room (on its own, live instance) and sends it again only if it was not played."""
    hole = rng.choice(mover.state["legal"])
    plies = len(mover.state["moves"])
    sent_at = time.monotonic()
    for _ in range(5):
        answer = await mover.command("move", {"hole": hole})
        if answer["t"] == "ack":
            acknowledged_s = time.monotonic() - sent_at
            await remember(mover, answer, acked)
            return acknowledged_s
        assert answer["code"] == "moved", answer
        await asyncio.sleep(0.3)
        assert len(mover.state["moves"]) == plies, "a move answered 'moved' was applied after all"
    raise AssertionError("the move never went through")


async def side_to_move(clients: dict[str, RoomClient]) -> str:
    newest = max(client.version for client in clients.values())
    for client in clients.values():
        await client.wait_for(lambda c: c.version >= newest)
    side: str = clients["white"].state["turn"]
    await clients[side].wait_for(lambda c: bool(c.state.get("legal")))
    return side


def owned_by(holder: str | None, server: Server) -> bool:
    return holder is not None and f"-{server.pid}-" in holder


async def test_play_goes_on_after_the_owner_is_killed(services: Services, tmp_path: Path) -> None:
    data_dir = str(prepare_data_dir(tmp_path / "data"))
    servers = [Server(name, free_port(), services.server_args(data_dir), tmp_path / f"{name}.log") for name in "abc"]
    rng = random.Random(8)
    sockets: list[RoomClient] = []
    async with running(servers) as (a, b, c), httpx.AsyncClient(base_url=a.url, timeout=10) as http:
        try:
            csrf = await sign_in(http)
            game = await create_game(http, csrf, "Абай", "Болат")
            idle = await create_game(http, csrf, "Қанат", "Дәулет")
            room = game["id"]
            assert owned_by(await services.lease_holder(room), a)  # the instance that created it owns it

            # A spectator watches each game on A, so A keeps both (a room's lease goes to the instance with its
            # sockets only when its owner has none: docs/decisions.md), whoever sends the commands.
            spectator = await RoomClient.open(a.ws_url, room)
            idle_spectator = await RoomClient.open(a.ws_url, idle["id"])
            sockets += [spectator, idle_spectator]
            # The arbiter starts both games from instances B and C: forwarded to A, acknowledged back.
            arbiter = await RoomClient.open(b.ws_url, room, cookie=session_cookie(http))
            idle_arbiter = await RoomClient.open(c.ws_url, idle["id"], cookie=session_cookie(http))
            sockets += [arbiter, idle_arbiter]
            assert (await arbiter.command("start"))["t"] == "ack"
            assert (await idle_arbiter.command("start"))["t"] == "ack"

            white = await RoomClient.open(b.ws_url, room, token=game["tokens"]["white"])
            black = await RoomClient.open(c.ws_url, room, token=game["tokens"]["black"])
            sockets += [white, black]
            players = {"white": white, "black": black}
            await white.wait_for(lambda c: c.state.get("status") == "running")

            # A refusal decided on A comes back through the forwarder with its code.
            refused = await black.command("move", {"hole": 1})
            assert refused["t"] == "refused" and refused["code"] == "not_your_turn"

            acked: list[tuple[int, str]] = []
            await play(players, PLIES_BEFORE_KILL, rng, acked)
            assert await side_to_move(players) == "white"
            await spectator.wait_for(lambda c: c.version == acked[-1][0])
            assert [m["token"] for m in spectator.state["moves"]] == [token for _, token in acked]
            before, seen_at = dict(white.state["clock"]), time.monotonic()  # white's dial, running, at room time "at"
            assert before["running"] == "white"
            assert owned_by(await services.lease_holder(room), a)  # still: A has a socket of each game
            assert owned_by(await services.lease_holder(idle["id"]), a)

            a.kill()
            killed_at = time.monotonic()
            takeover_s = await move_through_outage(white, rng, acked)
            holder = await services.lease_holder(room)
            assert holder is not None and not owned_by(holder, a)

            # The clock: the outage was charged to the side to move, as if the clock had kept running.
            after, pressed_at = white.state["clock"], white.last_ts  # the room time of white's press
            charged = pressed_at - before["at"]  # from the last look before the kill to the press after it
            wall_ms = (time.monotonic() - seen_at) * 1000
            assert after["running"] == "black"
            assert after["white"] == before["white"] - charged
            assert after["black"] == before["black"] - (after["at"] - pressed_at)
            assert abs(wall_ms - charged) < CLOCK_TOLERANCE_MS, (charged, wall_ms)  # room time ran on through it all

            # The game nobody touches moves to a live instance by the background scan.
            scan_started = time.monotonic()
            while owned_by(await services.lease_holder(idle["id"]), a):
                assert time.monotonic() - scan_started < SCAN_TAKEOVER_LIMIT_S + 5, "the scan never took it over"
                await asyncio.sleep(0.05)
            scan_s = time.monotonic() - killed_at
            log.warning("takeover on first command: %.2f s; by the scan: %.2f s", takeover_s, scan_s)
            assert takeover_s < TAKEOVER_LIMIT_S
            assert scan_s < SCAN_TAKEOVER_LIMIT_S

            await play(players, PLIES_AFTER_KILL, rng, acked)

            # The spectator lost its instance; it reconnects elsewhere and resyncs by version.
            assert spectator.closed
            again = await RoomClient.open(c.ws_url, room, version=spectator.version)
            sockets.append(again)
            await again.wait_for(lambda c: c.version == acked[-1][0])
            replayed = [event for event in again.events if event["type"] == "move_played"]
            assert len(replayed) == PLIES_AFTER_KILL + 1  # exactly the moves made since it lost its socket

            # No acknowledged move is missing from the record, in order and without gaps.
            engine = create_engine(services.postgres_url, schema=services.schema)
            try:
                events = await EventStore(engine).load(room)
                async with engine.connect() as connection:
                    rooms = (await connection.execute(text("SELECT count(*) FROM rooms"))).scalar_one()
            finally:
                await engine.dispose()
            assert rooms == 2
            assert [event.version for event in events] == list(range(1, len(events) + 1))
            assert events[-1].version == acked[-1][0]
            state: dict[str, Any] = (await http.get(f"{b.url}/api/rooms/{room}")).json()["data"]
            assert [move["token"] for move in state["moves"]] == [token for _, token in acked]
        finally:
            for client in sockets:
                await client.close()


async def test_a_paused_owner_loses_its_rooms_and_cannot_write(services: Services, tmp_path: Path) -> None:
    """SIGSTOP keeps the owner's Redis connections open, so nobody can tell it is gone until its lease lapses; then
    the other instance takes over, and the old owner, resumed, drops the room instead of writing."""
    data_dir = str(prepare_data_dir(tmp_path / "data"))
    servers = [Server(name, free_port(), services.server_args(data_dir), tmp_path / f"{name}.log") for name in "ab"]
    rng = random.Random(3)
    sockets: list[RoomClient] = []
    async with running(servers) as (a, b), httpx.AsyncClient(base_url=a.url, timeout=10) as http:
        try:
            csrf = await sign_in(http)
            game = await create_game(http, csrf, "Абай", "Болат")
            room = game["id"]
            watcher = await RoomClient.open(a.ws_url, room)  # a socket on A: A keeps the room (no hand-over to B)
            arbiter = await RoomClient.open(b.ws_url, room, cookie=session_cookie(http))
            white = await RoomClient.open(b.ws_url, room, token=game["tokens"]["white"])
            black = await RoomClient.open(b.ws_url, room, token=game["tokens"]["black"])
            sockets += [watcher, arbiter, white, black]
            assert (await arbiter.command("start"))["t"] == "ack"
            players = {"white": white, "black": black}
            acked: list[tuple[int, str]] = []
            await play(players, 2, rng, acked)
            assert owned_by(await services.lease_holder(room), a)
            await side_to_move(players)
            before, seen_at = dict(white.state["clock"]), time.monotonic()

            a.pause()
            outage_s = await move_through_outage(white, rng, acked)
            assert owned_by(await services.lease_holder(room), b)
            log.warning("a paused owner's room moved after %.2f s (lease 5 s)", outage_s)
            assert 4.0 < outage_s < 12.0

            charged = white.last_ts - before["at"]
            assert white.state["clock"]["white"] == before["white"] - charged
            assert abs((time.monotonic() - seen_at) * 1000 - charged) < CLOCK_TOLERANCE_MS  # the outage, by wall time

            a.resume()  # it wakes with a forwarded move in its socket buffer and a lease that is no longer its own
            await asyncio.sleep(1.0)
            await play(players, 2, rng, acked)
            assert owned_by(await services.lease_holder(room), b)

            engine = create_engine(services.postgres_url, schema=services.schema)
            try:
                events = await EventStore(engine).load(room)
            finally:
                await engine.dispose()
            assert [event.version for event in events] == list(range(1, len(events) + 1))
            assert events[-1].version == acked[-1][0]  # nothing written behind the new owner's back
            moves = [event for event in events if event.type == "move_played"]
            assert len(moves) == len(acked)
        finally:
            for client in sockets:
                await client.close()


QUIZ_TEAMS = ("Алтын", "Барыс", "Сұңқар")


async def create_quiz(http: httpx.AsyncClient, csrf: str, pack: Path) -> tuple[str, dict[str, str], str]:
    """A «Своя игра» game from a real pack through the arbiter's form; its room, the teams' secrets, the host token."""
    form = {
        "csrf": csrf, "title": "Бой 1", "kind": "qualifying", "round": "1", "first_theme": "1", "reading": "host",
        "arbitration": "compensated", "assistant": "Ерлан", "assistant_team": "Тұлпар",
        "team1": QUIZ_TEAMS[0], "team2": QUIZ_TEAMS[1], "team3": QUIZ_TEAMS[2],
    }  # fmt: skip
    files = {"pack": (pack.name, pack.read_bytes(), "application/zip")}
    response = await http.post("/quiz/new", data=form, files=files)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/quiz/(q-[a-z0-9]{4})/links", response.headers["location"])
    assert match is not None, response.headers["location"]
    room = match.group(1)
    links = (await http.get(f"/quiz/{room}/links")).text
    codes = re.findall(r'<p class="join-code">([A-Z0-9-]+)</p>', links)
    secrets = {team: code.split("-")[1] for team, code in zip(QUIZ_TEAMS, codes, strict=True)}
    host = re.search(r"/quiz/" + room + r"/host\?token=([\w-]+)", links)
    assert host is not None
    return room, secrets, host.group(1)


def events_of(client: RoomClient, kind: str) -> list[dict[str, Any]]:
    return [event for event in client.events if event["type"] == kind]


async def test_a_quiz_goes_on_after_its_owner_is_killed(services: Services, tmp_path: Path, shared_data: Path) -> None:
    """Presses and verdicts before the kill stay; after it the host and the teams, on the surviving instance, play
    the next question: the press is taken over by that instance, which also runs the buzzer window's timer."""
    data_dir = str(prepare_data_dir(tmp_path / "data"))
    servers = [Server(name, free_port(), services.server_args(data_dir), tmp_path / f"{name}.log") for name in "ab"]
    sockets: list[RoomClient] = []
    async with running(servers) as (a, b), httpx.AsyncClient(base_url=a.url, timeout=10) as http:
        try:
            csrf = await sign_in(http)
            room, secrets, host_token = await create_quiz(http, csrf, shared_data / "quiz" / "siq" / "1.siq")
            assert owned_by(await services.lease_holder(room), a)
            host = await RoomClient.open(b.ws_url, room, token=host_token)
            team_a = await RoomClient.open(b.ws_url, room, token=secrets[QUIZ_TEAMS[0]])
            team_b = await RoomClient.open(b.ws_url, room, token=secrets[QUIZ_TEAMS[1]])
            sockets += [host, team_a, team_b]
            await host.wait_for(lambda c: c.state.get("status") == "draw")

            assert (await host.command("draw", {"team": QUIZ_TEAMS[0]}))["t"] == "ack"
            assert (await host.command("choose", {"theme": 0, "value": 1}))["t"] == "ack"
            await team_b.wait_for(lambda c: bool(events_of(c, "question_chosen")))
            pressed = await team_b.command("press", {"tc": time.time() * 1e3})
            assert pressed["t"] == "ack", pressed
            await team_b.wait_for(lambda c: bool(events_of(c, "buzzed")))  # A's timer closed the window
            assert (await host.command("right"))["t"] == "ack"
            await host.wait_for(lambda c: bool(events_of(c, "answer_judged")))

            a.kill()
            killed_at = time.monotonic()
            choose = await host.command("choose", {"theme": 1, "value": 1})
            if choose["t"] == "refused" and choose["code"] == "moved":  # sent to the dying owner: look, then again
                await asyncio.sleep(0.3)
                if len(events_of(host, "question_chosen")) == 1:
                    choose = await host.command("choose", {"theme": 1, "value": 1})
            assert choose["t"] == "ack", choose
            takeover_s = time.monotonic() - killed_at
            assert owned_by(await services.lease_holder(room), b)
            await team_a.wait_for(lambda c: len(events_of(c, "question_chosen")) == 2)
            assert (await team_a.command("press", {"tc": time.time() * 1e3}))["t"] == "ack"
            await team_a.wait_for(lambda c: len(events_of(c, "buzzed")) == 2)  # B's timer closed this window
            assert (await host.command("wrong"))["t"] == "ack"
            await host.wait_for(lambda c: len(events_of(c, "answer_judged")) == 2)
            log.warning("quiz room taken over on the first command after the kill in %.2f s", takeover_s)

            report = (await http.get(f"{b.url}/api/quiz/{room}/report")).json()
            rulings = [(q["rulings"][0]["team"], q["rulings"][0]["correct"]) for q in report["questions"][:2]]
            assert rulings == [(QUIZ_TEAMS[1], True), (QUIZ_TEAMS[0], False)]
            engine = create_engine(services.postgres_url, schema=services.schema)
            try:
                events = await EventStore(engine).load(room)
            finally:
                await engine.dispose()
            kinds = [event.type for event in events]
            assert kinds.count("press_received") == 2 and kinds.count("answer_judged") == 2
            assert [event.version for event in events] == list(range(1, len(events) + 1))
        finally:
            for client in sockets:
                await client.close()
