"""Defects of issue 14 §4 in the quiz room: a reversed ruling (Z) in the report and in the host's view, Z only for
the question played last and never when there is nothing to reverse, and a mis-clicked strike of the final taken
back by the host."""

from __future__ import annotations

from toreshi.live.room import Command
from toreshi.quiz.codes import QuizCode

from .test_room import HOST, A, B, chosen, final_drawn, fire, refusal_of, run, types


def test_a_reversed_ruling_is_in_the_report_and_the_host_sees_the_new_ruling() -> None:
    room = chosen()
    run(room, A, "press", 2_500, meta={"received_ms": 2_500})
    fire(room)
    run(room, HOST, "right", 3_000)
    assert types(run(room, HOST, "undo", 4_000)) == ["decision_reversed"]
    question = room.report()["questions"][0]
    assert question["rulings"][-1] == {"team": A.name, "correct": False, "timed_out": False, "at_ms": 4_000,
                                       "reversed": True}  # fmt: skip
    assert {"type": "decision_reversed", "at_ms": 4_000, "team": A.name} in question["host"]
    answers = room.view(HOST, 4_000)["host"]["answers"]
    assert answers == [{"question": 1, "team": A.name, "value": 1, "correct": False, "void": False,
                        "reversed": True, "timed_out": False}]  # fmt: skip
    # Z once more flips it back, and the report says so too.
    run(room, HOST, "undo", 5_000)
    assert room.report()["questions"][0]["rulings"][-1]["correct"] is True


def test_z_is_not_offered_when_the_last_question_had_no_ruling_and_never_reaches_back() -> None:
    room = chosen()
    assert "undo" not in room.view(HOST, 2_000)["can"]
    run(room, A, "press", 2_500, meta={"received_ms": 2_500})
    fire(room)
    run(room, HOST, "right", 3_000)
    assert "undo" in room.view(HOST, 3_000)["can"]
    run(room, HOST, "choose", 4_000, theme=1, value=1)  # the next question ends with «время», nobody answered
    run(room, HOST, "finish_reading", 4_500)
    assert fire(room) == ["time_called"]
    assert "undo" not in room.view(HOST, 10_000)["can"]
    assert refusal_of(room, Command("undo", HOST), 10_000).code is QuizCode.NOTHING_TO_UNDO


def test_the_host_takes_back_a_mis_clicked_strike_before_the_first_question() -> None:
    room = final_drawn()
    assert "restore_theme" not in room.view(HOST, 100)["can"]
    run(room, HOST, "strike", 200, theme=3)
    assert room.view(None, 200)["striker"] == B.name
    assert "restore_theme" in room.view(HOST, 200)["can"]
    assert refusal_of(room, Command("restore_theme", HOST, {"theme": 2}), 250).code is QuizCode.NOT_LAST_STRUCK
    assert types(run(room, HOST, "restore_theme", 300)) == ["theme_restored"]
    view = room.view(None, 300)
    assert view["striker"] == A.name and not view["board"][3]["struck"] and view["status"] == "striking"
    for step in range(6):
        run(room, HOST, "strike", 400 + step, theme=step)
    assert room.view(None, 500)["status"] == "choosing"
    run(room, HOST, "restore_theme", 600)  # the sixth strike, mis-clicked: striking goes on
    assert room.view(None, 600)["status"] == "striking" and room.view(None, 600)["striker"] == B.name
    run(room, HOST, "strike", 700, theme=7)
    run(room, HOST, "choose", 800, theme=6, value=1)
    assert refusal_of(room, Command("restore_theme", HOST), 900).code is QuizCode.NOTHING_TO_RESTORE
    assert room.report()["questions"][0]["value"] == 1
