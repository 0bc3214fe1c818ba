"""The host's picks cut a pack to what is played: only the rounds picked, five questions to a board theme."""

from __future__ import annotations

import pytest

from toreshi.kit.refusal import Refusal, Refused
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.pack import Package, Question, Round, Theme
from toreshi.quiz.play.setup import apply_picks


def _theme(name: str, count: int) -> Theme:
    return Theme(name, tuple(Question(100 * (n + 1)) for n in range(count)))


PACK = Package(
    "Пакет",
    (
        Round("Бірінші", (_theme("Өзендер", 5), _theme("Таулар", 10))),
        Round("Екінші", (_theme("Қалалар", 5), _theme("Ақындар", 6))),
        Round("Финал", (_theme("Тарих", 1),), type="final"),
    ),
)


def test_only_the_rounds_picked_are_played_whatever_questions_were_ticked_elsewhere() -> None:
    ticked = {(0, 0): (0, 1, 2, 3, 4), (1, 0): (0, 1, 2, 3, 4)}
    assert [r.name for r in apply_picks(PACK, {1}, ticked).rounds] == ["Екінші"]
    assert [r.name for r in apply_picks(PACK, {0, 1}, ticked).rounds] == ["Бірінші", "Екінші"]
    assert apply_picks(PACK, {2}, ticked).rounds == ()  # nothing ticked in the final: no round is left


def test_ten_questions_of_a_theme_make_two_board_themes_in_pack_order() -> None:
    cut = apply_picks(PACK, {0}, {(0, 1): (9, 8, 7, 6, 5, 4, 3, 2, 1, 0), (0, 0): (0, 1, 2, 3, 4)})
    themes = cut.rounds[0].themes
    assert [t.name for t in themes] == ["Өзендер", "Таулар", "Таулар (2)"]
    assert [q.price for q in themes[1].questions] == [100, 200, 300, 400, 500]
    assert [q.price for q in themes[2].questions] == [600, 700, 800, 900, 1000]


def test_picks_beyond_the_theme_are_ignored_and_other_counts_are_refused() -> None:
    cut = apply_picks(PACK, {1}, {(1, 1): (0, 1, 2, 3, 5, 6, -1)})
    assert [q.price for q in cut.rounds[0].themes[0].questions] == [100, 200, 300, 400, 600]
    # Three picks are a theme spread over 1-5 (issue 31); one pick alone is no theme a game can play.
    spread = apply_picks(PACK, {1}, {(1, 0): (0, 1, 2)})
    assert [q.is_empty for q in spread.rounds[0].themes[0].questions].count(False) == 3  # and 2 empty cells
    with pytest.raises(Refused) as refused:
        apply_picks(PACK, {1}, {(1, 0): (0,)})
    assert refused.value.refusal == Refusal(QuizCode.PICK_SHORT, {"theme": "Қалалар", "count": 1, "minimum": 2})
    with pytest.raises(Refused) as none:
        apply_picks(PACK, set(), {(0, 0): (0, 1, 2, 3, 4)})
    assert none.value.refusal.code is QuizCode.NO_ROUND_PICKED
