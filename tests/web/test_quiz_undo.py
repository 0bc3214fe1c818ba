"""Undo to any point over the socket and into the tour (issue 31): the host's list of moments, ``undo_to`` followed by
every screen, the report telling what was undone, a result amended in its tour while the stage is open and refused
— in the reader's language — once the stage is closed (SI-6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from toreshi.kit.core import Actor
from toreshi.kit.refusal import Refused
from toreshi.live.room import Command
from toreshi.live.rooms.quiz import QuizRoom
from toreshi.quiz.game import Phase

from .helpers import receive_message, receive_until
from .quiz_driver import HOST, _send, _until, play_game
from .test_quiz_pages import TEAMS, created_game
from .test_quiztour_pages import on_app, post, tour_with_rooms


def scores_of(state: dict[str, Any]) -> dict[str, int]:
    return {team["name"]: team["score"] for team in state["teams"]}


def test_the_host_undoes_to_a_moment_and_the_projector_and_phones_follow(web: TestClient, shared_data: Path) -> None:
    room_id, codes, tokens = created_game(web, shared_data / "quiz" / "siq" / "1.siq")
    url = f"/ws/rooms/{room_id}"
    with web.websocket_connect(url) as host, web.websocket_connect(url) as board, web.websocket_connect(url) as phone:
        host.send_json({"t": "hello", "v": 0, "token": tokens["host"]})
        receive_until(host, "snapshot")
        board.send_json({"t": "hello", "v": 0, "token": tokens["board"]})
        receive_until(board, "snapshot")
        phone.send_json({"t": "hello", "v": 0, "token": codes[TEAMS[1]].split("-")[1]})
        receive_until(phone, "snapshot")
        ids = iter(range(100))
        seen: dict[str, Any] = {}

        def command(kind: str, **data: Any) -> dict[str, Any]:
            number = str(next(ids))
            host.send_json({"t": "cmd", "id": number, "type": kind, "data": data})
            return _answer(host, number, seen)

        command("draw", team=TEAMS[0])
        for value, key in ((1, "1"), (2, "2")):  # Алтын right on the 1, Барыс right on the 2
            command("choose", theme=0, value=value)
            command("finish_reading")
            command("key", key=key)
            answering = receive_until(board, "event", type="buzzed")
            assert answering["data"]["state"]["current"]["answering"] == TEAMS[int(key) - 1]
            command("right")
            judged = receive_until(phone, "event", type="answer_judged")
        assert scores_of(judged["data"]["state"]) == {TEAMS[0]: 1, TEAMS[1]: 2, TEAMS[2]: 0}
        owner = on_app(web, web.app.state.services.rooms.get, room_id, "quiz")  # type: ignore[attr-defined]
        snapshot = owner.logic.view(Actor("host", "Жүргізуші"), owner.now_ms())  # what the host's page is sent
        points = snapshot["host"]["points"]
        # the moments between questions, oldest first; each with its scores and what happened last
        assert points[0] == {**points[0], "step": 0, "event": None, "questions": 0}
        after_first = next(p for p in points if p["questions"] == 1 and p["event"]["type"] == "answer_judged")
        assert after_first["scores"] == {TEAMS[0]: 1, TEAMS[1]: 0, TEAMS[2]: 0}
        assert after_first["last"] == {"theme_name": snapshot["board"][0]["name"], "value": 1}
        assert "undo_to" in snapshot["can"]
        # a step that is not a moment between questions: refused in the host's language
        refused = command("undo_to", step=after_first["step"] + 1)
        assert refused["t"] == "refused" and refused["code"] == "quiz_undo_point"
        assert command("undo_to", step=after_first["step"])["t"] == "ack"
        for screen in (board, phone):
            undone = receive_until(screen, "event", type="undone_to")
            assert undone["data"]["event"]["step"] == after_first["step"]
            state = undone["data"]["state"]
            assert scores_of(state) == {TEAMS[0]: 1, TEAMS[1]: 0, TEAMS[2]: 0}
            assert state["board"][0]["cells"][1]["open"] and state["chooser"] == TEAMS[0]
        assert "host" not in undone["data"]["state"]  # a phone never gets the host's list
    report = web.get(f"/api/quiz/{room_id}/report").json()
    (undo,) = report["undos"]
    assert undo["step"] == after_first["step"] and undo["questions"] == 1
    assert [q["value"] for q in undo["undone_questions"]] == [2]  # kept for the record, out of the game's list
    assert [q["number"] for q in report["questions"]] == [1]
    page = web.get(f"/quiz/{room_id}/report?lang=ru").text
    assert "Отменено до момента после вопроса 1" in page and "отменён" in page


def _answer(ws: Any, number: str, seen: dict[str, Any]) -> dict[str, Any]:
    """The ack or refusal of command ``number``; the states the events before it carried are kept in ``seen``."""
    while True:
        message = receive_message(ws)
        for event in message.get("events", [message]) if message["t"] in ("event", "events") else ():
            if "state" in event["data"]:
                seen["state"] = event["data"]["state"]
        if message["t"] in ("ack", "refused") and message.get("id") == number:
            return message


async def _undo_before_last_and_replay(rooms: Any, room_id: str, team: str) -> dict[str, int]:
    """The arbiter after the game: back to the moment before the last question, which is played again with
    ``team`` answering it right; the room's end takes the new result to its tour."""
    owner = await rooms.get(room_id, "quiz")
    logic = owner.logic
    assert isinstance(logic, QuizRoom) and logic.game.finished
    step = logic.state.points[-2].step  # after the assistant's announcement, before the last question
    await _send(owner, Actor("arbiter", "Ерлан"), "undo_to", {"step": step})
    assert logic.game.phase is Phase.CHOOSING
    theme, value = logic.game.open_cells[0]
    await _send(owner, HOST, "choose", {"theme": theme, "value": value})
    await _send(owner, HOST, "finish_reading")
    teams = logic.game.teams
    await _send(owner, Actor(f"team:{teams.index(team) + 1}", team), "press", received_ms=owner.now_ms())
    await _until(owner, (Phase.ANSWERING,))
    await _send(owner, HOST, "right")
    assert logic.game.finished
    return logic.game.scores


async def _try(rooms: Any, room_id: str, kind: str, data: dict[str, Any]) -> Any:
    owner = await rooms.get(room_id, "quiz")
    try:
        await owner.handle(Command(kind, Actor("arbiter", "Ерлан"), data))
    except Refused as error:  # the refusal is the answer here
        return error
    return None


def test_an_undo_after_the_game_reaches_the_tour_until_the_stage_is_closed(web: TestClient, shared_data: Path) -> None:
    tour, services = tour_with_rooms(web, shared_data)
    service = services.quiz_tours
    first, second = on_app(web, service.state, tour).links
    # Алтын 30, Барыс 30, Сұңқар 15, Тұлпар 0: two go through, no tie across the boundary
    on_app(web, play_game, services.rooms, first.room_id, ["Алтын", "Алтын", "Барыс", "Барыс", "Сұңқар"])
    on_app(web, service.settled)
    recorded = on_app(web, service.state, tour).link(first.room_id)
    assert recorded is not None and dict(recorded.scores or {}) == {"Алтын": 30, "Барыс": 30, "Сұңқар": 15,
                                                                    "Тұлпар": 0}  # fmt: skip
    scores = on_app(web, _undo_before_last_and_replay, services.rooms, first.room_id, "Тұлпар")
    assert scores == {"Алтын": 30, "Барыс": 30, "Сұңқар": 10, "Тұлпар": 5}
    on_app(web, service.settled)
    state = on_app(web, service.state, tour)
    amended = state.link(first.room_id)
    assert amended is not None and dict(amended.scores or {}) == scores  # the tour's result followed the room
    assert state.log[-1][1] == "result_amended"
    assert dict(state.tour.stages[0].result(0).scores) == scores
    page = web.get(f"/quiz/tours/{tour}?lang=ru").text
    assert "Результат изменён в своей комнате" in page and "Этап закрыт" not in page
    # game 2, then the host closes the stage: the rooms are closed, their undo refused (SI-6)
    on_app(web, play_game, services.rooms, second.room_id, ["Жолбарыс", "Жолбарыс", "Қыран", "Қыран", "Арлан"])
    on_app(web, service.settled)
    page = post(web, tour, "close", stage="1")
    assert "Этап закрыт: его результаты окончательны (SI-6)." in page  # ?lang=ru stays with the session
    state = on_app(web, service.state, tour)
    assert state.closed == frozenset({0})
    error = on_app(web, _try, services.rooms, first.room_id, "undo_to", {"step": 0})
    assert error is not None and error.refusal.code.value == "quiz_game_closed"
    owner = on_app(web, services.rooms.get, first.room_id, "quiz")
    assert owner.logic.state.closed
    host_view = owner.logic.view(Actor("host", "Ерлан"), owner.now_ms())
    assert host_view["closed"] and host_view["host"]["points"] == [] and "undo_to" not in host_view["can"]
    report = web.get(f"/api/quiz/{first.room_id}/report").json()
    assert report["closed"]["reason"] == "stage" and len(report["undos"]) == 1
