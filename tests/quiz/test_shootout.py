from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from toreshi.quiz.board import Board
from toreshi.quiz.codes import QuizCode, StageCode
from toreshi.quiz.events import (
    AnswerJudged,
    Buzzed,
    FirstChooserDrawn,
    GameCreated,
    GameKind,
    GameSetup,
    QuestionChosen,
    ReadingFinished,
    ReserveQuestionChosen,
    ThemeAnnounced,
    TimeCalled,
)
from toreshi.quiz.game import GameState, Phase, replay
from toreshi.quiz.shootout import Tie, find_ties, is_decided, max_swing, resolve_order

from .refusals import refused


def test_tie_across_the_advancing_place_needs_a_shootout() -> None:
    scores = {"A": 9, "B": 4, "C": 4, "D": 4}
    assert find_ties(scores, advancing=2) == (Tie(("B", "C", "D"), 4, 2, (1,)),)
    # A tie that does not straddle a boundary decides nothing.
    assert find_ties({"A": 9, "B": 9, "C": 4, "D": 1}, advancing=2) == ()
    assert find_ties({"A": 9, "B": 9, "C": 4, "D": 1}, advancing=1) == (Tie(("A", "B"), 9, 1, (1,)),)


def test_several_boundaries_inside_one_tie() -> None:
    ties = find_ties({"A": 0, "B": 0, "C": 0, "D": 0}, advancing=(1, 2))
    assert ties == (Tie(("A", "B", "C", "D"), 0, 1, (1, 2)),)
    with refused(StageCode.BAD_BOUNDARIES):
        find_ties({"A": 0}, advancing=(-1,))


def test_theme_stops_when_the_gap_cannot_be_closed() -> None:
    # Remaining 4 and 5: a leader can lose 9 and the trailer gain 9 — a swing of 18.
    assert max_swing((4, 5)) == 18
    assert not is_decided({"A": 18, "B": 0}, (1,), (4, 5))
    assert is_decided({"A": 19, "B": 0}, (1,), (4, 5))


def test_single_questions_stop_at_the_first_difference() -> None:
    assert not is_decided({"A": 1, "B": 1, "C": 0}, (1,), ())
    assert is_decided({"A": 2, "B": 1, "C": 1}, (1,), ())
    assert is_decided({"A": 1, "B": 1, "C": -3}, (2,), ())
    with refused(StageCode.BAD_BOUNDARIES, teams=2):
        is_decided({"A": 1, "B": 1}, (2,), ())


@given(st.dictionaries(st.sampled_from("ABCD"), st.integers(-30, 30), min_size=2), st.integers(1, 3))
def test_ties_found_are_exactly_the_groups_straddling_the_boundary(scores: dict[str, int], advancing: int) -> None:
    ranked = sorted(scores.values(), reverse=True)
    ties = find_ties(scores, advancing)
    straddles = advancing < len(ranked) and ranked[advancing - 1] == ranked[advancing]
    assert bool(ties) == straddles
    for tie in ties:
        assert {scores[t] for t in tie.teams} == {tie.score}
        assert tie.first_place + tie.cuts[0] - 1 == advancing


def test_resolve_order_uses_shootout_scores_inside_the_tie() -> None:
    order = resolve_order({"A": 4, "B": 4, "C": 4, "D": 9}, {("A", "B", "C"): {"A": 0, "B": 5, "C": 0}})
    assert order == (("D",), ("B",), ("A", "C"))
    with refused(StageCode.SHOOTOUT_PLAYERS, teams="A, B", played="A, X"):
        resolve_order({"A": 4, "B": 4}, {("A", "B"): {"A": 1, "X": 0}})


# -- the shootout played as a game (SI-2.2) ---------------------------------------------------------------------


def shootout(teams: tuple[str, ...] = ("B", "C"), cuts: tuple[int, ...] = (1,), reserve: int = 3) -> GameState:
    board = Board.of("Перестрелка", reserve_values=(1,) * reserve)
    setup = GameSetup(teams, board, kind=GameKind.SHOOTOUT, shootout_cuts=cuts)
    return replay([GameCreated(0, setup), FirstChooserDrawn(0, teams[0]), ThemeAnnounced(0, 0)])


def answer(state: GameState, at: int, team: str | None, correct: bool, value: int | None = None) -> GameState:
    """Ask the next question (a board cell or, in sudden death, the next reserve) and let ``team`` answer."""
    if state.sudden_death:
        state = state.apply(ReserveQuestionChosen(at, min(set(range(3)) - state.used_reserve)))
    else:
        assert state.chooser is not None and value is not None
        state = state.apply(QuestionChosen(at, state.chooser, 0, value))
    state = state.apply(ReadingFinished(at + 10))
    if team is None:
        return state.apply(TimeCalled(at + 5_010))
    return state.apply(Buzzed(at + 30, team, at + 20)).apply(AnswerJudged(at + 40, team, correct))


def test_shootout_needs_one_theme_and_a_boundary() -> None:
    board = Board.of("1", "2")
    with refused(QuizCode.THEME_COUNT, game_term="quiz_game_shootout", expected=1, themes=2, clause="SI-2.2"):
        GameState().apply(GameCreated(0, GameSetup(("A", "B"), board, kind=GameKind.SHOOTOUT, shootout_cuts=(1,))))
    with refused(QuizCode.SHOOTOUT_CUTS, teams=2, clause="SI-2.2"):
        GameState().apply(GameCreated(0, GameSetup(("A", "B"), Board.of("1"), kind=GameKind.SHOOTOUT)))


def test_shootout_stops_once_the_gap_cannot_be_closed() -> None:
    state = answer(shootout(), 0, "B", True, value=5)  # B 5, C 0; remaining 1-4 swing 20
    state = answer(state, 10_000, "B", True, value=4)  # B 9; remaining 1-3 swing 12
    state = answer(state, 20_000, "B", True, value=3)  # B 12; remaining 1-2 swing 6 < 12: decided
    assert state.phase is Phase.FINISHED
    assert state.scores == {"B": 12, "C": 0}
    assert state.open_cells == ((0, 1), (0, 2))


def test_level_after_the_theme_goes_to_single_questions_until_a_difference() -> None:
    state = shootout()
    for t, value in enumerate((1, 2, 3, 4, 5)):
        state = answer(state, t * 10_000, None, False, value=value)
    assert state.sudden_death and state.phase is Phase.CHOOSING
    with refused(QuizCode.CELL_PLAYED, theme="Перестрелка", value=1):
        state.apply(QuestionChosen(60_000, "B", 0, 1))
    state = answer(state, 60_000, None, False)  # nobody presses: still level
    assert state.phase is Phase.CHOOSING
    state = answer(state, 70_000, "C", False)  # the first wrong answer decides: B goes through
    assert state.phase is Phase.FINISHED
    assert state.scores == {"B": 0, "C": -1}


def test_reserve_questions_only_in_sudden_death() -> None:
    with refused(QuizCode.NOT_SUDDEN_DEATH, clause="SI-2.2"):
        shootout().apply(ReserveQuestionChosen(10, 0))


def test_three_teams_for_two_places() -> None:
    state = shootout(("A", "B", "C"), cuts=(2,))
    for t, value in enumerate((1, 2, 3, 4, 5)):
        state = answer(state, t * 10_000, None, False, value=value)
    state = answer(state, 60_000, "A", True)  # A above, but B and C still level at the boundary
    assert state.phase is Phase.CHOOSING
    state = answer(state, 70_000, "B", True)
    assert state.phase is Phase.FINISHED
    assert resolve_order({"A": 3, "B": 3, "C": 3}, {("A", "B", "C"): state.scores}) == (("A", "B"), ("C",))


def test_last_theme_question_is_played_out_before_single_questions() -> None:
    state = shootout()
    for t, value in enumerate((1, 2, 3, 4)):
        state = answer(state, t * 10_000, None, False, value=value)
    state = state.apply(QuestionChosen(50_000, "B", 0, 5)).apply(ReadingFinished(50_010))
    state = state.apply(Buzzed(50_030, "B", 50_020)).apply(AnswerJudged(50_040, "B", False))
    assert state.phase is Phase.PRESS_WINDOW  # C may still answer wrong and level the scores
    state = state.apply(Buzzed(50_100, "C", 50_090)).apply(AnswerJudged(50_200, "C", False))
    assert state.sudden_death and state.phase is Phase.CHOOSING
