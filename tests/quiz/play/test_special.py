"""SIGame's special questions as a game setting (issue 31): off by default (the regulation's game has none: they play
as ordinary questions), on — a stake question is staked for in turn from the phones, a secret one is handed by the
chooser to another team, a no-risk one goes to the chooser at double value and costs nothing when wrong."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.quiz.board import Board, BoardQuestion, BoardTheme
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import GAME_EVENTS, Assistant, GameSetup, SecretGiven, StakeMade
from toreshi.quiz.game import Outcome, Phase
from toreshi.quiz.play import commands as cmd
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.state import PlayState, evolve

TEAMS = ("Алтын", "Барыс", "Сұңқар")
A, B, C = TEAMS
HOST = Actor("host", "Жанна")
KINDS = ("", "stake", "secret", "noRisk", "forAll")
"""Theme 0's cells: 1 ordinary, 2 a stake, 3 a secret, 4 no risk, 5 for all (played as an ordinary one)."""


def setup(special: bool) -> GameSetup:
    cells = tuple(BoardQuestion(v, f"Сұрақ {v}", ("жауап",), kind=k) for v, k in zip(range(1, 6), KINDS, strict=True))
    themes = (BoardTheme("Ерекше", cells), *Board.of("2", "3", "4", "5").themes)
    return GameSetup(TEAMS, Board(themes), assistant=Assistant("Ерлан", "Тұлпар"), special_questions=special)


def team(name: str) -> Actor:
    """A team's phone (the room reads its grant ``team:N`` as the role ``team``)."""
    return Actor("team", name)


class Room:
    def __init__(self, special: bool = True) -> None:
        self.state = PlayState()
        self.now = 0
        self.do(cmd.CreateGame(setup(special), keys={"1": A, "2": B, "3": C}))
        self.do(cmd.Draw(A))

    def ask(self, command: object, actor: Actor = HOST) -> list[object] | Refusal:
        self.now += 100
        decided = decide(self.state, command, Context(actor, self.now, random.Random(1)))  # type: ignore[arg-type]
        if isinstance(decided, Refusal):
            return decided
        for event in decided:
            self.state = evolve(self.state, event)
        return list(decided)

    def do(self, command: object, actor: Actor = HOST) -> list[object]:
        decided = self.ask(command, actor)
        assert isinstance(decided, list), decided
        return decided

    def ordinary(self, value: int, right: str) -> None:
        """A question played the regulation's way: reading, ``right``'s buzzer, right."""
        self.do(cmd.Choose(0, value))
        self.do(cmd.FinishReading())
        self.do(cmd.Key(str(TEAMS.index(right) + 1)))
        self.now += 1_000
        self.do(cmd.TICK, Actor("timer"))
        self.do(cmd.Right())


def test_with_the_setting_off_the_special_questions_play_as_ordinary_ones() -> None:
    room = Room(special=False)
    room.do(cmd.Choose(0, 2))  # a stake question in the pack
    assert room.state.game.phase is Phase.READING and room.state.game.current.special == ""  # type: ignore[union-attr]
    assert isinstance(room.ask(cmd.Stake(2)), Refusal)


def test_a_stake_question_is_staked_for_in_turn_and_the_highest_answers_alone() -> None:
    room = Room()
    room.ordinary(1, A)  # Алтын 1
    room.do(cmd.Correct(B, 9, "бонус"))  # Барыс 9: may stake up to 9
    room.do(cmd.Choose(0, 2))
    game = room.state.game
    assert game.phase is Phase.STAKING and game.stake_turn() == A
    refused = room.ask(cmd.Stake(None), team(A))
    assert isinstance(refused, Refusal) and refused.code is QuizCode.STAKE_FIRST  # the chooser opens
    refused = room.ask(cmd.Stake(3), team(B))
    assert isinstance(refused, Refusal) and refused.code is QuizCode.NOT_YOUR_STAKE
    assert room.do(cmd.Stake(2), team(A)) == [StakeMade(room.now, A, 2)]  # the value; its score is only 1
    refused = room.ask(cmd.Stake(10), team(B))
    assert isinstance(refused, Refusal) and refused.code is QuizCode.STAKE_RANGE
    assert refused.params == {"minimum": 3, "maximum": 9}
    room.do(cmd.Stake(9), team(B))  # all in
    room.do(cmd.Stake(None), team(C))
    assert room.state.game.stake_turn() == A
    room.do(cmd.Stake(None, A))  # the host enters Алтын's pass
    game = room.state.game
    assert game.phase is Phase.ANSWERING and game.current is not None
    assert game.current.answering_team == B and game.current.price == 9
    # nobody else presses on it; a wrong answer costs the stake and ends the question
    assert isinstance(room.ask(cmd.CancelPress()), Refusal)
    room.do(cmd.Wrong())
    game = room.state.game
    assert game.scores == {A: 1, B: 0, C: 0} and game.played[-1].outcome is Outcome.SOLO
    assert game.chooser == A  # no right answer: the chooser stays


def test_a_secret_question_is_handed_by_the_chooser_to_another_team() -> None:
    room = Room()
    room.do(cmd.Choose(0, 3))
    assert room.state.game.phase is Phase.GIVING
    refused = room.ask(cmd.Give(A), team(A))
    assert isinstance(refused, Refusal) and refused.code is QuizCode.SECRET_SELF
    refused = room.ask(cmd.Give(C), team(B))  # only the chooser hands it over
    assert isinstance(refused, Refusal) and refused.code is QuizCode.NOT_CHOOSER
    assert room.do(cmd.Give(C), team(A)) == [SecretGiven(room.now, C)]
    room.do(cmd.Right())
    game = room.state.game
    assert game.scores == {A: 0, B: 0, C: 3} and game.chooser == C


def test_a_no_risk_question_goes_to_the_chooser_doubled_and_a_wrong_answer_costs_nothing() -> None:
    room = Room()
    room.do(cmd.Choose(0, 4))
    game = room.state.game
    assert game.phase is Phase.ANSWERING and game.current is not None and game.current.answering_team == A
    room.do(cmd.Wrong())
    assert room.state.game.scores == {A: 0, B: 0, C: 0}
    room.do(cmd.Reverse(1, A))  # the ruling reversed: right, doubled
    assert room.state.game.scores == {A: 8, B: 0, C: 0}
    room.do(cmd.Choose(0, 5))  # «for all» is played in writing in SIGame: here as an ordinary question
    assert room.state.game.phase is Phase.READING


@pytest.mark.parametrize("event", [StakeMade(5, A, 3), StakeMade(5, B), SecretGiven(6, C)])
def test_the_new_events_are_written_and_read_by_the_games_codec(event: object) -> None:
    assert GAME_EVENTS.decode(GAME_EVENTS.encode(event)) == event  # type: ignore[arg-type]


def test_the_setting_is_off_by_default_and_omitted_from_the_setups_json() -> None:
    plain = replace(setup(False), special_questions=False)
    assert GameSetup(TEAMS, plain.board).special_questions is False
    encoded = cmd.COMMANDS.encode(cmd.CreateGame(plain))
    assert "special_questions" not in str(encoded) and "show_prices" not in str(encoded)
