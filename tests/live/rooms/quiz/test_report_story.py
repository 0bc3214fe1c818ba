"""The report tells each question's story in order (issue 31): who pressed, each ruling, each cancelled press and
reversal, and how the question ended — "time" after wrong answers is not "time, nobody pressed"."""

from __future__ import annotations

from typing import Any

from tests.live.rooms.quiz.test_room import HOST, A, B, C, chosen, fire, run

from toreshi.live.rooms.quiz import QuizRoom


def steps(room: QuizRoom, number: int) -> list[tuple[Any, ...]]:
    question = room.report()["questions"][number - 1]
    told = []
    for step in question["story"]:
        if step["step"] == "outcome":
            told.append(("outcome", step["outcome"]))
        else:
            told.append((step["step"], step.get("team")))
    return told


def test_a_question_with_a_wrong_answer_and_a_cancelled_press_ends_in_time_nobody_answered_right() -> None:
    room = chosen()
    run(room, B, "press", 2_600, meta={"received_ms": 2_600})
    fire(room)  # the arbiter decides: Барыс has the floor
    run(room, HOST, "wrong", 4_000)
    run(room, C, "press", 4_500, meta={"received_ms": 4_500})
    fire(room)
    run(room, HOST, "clarify", 4_800)
    run(room, HOST, "cancel_press", 5_000, team=C.name)
    run(room, HOST, "finish_reading", 5_500)
    fire(room)  # the press window closes: time
    assert steps(room, 1) == [
        ("chosen", A.name),
        ("recognised", B.name),
        ("wrong", B.name),
        ("recognised", C.name),
        ("clarify", C.name),
        ("cancelled", C.name),
        ("time", None),
        ("outcome", "time_unanswered"),
    ]
    assert room.report()["questions"][0]["outcome"] == "time"  # the outcome itself is unchanged for CSV and JSON


def test_a_question_nobody_pressed_is_still_time_nobody_pressed() -> None:
    room = chosen()
    run(room, HOST, "finish_reading", 3_000)
    fire(room)
    assert steps(room, 1) == [("chosen", A.name), ("time", None), ("outcome", "time")]


def test_a_reversal_made_later_is_told_after_the_outcome_with_the_new_ruling() -> None:
    room = chosen()
    run(room, B, "press", 2_600, meta={"received_ms": 2_600})
    fire(room)
    run(room, HOST, "right", 4_000)
    run(room, HOST, "reverse", 6_000, question=1, team=B.name)
    question = room.report()["questions"][0]
    assert steps(room, 1) == [
        ("chosen", A.name),
        ("recognised", B.name),
        ("right", B.name),
        ("outcome", "right"),
        ("reversed", B.name),
    ]
    assert question["story"][-1]["correct"] is False


def test_the_report_page_tells_the_story_in_russian_and_never_says_nobody_pressed_after_presses() -> None:
    room = chosen()
    run(room, B, "press", 2_600, meta={"received_ms": 2_600})
    fire(room)
    run(room, HOST, "wrong", 4_000)
    run(room, HOST, "finish_reading", 5_500)
    fire(room)
    page = report_page(room, "ru")
    assert "Время: никто не нажал" not in page
    assert f'{B.name}: нажали</span> → <span class="q-step q-step-wrong">{B.name}: неверно' in page
    assert "Время: никто не ответил верно" in page


def report_page(room: QuizRoom, language: str) -> str:
    """The report page as the app renders it, in ``language``."""
    from starlette.requests import Request

    from toreshi.texts import i18n
    from toreshi.web.common.templates import environment

    i18n.activate(language)
    request = Request({"type": "http", "method": "GET", "path": "/quiz/q1/report", "query_string": b"",
                       "headers": [], "state": {"language": language}})  # fmt: skip
    return environment.get_template("quiz/report.html").render(
        request=request, language=language, languages=i18n.LANGUAGE_NAMES, report=room.report(), room_id="q1"
    )
