"""Calling the arbiter in a tournament (issue 28): a player calls from their game's link, the round page shows the
arbiter which board called and when, and the arbiter answers there; the game's log keeps the call and the answer.
Reading the round page writes nothing; only the signed-in arbiter sees the calls and may answer."""

from __future__ import annotations

import html
import re
import secrets

from starlette.testclient import TestClient

from .helpers import create_game, post, receive_until, start_game
from .test_tournament_day import publish, swiss
from .test_tournament_pages import call, sign_in, tournaments


def links_of_round(web: TestClient, tid: str) -> dict[tuple[str, str], str]:
    """The round's player links by (room, role), from the printable sheet."""
    sheet = html.unescape(web.get(f"/tournaments/{tid}/rounds/1/links").text)
    found = re.findall(r'href="http://testserver/games/(g-[0-9a-f]+)\?token=([^"&]+)"', sheet)
    links: dict[tuple[str, str], str] = {}
    for room, token in found:
        role = "white" if (room, "white") not in links else "black"
        links[(room, role)] = token
    return links


def player_sends(web: TestClient, room: str, token: str, command: str, **data: object) -> dict[str, object]:
    """What the room answers to one command sent over the player's link (each with its own id: a repeated id is
    the same command sent again, answered as before)."""
    command_id = secrets.token_hex(4)
    with web.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": token})
        welcome = receive_until(ws, "welcome")
        ws.send_json({"t": "cmd", "id": command_id, "type": command, "data": data})
        while True:
            message = ws.receive_json()
            if message["t"] in ("ack", "refused") and message.get("id") == command_id:
                return {"role": welcome["role"], **message}


def a_round_with_games(web: TestClient) -> tuple[str, str]:
    csrf = sign_in(web)
    tid = swiss(web, csrf)
    publish(web, csrf, tid)
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    return csrf, tid


def board_one(web: TestClient, tid: str) -> str:
    state = call(web, lambda: tournaments(web).state(tid))
    room = state.room_of(1, 1)
    assert room is not None
    return room


def test_a_call_from_a_board_reaches_the_round_page_and_the_arbiter_answers_it(web: TestClient) -> None:
    csrf, tid = a_round_with_games(web)
    room = board_one(web, tid)
    white_token = links_of_round(web, tid)[(room, "white")]
    page = web.get(f"/tournaments/{tid}/rounds/1").text
    assert 'id="calls"' not in page  # no call yet: nothing shown
    sent = player_sends(web, room, white_token, "call_arbiter")
    assert sent["role"] == "white" and sent["t"] == "ack"
    again = player_sends(web, room, white_token, "call_arbiter")
    assert again["t"] == "refused" and again["code"] == "call_already_open"

    store = web.app.state.services.store  # type: ignore[attr-defined]

    async def versions() -> dict[str, int]:
        return {room.id: room.version for room in await store.rooms()}

    before = call(web, versions)
    page = html.unescape(web.get(f"/tournaments/{tid}/rounds/1").text)
    assert call(web, versions) == before  # reading the calls writes nothing
    calls = page[page.index('id="calls"') :]
    assert 'data-board="1" data-side="white"' in calls and "call-open" in calls
    assert "Answer: I am coming" in calls

    answered = post(web, f"/tournaments/{tid}/rounds/1/calls", csrf, board="1", side="white")
    assert "The call on board 1 is answered" in html.unescape(answered)
    assert "call-answered" in answered and "Answer: I am coming" not in answered
    # The log keeps both, and the game's state shows the answered call to everyone.
    state = web.get(f"/api/rooms/{room}").json()["data"]
    assert state["calls"]["open"] == []
    assert [entry["side"] for entry in state["calls"]["log"]] == ["white"]
    assert state["calls"]["log"][0]["answered_at"] is not None
    # Answering again: the room refuses, the page says why.
    refused = html.unescape(post(web, f"/tournaments/{tid}/rounds/1/calls", csrf, board="1", side="white"))
    assert "has not called the arbiter" in refused


def test_only_the_arbiter_sees_and_answers_calls(web: TestClient) -> None:
    csrf, tid = a_round_with_games(web)
    room = board_one(web, tid)
    player_sends(web, room, links_of_round(web, tid)[(room, "black")], "call_arbiter")
    with TestClient(web.app, headers={"accept-language": "en"}) as stranger:
        page = stranger.get(f"/tournaments/{tid}/rounds/1")
        assert page.status_code == 200 and 'id="calls"' not in page.text
        answer = stranger.post(
            f"/tournaments/{tid}/rounds/1/calls", data={"board": "1", "side": "black"}, follow_redirects=False
        )
        assert answer.status_code == 303 and "/login" in answer.headers["location"]
    assert web.get(f"/api/rooms/{room}").json()["data"]["calls"]["open"] == ["black"]
    # No such board or side: refused, nothing answered.
    for board, side in (("9", "black"), ("1", "green"), ("x", "black")):
        response = web.post(f"/tournaments/{tid}/rounds/1/calls", data={"csrf": csrf, "board": board, "side": side})
        assert response.status_code == 200 and 'role="alert"' in response.text
        assert "call-open" in response.text
    assert web.get(f"/api/rooms/{room}").json()["data"]["calls"]["open"] == ["black"]


def test_the_round_page_speaks_kazakh_and_russian(web: TestClient) -> None:
    _csrf, tid = a_round_with_games(web)
    room = board_one(web, tid)
    player_sends(web, room, links_of_round(web, tid)[(room, "white")], "call_arbiter")
    for language, answer in (("kk", "Жауап беру: келе жатырмын"), ("ru", "Ответить: иду")):
        web.get(f"/language?lang={language}")
        page = html.unescape(web.get(f"/tournaments/{tid}/rounds/1").text)
        assert answer in page and "Answer: I am coming" not in page


def test_the_score_sheet_records_the_calls_with_their_times(client: TestClient, arbiter: str) -> None:
    """The game's record (its score sheet) lists each call, who made it, when, and when the arbiter answered."""
    game = create_game(client, arbiter)
    room, tokens = game["id"], game["tokens"]
    start_game(client, room)
    assert 'id="calls"' not in client.get(f"/games/{room}/sheet?lang=en").text
    assert player_sends(client, room, tokens["black"], "call_arbiter")["t"] == "ack"
    sheet = html.unescape(client.get(f"/games/{room}/sheet?lang=kk").text)
    calls = sheet[sheet.index('id="calls"') :]
    assert "Төрешіні шақырулар" in calls and "Болат (Қостаушы)" in calls and "жауап берілмеді" in calls
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"t": "hello", "v": 0})
        receive_until(ws, "welcome")
        ws.send_json({"t": "cmd", "id": "a1", "type": "acknowledge_call", "data": {"side": "black"}})
        receive_until(ws, "ack", id="a1")
    sheet = html.unescape(client.get(f"/games/{room}/sheet?lang=ru").text)
    calls = sheet[sheet.index('id="calls"') :]
    assert re.search(r"\d\d:\d\d · Болат \(Чёрные\) — ответ в \d\d:\d\d", calls), calls[:300]
