"""Limits: failed sign-ins per client, request bodies, socket message size and commands per second per connection."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from toreshi.web.common.middleware import MAX_BODY_BYTES
from toreshi.web.common.security import SIGN_IN_FAILURES_PER_ACCOUNT, AttemptLimiter, SignInLimiter
from toreshi.web.rooms.socket import CLOSE_POLICY, COMMANDS_PER_SECOND, MAX_MESSAGE_BYTES

from .helpers import ARBITER, create_quiz, create_togyz, greet, session_csrf, sign_in
from .test_socket_fuzz import exchange


def _login(client: TestClient, password: str) -> int:
    form = {"name": ARBITER[0], "password": password, "csrf": session_csrf(client)}
    return client.post("/login", data=form, follow_redirects=False).status_code


def test_failed_sign_ins_are_limited_per_client(client: TestClient) -> None:
    sign_in(client)
    client.post("/logout", data={"csrf": session_csrf(client)})
    attempts = SIGN_IN_FAILURES_PER_ACCOUNT
    assert [_login(client, f"guess-{i}") for i in range(attempts)] == [200] * attempts
    assert _login(client, ARBITER[1]) == 429, "the right password after too many guesses waits too"
    # Another machine on the network is not held up by this one's guesses.
    other = TestClient(client.app, base_url="http://testserver", client=("192.168.1.23", 50000))
    other.portal = client.portal
    assert _login(other, ARBITER[1]) == 303
    # The window passes: the first client may try again.
    state: Any = client.app.state  # type: ignore[attr-defined]
    real: SignInLimiter = state.sign_in_limiter
    real.set_clock(lambda: 1e12)
    assert _login(client, ARBITER[1]) == 303


def test_the_limiter_forgets_clients_when_full() -> None:
    clock = [0.0]
    limiter = AttemptLimiter(attempts=1, window_s=10, max_clients=3, clock=lambda: clock[0])
    for host in ("a", "b", "c", "d"):
        limiter.failed(host)
    assert not limiter.blocked("a") and limiter.blocked("d")
    clock[0] = 11
    assert not any(limiter.blocked(host) for host in "bcd")


def test_bodies_over_the_limit_are_refused(client: TestClient) -> None:
    big = b"name=" + b"x" * MAX_BODY_BYTES
    response = client.post("/login", content=big, headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while read
        for _ in range(5):
            yield b"x" * (MAX_BODY_BYTES // 4)

    response = client.post(
        "/tournaments/t/protest", content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 413
    # Anonymous multipart uploads of any size (Starlette spools them to disk) are refused the same way.
    files = {"file": ("big.bin", b"\0" * (2 * MAX_BODY_BYTES), "application/octet-stream")}
    assert client.post("/tournaments/t/protest", files=files).status_code == 413


def test_the_pack_upload_has_its_own_larger_limit(client: TestClient, shared_data: Path) -> None:
    csrf = sign_in(client)
    pack = (shared_data / "quiz" / "siq" / "1.siq").read_bytes()
    filler = "x" * (MAX_BODY_BYTES // 2)
    form = {"csrf": csrf, "title": filler[:10], "note1": filler, "note2": filler, "team1": "A", "team2": "B"}
    response = client.post("/quiz/new", data=form, files={"pack": ("1.siq", pack, "application/zip")})
    assert response.status_code != 413  # over 1 MiB in all, yet read (and answered by the form's own checks)


def test_socket_messages_over_the_limit_close_the_connection(client: TestClient) -> None:
    csrf = sign_in(client)
    room_id, tokens = create_togyz(client, csrf)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        greet(ws, token=tokens["white"])
        fits = json.dumps({"t": "cmd", "id": "1", "type": "offer_draw", "data": {"pad": ""}})
        pad = MAX_MESSAGE_BYTES - len(fits.encode())
        answers, closed = exchange(ws, fits.replace('"pad": ""', '"pad": "' + "x" * pad + '"'), 1)
        assert closed is None and answers[0]["t"] in ("ack", "refused")
        answers, closed = exchange(ws, fits.replace('"pad": ""', '"pad": "' + "x" * (pad + 1) + '"'), 2)
        assert closed == CLOSE_POLICY
        assert answers[-1]["code"] == "closing" and str(MAX_MESSAGE_BYTES) in answers[-1]["message"]


def test_commands_are_rate_limited_per_connection(client: TestClient) -> None:
    csrf = sign_in(client)
    room_id, tokens = create_togyz(client, csrf)
    codes: list[str] = []
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        greet(ws, token=tokens["white"])
        for i in range(COMMANDS_PER_SECOND * 2):
            ws.send_json({"t": "cmd", "id": str(i), "type": "decline_draw", "data": {}})
        while len(codes) < COMMANDS_PER_SECOND * 2:
            message = ws.receive_json()
            if message["t"] == "refused":
                codes.append(message["code"])
    assert "rate_limited" in codes
    assert codes.count("rate_limited") <= COMMANDS_PER_SECOND + 2
    # A second connection has its own budget.
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        greet(ws, token=tokens["black"])
        answers, _ = exchange(ws, json.dumps({"t": "cmd", "id": "x", "type": "decline_draw", "data": {}}), 1)
        assert answers[0]["code"] != "rate_limited"


def test_wrong_room_tokens_and_join_codes_are_limited_per_client(client: TestClient, shared_data: Path) -> None:
    """A quiz team's join code is short: guessing is limited per client address, over /j/{code} and the socket."""
    sign_in(client)
    room_id, tokens = create_quiz(client, shared_data / "quiz" / "siq" / "1.siq")
    code = room_id[2:].upper() + "-" + tokens["team"]
    state: Any = client.app.state  # type: ignore[attr-defined]
    state.token_limiter = AttemptLimiter(attempts=3)
    guesser = TestClient(client.app, base_url="http://testserver", client=("10.0.0.66", 40000))
    guesser.portal = client.portal
    wrong = "ZZZZZ" if tokens["team"] != "ZZZZZ" else "YYYYY"
    for _ in range(3):
        assert guesser.get(f"/j/{room_id[2:].upper()}-{wrong}", follow_redirects=False).status_code == 404
    # Now even the right code is not looked up for this address: over the join page, nor over the socket.
    assert guesser.get(f"/j/{code}", follow_redirects=False).status_code == 404
    with guesser.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        ws.send_json({"t": "hello", "v": 0, "token": tokens["team"]})
        assert ws.receive_json()["role"] == "spectator"
    # Another address is not affected; and the window passes.
    assert client.get(f"/j/{code}", follow_redirects=False).status_code == 303
    state.token_limiter.clock = lambda: 1e12
    assert guesser.get(f"/j/{code}", follow_redirects=False).status_code == 303
