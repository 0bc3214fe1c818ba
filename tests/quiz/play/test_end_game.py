"""The host ends a game early (issue 15 §3): ``end_game`` → ``game_ended``, the scores as they stand, the game over;
refused before the first question and after the end; offered to the host only when the rules take it."""

from __future__ import annotations

import pytest

from toreshi.kit.codec import CodecError
from toreshi.kit.core import Actor, Context, allowed
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.quiz.board import Board
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import GAME_EVENTS, AnswerJudged, Buzzed, GameEnded, GameKind, GameSetup, ScoreCorrected
from toreshi.quiz.game import Phase, final_scores
from toreshi.quiz.play.commands import (
    COMMANDS,
    AnnounceScore,
    Choose,
    CreateGame,
    Draw,
    EndGame,
    FinishReading,
    PressBuzzer,
)
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.probes import probes
from toreshi.quiz.play.state import PlayState

from .test_decide import HOST, TEAMS, context, created, play

A, B, C = TEAMS


def judged(state: PlayState, team: str, correct: bool, at: int) -> PlayState:
    """``team`` pressed at ``at`` (the host's ruling arrives 1 ms later)."""
    game = state.game.apply(Buzzed(at, team, at)).apply(AnswerJudged(at + 1, team, correct))
    return PlayState(game=game, title=state.title, settings=state.settings)


def one_question_played() -> PlayState:
    """Алтын chose the 1 of theme 0 and got it right; Барыс has a correction of −2."""
    state = play(created(), Draw(A), context(now=100))
    state = play(state, Choose(0, 1), context(now=200))
    state = play(state, FinishReading(), context(now=300))
    state = judged(state, A, True, 400)
    game = state.game.apply(ScoreCorrected(500, B, -2, "шум"))
    return PlayState(game=game, title=state.title, settings=state.settings)


def host_can(state: PlayState, now: int) -> set[str]:
    ctx = Context(HOST, now)
    game = state.game.at(now)
    return {probe.type for probe in probes(state, "host", game) if allowed(decide, state, ctx, (probe,))}


def test_the_host_ends_the_game_with_the_scores_as_they_stand() -> None:
    state = one_question_played()
    decided = decide(state, EndGame(" свет погас "), context(now=900))
    assert decided == [GameEnded(900, "свет погас")]
    assert not isinstance(decided, Refusal)
    ended = play(state, EndGame("свет погас"), context(now=900))
    assert ended.game.phase is Phase.FINISHED and ended.game.finished
    assert final_scores(ended.game) == {A: 1, B: -2, C: 0}
    assert ended.game.audit[-1] == GameEnded(900, "свет погас")  # the report's host tool


def test_ending_in_the_middle_of_a_question_keeps_its_answers_and_drops_the_question() -> None:
    state = one_question_played()
    state = play(state, Choose(0, 2), context(now=1_000))  # Алтын chose after its right answer
    state = play(state, FinishReading(), context(now=1_100))
    state = judged(state, B, False, 1_200)  # Барыс −2 more; the question is still open for the others
    assert state.game.current is not None and state.game.phase is Phase.PRESS_WINDOW
    ended = play(state, EndGame(), context(now=1_300))
    assert ended.game.current is None and ended.game.finished
    assert [q.number for q in ended.game.played] == [1]  # the open question was not played out
    assert ended.game.scores == {A: 1, B: -4, C: 0}
    # Nothing is played after it: a press, a choice, a second end.
    assert decide(ended, PressBuzzer(), context(Actor("team", C), now=1_400)) == Refusal(QuizCode.FINISHED)
    assert decide(ended, Choose(1, 1), context(now=1_400)) == Refusal(QuizCode.FINISHED)
    assert decide(ended, EndGame(), context(now=1_400)) == Refusal(QuizCode.FINISHED)


def test_a_game_not_started_cannot_be_ended() -> None:
    state = created()
    assert decide(state, EndGame(), context(now=10)) == Refusal(QuizCode.NOT_STARTED)
    drawn = play(state, Draw(A), context(now=100))
    assert decide(drawn, EndGame(), context(now=200)) == Refusal(QuizCode.NOT_STARTED)
    assert decide(PlayState(), EndGame(), context()) == Refusal(QuizCode.NOT_CREATED)
    # The first question in play is a start: its answers are scores.
    reading = play(drawn, Choose(0, 3), context(now=300))
    assert decide(reading, EndGame(), context(now=400)) == [GameEnded(400, "")]


def test_a_game_that_ended_by_itself_cannot_be_ended_again() -> None:
    state = play(created(), Draw(A), context(now=100))
    now = 200
    for theme in range(5):
        for value in range(1, 6):
            state = play(state, Choose(theme, value), context(now=now))
            state = play(state, FinishReading(), context(now=now + 10))
            state = judged(state, A, True, now + 20)
            now += 100
            if not state.game.finished and state.game.score_announcement_due:
                state = play(state, AnnounceScore(), context(Actor("assistant", "Ерлан"), now=now))
    assert state.game.finished
    assert decide(state, EndGame(), context(now=now)) == Refusal(QuizCode.FINISHED)


def test_only_the_host_ends_a_game() -> None:
    state = one_question_played()
    for role in ("team", "assistant", "projector", "spectator"):
        assert decide(state, EndGame(), context(Actor(role, A), now=900)) == Refusal(
            Common.FORBIDDEN, {"command": "end_game", "role": role}
        )
    assert decide(state, EndGame(), context(Actor("arbiter", "Жанна"), now=900)) == [GameEnded(900, "")]


def test_the_host_is_offered_the_end_only_when_the_rules_take_it() -> None:
    state = created()
    assert "end_game" not in host_can(state, 10)
    state = play(state, Draw(A), context(now=100))
    assert "end_game" not in host_can(state, 100)
    state = play(state, Choose(0, 1), context(now=200))
    assert "end_game" in host_can(state, 200)
    state = play(state, FinishReading(), context(now=300))
    state = judged(state, A, False, 400)
    assert "end_game" in host_can(state, 400)
    ended = play(state, EndGame(), context(now=500))
    assert "end_game" not in host_can(ended, 500)


def test_the_command_and_the_event_are_read_and_written_by_the_codecs() -> None:
    assert COMMANDS.read("end_game", {}) == EndGame()
    assert COMMANDS.read("end_game", {"reason": "время вышло"}) == EndGame("время вышло")
    with pytest.raises(Refused):
        COMMANDS.read("end_game", {"reason": "я" * 501})
    with pytest.raises((Refused, CodecError)):
        COMMANDS.read("end_game", {"reason": 5})
    event = GameEnded(7, "время вышло")
    assert GAME_EVENTS.encode(event) == {"type": "game_ended", "at_ms": 7, "reason": "время вышло"}
    assert GAME_EVENTS.decode(GAME_EVENTS.encode(event)) == event


def test_the_rules_refuse_an_end_replayed_at_a_wrong_time() -> None:
    game = created().game
    with pytest.raises(Refused) as refused:
        game.apply(GameEnded(5, ""))
    assert refused.value.refusal == Refusal(QuizCode.NOT_STARTED)
    ended = one_question_played().game.apply(GameEnded(900, ""))
    with pytest.raises(Refused) as again:
        ended.apply(GameEnded(901, ""))
    assert again.value.refusal == Refusal(QuizCode.FINISHED)


def test_a_shootout_ends_early_only_once_its_scores_break_the_tie() -> None:
    setup = GameSetup((A, B), Board.of("Перестрелка"), kind=GameKind.SHOOTOUT, shootout_cuts=(1,))
    state = play(PlayState(), CreateGame(setup), context())
    state = play(state, Draw(A), context(now=100))
    state = play(state, Choose(0, 1), context(now=200))
    state = play(state, FinishReading(), context(now=300))
    state = judged(state, A, False, 400)  # Алтын −1, Барыс 0: not settled yet (4 questions left)
    assert not state.game.finished and state.game.scores == {A: -1, B: 0}
    state = judged(state, B, False, 500)  # both wrong: −1 each, tied again
    assert state.game.scores == {A: -1, B: -1}
    assert decide(state, EndGame(), context(now=600)) == Refusal(QuizCode.SHOOTOUT_TIED, {"clause": "SI-2.2"})
    assert "end_game" not in host_can(state, 600)
    state = play(state, Choose(0, 2), context(now=700))
    state = play(state, FinishReading(), context(now=800))
    state = judged(state, A, True, 900)  # Алтын +2: ahead, though the 3, 4 and 5 could still swing it
    assert not state.game.finished
    ended = play(state, EndGame("зал закрывается"), context(now=1_000))
    assert ended.game.finished and final_scores(ended.game) == {A: 1, B: -1}
