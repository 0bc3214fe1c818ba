"""Issue 13 §1 and §4 over real sockets: a team learns nothing of another team's press before the decision (the host
and the projector do); the host revokes and reissues team codes and screen tokens (the old ones stop at once, their
sockets are closed); a team named ``<!--<script>`` cannot break the page's embedded JSON."""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings
from toreshi.web.rooms.socket import CLOSE_REVOKED

from ..web.helpers import receive_until
from .helpers import TEAMS, create_quiz, session_csrf, sign_in

OPEN_QUESTION = (("1", "draw", {"team": TEAMS[0]}), ("2", "choose", {"theme": 0, "value": 1}))
"""The host's commands that open the buttons: the first chooser, then a question."""


@pytest.fixture
def game(client: TestClient, shared_data: Path) -> tuple[TestClient, str, dict[str, str], Path]:
    sign_in(client)
    pack = shared_data / "quiz" / "siq" / "1.siq"
    room_id, tokens = create_quiz(client, pack)
    return client, room_id, tokens, pack


def join(client: TestClient, room_id: str, token: str) -> Any:
    ws = client.websocket_connect(f"/ws/rooms/{room_id}?lang=en")
    socket = ws.__enter__()
    socket.send_json({"t": "hello", "v": 0, "token": token})
    return ws, socket


def codes_of(client: TestClient, room_id: str) -> dict[str, str]:
    page = client.get(f"/quiz/{room_id}/links").text
    return dict(
        re.findall(r"<h2>([^<]+)</h2>\s*<div class=\"qr\">.*?<p class=\"join-code\">([A-Z0-9-]+)</p>", page, re.S)
    )


def test_a_team_is_not_told_of_another_teams_press_before_the_decision(game: Any) -> None:
    client, room_id, tokens, _pack = game
    codes = codes_of(client, room_id)
    opened = [join(client, room_id, tokens["host"]), join(client, room_id, tokens["board"])]
    opened += [join(client, room_id, codes[team].split("-")[1]) for team in TEAMS[:2]]
    (_, host), (_, board), (_, alpha), (_, bravo) = opened
    try:
        for ws in (host, board, alpha, bravo):
            receive_until(ws, "snapshot")
        for command_id, kind, data in OPEN_QUESTION:
            host.send_json({"t": "cmd", "id": command_id, "type": kind, "data": data})
            receive_until(host, "ack", id=command_id)
        bravo.send_json({"t": "cmd", "id": "p", "type": "press", "data": {}})
        assert receive_until(host, "event", type="press_received")["data"]["event"]["team"] == TEAMS[1]
        assert receive_until(board, "event", type="press_received")["data"]["event"]["team"] == TEAMS[1]
        # Alpha's phone: every frame after the question is chosen, up to the decision, as sent.
        frames: list[dict[str, Any]] = []
        while not any(event.get("type") == "buzz_decided" for event in frames[-1:] for event in _events(event)):
            frame = alpha.receive_json()
            if frame["t"] in ("event", "events"):
                frames.append(frame)
        pressed_frames = [frame for frame in frames if any(e["type"] == "press_received" for e in _events(frame))]
        # The press reaches Alpha only in the frame of the decision, never alone.
        assert pressed_frames and all(any(e["type"] == "buzz_decided" for e in _events(f)) for f in pressed_frames)
        for frame in frames:
            state = _events(frame)[-1]["data"].get("state", {})
            assert not any(team.get("pressed") for team in state.get("teams", []))
    finally:
        for ws, _socket in opened:
            ws.__exit__(None, None, None)


def _drain(ws: Any) -> None:
    while True:
        ws.receive_json()


def _events(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return list(frame["events"]) if frame["t"] == "events" else [frame]


def test_the_host_reissues_a_team_code_and_the_old_one_stops_at_once(game: Any) -> None:
    client, room_id, _tokens, _pack = game
    old = codes_of(client, room_id)[TEAMS[0]]
    ws, phone = join(client, room_id, old.split("-")[1])
    try:
        assert receive_until(phone, "welcome")["name"] == TEAMS[0]
        response = client.post(
            f"/quiz/{room_id}/links/reissue",
            data={"csrf": session_csrf(client), "role": "team:1"},
            follow_redirects=False,
        )
        assert response.status_code == 303
        closing = receive_until(phone, "error")
        assert closing["code"] == "link_revoked" and closing["message"].startswith("This link no longer opens")
        with pytest.raises(WebSocketDisconnect) as closed:
            _drain(phone)
        assert closed.value.code == CLOSE_REVOKED
    finally:
        ws.__exit__(None, None, None)
    new = codes_of(client, room_id)[TEAMS[0]]
    assert new != old and new.split("-")[0] == old.split("-")[0]
    assert client.get(f"/quiz/join?code={old}").status_code == 404
    assert client.get(f"/quiz/join?code={new}", follow_redirects=False).status_code == 303
    with client.websocket_connect(f"/ws/rooms/{room_id}") as again:
        again.send_json({"t": "hello", "v": 0, "token": new.split("-")[1]})
        assert receive_until(again, "welcome")["name"] == TEAMS[0]


@pytest.mark.parametrize(("role", "screen"), [("projector", "board"), ("assistant", "assistant")])
def test_the_host_reissues_a_screens_token(game: Any, role: str, screen: str) -> None:
    client, room_id, tokens, _pack = game
    ws, socket = join(client, room_id, tokens[screen])
    try:
        assert receive_until(socket, "welcome")["role"] == role
        client.post(f"/quiz/{room_id}/links/reissue", data={"csrf": session_csrf(client), "role": role})
        assert receive_until(socket, "error")["code"] == "link_revoked"
    finally:
        ws.__exit__(None, None, None)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as stale:
        stale.send_json({"t": "hello", "v": 0, "token": tokens[screen]})
        welcome = receive_until(stale, "welcome")
        assert welcome["role"] != role and welcome["link"] == "refused"  # (this browser is the signed-in arbiter)
    links = client.get(f"/quiz/{room_id}/links").text
    new = dict(re.findall(r"/quiz/" + room_id + r"/(board|assistant)\?token=([\w-]+)", links))[screen]
    assert new != tokens[screen]
    with client.websocket_connect(f"/ws/rooms/{room_id}") as fresh:
        fresh.send_json({"t": "hello", "v": 0, "token": new})
        assert receive_until(fresh, "welcome")["role"] == role
    refused = client.post(f"/quiz/{room_id}/links/reissue?lang=en", data={"csrf": session_csrf(client), "role": "host"},
                          follow_redirects=False)  # fmt: skip
    assert refused.status_code == 303 and refused.headers["location"] == f"/quiz/{room_id}/links"
    said = html.unescape(client.get(f"/quiz/{room_id}/links?lang=en").text)
    assert "This game has no link “Host” to reissue." in said and 'role="alert"' in said


def test_the_projector_presses_for_a_team_only_where_keyboard_buzzers_are_enabled(game: Any) -> None:
    client, room_id, tokens, _pack = game  # created by the form, the projector's keyboard left off
    opened = [join(client, room_id, tokens["host"]), join(client, room_id, tokens["board"])]
    (_, host), (_, board) = opened
    try:
        receive_until(board, "snapshot")
        for command_id, kind, data in OPEN_QUESTION:
            host.send_json({"t": "cmd", "id": command_id, "type": kind, "data": data})
            receive_until(host, "ack", id=command_id)
        board.send_json({"t": "cmd", "id": "k", "type": "key", "data": {"key": "1"}})
        refused = receive_until(board, "refused", id="k")
        assert refused["code"] == "quiz_projector_keys_off"
        assert refused["message"] == "Keyboard buzzers are not enabled on the projector; the host can enable them."
        host.send_json(
            {"t": "cmd", "id": "3", "type": "map_keys", "data": {"keys": {"1": TEAMS[0]}, "projector": True}}
        )
        receive_until(host, "ack", id="3")
        board.send_json({"t": "cmd", "id": "k2", "type": "key", "data": {"key": "1"}})
        assert receive_until(board, "ack", id="k2")["v"] > 0
    finally:
        for ws, _socket in opened:
            ws.__exit__(None, None, None)


def test_a_hostile_team_name_cannot_break_the_pages_embedded_json(tmp_path: Path, shared_data: Path) -> None:
    hostile = "<!--<script>"
    with TestClient(create_app(Settings(data_dir=tmp_path)), base_url="http://testserver") as client:
        sign_in(client)
        room_id, _tokens = create_quiz(client, shared_data / "quiz" / "siq" / "1.siq", teams=(hostile, "Барыс"))
        codes = {html.unescape(name): code for name, code in codes_of(client, room_id).items()}
        page = client.get(f"/quiz/{room_id}/buzzer?token={codes[hostile].split('-')[1]}").text
    block = re.search(r'<script type="application/json" id="quiz-config">(.*?)</script>', page, re.S)
    assert block is not None
    raw = block.group(1)
    assert "<" not in raw and ">" not in raw and "&" not in raw  # nothing the HTML parser could act on
    config = json.loads(raw)  # what the page's JSON.parse reads
    assert config["name"] == hostile and config["role"] == "team"
    # The page goes on after the block: its script is still there to run.
    assert page.index('src="/static/js/quiz-buzzer.js"') > page.index(raw)


def test_nothing_a_team_asks_tells_it_of_a_press_waiting_for_the_decision(
    client: TestClient, shared_data: Path
) -> None:
    """While another team's press waits for the arbiter, a team's own requests are acknowledged at the version it
    has seen, a snapshot it asks for has that version too, and its own events wait with the press: nothing it can
    do reveals the press before the decision. (A wide cap and a slow third team make the arbiter wait ~1 s.)"""
    sign_in(client)
    room_id, tokens = create_quiz(client, shared_data / "quiz" / "siq" / "1.siq", max_compensation="1000")
    codes = codes_of(client, room_id)
    opened = [join(client, room_id, tokens["host"])]
    opened += [join(client, room_id, codes[team].split("-")[1]) for team in TEAMS]
    (_, host), (_, alpha), (_, bravo), (_, slow) = opened
    try:
        for ws in (host, alpha, bravo, slow):
            receive_until(ws, "snapshot")
        ping = receive_until(slow, "ping")
        time.sleep(0.9)  # the third team's phone answers late: its link looks slow, the arbiter waits for it
        slow.send_json({"t": "pong", "id": ping["id"], "tc": ping["ts"] + 5})
        receive_until(slow, "offset")
        slow.send_json({"t": "cmd", "id": "s", "type": "sync", "data": {}})
        receive_until(slow, "ack", id="s")
        for command_id, kind, data in OPEN_QUESTION:
            host.send_json({"t": "cmd", "id": command_id, "type": kind, "data": data})
            receive_until(host, "ack", id=command_id)
        seen = receive_until(alpha, "event", type="question_chosen")["v"]
        bravo.send_json({"t": "cmd", "id": "p", "type": "press", "data": {}})
        pressed = receive_until(host, "event", type="press_received")["v"]
        alpha.send_json({"t": "cmd", "id": "r1", "type": "request_score", "data": {}})
        alpha.send_json({"t": "cmd", "id": "r2", "type": "request_score", "data": {}})
        alpha.send_json({"t": "hello", "v": 0})
        answers = [receive_until(alpha, "ack", id="r1"), receive_until(alpha, "ack", id="r2")]
        snapshot = receive_until(alpha, "snapshot")
        assert pressed == seen + 1 and [a["v"] for a in answers] == [seen, seen] and snapshot["v"] == seen
        assert not any(team["pressed"] for team in snapshot["data"]["teams"])
        frame = alpha.receive_json()
        while frame["t"] not in ("event", "events"):
            frame = alpha.receive_json()
        types = [event["type"] for event in _events(frame)]
        assert types[:3] == ["press_received", "score_requested", "buzz_decided"], types
    finally:
        for ws, _socket in opened:
            ws.__exit__(None, None, None)
