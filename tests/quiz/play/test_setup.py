"""A game cut from a real pack: the themes it plays, the reserve, the host's notes — or why the pack cannot give it."""

from __future__ import annotations

from pathlib import Path

import pytest

from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import GameKind
from toreshi.quiz.formats import read_pack
from toreshi.quiz.pack import Package
from toreshi.quiz.play.setup import setup_from_pack

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
