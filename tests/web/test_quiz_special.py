"""SIGame's special questions over the socket (issue 31): with the game's setting on, a pack's stake question is
staked for from the phones (a wrong stake refused in the team's language), its secret question handed by the
chooser's phone; with the setting off (the default) they are ordinary questions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from .helpers import receive_message, receive_until
from .test_quiz_pages import TEAMS, created_game

# In 1.siq, round 1: theme 5 («index 4») has a secret question worth 4 and a stake question worth 5; theme 2 a
# no-risk question worth 3.
SECRET, STAKE, NO_RISK = (4, 4), (4, 5), (1, 3)


def answer(ws: Any, number: str) -> dict[str, Any]:
    while True:
        message = receive_message(ws)
        if message["t"] in ("ack", "refused") and message.get("id") == number:
            return message


def join(web: TestClient, url: str, token: str) -> Any:
    ws = web.websocket_connect(url)
    ws.__enter__()
    ws.send_json({"t": "hello", "v": 0, "token": token})
    receive_until(ws, "snapshot")
    return ws


def test_stakes_come_from_the_phones_and_the_secret_is_handed_by_the_choosers_phone(
    web: TestClient, shared_data: Path
) -> None:
    room_id, codes, tokens = created_game(web, shared_data / "quiz" / "siq" / "1.siq", special_questions="on")
    url = f"/ws/rooms/{room_id}?lang=ru"
    host = join(web, url, tokens["host"])
    phones = {team: join(web, url, codes[team].split("-")[1]) for team in TEAMS}
    ids = iter(range(1000))

    def send(ws: Any, kind: str, **data: Any) -> dict[str, Any]:
        number = str(next(ids))
        ws.send_json({"t": "cmd", "id": number, "type": kind, "data": data})
        return answer(ws, number)

    try:
        assert send(host, "draw", team=TEAMS[0])["t"] == "ack"
        assert send(host, "choose", theme=STAKE[0], value=STAKE[1])["t"] == "ack"
        staking = receive_until(phones[TEAMS[1]], "event", type="question_chosen")["data"]["state"]
        assert staking["status"] == "staking"
        special = staking["current"]["special"]
        assert special["kind"] == "stake" and special["turn"] == TEAMS[0] and special["bounds"][TEAMS[0]] == [5, 5]
        assert staking["current"]["text"] == ""  # not read before the stakes (the host's view has it)
        refused = send(phones[TEAMS[1]], "stake", amount=5)  # not its turn
        assert refused["t"] == "refused" and refused["code"] == "quiz_not_your_stake"
        assert send(phones[TEAMS[0]], "stake", amount=5)["t"] == "ack"
        too_much = send(phones[TEAMS[1]], "stake", amount=50)
        assert too_much["code"] == "quiz_stake_pass_only", too_much  # Барыс has 0: it cannot outbid Алтын's 5
        assert too_much["message"] == "Вашего счёта не хватит на ставку 6: можно только пасовать."
        assert send(phones[TEAMS[1]], "stake", amount=None)["t"] == "ack"
        assert send(phones[TEAMS[2]], "stake", amount=None)["t"] == "ack"
        alone = receive_until(phones[TEAMS[0]], "event", type="stake_made")
        while alone["data"]["state"]["status"] != "answering":
            alone = receive_until(phones[TEAMS[0]], "event", type="stake_made")
        state = alone["data"]["state"]
        assert state["current"]["special"]["solo"] == TEAMS[0] and state["buzzer"] == "your_turn"
        assert send(host, "right")["t"] == "ack"
        # the secret question: Алтын (right, so choosing) hands it over from its phone
        assert send(host, "choose", theme=SECRET[0], value=SECRET[1])["t"] == "ack"
        assert send(phones[TEAMS[1]], "give", team=TEAMS[2])["code"] == "quiz_not_chooser"
        assert send(phones[TEAMS[0]], "give", team=TEAMS[0])["code"] == "quiz_secret_self"
        assert send(phones[TEAMS[0]], "give", team=TEAMS[2])["t"] == "ack"
        assert send(host, "wrong")["t"] == "ack"
        judged = receive_until(phones[TEAMS[2]], "event", type="answer_judged")
        while judged["data"]["state"]["played"] < 2:
            judged = receive_until(phones[TEAMS[2]], "event", type="answer_judged")
        scores = {team["name"]: team["score"] for team in judged["data"]["state"]["teams"]}
        assert scores == {TEAMS[0]: 5, TEAMS[1]: 0, TEAMS[2]: -4}
    finally:
        for ws in (host, *phones.values()):
            ws.__exit__(None, None, None)
    report = web.get(f"/api/quiz/{room_id}/report").json()
    assert [q["outcome"] for q in report["questions"]] == ["right", "solo"]


def test_with_the_setting_off_a_stake_question_is_an_ordinary_one(web: TestClient, shared_data: Path) -> None:
    room_id, _codes, tokens = created_game(web, shared_data / "quiz" / "siq" / "1.siq")
    host = join(web, f"/ws/rooms/{room_id}", tokens["host"])
    try:
        host.send_json({"t": "cmd", "id": "d", "type": "draw", "data": {"team": TEAMS[0]}})
        answer(host, "d")
        host.send_json({"t": "cmd", "id": "c", "type": "choose", "data": {"theme": STAKE[0], "value": STAKE[1]}})
        answer(host, "c")
        chosen = receive_until(host, "event", type="question_chosen")["data"]["state"]
        assert chosen["status"] == "reading" and "special" not in chosen["current"]
        assert chosen["current"]["kind"] == "stake"  # the host is told what the pack meant
    finally:
        host.__exit__(None, None, None)
