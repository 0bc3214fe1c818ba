"""Broadcast overlays (issue 29): board N of the current round, the standings ticker, the quiz scoreboard and the
arbiter's page that lists their URLs. They are bare transparent documents that only read, and what they receive is
what a spectator may see."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from .helpers import post, receive_until
from .test_broadcast_pages import PLAYERS, paired_round_with_live_games
from .test_quiz_pages import created_game

STATIC = Path(__file__).resolve().parents[2] / "src" / "toreshi" / "web" / "static"


@pytest.fixture
def pack(shared_data: Path) -> Path:
    return shared_data / "quiz" / "siq" / "1.siq"


def code_of(script: Path) -> str:
    """A script without its comments (which may name what it leaves out)."""
    return re.sub(r"^\s*//.*$", "", script.read_text(), flags=re.M)


def bare(page: str) -> None:
    """An overlay draws no page chrome (menu, footer, install prompt) and asks for the transparent style sheet."""
    assert '<link rel="stylesheet" href="/static/css/overlay.css">' in page
    assert "toreshi.css" not in page and "install.js" not in page and 'class="top"' not in page
    assert "<style" not in page and re.search(r"<script(?![^>]*(type=\"application/json\"|src=))", page) is None


def test_the_board_overlay_follows_board_n_of_the_current_round(client: TestClient, arbiter: str) -> None:
    tid, rooms = paired_round_with_live_games(client, arbiter)
    client.post("/logout", data={"csrf": arbiter})
    page = client.get(f"/tournaments/{tid}/overlay/board/2")
    assert page.status_code == 200
    bare(page.text)
    assert f'data-source="/tournaments/{tid}/overlay/board/2.json"' in page.text
    assert '<script type="module" src="/static/js/overlay-board.js">' in page.text
    players = {"white": f"2. {PLAYERS[1]}", "black": f"5. {PLAYERS[4]}", "result": ""}
    assert client.get(f"/tournaments/{tid}/overlay/board/2.json").json() == {
        "round": 1, "board": 2, "room": rooms[2], **players,
    }  # fmt: skip
    board3 = client.get(f"/tournaments/{tid}/overlay/board/3.json").json()
    assert (board3["room"], board3["result"]) == (None, "1-0")
    assert client.get(f"/tournaments/{tid}/overlay/board/9.json").json() == {"round": 1, "board": 9, "room": None}
    for wrong in ("0", "x", "-1"):
        assert client.get(f"/tournaments/{tid}/overlay/board/{wrong}").status_code == 404
        assert client.get(f"/tournaments/{tid}/overlay/board/{wrong}.json").status_code == 404
    assert client.get("/tournaments/nope/overlay/board/1.json").status_code == 404


def test_the_board_overlay_moves_on_to_the_next_round_at_the_same_url(client: TestClient, arbiter: str) -> None:
    tid, rooms = paired_round_with_live_games(client, arbiter)
    for board in (1, 2):
        post(client, f"/tournaments/{tid}/do/result", arbiter, round="1", board=str(board), result="1-0",
             kazan_white="82", kazan_black="41")  # fmt: skip
    post(client, f"/tournaments/{tid}/do/pair", arbiter)
    post(client, f"/tournaments/{tid}/do/publish", arbiter)
    now = client.get(f"/tournaments/{tid}/overlay/board/1.json").json()
    assert now["round"] == 2 and now["room"] is None and now["white"] != f"1. {PLAYERS[0]}"
    post(client, f"/tournaments/{tid}/rounds/2/games", arbiter, control="blitz")
    followed = client.get(f"/tournaments/{tid}/overlay/board/1.json").json()["room"]
    assert followed is not None and followed not in rooms.values()


def test_what_the_board_overlay_reads_holds_no_hidden_information(client: TestClient, arbiter: str) -> None:
    """The overlay follows the room as a spectator (no token) and draws no envelope, no sealed move and no
    evaluation bar; the room's spectator view carries no sealed move while the game is live."""
    _tid, rooms = paired_round_with_live_games(client, arbiter)
    script = code_of(STATIC / "js" / "overlay-board.js")
    for hidden in ("sealed", "envelope", "evaluation", "token:"):
        assert hidden not in script, hidden
    client.post("/logout", data={"csrf": arbiter})  # OBS holds no session
    with client.websocket_connect(f"/ws/rooms/{rooms[1]}") as spectator:
        spectator.send_json({"t": "hello", "v": 0})
        assert receive_until(spectator, "welcome")["role"] == "spectator"
        state = receive_until(spectator, "snapshot")["data"]
        assert state["sealed_move"] is None and "envelope" not in state and state["can"] == []


def test_the_standings_ticker(client: TestClient, arbiter: str) -> None:
    tid, _rooms = paired_round_with_live_games(client, arbiter)
    client.post("/logout", data={"csrf": arbiter})
    page = client.get(f"/tournaments/{tid}/overlay/standings")
    assert page.status_code == 200
    bare(page.text)
    standings = client.get(f"/tournaments/{tid}/overlay/standings.json").json()
    assert standings["name"] == "Club Cup" and standings["round"] == 1
    assert standings["rows"][0] == {"rank": 1, "name": PLAYERS[2], "points": "1"}  # board 3: Dana won
    assert sorted(row["name"] for row in standings["rows"]) == sorted(PLAYERS)
    for name in PLAYERS:
        assert f'<span class="ov-name">{name}</span>' in page.text


def test_the_quiz_overlay_is_a_spectator_whatever_its_url_says(web: TestClient, pack: Path) -> None:
    room_id, _codes, tokens = created_game(web, pack)
    page = web.get(f"/quiz/{room_id}/overlay?token={tokens['host']}")
    assert page.status_code == 200
    bare(page.text)
    found = re.search(r'id="quiz-config">(.*?)</script>', page.text, re.S)
    assert found is not None
    config = json.loads(found.group(1))
    assert (config["token"], config["role"], config["room"]) == ("", "spectator", room_id)
    assert tokens["host"] not in page.text
    script = code_of(STATIC / "js" / "overlay-quiz.js")
    assert "answer" not in script.replace("answering", "") and "q-text" not in script
    assert web.get("/quiz/q-none/overlay").status_code == 404


def test_the_quiz_overlay_receives_the_theme_and_price_but_no_answer(web: TestClient, pack: Path) -> None:
    room_id, _codes, tokens = created_game(web, pack)
    url = f"/ws/rooms/{room_id}"
    # OBS holds no session: the overlay's socket is a stranger's.
    with TestClient(web.app) as obs, web.websocket_connect(url) as host, obs.websocket_connect(url) as overlay:
        host.send_json({"t": "hello", "v": 0, "token": tokens["host"]})
        receive_until(host, "welcome")
        overlay.send_json({"t": "hello", "v": 0})  # as overlay-quiz.js does: no token
        assert receive_until(overlay, "welcome")["role"] == "spectator"
        host.send_json({"t": "cmd", "id": "1", "type": "draw", "data": {"team": "Алтын"}})
        receive_until(host, "ack", id="1")
        host.send_json({"t": "cmd", "id": "2", "type": "choose", "data": {"theme": 0, "value": 1}})
        receive_until(host, "ack", id="2")
        chosen = receive_until(overlay, "event", type="question_chosen")["data"]["state"]
        assert chosen["current"]["theme_name"] and chosen["current"]["value"] > 0
        assert "answers" not in json.dumps(chosen["current"]) and "host" not in chosen
        assert [team["name"] for team in chosen["teams"]] == ["Алтын", "Барыс", "Сұңқар"]


@pytest.mark.parametrize("language", ["kk", "ru", "en"])
def test_the_arbiters_page_lists_every_overlay_url(client: TestClient, arbiter: str, language: str) -> None:
    tid, _rooms = paired_round_with_live_games(client, arbiter)
    page = client.get(f"/tournaments/{tid}/overlays?lang={language}")
    assert page.status_code == 200
    for board in (1, 2, 3):
        assert f"http://testserver/tournaments/{tid}/overlay/board/{board}</code>" in page.text
    assert f"http://testserver/tournaments/{tid}/overlay/board/4<" not in page.text
    assert f"http://testserver/tournaments/{tid}/overlay/standings</code>" in page.text
    assert "/overlay</code>" not in page.text and "q-…/overlay" in page.text
    if language != "en":
        for english in ("Broadcast overlays", "browser sources", "Standings", "Back to the tournament"):
            assert english not in page.text, english
