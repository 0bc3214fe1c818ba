"""The JSON API and a game played over the room socket, end to end in one process."""

from __future__ import annotations

from starlette.testclient import TestClient

from .helpers import create_game, receive_until, sign_in


def test_creating_a_game_needs_a_signed_in_arbiter_and_the_csrf_header(client: TestClient) -> None:
    anonymous = client.post("/api/games?lang=en", json={"white": "a", "black": "b"})
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "sign_in_required"
    assert anonymous.json()["error"] == "Sign in as an arbiter first."
    csrf = sign_in(client, "arbiter", "long enough")
    no_token = client.post("/api/games", json={"white": "a", "black": "b"})
    assert no_token.status_code == 403 and no_token.json()["code"] == "csrf_failed"
    bad = client.post(
        "/api/games?lang=ru",
        json={"white": "a", "black": "b", "control": "bullet"},
        headers={"x-csrf-token": csrf},
    )
    assert bad.status_code == 400
    body = bad.json()
    assert (body["code"], body["params"]["control"]) == ("unknown_time_control", "bullet")
    assert "blitz" in body["params"]["presets"] and body["error"] == body["message"]
    assert body["message"].startswith("«bullet» — не контроль времени")  # in the request's language


def test_a_bad_new_game_is_refused_naming_the_field_in_the_request_language(client: TestClient, arbiter: str) -> None:
    headers = {"x-csrf-token": arbiter}
    nameless = client.post("/api/games?lang=kk", json={"white": " ", "black": "b"}, headers=headers)
    assert nameless.status_code == 400
    assert (nameless.json()["code"], nameless.json()["params"]) == ("field_empty", {"field": "white"})
    assert nameless.json()["error"].startswith("Бастаушы:")
    both = {"periods": [{"time_ms": 60_000}], "increment_ms": 1000, "delay_ms": 1000}
    clock = client.post("/api/games?lang=ru", json={"white": "a", "black": "b", "control": both}, headers=headers)
    assert (clock.json()["code"], clock.json()["params"]) == ("increment_and_delay", {"clause": "TK-C4"})
    assert clock.json()["error"] == "Выберите добавление или задержку, но не то и другое вместе (TK-C4)."
    typo = client.post("/api/games", json={"white": "a", "black": "b", "settings": {"flag": "claim"}}, headers=headers)
    assert (typo.json()["code"], typo.json()["params"]) == ("unknown_setting", {"field": "flag"})


def test_a_cross_site_post_is_refused(client: TestClient, arbiter: str) -> None:
    response = client.post(
        "/api/games",
        json={"white": "a", "black": "b"},
        headers={"x-csrf-token": arbiter, "origin": "https://evil.example"},
    )
    assert response.status_code == 403


def test_setup_happens_once(client: TestClient, arbiter: str) -> None:
    again = client.post(
        "/setup",
        data={"name": "intruder", "password": "x" * 10, "confirm": "x" * 10, "csrf": arbiter},
        follow_redirects=False,
    )
    assert again.status_code == 303 and again.headers["location"] == "/login"


def test_players_play_through_the_socket_and_spectators_watch(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    room = game["id"]
    state = client.get(f"/api/rooms/{room}").json()
    assert state["data"]["names"] == {"white": "Абай", "black": "Болат"}
    assert state["data"]["status"] == "scheduled"
    with client.websocket_connect(f"/ws/rooms/{room}") as arbiter_ws:
        arbiter_ws.send_json({"t": "hello", "v": 0})
        assert receive_until(arbiter_ws, "welcome")["role"] == "arbiter"  # by the signed-in session
        arbiter_ws.send_json({"t": "cmd", "id": "s", "type": "start", "data": {}})
        assert receive_until(arbiter_ws, "ack")["v"] == 2
    with client.websocket_connect(f"/ws/rooms/{room}") as white:
        white.send_json({"t": "hello", "v": 0, "token": game["tokens"]["white"]})
        assert receive_until(white, "welcome")["role"] == "white"
        snapshot = receive_until(white, "snapshot")
        assert snapshot["data"]["status"] == "running" and "move" in snapshot["data"]["can"]
        white.send_json({"t": "cmd", "id": "m1", "type": "move", "data": {"hole": 7}})
        assert receive_until(white, "ack")["id"] == "m1"
        event = receive_until(white, "event")
        assert event["type"] == "move_played" and event["more"]
        assert "state" not in event["data"]  # the command's last event brings it, in the same frame
        pressed = receive_until(white, "event")
        assert pressed["type"] == "clock_pressed" and "more" not in pressed
        assert pressed["data"]["state"]["moves"][0]["token"] == "76(10)"
    final = client.get(f"/api/rooms/{room}").json()["data"]
    assert final["kazans"] == {"white": 10, "black": 0} and final["turn"] == "black"


def test_a_wrong_token_is_a_spectator(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    client.post("/logout", data={"csrf": arbiter})
    with client.websocket_connect(f"/ws/rooms/{game['id']}") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": "guessed"})
        assert receive_until(ws, "welcome")["role"] == "spectator"
        ws.send_json({"t": "cmd", "id": "1", "type": "resign", "data": {}})
        assert receive_until(ws, "refused")["code"] == "forbidden"


def test_unknown_room(client: TestClient) -> None:
    assert client.get("/api/rooms/g-nothing").status_code == 404


def test_a_refusal_over_the_socket_names_the_player_in_the_page_language(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    room = game["id"]
    with client.websocket_connect(f"/ws/rooms/{room}") as arbiter_ws:
        arbiter_ws.send_json({"t": "hello", "v": 0})
        receive_until(arbiter_ws, "welcome")
        arbiter_ws.send_json({"t": "cmd", "id": "s", "type": "start", "data": {"absent": ["white"]}})
        receive_until(arbiter_ws, "ack")
        # The arbiter's console cites the clause; the players' pages never show regulation codes.
        arbiter_ws.send_json({"t": "cmd", "id": "d", "type": "declare_default", "data": {}})
        early = receive_until(arbiter_ws, "refused")
        assert early["code"] == "default_too_early" and early["params"]["clause"] == "TK-R4"
        assert "(TK-R4)" in early["message"]
    expected = {
        "kk": "Абай әлі келген жоқ.",
        "ru": "Игрок Абай ещё не прибыл.",
        "en": "Абай has not arrived yet.",
    }
    for language, message in expected.items():
        with client.websocket_connect(f"/ws/rooms/{room}?lang={language}") as white:
            white.send_json({"t": "hello", "v": 0, "token": game["tokens"]["white"]})
            receive_until(white, "welcome")
            white.send_json({"t": "cmd", "id": "m", "type": "move", "data": {"hole": 7}})
            refused = receive_until(white, "refused")
        assert (refused["code"], refused["params"]) == ("not_arrived", {"player": "Абай"})
        assert refused["message"] == message and "TK-" not in refused["message"]
        assert "white" not in refused["message"].lower()
