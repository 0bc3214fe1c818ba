"""The broadcast's evaluation bar and fair play: players never get it, early spectators neither (server side)."""

from __future__ import annotations

import re
import time
from typing import Any

from starlette.testclient import TestClient

from toreshi.clock import BLITZ
from toreshi.services.broadcast import shown_ply
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.position import BLACK, WHITE
from toreshi.tournament.journal.state import EvaluationPolicy

from .helpers import create_game, post, receive_until, start_game
from .test_broadcast_pages import PLAYERS

MOVES = [7, 3, 9, 1]


def tournament_with_links(client: TestClient, csrf: str) -> tuple[str, dict[int, str], dict[str, dict[str, str]]]:
    """A round robin of six with round 1 published and its game rooms made; the players' tokens of each room."""
    client.headers["accept-language"] = "en"
    form = {"name": "Club Cup", "system": "round_robin", "rounds": "", "time_control": "blitz", "fee": "0",
            "currency": "KZT", "csrf": csrf}  # fmt: skip
    tid = client.post("/tournaments/new", data=form, follow_redirects=False).headers["location"].rsplit("/", 1)[-1]
    for name in PLAYERS:
        post(client, f"/tournaments/{tid}/do/add-participant", csrf, name=name)
    post(client, f"/tournaments/{tid}/do/pair", csrf)
    post(client, f"/tournaments/{tid}/do/publish", csrf)
    page = post(client, f"/tournaments/{tid}/rounds/1/games", csrf, control="blitz")
    rooms: dict[int, str] = {}
    tokens: dict[str, dict[str, str]] = {}
    # The round's link sheet: one block per board, White's card before Black's.
    for board, block in re.findall(r'<div class="sheet-board" id="board-(\d+)">(.*?)Revoke and issue', page, re.S):
        found = re.findall(r'href="[^"]*/games/(g-[0-9a-f]+)\?token=([^"&]+)"', block)
        if found:
            rooms[int(board)] = found[0][0]
            tokens[found[0][0]] = {"white": found[0][1], "black": found[1][1]}
    assert len(rooms) == 3, page
    return tid, rooms, tokens


def play_board(client: TestClient, room: str, tokens: dict[str, str]) -> list[dict[str, Any]]:
    """Start the game, play MOVES from the players' sockets; every message the players received."""
    start_game(client, room)
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/rooms/{room}") as white, client.websocket_connect(f"/ws/rooms/{room}") as black:
        players = {"white": white, "black": black}
        for side, ws in players.items():
            ws.send_json({"t": "hello", "v": 0, "token": tokens[side]})
            seen.append(receive_until(ws, "welcome"))
            seen.append(receive_until(ws, "snapshot"))
        for number, hole in enumerate(MOVES):
            ws = players["white" if number % 2 == 0 else "black"]
            ws.send_json({"t": "cmd", "id": f"m{number}", "type": "move", "data": {"hole": hole}})
            seen.append(receive_until(ws, "ack"))
    return seen


def evaluation(client: TestClient, tid: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/tournaments/{tid}/rounds/1/evaluation.json").json()
    return answer


def test_players_and_early_spectators_never_get_an_evaluation(client: TestClient, arbiter: str) -> None:
    tid, rooms, tokens = tournament_with_links(client, arbiter)
    post(client, f"/tournaments/{tid}/do/evaluation", arbiter, shown="on", delay_minutes="15")
    seen = play_board(client, rooms[1], tokens[rooms[1]])
    # The players' own view: the room's state on their sockets has no evaluation, nor has their game page.
    for message in seen:
        text = str(message)
        assert "evaluation" not in text and "expectation" not in text and "white_score" not in text
    player_page = client.get(f"/games/{rooms[1]}?token={tokens[rooms[1]]['white']}")
    assert player_page.status_code == 200 and "evaluation" not in player_page.text
    client.post("/logout", data={"csrf": arbiter})
    # A spectator before the delay: the round's bar and the replay's bar are empty, from the server.
    early = evaluation(client, tid)
    assert early == {"shown": True, "delay_minutes": 15, "boards": {}}
    assert client.get(f"/games/{rooms[1]}/evaluation.json").json() == {"evaluation": None}
    live = client.get(f"/tournaments/{tid}/rounds/1/live").text
    assert "lb-eval" in live and "evaluation.json" in live


def test_after_the_delay_spectators_see_it_and_the_arbiter_can_switch_it_off(client: TestClient, arbiter: str) -> None:
    tid, rooms, tokens = tournament_with_links(client, arbiter)
    post(client, f"/tournaments/{tid}/do/evaluation", arbiter, shown="on", delay_minutes="0")
    play_board(client, rooms[1], tokens[rooms[1]])
    deadline = time.monotonic() + 30
    while "1" not in (shown := evaluation(client, tid))["boards"]:
        assert time.monotonic() < deadline, "the engine never answered"
        time.sleep(0.1)
    bar = shown["boards"]["1"]
    assert bar["ply"] == len(MOVES) and not bar["delayed"] and 0.0 <= bar["white"] <= 1.0
    assert isinstance(bar["score"], int)
    assert client.get(f"/games/{rooms[1]}/evaluation.json").json()["evaluation"] == bar
    audit = client.get(f"/tournaments/{tid}/audit?lang=ru").text
    assert "Шкала оценки для зрителей" in audit
    # Switched off: nothing is served, and the page has no bar at all.
    post(client, f"/tournaments/{tid}/do/evaluation", arbiter, delay_minutes="0")
    assert evaluation(client, tid) == {"shown": False, "delay_minutes": 0, "boards": {}}
    assert client.get(f"/games/{rooms[1]}/evaluation.json").json() == {"evaluation": None}
    assert "lb-eval" not in client.get(f"/tournaments/{tid}/rounds/1/live").text


def test_a_live_game_outside_a_tournament_has_no_evaluation(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    play_board(client, game["id"], game["tokens"])
    assert client.get(f"/games/{game['id']}/evaluation.json").json() == {"evaluation": None}


def test_the_delay_counts_from_each_move() -> None:
    game = MatchGame.create("Абай", "Болат", BLITZ, now_ms=0).start(now_ms=0)
    game = game.move(WHITE, 7, now_ms=60_000).move(BLACK, 3, now_ms=120_000).move(WHITE, 9, now_ms=300_000)
    state = game.state
    policy = EvaluationPolicy(shown=True, delay_minutes=2)
    assert shown_ply(state, policy, now_ms=179_999) is None  # the first move is not two minutes old
    assert shown_ply(state, policy, now_ms=180_000) == 1
    assert shown_ply(state, policy, now_ms=419_999) == 2  # the third move, at 5:00, is not old enough
    assert shown_ply(state, policy, now_ms=420_000) == 3
    assert shown_ply(state, EvaluationPolicy(shown=False), now_ms=10**9) is None
    assert shown_ply(state, None, now_ms=10**9) is None  # live outside a tournament: never
    over = game.resign(BLACK, now_ms=310_000).state
    assert shown_ply(over, None, now_ms=310_000) == 3 and shown_ply(over, EvaluationPolicy(False), 10**9) is None
