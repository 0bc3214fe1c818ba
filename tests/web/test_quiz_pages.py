"""«Своя игра» pages: a game from a real pack, join codes, the screens, and a socket session host + teams."""

from __future__ import annotations

import html
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.kit.refusal import Refusal, Refused
from toreshi.quiz.codes import PackCode, QuizCode
from toreshi.texts import formatting, i18n, refusals

from .helpers import csrf_in, receive_until, sign_in

TEAMS = ("Алтын", "Барыс", "Сұңқар")


@pytest.fixture
def pack(shared_data: Path) -> Path:
    return shared_data / "quiz" / "siq" / "1.siq"


def i18n_phone(language: str) -> str:
    i18n.activate(language)
    return i18n.gettext("phone")


def create_quiz(client: TestClient, pack: Path, query: str = "", **extra: str) -> Any:
    token = csrf_in(client.get(f"/quiz/new{query}").text)
    form = {
        "csrf": token,
        "title": "Бой 1",
        "kind": "qualifying",
        "round": "1",
        "first_theme": "1",
        "reading": "host",
        "arbitration": "compensated",
        "assistant": "Ерлан",
        "assistant_team": "Тұлпар",
        "team1": TEAMS[0],
        "team2": TEAMS[1],
        "team3": TEAMS[2],
        "key1": "1",
        "key2": "2",
        "key3": "3",
        **extra,
    }
    files = {"pack": (pack.name, pack.read_bytes(), "application/zip")}
    return client.post(f"/quiz/new{query}", data=form, files=files, follow_redirects=False)


def created_game(client: TestClient, pack: Path, **extra: str) -> tuple[str, dict[str, str], dict[str, str]]:
    """Create a game; returns its room id, the teams' join codes and the screens' tokens (from the links page)."""
    sign_in(client)
    response = create_quiz(client, pack, **extra)
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/quiz/(q-[a-z0-9]{4})/links", response.headers["location"])
    assert match is not None, response.headers["location"]
    room_id = match.group(1)
    links = client.get(f"/quiz/{room_id}/links").text
    codes = dict(zip(TEAMS, re.findall(r'<p class="join-code">([A-Z0-9-]+)</p>', links), strict=True))
    tokens = dict(re.findall(r"/quiz/" + room_id + r"/(host|board|assistant)\?token=([\w-]+)", links))
    return room_id, codes, tokens


def test_only_a_signed_in_arbiter_creates_a_game(web: TestClient) -> None:
    response = web.get("/quiz/new", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")


def test_a_bad_pack_is_refused_with_a_message(web: TestClient, tmp_path: Path) -> None:
    sign_in(web)
    bogus = tmp_path / "pack.siq"
    bogus.write_bytes(b"not a pack at all")
    response = create_quiz(web, bogus)
    i18n.activate("en")
    assert response.status_code == 400 and html.escape(refusals.render(Refusal(PackCode.NOT_A_PACK))) in response.text
    response = create_quiz(web, bogus, team2="", team3="")
    assert "Enter the names of 2 to 4 teams." in response.text
    # The page speaks its reader's language: Kazakh by default, the pack's problem included.
    response = create_quiz(web, bogus, query="?lang=kk")
    i18n.activate("kk")
    kazakh = refusals.render(Refusal(PackCode.NOT_A_PACK))
    assert response.status_code == 400 and html.escape(kazakh) in response.text and "question pack" not in response.text


def test_create_join_and_the_screens(web: TestClient, pack: Path) -> None:
    room_id, codes, tokens = created_game(web, pack)
    assert set(tokens) == {"host", "board", "assistant"}
    # The join code (typed, or from the QR code) leads to the team's buzzer page.
    joined = web.get(f"/quiz/join?code={codes[TEAMS[1]].lower()}", follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"].startswith(f"/quiz/{room_id}/buzzer?token=")
    assert web.get(f"/j/{codes[TEAMS[0]]}", follow_redirects=False).status_code == 303
    assert web.get("/quiz/join?code=AAAA-BBBBB").status_code == 404
    buzzer = web.get(joined.headers["location"])
    assert buzzer.status_code == 200 and 'id="buzz"' in buzzer.text
    config = json.loads(re.search(r'id="quiz-config">(.*?)</script>', buzzer.text, re.S).group(1))  # type: ignore[union-attr]
    assert (config["role"], config["name"]) == ("team", TEAMS[1])
    for path in ("board", "assistant", "host", ""):
        page = web.get(f"/quiz/{room_id}/{path}".rstrip("/"))
        assert page.status_code == 200, path
        assert "ответ" not in page.text.lower() or path == "host"
    assert "q-grid" in web.get(f"/quiz/{room_id}/board").text
    # A visitor who is neither signed in nor holds the host's link cannot open the console or the report early.
    with TestClient(web.app) as stranger:
        assert stranger.get(f"/quiz/{room_id}/host", follow_redirects=False).status_code == 303
        assert stranger.get(f"/api/quiz/{room_id}/report").status_code == 403
        assert stranger.get(f"/quiz/{room_id}/host?token={tokens['host']}").status_code == 200
    assert web.get(f"/api/quiz/{room_id}/report").json()["teams"] == list(TEAMS)
    assert web.get("/quiz").status_code == 200 and "Бой 1" in web.get("/quiz").text


def test_a_socket_session_host_and_teams_press_and_verdict(web: TestClient, pack: Path) -> None:
    room_id, codes, tokens = created_game(web, pack)
    secrets = {team: code.split("-")[1] for team, code in codes.items()}
    url = f"/ws/rooms/{room_id}"
    with (
        web.websocket_connect(url) as host,
        web.websocket_connect(url) as team_a,
        web.websocket_connect(url) as team_b,
    ):
        host.send_json({"t": "hello", "v": 0, "token": tokens["host"]})
        assert receive_until(host, "welcome")["role"] == "host"
        snapshot = receive_until(host, "snapshot")
        assert snapshot["data"]["status"] == "draw" and snapshot["data"]["host"]["keys"]["1"] == TEAMS[0]
        for ws, team in ((team_a, TEAMS[0]), (team_b, TEAMS[1])):
            ws.send_json({"t": "hello", "v": 0, "token": secrets[team]})
            assert receive_until(ws, "welcome")["name"] == team
            ping = receive_until(ws, "ping")
            ws.send_json({"t": "pong", "id": ping["id"], "tc": ping["ts"] + 1_000_000})
            receive_until(ws, "offset")
        host.send_json({"t": "cmd", "id": "1", "type": "draw", "data": {"team": TEAMS[0]}})
        receive_until(host, "ack", id="1")
        host.send_json({"t": "cmd", "id": "2", "type": "choose", "data": {"theme": 0, "value": 1}})
        receive_until(host, "ack", id="2")
        chosen = receive_until(team_b, "event", type="question_chosen")
        assert "answers" not in json.dumps(chosen["data"]["state"]["current"])
        # Team B presses; the socket attaches its clock sync and receipt time; the arbiter decides after its window.
        touch = receive_until(team_b, "ping")["ts"] + 1_000_000  # the phone's clock runs 1,000 s ahead
        team_b.send_json({"t": "cmd", "id": "p", "type": "press", "data": {"tc": touch}})
        assert receive_until(team_b, "ack", id="p")["v"] > 0
        decided = receive_until(team_b, "event", type="buzz_decided")
        assert decided["data"]["event"]["winner"] == TEAMS[1]
        buzzed = receive_until(team_b, "event", type="buzzed")
        assert buzzed["data"]["state"]["current"]["answering"] == TEAMS[1]
        # Team A's press now is too late: recorded for the host, no change of who answers.
        team_a.send_json({"t": "cmd", "id": "late", "type": "press", "data": {"tc": touch + 100}})
        receive_until(team_a, "ack", id="late")
        host.send_json({"t": "cmd", "id": "3", "type": "right", "data": {}})
        receive_until(host, "ack", id="3")
        judged = receive_until(team_a, "event", type="answer_judged")
        scores = {team["name"]: team["score"] for team in judged["data"]["state"]["teams"]}
        assert scores == {TEAMS[0]: 0, TEAMS[1]: 1, TEAMS[2]: 0}
        assert judged["data"]["state"]["last"]["answers"]  # read out after the question (SI-3.10)
    report = web.get(f"/api/quiz/{room_id}/report").json()
    first = report["questions"][0]
    assert [p["team"] for p in first["presses"]] == [TEAMS[1]]
    assert first["presses"][0]["client_ms"] is not None  # placed with the connection's clock sync
    assert first["late"] == [{"team": TEAMS[0], "reason": "answering"}]
    assert first["rulings"][0] == {**first["rulings"][0], "team": TEAMS[1], "correct": True}
    page = web.get(f"/quiz/{room_id}/report")
    assert page.status_code == 200 and TEAMS[1] in page.text
    # Times on the report are written for the reader: the press as mm:ss.s from the question's start, the
    # arbiter's wait in ms.
    russian = web.get(f"/quiz/{room_id}/report?lang=ru").text
    after = first["presses"][0]["received_ms"] - first["chosen_ms"]
    assert first["presses"][0]["after_ms"] == after
    shown = f'({i18n_phone("ru")}, <span class="q-press-time">{formatting.format_clock(after)}</span>)'
    assert shown in russian
    waited = first["decisions"][0]["waited_ms"]
    assert f"{formatting.format_milliseconds(waited, 'ru')}" in html.unescape(russian) and " ms" not in russian


def test_a_serial_button_box_presses_for_its_team(web: TestClient, pack: Path) -> None:
    room_id, _codes, tokens = created_game(web, pack)
    master, slave = os.openpty()
    try:
        csrf = csrf_in(web.get(f"/quiz/{room_id}/host").text)
        bad = web.post(
            f"/quiz/{room_id}/serial", data={"csrf": csrf, "port": "socket://evil:1"}, follow_redirects=False
        )
        assert bad.status_code == 303 and "serial_error=name" in bad.headers["location"]
        traversal = web.post(
            f"/quiz/{room_id}/serial", data={"csrf": csrf, "port": "/dev/../etc/shadow"}, follow_redirects=False
        )
        assert traversal.status_code == 303 and "serial_error=name" in traversal.headers["location"]
        connected = web.post(f"/quiz/{room_id}/serial", data={"csrf": csrf, "port": os.ttyname(slave)})
        assert connected.status_code == 200 and os.ttyname(slave) in connected.text  # back on the console
        with web.websocket_connect(f"/ws/rooms/{room_id}") as host:
            host.send_json({"t": "hello", "v": 0, "token": tokens["host"]})
            receive_until(host, "welcome")
            host.send_json({"t": "cmd", "id": "1", "type": "draw", "data": {"team": TEAMS[0]}})
            receive_until(host, "ack", id="1")
            host.send_json({"t": "cmd", "id": "2", "type": "choose", "data": {"theme": 1, "value": 2}})
            receive_until(host, "ack", id="2")
            time.sleep(0.1)
            os.write(master, b"# box v1\nP3\n")
            buzzed = receive_until(host, "event", type="buzzed")
            assert buzzed["data"]["state"]["current"]["answering"] == TEAMS[2]
        report = web.get(f"/api/quiz/{room_id}/report").json()
        assert report["questions"][0]["presses"][0]["source"] == "serial"
        web.post(f"/quiz/{room_id}/serial", data={"csrf": csrf, "action": "disconnect"})
    finally:
        os.close(master)
        os.close(slave)


def test_a_serial_port_that_is_not_there_keeps_the_host_on_the_console_with_the_reason(
    web: TestClient, pack: Path
) -> None:
    """Issue 14 §4: it used to answer a raw English JSON page."""
    room_id, _codes, _tokens = created_game(web, pack)
    csrf = csrf_in(web.get(f"/quiz/{room_id}/host").text)
    port = "/dev/ttyUSB-toreshi-absent"
    answer = web.post(f"/quiz/{room_id}/serial?lang=ru", data={"csrf": csrf, "port": port}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].startswith(f"/quiz/{room_id}/host?")
    console = web.get(answer.headers["location"], headers={"accept-language": "ru"})
    assert console.status_code == 200 and console.headers["content-type"].startswith("text/html")
    i18n.activate("ru")
    expected = refusals.text_of(Refused(QuizCode.SERIAL_PORT_UNAVAILABLE, port=port))
    assert html.escape(expected, quote=False) in console.text or expected in html.unescape(console.text)
    assert port in expected and 'role="alert"' in console.text
    assert not any(ch.isascii() and ch.isalpha() for ch in expected.replace(port, ""))  # Russian, not English


def test_the_new_game_form_sets_the_cap_on_compensation_and_the_projectors_keys(web: TestClient, pack: Path) -> None:
    """Issue 13 §1 and §4: the cap is a setting of the game (10 ms unless the host says otherwise) and the
    projector's link presses for the teams only where the host ticked that USB buzzers are plugged in there."""
    default_room, _codes, _tokens = created_game(web, pack)
    host = web.get(f"/quiz/{default_room}/host")
    assert 'name="max_compensation"' in web.get("/quiz/new").text and host.status_code == 200
    with web.websocket_connect(f"/ws/rooms/{default_room}") as ws:
        ws.send_json({"t": "hello", "v": 0})
        snapshot = receive_until(ws, "snapshot")["data"]["host"]
    assert snapshot["arbitration"]["max_compensation_ms"] == 10 and snapshot["projector_keys"] is False
    room_id, _codes, _tokens = created_game(web, pack, max_compensation="40", projector_keys="on")
    with web.websocket_connect(f"/ws/rooms/{room_id}") as ws:
        ws.send_json({"t": "hello", "v": 0})
        snapshot = receive_until(ws, "snapshot")["data"]["host"]
    assert snapshot["arbitration"]["max_compensation_ms"] == 40 and snapshot["projector_keys"] is True
