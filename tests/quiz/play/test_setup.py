"""A game cut from a real pack: the themes it plays, the reserve, the host's notes — or why the pack cannot give it."""

from __future__ import annotations

from pathlib import Path

import pytest

from toreshi.kit.refusal import Refused
from toreshi.quiz.board import Board
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, FirstChooserDrawn, GameCreated, GameKind, QuestionChosen
from toreshi.quiz.formats import read_pack
from toreshi.quiz.game import GameState
from toreshi.quiz.pack import Package
from toreshi.quiz.play.setup import apply_picks, fit_values, fitted_themes, setup_from_pack

from ..refusals import refused

TEAMS = ("Алтын", "Барыс", "Сұңқар")


@pytest.fixture
def package(shared_data: Path) -> Package:
    return read_pack((shared_data / "quiz" / "siq" / "1.siq").read_bytes())


def test_a_pack_becomes_a_board_with_a_reserve_and_host_notes(package: Package) -> None:
    setup, notes = setup_from_pack(package, kind=GameKind.QUALIFYING, teams=TEAMS, assistant=None, round_number=2)
    assert len(setup.board.themes) == 5
    assert setup.board.themes[0].name == package.rounds[1].themes[0].name
    assert len(setup.board.reserve) == 13 * 5  # every other theme of 5 questions
    assert set(notes) >= {"0:1", "4:5", "r:0"}
    final, _ = setup_from_pack(package, kind=GameKind.FINAL, teams=TEAMS[:2], assistant=None)
    assert len(final.board.themes) == 11


def test_a_game_the_pack_cannot_give_is_refused_with_what_is_missing(package: Package) -> None:
    with refused(QuizCode.TOO_FEW_THEMES, needed=11, available=6):
        setup_from_pack(package, kind=GameKind.FINAL, teams=TEAMS[:2], assistant=None, round_number=3)
    with refused(QuizCode.ROUND_NO_THEME, round=40):
        setup_from_pack(package, kind=GameKind.QUALIFYING, teams=TEAMS, assistant=None, round_number=40)
    with refused(QuizCode.PACK_NO_THEME):
        setup_from_pack(Package("пусто"), kind=GameKind.SHOOTOUT, teams=TEAMS[:2], assistant=None)


# --- packs of any shape on the regulation's grid (issue 31) ----------------------------------------------------


def test_a_short_theme_spreads_over_the_grid_and_its_missing_values_are_empty_cells(shared_data: Path) -> None:
    pack = read_pack((shared_data / "quiz" / "siq" / "SIGameTestNew.siq").read_bytes(), name="new")
    cut = apply_picks(pack, {0}, {(0, 0): (0, 1, 2, 3, 4), (0, 1): tuple(range(14)), (0, 2): (0, 1)})
    names = [theme.name for theme in cut.rounds[0].themes]
    assert names == ["Вопросы разных типов", "Контент вопросов", "Контент вопросов (2)", "Контент вопросов (3)",
                     pack.rounds[0].themes[2].name]  # fmt: skip
    board = Board.from_themes(cut.rounds[0].themes)
    prices = [[None if c.empty else c.source_price for c in theme.cells] for theme in board.themes]
    assert prices[1] == [100, 200, 300, 400, 500]
    assert prices[3] == [1200, 1300, None, 1400, 1500]  # 4 left: 1, 2, 4, 5 (the cheapest and dearest kept)
    assert prices[4] == [100, None, None, None, 200]  # 2: the cheapest is worth 1, the dearest 5
    # a qualifying game of 5 themes is cut from a pack that has 3 (SIGameTestNew.siq was a shootout at most)
    setup, _notes = setup_from_pack(cut, kind=GameKind.QUALIFYING, teams=("А", "Б"), assistant=Assistant("В", "Г"))
    assert len(setup.board.themes) == 5
    state = GameState().apply(GameCreated(0, setup))
    assert not state.is_open(4, 2) and state.is_open(4, 1) and state.is_open(4, 5)  # an empty cell is not chosen
    drawn = state.apply(FirstChooserDrawn(1, "А"))
    with pytest.raises(Refused):
        drawn.apply(QuestionChosen(2, "А", 4, 3))  # an empty cell: nobody may choose it


@pytest.mark.parametrize(("count", "values"), [(1, (1,)), (2, (1, 5)), (3, (1, 3, 5)), (4, (1, 2, 4, 5))])
def test_fit_values_keeps_the_cheapest_cheapest_and_the_dearest_dearest(count: int, values: tuple[int, ...]) -> None:
    assert fit_values(count) == values


def test_a_tour_pools_the_themes_of_any_shape_a_pack_has(shared_data: Path) -> None:
    old = read_pack((shared_data / "quiz" / "siq" / "SIGameTestNew.siq").read_bytes(), name="new")
    pooled = fitted_themes(old)
    # 12 (one empty cell: 11 real) → 5 + 5 + 1 (dropped); 14 → 5 + 5 + 4; 2 → 2; the final's 1-question themes: none
    assert [sum(not q.is_empty for q in t.questions) for t in pooled] == [5, 5, 5, 5, 4, 2]
    assert all(len(t.questions) == 5 for t in pooled)
    plain = read_pack((shared_data / "quiz" / "siq" / "1.siq").read_bytes(), name="1")
    assert fitted_themes(plain) == [t for r in plain.rounds for t in r.themes if len(t.questions) == 5]
