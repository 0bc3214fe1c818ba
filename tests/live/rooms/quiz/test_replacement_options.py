"""The host picks a replacement (SI-4.6) by theme, price and the question's opening words (issue 31), never by a
bare "Reserve question N"; only the host sees the list."""

from __future__ import annotations

from tests.live.rooms.quiz.test_room import HOST, A, as_json, board, run

from toreshi.live.rooms.quiz import QuizRoom
from toreshi.quiz.board import Board, BoardQuestion
from toreshi.quiz.events import Assistant, GameSetup

LONG = "Этот шведский корабль, построенный при короле Густаве Адольфе, затонул в первом же плавании в 1628 году"


def test_the_host_sees_each_replacement_with_its_theme_price_and_opening() -> None:
    themes = board().themes
    spare = (BoardQuestion(2, LONG, ("Ваза",), theme="ДЕЛА ДУХОВНЫЕ"), BoardQuestion(3, "Другой", ("x",)))
    setup = as_json(GameSetup((A.name, "Барыс"), Board(themes, spare), assistant=Assistant("Ерлан", "Тұлпар")))
    room = QuizRoom()
    run(room, HOST, "create", 0, setup=setup)
    run(room, HOST, "draw", 100, team=A.name)
    run(room, HOST, "choose", 200, theme=0, value=2)
    options = room.view(HOST, 300)["current"]["replacement_options"]
    assert options[0] == {"theme": 1, "theme_name": "Тема 1", "value": 2, "opening": "Вопрос 1.2 о реке", "items": []}
    assert [o.get("theme") for o in options[:4]] == [1, 2, 3, 4]
    reserve = options[-1]
    assert reserve["reserve"] == 0 and reserve["theme_name"] == "ДЕЛА ДУХОВНЫЕ" and reserve["value"] == 2
    opening = reserve["opening"]
    assert opening.endswith("…") and len(opening) == 80 and LONG.startswith(opening[:-1])
    assert "replacement_options" not in room.view(A, 300)["current"]
