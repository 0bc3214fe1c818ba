"""Who may do what: every route of the app and every socket command, for every kind of visitor.

The route table must name every route the app has (a new route fails here until it is classified). Visitors: an
anonymous browser, a spectator (a browser with a made-up token), the player of another game (a real token of
another room), the player (this room's token; a team's code for quiz pages) and the signed-in arbiter. Every
visitor has its own valid CSRF token, so what stops a write is the role check, not the form token; and after every
refused write the store holds exactly the events it held before.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import call, create_quiz, create_togyz, session_csrf, sign_in

VISITORS = ("anonymous", "spectator", "other player", "player", "arbiter")

PUBLIC = "public"
"""Anyone reads it (200), whatever their role."""
ARBITER = "arbiter"
"""Only the signed-in arbiter: the others are sent to sign in (303 to /login) or answered 401."""
HOST = "host"
"""The quiz host's screen: the arbiter (or the host's link); others are sent to sign in."""
REPORT = "report"
"""A quiz report: the arbiter (or host) while the game runs; 403 for anyone else until it is over."""
TEAM_LINK = "team link"
"""A tournament team's protest page: only through the team's secret link (404 without it)."""
PLAYER_LINK = "player link"
"""A tournament player's own page: only through that player's secret link (404 without it)."""
MEDIA = "media"
"""A quiz pack's content item: never writes; 404 unless the room's pack has it and the visitor may see it now
(this table's quiz is a text pack: 404 for all; who may load which item: tests/web/test_quiz_media.py)."""
PRACTICE = "practice"
"""Anyone may start a practice game against the computer: a room of its own, no other room changes."""
ANYONE_HARMLESS = "anyone, harmless"
"""Anyone may send it, and it changes nothing stored (sign-out, the language, the sign-in form)."""

ROUTES: dict[tuple[str, str], str] = {
    ("GET", "/"): PUBLIC,
    ("GET", "/api/health"): PUBLIC,
    ("GET", "/api/openapi.json"): PUBLIC,
    # The installable app (issue 30): a player's manifest only echoes the link the request carried.
    ("GET", "/manifest.webmanifest"): PUBLIC,
    ("GET", "/sw.js"): PUBLIC,
    ("GET", "/offline/{language}"): PUBLIC,
    ("GET", "/favicon.ico"): PUBLIC,
    # The guide for the arbiter and the quiz host (issue 30): our own text and pictures, for anyone.
    ("GET", "/guide"): PUBLIC,
    ("GET", "/guide/{language}/{page}"): PUBLIC,
    ("GET", "/guide/screenshots/{name}"): PUBLIC,
    ("GET", "/setup"): ANYONE_HARMLESS,  # once an arbiter exists it redirects to /login
    ("POST", "/setup"): ANYONE_HARMLESS,  # once an arbiter exists it only redirects to /login
    ("GET", "/login"): PUBLIC,
    ("POST", "/login"): ANYONE_HARMLESS,
    ("POST", "/logout"): ANYONE_HARMLESS,
    ("GET", "/language"): ANYONE_HARMLESS,
    ("GET", "/games/new"): ARBITER,
    ("POST", "/games/new"): ARBITER,
    ("GET", "/games/{room_id}/links"): ARBITER,
    ("GET", "/games/{room_id}"): PUBLIC,
    ("GET", "/games/{room_id}/replay"): PUBLIC,
    ("GET", "/games/{room_id}/review.json"): PUBLIC,  # the engine's review of a finished game ("unavailable" before)
    ("GET", "/games/{room_id}/evaluation.json"): PUBLIC,  # what spectators may see (fair play decided on the server)
    ("GET", "/practice"): PUBLIC,
    ("POST", "/practice"): PRACTICE,
    ("GET", "/games/{room_id}/export.pgn"): PUBLIC,
    ("GET", "/games/{room_id}/sheet"): PUBLIC,
    ("GET", "/games/{room_id}/position.fen"): PUBLIC,
    ("POST", "/games/{room_id}/links/{role}/reissue"): ARBITER,
    ("POST", "/games/{room_id}/archive"): ARBITER,
    ("GET", "/api/games/{room_id}/links"): ARBITER,
    ("POST", "/api/games/{room_id}/links/{role}"): ARBITER,
    ("GET", "/api/rooms/{room_id}"): PUBLIC,
    ("GET", "/api/session"): PUBLIC,
    ("POST", "/api/games"): ARBITER,
    ("GET", "/quiz"): PUBLIC,
    ("GET", "/quiz/teams"): PUBLIC,
    ("POST", "/quiz/teams"): ARBITER,
    ("GET", "/quiz/teams/{team_id}"): PUBLIC,
    ("POST", "/quiz/teams/{team_id}"): ARBITER,
    ("GET", "/quiz/tours"): PUBLIC,
    ("GET", "/quiz/tours/new"): ARBITER,
    ("POST", "/quiz/tours/new"): ARBITER,
    ("GET", "/quiz/tours/{tour_id}"): PUBLIC,
    ("GET", "/quiz/tours/{tour_id}/standings.csv"): PUBLIC,
    ("GET", "/quiz/tours/{tour_id}/export.zip"): ARBITER,  # the results bundle: the games' full protocols, the log
    ("POST", "/quiz/tours/{tour_id}/{action}"): ARBITER,
    ("GET", "/quiz/league"): PUBLIC,
    ("GET", "/quiz/league.{fmt}"): PUBLIC,
    ("GET", "/quiz/ratings.csv"): PUBLIC,
    ("GET", "/quiz/new"): ARBITER,
    ("POST", "/quiz/new"): ARBITER,
    ("POST", "/quiz/new/pick"): ARBITER,
    ("GET", "/quiz/{room_id}/media/{cell}/{part}/{index}"): MEDIA,
    ("GET", "/quiz/join"): PUBLIC,
    ("GET", "/j/{code}"): ANYONE_HARMLESS,
    ("GET", "/quiz/{room_id}/links"): ARBITER,
    ("GET", "/quiz/{room_id}/report"): REPORT,
    ("GET", "/quiz/{room_id}/report.csv"): REPORT,
    ("POST", "/quiz/{room_id}/serial"): ARBITER,
    ("POST", "/quiz/{room_id}/archive"): ARBITER,
    ("POST", "/quiz/{room_id}/finish"): ARBITER,
    ("POST", "/quiz/{room_id}/links/reissue"): ARBITER,
    ("GET", "/api/quiz/{room_id}/report"): REPORT,
    ("GET", "/api/quiz/{room_id}/tour"): PUBLIC,
    ("GET", "/quiz/{room_id}/host"): HOST,
    ("GET", "/quiz/{room_id}/board"): PUBLIC,
    ("GET", "/quiz/{room_id}/buzzer"): PUBLIC,
    ("GET", "/quiz/{room_id}/assistant"): PUBLIC,
    ("GET", "/quiz/{room_id}"): PUBLIC,
    ("GET", "/tournaments"): PUBLIC,
    ("GET", "/tournaments/new"): ARBITER,
    ("POST", "/tournaments/new"): ARBITER,
    ("GET", "/tournaments/{tid}"): PUBLIC,
    ("GET", "/tournaments/{tid}/settings"): ARBITER,  # the settings forms: team events and quiz tours have none
    ("GET", "/tournaments/{tid}/forbidden"): PUBLIC,
    ("GET", "/teams"): PUBLIC,
    ("POST", "/teams/new"): ARBITER,
    ("GET", "/teams/{tid}"): PUBLIC,
    ("GET", "/teams/{tid}/standings"): PUBLIC,
    ("GET", "/teams/{tid}/audit"): PUBLIC,
    ("GET", "/teams/{tid}/export/{what}"): PUBLIC,
    ("GET", "/teams/{tid}/export.zip"): ARBITER,  # the results bundle, with the audit log: the arbiter's
    ("POST", "/teams/{tid}/do/{action}"): ARBITER,
    ("GET", "/tournaments/{tid}/rounds/{number}"): PUBLIC,
    ("GET", "/tournaments/{tid}/rounds/{number}/live"): PUBLIC,
    ("GET", "/tournaments/{tid}/rounds/{number}/evaluation.json"): PUBLIC,
    ("GET", "/tournaments/{tid}/overlays"): PUBLIC,
    ("GET", "/tournaments/{tid}/overlay/board/{number}"): PUBLIC,
    ("GET", "/tournaments/{tid}/overlay/board/{number}.json"): PUBLIC,
    ("GET", "/tournaments/{tid}/overlay/standings"): PUBLIC,
    ("GET", "/tournaments/{tid}/overlay/standings.json"): PUBLIC,
    ("GET", "/quiz/{room_id}/overlay"): PUBLIC,
    ("POST", "/tournaments/{tid}/rounds/{number}/games"): ARBITER,
    ("POST", "/tournaments/{tid}/rounds/{number}/start"): ARBITER,
    ("POST", "/tournaments/{tid}/rounds/{number}/calls"): ARBITER,
    ("GET", "/tournaments/{tid}/rounds/{number}/links"): ARBITER,
    ("GET", "/tournaments/{tid}/standings"): PUBLIC,
    ("GET", "/tournaments/{tid}/export.{format}"): PUBLIC,
    ("GET", "/tournaments/{tid}/protests"): PUBLIC,
    ("GET", "/tournaments/{tid}/audit"): PUBLIC,
    # The fair-play report (issue 28): evidence for the arbiters, never public; the POST starts the engine.
    ("GET", "/tournaments/{tid}/fairplay"): ARBITER,
    ("POST", "/tournaments/{tid}/fairplay"): ARBITER,
    ("POST", "/tournaments/{tid}/collect"): ARBITER,
    ("POST", "/tournaments/{tid}/do/{action}"): ARBITER,
    ("POST", "/tournaments/{tid}/team-link"): ARBITER,
    ("GET", "/tournaments/{tid}/protest"): TEAM_LINK,
    # The public results site (issue 29): the same files `toreshi publish` writes, nothing private in them.
    ("GET", "/results/{tid}"): ANYONE_HARMLESS,  # only a redirect to the site's folder (its links are relative)
    ("GET", "/results/{tid}/{path:path}"): PUBLIC,
    ("POST", "/tournaments/{tid}/protest"): TEAM_LINK,
    # Issue 28: check-in and the players' own results. Who is in is public like the pairing; the links are the
    # arbiter's; a player's page opens only with that player's link (a team's link or a game's does not open it).
    ("GET", "/tournaments/{tid}/check-in"): PUBLIC,
    ("GET", "/tournaments/{tid}/player-links"): ARBITER,
    ("POST", "/tournaments/{tid}/player-links"): ARBITER,
    ("POST", "/tournaments/{tid}/player-links/{number}/reissue"): ARBITER,
    ("GET", "/tournaments/{tid}/me"): PLAYER_LINK,
    ("POST", "/tournaments/{tid}/me"): PLAYER_LINK,
    ("POST", "/tournaments/{tid}/rounds/{number}/results"): ARBITER,
}


@dataclass
class World:
    """One app with a togyz game (and another), a quiz game and a tournament, and a client per visitor."""

    clients: dict[str, TestClient]
    tokens: dict[str, dict[str, str]]
    """Per visitor, the token it brings to each kind of room (``togyz``, ``quiz``, ``tournament``)."""
    params: dict[str, str]

    def count_events(self) -> int:
        store = self.clients["arbiter"].app.state.services.store  # type: ignore[attr-defined]

        async def count() -> int:
            total = 0
            for room in await store.rooms():
                total += len(await store.load(room.id))
            return total

        return call(self.clients["arbiter"], count)

    def arbiter_count(self) -> int:
        accounts = self.clients["arbiter"].app.state.services.accounts  # type: ignore[attr-defined]

        async def exists() -> int:
            return int(await accounts.arbiter_hash("intruder") is not None)

        return call(self.clients["arbiter"], exists)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Iterator[World]:
    app = create_app(Settings(data_dir=tmp_path_factory.mktemp("access")))
    with TestClient(app, base_url="http://testserver") as arbiter:
        csrf = sign_in(arbiter)
        game, players = create_togyz(arbiter, csrf)
        _, others = create_togyz(arbiter, csrf)
        quiz, quiz_tokens = create_quiz(arbiter, shared_data / "quiz" / "siq" / "1.siq")
        form = {"csrf": csrf, "name": "Open", "system": "swiss_dutch", "rounds": "5", "time_control": "rapid"}
        tid = arbiter.post("/tournaments/new", data=form, follow_redirects=False).headers["location"].split("/")[-1]
        arbiter.post(f"/tournaments/{tid}/do/add-team", data={"csrf": csrf, "name": "Team A", "representatives": "R"})
        page = arbiter.post(f"/tournaments/{tid}/team-link", data={"csrf": csrf, "team": "Team A"}).text
        csv = "name,rating\nA One,1900\nB Two,1800\nC Three,1700\nD Four,1600\n"
        arbiter.post(f"/tournaments/{tid}/do/import", data={"csrf": csrf, "csv": csv})
        arbiter.post(f"/tournaments/{tid}/do/pair", data={"csrf": csrf})
        arbiter.post(f"/tournaments/{tid}/do/publish", data={"csrf": csrf})
        team_token = page.split("/protest?token=", 1)[1].split('"', 1)[0].split("<", 1)[0]
        arbiter.post(f"/tournaments/{tid}/player-links", data={"csrf": csrf})
        sheet = arbiter.get(f"/tournaments/{tid}/player-links").text
        player_token = sheet.split("/me?token=", 1)[1].split('"', 1)[0].split("<", 1)[0]
        arbiter.post("/quiz/teams", data={"csrf": csrf, "csv_text": "name,players\nАлтын,Асан\nБарыс,Бек\n"})
        pack = ("pack", ("1.siq", (shared_data / "quiz" / "siq" / "1.siq").read_bytes()))
        tour_form = {"csrf": csrf, "name": "Тур", "date": "2026-12-01", "stages": "0", "final": "on",
                     "team": ["Алтын", "Барыс"]}  # fmt: skip
        made = arbiter.post("/quiz/tours/new", data=tour_form, files=[pack], follow_redirects=False)
        tour_id = made.headers["location"].split("/")[-1]
        made = arbiter.post("/teams/new", data={"csrf": csrf, "name": "Командалар кубогы", "system": "round_robin"},
                            follow_redirects=False)  # fmt: skip
        teams_id = made.headers["location"].split("/")[-1]
        clients = {"arbiter": arbiter}
        for number, visitor in enumerate(VISITORS[:-1], start=10):
            # Each visitor from its own address: the made-up tokens of one do not count against another.
            client = TestClient(app, base_url="http://testserver", client=(f"192.168.1.{number}", 50000))
            client.portal = arbiter.portal  # the same running app (its lifespan is the arbiter's client's)
            clients[visitor] = client
        tokens = {
            "anonymous": {},
            "spectator": {"togyz": "made-up", "quiz": "made-up", "tournament": "made-up", "tournament player": "x"},
            "other player": {
                "togyz": others["white"],
                "quiz": others["black"],
                "tournament": players["white"],
                "tournament player": team_token,
            },
            "player": {
                "togyz": players["white"],
                "quiz": quiz_tokens["team"],
                "tournament": team_token,
                "tournament player": player_token,
            },
            "arbiter": {},
        }
        # The table reissues Black's link ("role"): no visitor holds that one.
        params = {"room_id": game, "code": "ABCD-EFGHJ", "tid": tid, "number": "1", "format": "trf", "action": "seed",
                  "role": "black", "tour_id": tour_id, "team_id": "1", "fmt": "csv",
                  "what": "standings.csv", "language": "ru"}  # fmt: skip
        yield World(clients, tokens, {**params, "quiz": quiz, "teams": teams_id})


def app_routes(world: World) -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for route in world.clients["arbiter"].app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route):
            found.update((method, route.path) for method in route.methods or () if method != "HEAD")
        else:
            assert isinstance(route, Mount | WebSocketRoute), route
    return found


def test_the_table_names_every_route(world: World) -> None:
    assert app_routes(world) == set(ROUTES)


def _url(world: World, path: str, visitor: str) -> str:
    params = {**world.params, "cell": "0-1", "part": "q", "index": "0", "page": "arbiter"}
    params["name"] = "quiz-host-console.png"  # a screenshot the guide shows
    params["path"] = "kk/standings.html"  # a page of the public results site
    if "/quiz/" in path or path.startswith("/api/quiz/"):
        params["room_id"] = world.params["quiz"]
    if path.startswith("/teams/"):
        params["tid"] = world.params["teams"]
        params["action"] = "pair"  # refused before the teams register: what matters is who may try
    url = path.replace("{path:path}", "{path}").format(**params)
    kind = "quiz" if "/quiz" in path else "tournament" if "/tournaments/" in path else "togyz"
    if path.endswith("/me"):
        kind = "tournament player"
    token = world.tokens[visitor].get(kind)
    return f"{url}?token={token}" if token else url


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize(("method", "path"), sorted(ROUTES))
def test_every_route_enforces_its_role(world: World, method: str, path: str, visitor: str) -> None:
    rule = ROUTES[(method, path)]
    client = world.clients[visitor]
    csrf = session_csrf(client)
    url = _url(world, path, visitor)
    before = world.count_events()
    if method == "GET":
        response = client.get(url, follow_redirects=False)
    elif path.startswith("/api/"):
        body = {"white": "x", "black": "y", "control": "blitz"}
        response = client.post(url, json=body, headers={"x-csrf-token": csrf}, follow_redirects=False)
    else:
        form = {"csrf": csrf, "name": "intruder", "password": "intruder-82", "confirm": "intruder-82", "text": "x"}
        response = client.post(url, data=form, follow_redirects=False)
    if visitor == "arbiter" and path == "/logout":
        sign_in(client)  # signed out, as asked: sign in again for the rest of the table
    allowed = visitor == "player" if rule in (TEAM_LINK, PLAYER_LINK) else visitor == "arbiter"
    if rule == PUBLIC:
        assert response.status_code == 200, (visitor, response.status_code)
    elif rule == PRACTICE:
        assert response.status_code in (200, 303), response.status_code
    elif rule == ANYONE_HARMLESS:
        assert response.status_code in (200, 303, 404), response.status_code
        if not allowed:
            assert world.count_events() == before
    elif rule in (ARBITER, HOST):
        if allowed:
            assert response.status_code in (200, 201, 303, 400), (response.status_code, response.text[:300])
        else:
            assert response.status_code in (303, 401), response.status_code
            if response.status_code == 303:
                assert response.headers["location"].startswith("/login?next="), response.headers["location"]
            assert world.count_events() == before
    elif rule == MEDIA:
        assert response.status_code == 404 and world.count_events() == before
    elif rule == REPORT:
        assert response.status_code == (200 if allowed else 403)
    else:
        assert rule in (TEAM_LINK, PLAYER_LINK)
        assert response.status_code in ((200, 303) if allowed else (404,)), response.status_code
        if not allowed:
            assert world.count_events() == before
    assert world.arbiter_count() == 0, "a visitor made themselves an arbiter"


# --- socket commands ---------------------------------------------------------------------------------------------

TOGYZ_PLAYER = {"move", "press", "offer_draw", "accept_draw", "decline_draw", "resign", "claim_flag", "sign",
                "pause", "adjourn", "file_protest", "confirm_setup", "complain_setup", "take_back"}  # fmt: skip
TOGYZ_ARBITER = {"start", "pause", "resume", "add_time", "set_clocks", "extend_both_flags", "arrive",
                 "declare_default", "open_envelope", "decide", "claim_flag", "postpone"}  # fmt: skip
TOGYZ_MAY = {"player": TOGYZ_PLAYER, "arbiter": TOGYZ_ARBITER}
TOURNAMENT_COMMANDS = {"configure", "add_participant", "import_participants", "pair_round", "publish_round",
                       "enter_result", "file_protest", "decide_protest", "withdraw"}  # fmt: skip


_SENT = itertools.count(1)


def _command(client: TestClient, room: str, token: str | None, kind: str, data: dict[str, Any]) -> dict[str, Any]:
    # A fresh id each time: a command id already answered gets that answer again (a retry), not a new decision.
    command_id = f"c{next(_SENT)}"
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": token})
        assert ws.receive_json()["t"] == "welcome"
        ws.send_json({"t": "cmd", "id": command_id, "type": kind, "data": data})
        while True:
            message: dict[str, Any] = ws.receive_json()
            if message.get("id") == command_id and message["t"] in ("ack", "refused"):
                return message


# Destructive commands (resign, decide, declare_default) would end the game for the rest of the table: they are
# sent with data that the game refuses after the role check (or last, below).
_HARMLESS_DATA: dict[str, dict[str, Any]] = {
    "move": {"hole": 99},
    "adjourn": {"hole": 99, "salt": "s"},
    "decide": {"result": "not-a-result"},
    "add_time": {"side": "nobody", "ms": 1},
    "set_clocks": {"white_ms": "x", "black_ms": 1},
    "open_envelope": {"hole": 99, "salt": "s"},
    "arrive": {"side": "nobody"},
}


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("kind", sorted(TOGYZ_PLAYER | TOGYZ_ARBITER - {"resign", "declare_default"}))
def test_every_togyz_command_enforces_its_role(world: World, visitor: str, kind: str) -> None:
    client = world.clients[visitor]
    before = world.count_events()
    answer = _command(client, world.params["room_id"], world.tokens[visitor].get("togyz"), kind,
                      _HARMLESS_DATA.get(kind, {}))  # fmt: skip
    role = "arbiter" if visitor == "arbiter" else "player" if visitor == "player" else "spectator"
    if kind in TOGYZ_MAY.get(role, set()):
        assert answer["t"] == "ack" or answer["code"] != "forbidden", answer
    else:
        assert (answer["t"], answer.get("code")) == ("refused", "forbidden"), answer
        assert world.count_events() == before


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("kind", sorted(TOURNAMENT_COMMANDS))
def test_tournament_room_commands_are_the_arbiters(world: World, visitor: str, kind: str) -> None:
    """Over the socket, only the arbiter changes a tournament; a team's link files a protest in its own name only."""
    before = world.count_events()
    data = {"filed_by": "somebody else", "text": "x"} if kind == "file_protest" else {}
    answer = _command(world.clients[visitor], world.params["tid"], world.tokens[visitor].get("tournament"), kind, data)
    if visitor == "arbiter":
        assert answer["t"] == "ack" or answer["code"] != "forbidden", answer
    else:
        assert (answer["t"], answer["code"]) == ("refused", "forbidden"), answer
        assert world.count_events() == before


def test_a_player_cannot_act_for_the_opponent(world: World) -> None:
    """White resigning ends the game with White's loss, whatever the command says about sides; Black's token moves
    only Black's stones (and not on White's turn)."""
    arbiter = world.clients["arbiter"]
    csrf = session_csrf(arbiter)
    room, players = create_togyz(arbiter, csrf)
    assert _command(arbiter, room, None, "start", {})["t"] == "ack"
    moved = _command(world.clients["player"], room, players["black"], "move", {"hole": 1, "side": "white"})
    assert moved["t"] == "refused" and moved["code"] != "forbidden"
    resigned = _command(world.clients["player"], room, players["white"], "resign", {"side": "black"})
    assert resigned["t"] == "ack"
    state = world.clients["anonymous"].get(f"/api/rooms/{room}").json()["data"]
    assert state["result"] == "0-1", json.dumps(state)[:300]
