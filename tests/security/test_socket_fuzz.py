"""Hostile input on the room socket: random, malformed, huge and wrongly typed messages from every role.

Each message is followed by a sentinel (an unknown message type the server must answer with ``unknown_type``), so
everything the server said about the fuzzed message is known. Afterwards nothing crashed, each message got a clear
answer (``ack``, ``refused`` or ``error``) or the connection was closed with the policy code, a refused command
stored nothing, and the room rebuilt from its stored events looks exactly as the live room does.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from toreshi.kit.refusal import Refused
from toreshi.live.room import Actor, Command
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.refusal_codes import EVERY_CODE
from toreshi.tournament.journal import COMMANDS as TOURNAMENT_COMMANDS
from toreshi.tournament.journal.teams import COMMANDS as TEAM_COMMANDS
from toreshi.web.rooms.socket import CLOSE_POLICY, MAX_MESSAGE_BYTES

from .helpers import create_quiz, create_togyz, greet, owner, replay_agrees, sign_in, stored_version

EXAMPLES = int(os.environ.get("TORESHI_FUZZ_EXAMPLES", "25"))
"""Examples per fuzz test; a longer hunt: ``TORESHI_FUZZ_EXAMPLES=1000 pytest tests/security``."""
SEEN: Counter[str] = Counter()
"""What the fuzzed frames were answered (shown with ``pytest -s`` when the hunt is long)."""

TOGYZ_COMMANDS = [
    "create", "move", "press", "adjourn", "claim_flag", "pause", "offer_draw", "accept_draw", "decline_draw",
    "resign", "sign", "file_protest", "start", "add_time", "set_clocks", "arrive", "open_envelope", "decide",
    "postpone", "resume", "extend_both_flags", "declare_default",
]  # fmt: skip
QUIZ_COMMANDS = [
    "create", "draw", "strike", "announce", "choose", "reserve", "finish_reading", "right", "wrong", "clarify",
    "extend", "cancel_press", "replace", "reverse", "undo", "correct", "warn", "sanction", "announce_score",
    "request_score", "key", "map_keys", "press", "sync",
]  # fmt: skip

json_leaf = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=30)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
plausible = st.fixed_dictionaries(
    {},
    optional={
        "hole": st.integers(-3, 12) | json_value,
        "side": st.sampled_from(["white", "black", "grey"]) | json_value,
        "ms": st.integers(-(10**12), 10**12),
        "white_ms": st.integers(-(10**9), 10**12),
        "black_ms": st.integers(-(10**9), 10**12),
        "reason": st.text(max_size=40) | st.just("NUL \x00 inside"),
        "salt": st.text(max_size=40) | st.just("\x00"),
        "result": st.sampled_from(["1-0", "0-1", "1/2-1/2", "*", "x"]),
        "absent": st.lists(st.sampled_from(["white", "black", "x"]), max_size=3) | json_value,
        "press": json_value,
        "lag_ms": st.integers(-(10**6), 10**9) | json_value,
        "team": st.sampled_from(["Алтын", "Барыс", "nobody"]) | json_value,
        "theme": st.integers(-2, 12) | json_value,
        "value": st.sampled_from([100, 200, 300, 400, 500, -1]) | json_value,
        "reserve": st.integers(-1, 3),
        "question": st.integers(-1, 30),
        "delta": st.integers(-(10**9), 10**9),
        "scope": st.sampled_from(["game", "round", "x"]),
        "key": st.text(max_size=3),
        "keys": json_value,
        "tc": json_value,
    },
)


def command_messages(types: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            "t": st.just("cmd"),
            "id": st.text(min_size=1, max_size=10) | json_value,
            "type": st.sampled_from(types) | st.text(max_size=12) | json_value,
            "data": plausible | json_value,
        }
    )


def other_messages() -> st.SearchStrategy[dict[str, Any]]:
    return (
        st.fixed_dictionaries({"t": st.just("pong"), "id": json_value, "tc": json_value})
        | st.fixed_dictionaries({"t": st.just("hello"), "v": json_value, "token": json_value})
        | st.dictionaries(st.text(max_size=6), json_value, max_size=4)
    )


def frames(types: list[str]) -> st.SearchStrategy[str | bytes]:
    """What a hostile client sends: protocol-shaped messages with wrong values, JSON of every shape, broken JSON,
    text over the size limit, and binary frames."""
    well_formed = st.fixed_dictionaries(
        {"t": st.just("cmd"), "id": st.text(min_size=1, max_size=10), "type": st.sampled_from(types), "data": plausible}
    ).map(json.dumps)
    shaped = (command_messages(types) | other_messages()).map(lambda m: json.dumps(m))
    moves = st.fixed_dictionaries(
        {
            "t": st.just("cmd"),
            "id": st.text(min_size=1, max_size=10),
            "type": st.just("move"),
            "data": st.fixed_dictionaries({"hole": st.integers(1, 9)}),
        }
    ).map(json.dumps)
    return st.one_of(
        # Most frames are commands a client could send (from the wrong role, with wrong values, or plain moves, so
        # that games go on); the rest is junk that closes the connection.
        *[well_formed] * 4,
        *[moves] * 2,
        shaped,
        json_value.map(json.dumps),
        st.text(max_size=60),
        st.integers(MAX_MESSAGE_BYTES + 1, 3 * MAX_MESSAGE_BYTES).map(lambda n: json.dumps({"t": "x" * n})),
        st.binary(min_size=1, max_size=40),
    )


def exchange(ws: Any, frame: str | bytes, sync: int) -> tuple[list[dict[str, Any]], int | None]:
    """Send one frame and then a sentinel; return what came back before the sentinel's answer (pings and room
    events left out), or the close code if the server closed the connection."""
    if isinstance(frame, bytes):
        ws.send_bytes(frame)
    else:
        ws.send_text(frame)
    sentinel = f"zz-sync-{sync}"
    ws.send_json({"t": sentinel})
    answers: list[dict[str, Any]] = []
    try:
        while True:
            message: dict[str, Any] = ws.receive_json()
            if message["t"] in ("ping", "event", "events", "offset", "snapshot", "resync", "presence"):
                continue
            if message["t"] == "error" and message.get("code") == "unknown_type" and sentinel in message["message"]:
                return answers, None
            answers.append(message)
    except WebSocketDisconnect as closed:
        return answers, closed.code


def check_answer(frame: str | bytes, answers: list[dict[str, Any]], closed: int | None) -> None:
    """Every frame has a clear answer: a closing error with the policy close code, or exactly what it asked."""
    for answer in answers:
        assert answer["t"] in ("ack", "refused", "error"), answer
        assert isinstance(answer.get("code", ""), str)
        if answer["t"] != "ack":
            assert isinstance(answer["message"], str) and answer["message"], answer
    if closed is not None:
        assert closed == CLOSE_POLICY, (frame, closed)
        assert answers and answers[-1] == {**answers[-1], "t": "error", "code": "closing"}, answers
        return
    message = json.loads(frame)  # the server kept the connection: the frame was a JSON object with a string 't'
    assert isinstance(message, dict) and isinstance(message.get("t"), str)
    if message["t"] == "cmd":
        assert len(answers) == 1, answers
        command_id = message.get("id")
        if isinstance(command_id, str) and 0 < len(command_id) <= 64:
            assert answers[0]["t"] in ("ack", "refused") and answers[0]["id"] == command_id, answers
        else:
            assert answers[0]["t"] == "error" and answers[0]["code"] == "bad_command", answers
    elif message["t"] not in ("pong", "hello"):
        assert [a["code"] for a in answers] == ["unknown_type"], answers
    else:
        assert answers == [], answers


Room = tuple[str, dict[str, "str | None"]]
"""A room to fuzz: its id, and per role the token a connection brings (``None``: none, or the arbiter's session)."""


def fuzz_room(client: TestClient, kind: str, room: Callable[[], Room], types: list[str]) -> None:
    """Fuzz rooms: each example is one connection, as one role (token ``None``: no token), sending frames to the
    room that ``room()`` names then (a new game once the last one is over)."""
    counter = iter(range(10**9))
    roles = sorted(room()[1])

    @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
    @given(role=st.sampled_from(roles), sent=st.lists(frames(types), min_size=1, max_size=8))
    def session(role: str, sent: list[str | bytes]) -> None:
        room_id, tokens = room()
        live = owner(client, room_id, kind)
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            assert greet(ws, token=tokens[role])["room"] == room_id
            for frame in sent:
                # No timer runs in these rooms unless the logic has a deadline: then only commands change them.
                quiet = live.logic.deadline_ms() is None
                before = live.version
                answers, closed = exchange(ws, frame, next(counter))
                check_answer(frame, answers, closed)
                SEEN.update(f"{a['t']}:{a.get('code', '')}" for a in answers)
                acked = [a for a in answers if a["t"] == "ack"]
                if quiet and live.logic.deadline_ms() is None:
                    if acked:
                        assert acked[0]["v"] == live.version
                    else:
                        assert live.version == before, f"{frame!r} was refused but changed the room"
                if closed is not None:
                    break
        stored, seen, replayed = replay_agrees(client, room_id, kind)
        assert seen == replayed
        assert stored == stored_version(client, room_id)

    session()
    if "TORESHI_FUZZ_EXAMPLES" in os.environ:
        print(f"{kind}: {dict(SEEN.most_common())}")


def started_games(client: TestClient, csrf: str, other: dict[str, str]) -> Callable[[], Room]:
    """The current togyz game, started by the arbiter; a new one once it is over."""
    current: list[Room] = []
    plies = random.Random(82)

    def room() -> Room:
        if current and not owner(client, current[0][0], "togyz").logic.is_finished():  # type: ignore[attr-defined]
            return current[0]
        room_id, tokens = create_togyz(client, csrf)
        with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
            ws.send_json({"t": "hello", "v": 0})
            ws.receive_json()
            answers, _ = exchange(ws, json.dumps({"t": "cmd", "id": "go", "type": "start", "data": {}}), 0)
            assert [a["t"] for a in answers] == ["ack"], answers
        # Some legal moves first (a different number each game): the fuzz then meets captures, tuzdyks and endings.
        for ply in range(plies.randrange(0, 60)):
            state = client.get(f"/api/rooms/{room_id}").json()["data"]
            if state["status"] != "running" or not state["legal"]:
                break
            with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
                ws.send_json({"t": "hello", "v": 0, "token": tokens[state["turn"]]})
                ws.receive_json()
                move = {"t": "cmd", "id": f"p{ply}", "type": "move", "data": {"hole": plies.choice(state["legal"])}}
                answers, _ = exchange(ws, json.dumps(move), ply)
                assert [a["t"] for a in answers] == ["ack"], answers
        roles: dict[str, str | None] = {
            "arbiter": None,  # the signed-in session
            "white": tokens["white"],
            "black": tokens["black"],
            "other game's player": other["white"],
            "forged token": "not-a-token",
        }
        current[:] = [(room_id, roles)]
        return current[0]

    return room


def test_togyz_socket_survives_hostile_clients(client: TestClient) -> None:
    csrf = sign_in(client)
    _, other = create_togyz(client, csrf)
    games = started_games(client, csrf, other)
    fuzz_room(client, "togyz", games, TOGYZ_COMMANDS)
    # Spectators (no session, no token) in a separate client: they cannot change anything at all.
    anonymous = TestClient(client.app, base_url="http://testserver")
    anonymous.portal = client.portal
    room_id = games()[0]
    before = stored_version(client, room_id)
    watchers: Room = (room_id, {"spectator": None, "other game's player": other["black"]})
    fuzz_room(anonymous, "togyz", lambda: watchers, TOGYZ_COMMANDS)
    assert stored_version(client, room_id) == before


def test_quiz_socket_survives_hostile_clients(client: TestClient, shared_data: Path) -> None:
    sign_in(client)
    room_id, tokens = create_quiz(client, shared_data / "quiz" / "siq" / "1.siq")
    roles: dict[str, str | None] = dict(tokens)
    roles["arbiter"] = None
    roles["forged token"] = "AAAAA"
    fuzz_room(client, "quiz", lambda: (room_id, roles), QUIZ_COMMANDS)


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://testserver.evil.example"])
def test_cross_origin_sockets_are_closed_with_the_policy_code(client: TestClient, origin: str) -> None:
    csrf = sign_in(client)
    room_id, _ = create_togyz(client, csrf)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(f"/ws/rooms/{room_id}", headers={"origin": origin}) as ws,
    ):
        ws.receive_json()
    assert closed.value.code == CLOSE_POLICY


def test_a_binary_frame_is_a_clear_protocol_error(client: TestClient) -> None:
    """Found by the fuzzer: a binary frame used to crash the connection handler (KeyError 'text')."""
    csrf = sign_in(client)
    room_id, _ = create_togyz(client, csrf)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        greet(ws)
        answers, closed = exchange(ws, b"\x00\xff", 1)
    assert closed == CLOSE_POLICY
    assert answers[-1]["code"] == "closing" and "text" in answers[-1]["message"]


def test_a_text_the_store_cannot_hold_is_refused_not_a_crash(client: TestClient) -> None:
    """Found by schemathesis on POST /api/games: a NUL character (which PostgreSQL cannot store) in a command's text
    used to escape as InvalidEventError: a 500, and over the socket a dead connection. Now it is a refusal."""
    csrf = sign_in(client)
    room_id, _ = create_togyz(client, csrf)
    before = stored_version(client, room_id)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        greet(ws)
        started, _ = exchange(ws, json.dumps({"t": "cmd", "id": "s", "type": "start", "data": {}}), 0)
        assert [a["t"] for a in started] == ["ack"]
        before = stored_version(client, room_id)
        frame = json.dumps(
            {"t": "cmd", "id": "n", "type": "add_time", "data": {"side": "white", "ms": 1000, "reason": "a\x00b"}}
        )
        answers, closed = exchange(ws, frame, 1)
    assert closed is None
    assert [(a["t"], a["code"], a["params"]) for a in answers] == [
        ("refused", "field_control_characters", {"field": "reason"})
    ]
    assert stored_version(client, room_id) == before
    body = {"white": "a\x00b", "black": "c", "control": "blitz"}
    response = client.post("/api/games", json=body, headers={"x-csrf-token": csrf})
    assert response.status_code == 400 and response.json()["code"] == "field_control_characters"


@settings(max_examples=EXAMPLES * 4, deadline=None)
@given(
    control=st.fixed_dictionaries(
        {},
        optional={
            "periods": st.lists(
                st.fixed_dictionaries({}, optional={"moves": json_value, "time_ms": st.integers() | json_value})
                | json_value,
                max_size=3,
            )
            | json_value,
            "increment_ms": st.integers() | json_value,
            "delay_ms": st.integers() | json_value,
        },
    )
    | st.dictionaries(st.text(max_size=5), json_value, max_size=3),
    game_settings=st.dictionaries(
        st.sampled_from(["flag_mode", "start_mode", "late_limit_ms", "lag_compensation", "x"]), json_value, max_size=3
    ),
    names=st.tuples(st.text(max_size=20) | json_value, st.text(max_size=20)),
)
def test_creating_a_game_from_any_json_is_a_game_or_a_refusal(
    control: dict[str, Any], game_settings: dict[str, Any], names: tuple[Any, str]
) -> None:
    """What POST /api/games passes to the room (objects of any shape) is a game or a refusal with a code (any other
    exception fails the test)."""
    data = {"white": names[0], "black": names[1], "control": control, "settings": game_settings}
    try:
        events = TogyzRoom().decide(Command("create", Actor("arbiter", "a"), data), 0)
    except Refused as refused:
        events, code = [], refused.code
    else:
        code = ""
    assert bool(events) != bool(code), (events, code)
    assert not code or code in EVERY_CODE, code


@pytest.mark.parametrize("depth", [1500, MAX_MESSAGE_BYTES // 2 - 20])
def test_deeply_nested_json_is_a_clear_protocol_error(client: TestClient, depth: int) -> None:
    """Found in review: ``[[[[…`` within the 4 KiB limit made ``json.loads`` raise RecursionError, which escaped the
    socket (a dead connection and a server traceback, from any anonymous visitor). The JSON API had the same gap."""
    csrf = sign_in(client)
    room_id, _ = create_togyz(client, csrf)
    with client.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        greet(ws)
        answers, closed = exchange(ws, '{"t": "cmd", "data": ' + "[" * depth + "]" * depth + "}", 1)
    assert closed == CLOSE_POLICY
    assert answers[-1]["code"] == "closing" and "deep" in answers[-1]["message"]
    response = client.post(
        "/api/games",
        content=b"[" * depth + b"]" * depth,
        headers={"x-csrf-token": csrf, "content-type": "application/json"},
    )
    assert response.status_code == 400


def always(room: Room) -> Callable[[], Room]:
    return lambda: room


def test_tournament_sockets_survive_hostile_clients(client: TestClient) -> None:
    """A tournament and a team competition change only through their pages: over a socket every command, from the
    arbiter or anyone else, is a refusal (never ``failed``), and the room stays as it was."""
    csrf = sign_in(client)
    form = {"csrf": csrf, "name": "Fuzz Open", "system": "swiss_dutch", "rounds": "5", "time_control": "rapid"}
    created = client.post("/tournaments/new", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    tournament = created.headers["location"].rsplit("/", 1)[-1]
    form = {"csrf": csrf, "name": "Fuzz Cup", "system": "swiss", "boards": "4", "rounds": "3"}
    created = client.post("/teams/new", data=form, follow_redirects=False)
    assert created.status_code == 303, created.text
    teams = created.headers["location"].rsplit("/", 1)[-1]
    roles: dict[str, str | None] = {"arbiter": None, "forged token": "not-a-token"}
    for kind, room_id, types in (
        ("tournament", tournament, list(TOURNAMENT_COMMANDS.names)),
        ("teams", teams, list(TEAM_COMMANDS.names)),
    ):
        before = stored_version(client, room_id)
        fuzz_room(client, kind, always((room_id, roles)), types)
        assert stored_version(client, room_id) == before
