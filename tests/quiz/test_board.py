from __future__ import annotations

import json
from pathlib import Path

import pytest

from toreshi.quiz.board import Board, BoardError, BoardQuestion, BoardTheme
from toreshi.quiz.events import GAME_EVENTS, GameCreated, GameSetup
from toreshi.quiz.pack import EMPTY_PRICE, ContentItem, Parameter, Question, Round, Theme

SIQ = Path(__file__).resolve().parents[3] / "shared" / "data" / "quiz" / "siq"


def question(price: int, text: str = "?") -> Question:
    return Question(price=price, params=(Parameter.content("question", (ContentItem.text(text),)),), right=("!",))


def theme(name: str, prices: tuple[int, ...]) -> Theme:
    return Theme(name, tuple(question(p, f"{name} {p}") for p in prices))


@pytest.mark.parametrize("prices", [(100, 200, 300, 400, 500), (10, 20, 30, 40, 50), (200, 400, 600, 800, 1000)])
def test_values_are_one_to_five_by_position_whatever_the_prices(prices: tuple[int, ...]) -> None:
    board = Board.from_round(Round("R", (theme("T", prices),)))
    assert [(c.value, c.source_price) for c in board.themes[0].cells] == list(zip((1, 2, 3, 4, 5), prices, strict=True))
    assert board.themes[0].cell(3).text == f"T {prices[2]}"


def test_a_theme_has_five_questions() -> None:
    with pytest.raises(BoardError, match=r"has 4 questions; a theme has 5 \(SI-3.1\)"):
        Board.from_round(Round("R", (theme("T", (10, 20, 30, 40)),)))
    with pytest.raises(BoardError, match="1-5"):
        BoardQuestion(6)
    with pytest.raises(BoardError, match="in order"):
        BoardTheme("T", tuple(BoardQuestion(v) for v in (1, 2, 3, 5, 4)))


def test_picked_themes_are_played_and_the_rest_go_to_the_reserve() -> None:
    round_ = Round("R", tuple(theme(f"T{i}", (100, 200, 300, 400, 500)) for i in range(6)))
    board = Board.from_round(round_, themes=(0, 1, 2, 3, 5))
    assert [t.name for t in board.themes] == ["T0", "T1", "T2", "T3", "T5"]
    assert [q.text for q in board.reserve] == [f"T4 {p}" for p in (100, 200, 300, 400, 500)]
    # A reserve question keeps its pack theme: the host picks a replacement by theme, price and text (issue 31).
    assert {q.theme for q in board.reserve} == {"T4"} and {c.theme for c in board.themes[0].cells} == {""}
    with pytest.raises(BoardError, match="no theme 9"):
        Board.from_round(round_, themes=(9,))


def test_empty_pack_cell_stays_empty() -> None:
    board = Board.from_round(Round("R", (theme("T", (100, EMPTY_PRICE, 300, 400, 500)),)))
    assert board.themes[0].cell(2).empty
    stored = GAME_EVENTS.encode(GameCreated(0, GameSetup(("A", "B"), board)))
    assert GAME_EVENTS.decode(json.loads(json.dumps(stored))) == GameCreated(0, GameSetup(("A", "B"), board))


def test_real_siq_round_becomes_a_board() -> None:
    if not SIQ.is_dir():
        pytest.skip(f"reference data not found at {SIQ}")
    from toreshi.quiz.siq import read_siq

    package = read_siq((SIQ / "Package5_1.siq").read_bytes())
    second = package.rounds[1]  # priced 200-1000
    board = Board.from_round(second, themes=range(5))
    assert len(board.themes) == 5 and len(board.reserve) == 5
    assert {c.value for t in board.themes for c in t.cells} == {1, 2, 3, 4, 5}
    assert [c.source_price for c in board.themes[0].cells] == [200, 400, 600, 800, 1000]
