from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.kit.codec import CodecError
from toreshi.kit.refusal import Refused
from toreshi.quiz.board import Board, BoardQuestion, BoardTheme
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import (
    GAME_EVENTS,
    AnswerJudged,
    AnswerTimeExpired,
    AnswerTimeExtended,
    Assistant,
    AudienceSanctioned,
    AudienceWarned,
    Buzzed,
    ClarificationRequested,
    DecisionReversed,
    Event,
    FirstChooserDrawn,
    GameCreated,
    GameKind,
    GameSetup,
    PressCancelled,
    QuestionChosen,
    QuestionReplaced,
    ReadingFinished,
    ReadingMode,
    ReplacementReason,
    SanctionScope,
    ScoreAnnounced,
    ScoreCorrected,
    ScoreRequested,
    ThemeAnnounced,
    ThemeStruck,
    TimeCalled,
)
from toreshi.quiz.game import GameState, Outcome, Phase, final_scores, replay

from .refusals import refused

TEAMS = ("A", "B", "C")
ASSISTANT = Assistant("Ерлан", "Z")


def setup(
    teams: tuple[str, ...] = TEAMS,
    themes: int = 5,
    kind: GameKind = GameKind.QUALIFYING,
    reading: ReadingMode = ReadingMode.HOST,
    reserve: tuple[int, ...] = (),
) -> GameSetup:
    board = Board.of(*(f"T{i}" for i in range(themes)), reserve_values=reserve)
    return GameSetup(teams, board, kind=kind, assistant=ASSISTANT, reading=reading)


def started(s: GameSetup | None = None, chooser: str = "A") -> GameState:
    """A created game with the first chooser drawn and every theme announced."""
    s = s or setup()
    state = replay([GameCreated(0, s), FirstChooserDrawn(0, chooser)])
    for theme in state.themes_in_play:
        state = state.apply(ThemeAnnounced(0, theme))
    return state


def choose(state: GameState, at: int, theme: int = 0, value: int = 1) -> GameState:
    assert state.chooser is not None
    return state.apply(QuestionChosen(at, state.chooser, theme, value))


# -- SI-3.0.1, SI-4.1: who plays -------------------------------------------------------------------------------


def test_at_most_four_teams_play_a_game() -> None:
    with refused(QuizCode.TEAM_COUNT, count=5, minimum=2, maximum=4, clause="SI-3.0.1"):
        GameState().apply(GameCreated(0, setup(teams=("A", "B", "C", "D", "E"))))
    assert replay([GameCreated(0, setup(teams=("A", "B", "C", "D")))]).teams == ("A", "B", "C", "D")


def test_team_names_must_be_distinct() -> None:
    with refused(QuizCode.TEAM_NAMES):
        GameState().apply(GameCreated(0, setup(teams=("A", "A"))))


def test_assistant_comes_from_a_team_not_in_the_game() -> None:
    with refused(QuizCode.ASSISTANT_PLAYS, assistant="Асель", team="B", clause="SI-4.1"):
        GameState().apply(GameCreated(0, replace(setup(), assistant=Assistant("Асель", "B"))))
    with refused(QuizCode.ASSISTANT_REQUIRED, clause="SI-4.1"):
        GameState().apply(GameCreated(0, replace(setup(), assistant=None)))
    assert replay([GameCreated(0, setup())]).setup == setup()


# -- SI-3.3: 5 themes in qualifying, 11 struck to 5 in the final -----------------------------------------------


def test_qualifying_game_needs_five_themes() -> None:
    with refused(QuizCode.THEME_COUNT, game_term="quiz_game_qualifying", expected=5, themes=4, clause="SI-3.3"):
        GameState().apply(GameCreated(0, setup(themes=4)))


def test_qualifying_game_ends_after_all_25_questions() -> None:
    state = started()
    t = 0
    for theme in range(5):
        for value in range(1, 6):
            t += 1_000
            if len(state.open_cells) == 1:
                state = state.apply(ScoreAnnounced(t))
            state = choose(state, t, theme, value)
            state = state.apply(ReadingFinished(t + 100))
            state = state.apply(Buzzed(t + 200, "B", t + 150))
            state = state.apply(AnswerJudged(t + 300, "B", correct=True))
    assert state.phase is Phase.FINISHED
    assert final_scores(state) == {"A": 0, "B": 75, "C": 0}
    assert len(state.played) == 25


@pytest.mark.parametrize("kept", [0, -1, 12])
def test_a_final_keeps_between_one_theme_and_all_of_them(kept: int) -> None:
    final = replace(setup(kind=GameKind.FINAL, themes=11), final_themes_kept=kept)
    with refused(QuizCode.FINAL_KEPT, kept=kept, themes=11):
        GameState().apply(GameCreated(0, final))
    for fine in (1, 11):
        kept_setup = replay([GameCreated(0, replace(final, final_themes_kept=fine))]).setup
        assert kept_setup is not None and kept_setup.final_themes_kept == fine


@pytest.mark.parametrize("timer", ["chars_per_second", "press_window_ms", "answer_ms"])
@pytest.mark.parametrize("value", [0, -5])
def test_every_timer_of_a_game_is_positive(timer: str, value: int) -> None:
    timers: dict[str, Any] = {timer: value}
    with refused(QuizCode.TIMERS):
        GameState().apply(GameCreated(0, replace(setup(), **timers)))
    assert replay([GameCreated(0, replace(setup(), **{**timers, timer: 1}))]).phase is Phase.DRAW


def test_final_teams_strike_themes_in_turn_from_eleven_to_five() -> None:
    state = replay([GameCreated(0, setup(kind=GameKind.FINAL, themes=11)), FirstChooserDrawn(10, "B")])
    assert state.phase is Phase.STRIKING
    strikers = []
    for i, theme in enumerate((3, 0, 7, 10, 5, 1)):
        assert state.striker is not None
        strikers.append(state.striker)
        state = state.apply(ThemeStruck(100 + i, state.striker, theme))
    assert strikers == ["B", "C", "A", "B", "C", "A"]
    assert state.phase is Phase.CHOOSING
    assert state.themes_in_play == (2, 4, 6, 8, 9)
    assert {t for t, _ in state.open_cells} == {2, 4, 6, 8, 9}


def test_final_refuses_out_of_turn_and_repeated_strikes() -> None:
    state = replay([GameCreated(0, setup(kind=GameKind.FINAL, themes=11)), FirstChooserDrawn(10, "A")])
    with refused(QuizCode.NOT_YOUR_STRIKE, striker="A", team="B", clause="SI-3.3"):
        state.apply(ThemeStruck(20, "B", 0))
    state = state.apply(ThemeStruck(20, "A", 0))
    with refused(QuizCode.THEME_STRUCK, theme="T0"):
        state.apply(ThemeStruck(30, "B", 0))
    with refused(QuizCode.WRONG_PHASE, action_term="quiz_action_choose", phase_term="quiz_phase_striking"):
        state.apply(QuestionChosen(30, "A", 1, 1))


# -- SI-3.2, SI-3.4: choosing -----------------------------------------------------------------------------------


def test_drawn_team_chooses_first_then_the_last_right_answer() -> None:
    state = started(chooser="C")
    with refused(QuizCode.NOT_CHOOSER, chooser="C", team="A", clause="SI-3.2"):
        state.apply(QuestionChosen(100, "A", 0, 1))
    state = choose(state, 100)
    state = state.apply(ReadingFinished(200)).apply(Buzzed(300, "A", 250))
    state = state.apply(AnswerJudged(400, "A", correct=False))
    state = state.apply(Buzzed(500, "B", 450)).apply(AnswerJudged(600, "B", correct=True))
    assert state.chooser == "B"
    # After "время" nobody answered right: the chooser stays.
    state = choose(state, 700, 0, 2).apply(ReadingFinished(800)).apply(TimeCalled(5_800))
    assert state.chooser == "B"
    assert state.played[-1].outcome is Outcome.TIME


def test_first_chooser_must_be_drawn_before_choosing() -> None:
    state = replay([GameCreated(0, setup())])
    with refused(QuizCode.WRONG_PHASE, action_term="quiz_action_choose", phase_term="quiz_phase_draw"):
        state.apply(QuestionChosen(10, "A", 0, 1))
    with refused(QuizCode.NOT_A_TEAM, team="Q"):
        state.apply(FirstChooserDrawn(10, "Q"))


def test_theme_must_be_announced_before_its_questions() -> None:
    state = replay([GameCreated(0, setup()), FirstChooserDrawn(0, "A")])
    with refused(QuizCode.THEME_NOT_ANNOUNCED, theme="T2", clause="SI-3.4"):
        state.apply(QuestionChosen(10, "A", 2, 1))
    state = state.apply(ThemeAnnounced(10, 2, explanation="матричная тема: ответы складываются в слово"))
    assert choose(state, 20, 2, 1).phase is Phase.READING


def test_played_cell_cannot_be_chosen_again() -> None:
    state = choose(started(), 100).apply(ReadingFinished(200)).apply(TimeCalled(5_200))
    with refused(QuizCode.CELL_PLAYED, theme="T0", value=1):
        choose(state, 5_300)


# -- SI-3.5 .. SI-3.10: one question -----------------------------------------------------------------------------


def test_right_adds_and_wrong_subtracts_the_value() -> None:
    state = choose(started(), 100, 0, 4).apply(ReadingFinished(200))
    state = state.apply(Buzzed(300, "A", 300)).apply(AnswerJudged(400, "A", correct=False))
    state = state.apply(Buzzed(500, "C", 500)).apply(AnswerJudged(600, "C", correct=True))
    assert state.scores == {"A": -4, "B": 0, "C": 4}


def test_one_answer_per_team_per_question() -> None:
    state = choose(started(), 100).apply(ReadingFinished(200))
    state = state.apply(Buzzed(300, "A", 300)).apply(AnswerJudged(400, "A", correct=False))
    with refused(QuizCode.ALREADY_ANSWERED, team="A", clause="SI-3.5"):
        state.apply(Buzzed(500, "A", 500))
    assert state.eligible == ("B", "C")


def test_question_ends_when_every_team_answered_wrong() -> None:
    state = choose(started(setup(teams=("A", "B"))), 100).apply(ReadingFinished(200))
    state = state.apply(Buzzed(300, "A", 300)).apply(AnswerJudged(400, "A", correct=False))
    state = state.apply(Buzzed(500, "B", 500)).apply(AnswerJudged(600, "B", correct=False))
    assert state.phase is Phase.CHOOSING
    assert state.played[-1].outcome is Outcome.ALL_ANSWERED
    assert state.chooser == "A"


def simulated(text: str = "x" * 100) -> GameState:
    """A game reading at 20 characters per second: a 100-character question takes 5,000 ms."""
    theme = BoardTheme("T0", tuple(BoardQuestion(v, text) for v in range(1, 6)))
    board = Board((theme, *Board.of("T1", "T2", "T3", "T4").themes))
    return started(GameSetup(TEAMS, board, assistant=ASSISTANT, reading=ReadingMode.SIMULATED))


def test_simulated_reading_reveals_progressively_and_a_press_interrupts_it() -> None:
    state = choose(simulated(), 1_000)
    assert state.revealed_chars(1_000) == 0
    assert state.revealed_chars(2_000) == 20
    assert state.next_deadline_ms == 6_000
    state = state.apply(Buzzed(3_100, "B", 3_000))  # 2,000 ms read: 40 characters
    assert state.phase is Phase.ANSWERING
    assert state.revealed_chars(4_000) == 40
    # "неверно": reading continues from where it stopped (SI-3.9), 3,000 ms are left.
    state = state.apply(AnswerJudged(4_000, "B", correct=False))
    assert state.phase is Phase.READING
    assert state.revealed_chars(5_000) == 60
    assert state.next_deadline_ms == 7_000
    # Reading ends by itself; the 5 s press window then runs from the end of reading (SI-3.10).
    later = state.at(7_000)
    assert later.phase is Phase.PRESS_WINDOW
    assert later.next_deadline_ms == 12_000
    with refused(QuizCode.WINDOW_RUNS, clause="SI-3.10"):
        state.apply(TimeCalled(11_999))
    assert state.apply(TimeCalled(12_000)).played[-1].outcome is Outcome.TIME


def test_host_reading_cannot_be_finished_by_hand_when_simulated() -> None:
    state = choose(simulated(), 1_000)
    with refused(QuizCode.READING_SIMULATED):
        state.apply(ReadingFinished(2_000))


def test_press_window_is_reset_not_resumed_after_a_wrong_answer() -> None:
    state = choose(started(), 100).apply(ReadingFinished(1_000))
    state = state.apply(Buzzed(5_000, "A", 4_900))  # 3.9 s of the window used
    state = state.apply(AnswerJudged(7_000, "A", correct=False))
    assert state.phase is Phase.PRESS_WINDOW
    assert state.next_deadline_ms == 12_000  # a full 5 s again from "неверно" (SI-3.9)
    state = state.apply(Buzzed(11_950, "C", 11_900))
    assert state.current is not None and state.current.answering_team == "C"


def test_press_after_time_does_not_count() -> None:
    state = choose(started(), 100).apply(ReadingFinished(1_000))
    with refused(QuizCode.PRESS_AFTER_TIME, clause="SI-3.10"):
        state.apply(Buzzed(6_100, "B", 6_050))
    # A press made in time but decided a little later still counts.
    assert state.apply(Buzzed(6_100, "B", 5_990)).phase is Phase.ANSWERING
    state = state.apply(TimeCalled(6_000))
    with refused(QuizCode.WRONG_PHASE, action_term="quiz_action_press", phase_term="quiz_phase_choosing"):
        state.apply(Buzzed(6_100, "B", 6_050))


def test_answer_time_is_five_seconds_then_time_counts_as_wrong() -> None:
    state = choose(started(), 100, 0, 2).apply(ReadingFinished(1_000)).apply(Buzzed(2_000, "A", 1_990))
    assert state.next_deadline_ms == 7_000
    with refused(QuizCode.ANSWER_TIME_RUNS, clause="SI-3.7"):
        state.apply(AnswerTimeExpired(6_999))
    state = state.apply(AnswerTimeExpired(7_000))
    assert state.scores["A"] == -2
    assert state.answers[-1].timed_out
    assert state.phase is Phase.PRESS_WINDOW


def test_host_may_extend_the_answer_time_or_ask_to_clarify() -> None:
    state = choose(started(), 100).apply(ReadingFinished(1_000)).apply(Buzzed(2_000, "A", 1_990))
    state = state.apply(AnswerTimeExtended(3_000, extra_ms=10_000))
    assert state.next_deadline_ms == 17_000
    state = state.apply(ClarificationRequested(16_000))
    assert state.next_deadline_ms == 21_000
    with refused(QuizCode.EXTENSION_NOT_POSITIVE):
        state.apply(AnswerTimeExtended(16_500, extra_ms=0))
    assert [e.type for e in state.audit] == ["answer_time_extended", "clarification_requested"]


def test_only_the_recognised_team_is_judged() -> None:
    state = choose(started(), 100).apply(ReadingFinished(1_000)).apply(Buzzed(2_000, "A", 1_990))
    with refused(QuizCode.NOT_ANSWERING, answering="A", team="B"):
        state.apply(AnswerJudged(2_500, "B", correct=True))


def test_events_must_not_go_back_in_time() -> None:
    state = choose(started(), 1_000)
    with refused(QuizCode.TIME_WENT_BACK, at_ms=900, last_ms=1_000):
        state.apply(ReadingFinished(900))


# -- host tools: cancel, reverse, correct, replace (SI-4.6), audience (SI-4.5), score (SI-4.7) -------------------


def test_cancelled_press_counts_no_answer_and_the_team_may_press_again() -> None:
    state = choose(started(), 100).apply(ReadingFinished(1_000)).apply(Buzzed(2_000, "A", 1_990))
    state = state.apply(PressCancelled(2_500, "A"))
    assert state.phase is Phase.PRESS_WINDOW
    assert state.scores == {"A": 0, "B": 0, "C": 0}
    assert "A" in state.eligible
    assert state.apply(Buzzed(3_000, "A", 2_990)).phase is Phase.ANSWERING
    assert state.audit[-1] == PressCancelled(2_500, "A")


def test_reversed_decision_rescores_both_ways() -> None:
    state = choose(started(), 100, 0, 3).apply(ReadingFinished(1_000))
    state = state.apply(Buzzed(2_000, "A", 1_990)).apply(AnswerJudged(2_500, "A", correct=False))
    state = state.apply(Buzzed(3_000, "B", 2_990)).apply(AnswerJudged(3_500, "B", correct=True))
    assert state.scores == {"A": -3, "B": 3, "C": 0}
    state = state.apply(DecisionReversed(4_000, question=1, team="A"))
    assert state.scores == {"A": 3, "B": 3, "C": 0}
    state = state.apply(DecisionReversed(4_100, question=1, team="A"))
    assert state.scores == {"A": -3, "B": 3, "C": 0}
    with refused(QuizCode.NO_COUNTED_ANSWER, team="C", question=1):
        state.apply(DecisionReversed(4_200, question=1, team="C"))


def test_reversal_waits_until_the_question_is_over() -> None:
    state = choose(started(), 100).apply(ReadingFinished(1_000))
    state = state.apply(Buzzed(2_000, "A", 1_990)).apply(AnswerJudged(2_500, "A", correct=False))
    with refused(QuizCode.QUESTION_IN_PLAY, question=1):
        state.apply(DecisionReversed(2_600, question=1, team="A"))


def test_score_correction_is_audited() -> None:
    state = started().apply(ScoreCorrected(50, "B", 2, "ассистент ошибся при подсчёте"))
    assert state.scores["B"] == 2
    assert isinstance(state.audit[-1], ScoreCorrected)
    with refused(QuizCode.CORRECTION_REASON):
        state.apply(ScoreCorrected(60, "B", 2, " "))


def test_question_is_replaced_by_same_value_from_another_theme() -> None:
    state = choose(started(), 100, 0, 3).apply(ReadingFinished(1_000))
    state = state.apply(Buzzed(2_000, "A", 1_990)).apply(AnswerJudged(2_500, "A", correct=False))
    with refused(QuizCode.REPLACEMENT_SAME_THEME, clause="SI-4.6"):
        state.apply(QuestionReplaced(2_600, ReplacementReason.AUDIENCE_PROMPT, theme=0))
    state = state.apply(QuestionReplaced(2_600, ReplacementReason.AUDIENCE_PROMPT, theme=4))
    # The prompted question is void: A's −3 is gone, everyone may answer the replacement.
    assert state.scores["A"] == 0
    assert state.eligible == TEAMS
    assert state.current is not None and state.current.question.text == "T4 3"
    assert not state.is_open(4, 3)
    state = state.apply(ReadingFinished(3_000)).apply(Buzzed(3_500, "A", 3_400))
    state = state.apply(AnswerJudged(4_000, "A", correct=True))
    assert state.scores["A"] == 3
    assert state.played[-1].theme == 0 and state.played[-1].question.text == "T4 3"
    assert isinstance(state.audit[-1], QuestionReplaced)


def test_replacement_from_the_reserve_must_have_the_same_value() -> None:
    state = choose(started(setup(reserve=(2, 3))), 100, 1, 3)
    with refused(QuizCode.RESERVE_WRONG_VALUE, number=1, reserve_value=2, value=3, clause="SI-4.6"):
        state.apply(QuestionReplaced(200, ReplacementReason.HOST_ERROR, reserve=0))
    state = state.apply(QuestionReplaced(200, ReplacementReason.HOST_ERROR, reserve=1))
    assert state.current is not None and state.current.question.text == "reserve 2 (3)"
    with refused(QuizCode.REPLACEMENT_EITHER, clause="SI-4.6"):
        state.apply(QuestionReplaced(300, ReplacementReason.HOST_ERROR))


def test_audience_warning_then_sanction() -> None:
    state = started()
    with refused(QuizCode.NOT_WARNED, person="зритель в третьем ряду", clause="SI-4.5"):
        state.apply(AudienceSanctioned(10, "зритель в третьем ряду", SanctionScope.GAME))
    state = state.apply(AudienceWarned(10, "зритель в третьем ряду", "подсказал ответ"))
    state = state.apply(AudienceSanctioned(20, "зритель в третьем ряду", SanctionScope.ROUND))
    assert state.sanctions == (("зритель в третьем ряду", SanctionScope.ROUND),)
    assert [e.type for e in state.audit] == ["audience_warned", "audience_sanctioned"]


def test_score_announced_before_the_last_question_and_on_request() -> None:
    state = started(setup(teams=("A", "B")))
    t = 0
    for theme in range(5):
        for value in range(1, 6):
            if (theme, value) == (4, 5):
                break
            t += 100
            state = choose(state, t, theme, value).apply(ReadingFinished(t + 10)).apply(TimeCalled(t + 5_010))
            t += 5_010
    assert state.open_cells == ((4, 5),)
    assert state.score_announcement_due
    with refused(QuizCode.SCORE_FIRST, clause="SI-4.7"):
        choose(state, t + 100, 4, 5)
    state = state.apply(ScoreAnnounced(t + 50))
    assert not state.score_announcement_due
    assert state.announcements[-1].scores == (("A", 0), ("B", 0))
    state = state.apply(ScoreRequested(t + 60, "B"))
    assert state.score_announcement_due
    state = state.apply(ScoreAnnounced(t + 70))
    assert choose(state, t + 100, 4, 5).phase is Phase.READING


# -- the log: JSON round trip and replay ---------------------------------------------------------------------


def random_game(data: st.DataObject, teams: tuple[str, ...]) -> tuple[list[Event], GameState]:
    """Play a whole game with random but legal decisions, collecting the events."""
    events: list[Event] = [
        GameCreated(0, setup(teams=teams, reading=ReadingMode.SIMULATED)),
        FirstChooserDrawn(0, data.draw(st.sampled_from(teams))),
    ]
    events += [ThemeAnnounced(0, t) for t in range(5)]
    state = replay(events)
    t = 0
    while not state.finished:
        if state.phase is Phase.CHOOSING:
            if state.score_announcement_due:
                event: Event = ScoreAnnounced(t)
            else:
                theme, value = data.draw(st.sampled_from(state.open_cells))
                assert state.chooser is not None
                event = QuestionChosen(t, state.chooser, theme, value)
        elif state.phase is Phase.ANSWERING:
            assert state.current is not None and state.current.answering_team is not None
            event = AnswerJudged(t, state.current.answering_team, data.draw(st.booleans()))
        else:
            now = state.at(t)
            deadline = now.next_deadline_ms
            assert deadline is not None
            if now.phase is Phase.PRESS_WINDOW and t >= deadline:
                event = TimeCalled(t)
            elif data.draw(st.booleans()):
                team = data.draw(st.sampled_from(state.eligible))
                press = data.draw(st.integers(t, deadline))
                event = Buzzed(press + data.draw(st.integers(0, 300)), team, press)
            else:
                t = deadline
                continue
        state = state.apply(event)
        events.append(event)
        t = max(t, event.at_ms) + data.draw(st.integers(0, 2_000))
    return events, state


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from([("A", "B"), ("A", "B", "C"), ("A", "B", "C", "D")]))
def test_random_games_replay_from_json_and_keep_the_invariants(data: st.DataObject, teams: tuple[str, ...]) -> None:
    events, state = random_game(data, teams)
    persisted = json.loads(json.dumps([GAME_EVENTS.encode(e) for e in events]))
    assert replay(GAME_EVENTS.decode(d) for d in persisted) == state
    assert len(state.played) == 25
    # Scores are exactly the sum of ±value per answer (SI-3.8); each team answers a question at most once.
    for team in teams:
        expected = sum(r.value if r.correct else -r.value for r in state.answers if r.team == team)
        assert state.scores[team] == expected
    pairs = [(r.question, r.team) for r in state.answers]
    assert len(pairs) == len(set(pairs))
    for played in state.played:
        rights = [r for r in state.answers if r.question == played.number and r.correct]
        assert len(rights) == (1 if played.outcome is Outcome.RIGHT else 0)


def test_refused_event_leaves_the_state_unchanged() -> None:
    state = choose(started(), 100)
    snapshot = replace(state)
    for event in (
        AnswerJudged(200, "A", correct=True),
        QuestionChosen(200, "A", 1, 1),
        TimeCalled(200),
        Buzzed(300, "Q", 250),
        ScoreAnnounced(50),
    ):
        with pytest.raises(Refused):
            state.apply(event)
        assert state == snapshot


def test_unknown_event_type_is_refused() -> None:
    with pytest.raises(CodecError, match="unknown type 'teleport'"):
        GAME_EVENTS.decode({"type": "teleport", "at_ms": 0})
    with pytest.raises(CodecError, match="missing field 'team'"):
        GAME_EVENTS.decode({"type": "buzzed", "at_ms": 0, "press_ms": 0})
    with pytest.raises(CodecError, match=r"buzzed\.at_ms: must be int"):
        GAME_EVENTS.decode({"type": "buzzed", "at_ms": "soon", "team": "A", "press_ms": 0})
