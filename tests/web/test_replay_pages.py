"""The replay page: a game played over the socket, then shown move by move to anyone."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from toreshi.togyz.position import BLACK, WHITE, Position

from .helpers import create_game, receive_until, start_game

HOLES = [7, 3, 9, 1, 5, 2]


def replay_data(html: str) -> dict[str, Any]:
    match = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def play(client: TestClient, arbiter: str, holes: list[int], *, resign: bool = False) -> tuple[str, list[str]]:
    """A game started by the arbiter and played over the players' sockets; the tokens the room recorded."""
    game = create_game(client, arbiter)
    room = game["id"]
    start_game(client, room)
    sockets = {side: client.websocket_connect(f"/ws/rooms/{room}") for side in ("white", "black")}
    with sockets["white"] as white, sockets["black"] as black:
        players = {"white": white, "black": black}
        for side, ws in players.items():
            ws.send_json({"t": "hello", "v": 0, "token": game["tokens"][side]})
            assert receive_until(ws, "welcome")["role"] == side
        for number, hole in enumerate(holes):
            ws = players["white" if number % 2 == 0 else "black"]
            ws.send_json({"t": "cmd", "id": f"m{number}", "type": "move", "data": {"hole": hole}})
            assert receive_until(ws, "ack")["id"] == f"m{number}"
        if resign:
            black.send_json({"t": "cmd", "id": "r", "type": "resign", "data": {}})
            receive_until(black, "ack")
    moves = client.get(f"/api/rooms/{room}").json()["data"]["moves"]
    return room, [move["token"] for move in moves]


def test_the_replay_lists_the_moves_and_its_positions_match_the_rules(client: TestClient, arbiter: str) -> None:
    room, tokens = play(client, arbiter, HOLES, resign=True)
    assert len(tokens) == len(HOLES) and tokens[0] == "76(10)"
    client.post("/logout", data={"csrf": arbiter})  # a spectator sees it too
    page = client.get(f"/games/{room}/replay")
    assert page.status_code == 200
    for ply, token in enumerate(tokens, start=1):
        assert f'data-ply="{ply}">{token}</button>' in page.text
    data = replay_data(page.text)
    assert data["names"] == {"white": "Абай", "black": "Болат"}
    frames = data["frames"]
    assert len(frames) == len(HOLES) + 1
    position = Position()
    start = frames[0]
    assert start["ply"] == 0 and start["token"] is None and start["turn"] == "white"
    assert start["board"] == {"white": [9] * 9, "black": [9] * 9}
    for ply, (hole, frame) in enumerate(zip(HOLES, frames[1:], strict=True), start=1):
        mover = "white" if position.turn is WHITE else "black"
        position.play(hole)
        assert frame["ply"] == ply and frame["hole"] == hole and frame["side"] == mover
        assert frame["token"] == tokens[ply - 1]
        assert frame["board"] == {"white": list(position.holes(WHITE)), "black": list(position.holes(BLACK))}
        assert frame["kazans"] == {"white": position.kazans[WHITE], "black": position.kazans[BLACK]}
        assert frame["tuzdyks"] == {"white": position.tuzdyk(WHITE), "black": position.tuzdyk(BLACK)}
        assert frame["turn"] == ("white" if position.turn is WHITE else "black")
        assert sum(frame["board"]["white"]) + sum(frame["board"]["black"]) + sum(frame["kazans"].values()) == 162
    assert frames[1]["kazans"] == {"white": 10, "black": 0}


def test_a_game_without_moves_shows_the_start(client: TestClient, arbiter: str) -> None:
    room, tokens = play(client, arbiter, [])
    assert tokens == []
    page = client.get(f"/games/{room}/replay")
    assert page.status_code == 200 and "replay-move" not in page.text
    frames = replay_data(page.text)["frames"]
    assert len(frames) == 1 and frames[0]["kazans"] == {"white": 0, "black": 0}


def test_an_unknown_room_has_no_replay(client: TestClient, arbiter: str) -> None:
    assert client.get("/games/g-000000000000/replay").status_code == 404
    assert client.get("/games/not a room/replay").status_code == 404


def test_the_replay_script_has_a_text_for_every_key_it_shows(client: TestClient, arbiter: str) -> None:
    """The replay and the board renderer it draws with find every text among the page's strings."""
    static = Path(__file__).resolve().parents[2] / "src" / "toreshi" / "web" / "static" / "js"
    script = "".join(
        (static / name).read_text()
        for name in ("togyz-replay.js", "togyz-stepper.js", "togyz-board.js", "togyz-review.js")
    )
    used = set(re.findall(r'(?<![\w.$])t\("(\w+)"', script)) | {"white", "black"}
    assert {"kazan", "tuzdyk", "ply", "start"} <= used
    room, _ = play(client, arbiter, [7])
    for language in ("kk", "ru"):
        strings = replay_data(client.get(f"/games/{room}/replay?lang={language}").text)["strings"]
        assert sorted(used - strings.keys()) == [], language
        assert strings["kazan"] in ("қазан", "казан") and strings["white"] in ("Бастаушы", "Белые")
