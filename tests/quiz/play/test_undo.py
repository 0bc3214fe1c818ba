"""Undo to any point (issue 31): the host takes the game back to a moment between questions by an event
(``undo_to`` → ``undone_to``) that ``evolve`` honours by replaying the game's first events; the log only grows, and a
closed game (SI-6) refuses it. The property: undone to step k, the game is the game the log had at step k."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.quiz.board import Board
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, GameSetup, QuestionChosen
from toreshi.quiz.game import GameState, Phase, replay
from toreshi.quiz.play import commands as cmd
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.events import EVENTS, GameClosed, UndoneTo
from toreshi.quiz.play.probes import probes
from toreshi.quiz.play.state import PlayState, evolve

TEAMS = ("Алтын", "Барыс", "Сұңқар")
HOST = Actor("host", "Жанна")
TIMER = Actor("timer")
KEYS = {"1": TEAMS[0], "2": TEAMS[1], "3": TEAMS[2]}


def setup(themes: int = 5) -> GameSetup:
    return GameSetup(
        TEAMS, Board.of(*"12345"[:themes], reserve_values=(1, 2, 3)), assistant=Assistant("Ерлан", "Тұлпар")
    )


class Room:
    """A quiz room's core with its log: commands decided and folded, every event kept in order."""

    def __init__(self) -> None:
        self.state = PlayState()
        self.log: list[object] = []
        self.rng = random.Random(7)
        self.seen: dict[int, GameState] = {}
        """The game as the forward fold of the log had it each time it came to rest at a step (the property's
        reference: not a replay of the history)."""

    def ask(self, command: object, now: int, actor: Actor = HOST) -> list[object] | Refusal:
        decided = decide(self.state, command, Context(actor, now, self.rng))  # type: ignore[arg-type]
        if isinstance(decided, Refusal):
            return decided
        for event in decided:
            points = len(self.state.points)
            self.state = evolve(self.state, event)
            self.log.append(event)
            if len(self.state.points) > points or isinstance(event, UndoneTo):
                self.seen[self.state.points[-1].step] = self.state.game
        return list(decided)

    def do(self, command: object, now: int, actor: Actor = HOST) -> list[object]:
        decided = self.ask(command, now, actor)
        assert not isinstance(decided, Refusal), decided
        return decided

    def question(self, theme: int, value: int, team: str, correct: bool, now: int) -> None:
        """The chooser picks (theme, value), reading ends, ``team``'s buzzer wins, the host rules."""
        self.do(cmd.Choose(theme, value), now)
        self.do(cmd.FinishReading(), now + 100)
        self.do(cmd.Key(next(k for k, t in KEYS.items() if t == team)), now + 200)
        self.do(cmd.TICK, now + 1_000, TIMER)  # the arbiter's decision
        self.do(cmd.Right() if correct else cmd.Wrong(), now + 1_500)
        if not correct:
            self.do(cmd.TICK, now + 8_000, TIMER)  # «время»: nobody else pressed


def started() -> Room:
    room = Room()
    room.do(cmd.CreateGame(setup(), keys=KEYS), 0)
    room.do(cmd.Draw(TEAMS[0]), 10)
    return room


def test_the_host_goes_back_two_questions_and_the_game_is_as_it_was_then() -> None:
    room = started()
    room.question(0, 1, TEAMS[0], True, 1_000)
    after_first = room.state.game
    step_after_first = room.state.points[-1].step
    room.question(0, 2, TEAMS[1], True, 20_000)
    room.question(1, 3, TEAMS[2], False, 40_000)
    assert room.state.game.scores == {TEAMS[0]: 1, TEAMS[1]: 2, TEAMS[2]: -3}
    logged, made = len(room.log), len(room.state.history)

    undone = room.do(cmd.UndoTo(step_after_first), 60_000)

    assert undone == [UndoneTo(60_000, step_after_first, questions=1, undone=made - step_after_first)]
    assert room.state.game == after_first  # the scores, the chooser, the used cells, the answers: all as then
    assert room.state.game.scores == {TEAMS[0]: 1, TEAMS[1]: 0, TEAMS[2]: 0}
    assert room.state.game.is_open(0, 2) and room.state.game.is_open(1, 3)
    # the log only grew: every undone event is still in it, the undo after them
    assert len(room.log) == logged + 1 and isinstance(room.log[-1], UndoneTo)
    # the game goes on from there: the same cell may be played again, later times are fine
    room.question(0, 2, TEAMS[2], True, 61_000)
    assert room.state.game.scores == {TEAMS[0]: 1, TEAMS[1]: 0, TEAMS[2]: 2}


def test_the_undo_event_is_written_and_read_by_the_logs_codec() -> None:
    event = UndoneTo(5, 3, questions=1, undone=4)
    assert EVENTS.decode(EVENTS.encode(event)) == event
    assert cmd.COMMANDS.read("undo_to", {"step": 3}) == cmd.UndoTo(3)


def test_only_moments_between_questions_before_now_are_points() -> None:
    room = started()
    room.do(cmd.Choose(0, 1), 1_000)
    room.do(cmd.FinishReading(), 1_100)
    steps = [point.step for point in room.state.points]
    middle = len(room.state.history) - 1  # the question chosen, in play: not a point
    assert middle not in steps
    refused = room.ask(cmd.UndoTo(middle), 1_200)
    assert isinstance(refused, Refusal) and refused.code is QuizCode.UNDO_POINT
    refused = room.ask(cmd.UndoTo(999), 1_200)
    assert isinstance(refused, Refusal) and refused.code is QuizCode.UNDO_POINT
    # undoing the question in play takes the game back to before its choice
    room.do(cmd.UndoTo(steps[-1]), 1_300)
    assert room.state.game.current is None and room.state.game.phase is Phase.CHOOSING
    refused = room.ask(cmd.UndoTo(len(room.state.history)), 1_400)
    assert isinstance(refused, Refusal) and refused.code is QuizCode.NOTHING_TO_UNDO


def test_a_finished_game_reopens_until_it_is_closed_then_nothing_changes_it_si_6() -> None:
    room = Room()
    room.do(cmd.CreateGame(setup(), keys=KEYS), 0)
    room.do(cmd.Draw(TEAMS[0]), 10)
    now = 1_000
    for theme in range(5):
        for value in range(1, 6):
            if theme == 4 and value == 5:
                room.do(cmd.AnnounceScore(), now)  # the assistant's announcement before the last question
            room.question(theme, value, TEAMS[(theme + value) % 3], True, now)
            now += 10_000
    assert room.state.game.finished
    before_last = room.state.points[-2].step  # after the score announcement, before the last question
    room.do(cmd.UndoTo(before_last), now)  # the arbiter after the game: back before the last question
    assert not room.state.game.finished and room.state.game.phase is Phase.CHOOSING
    refused = room.ask(cmd.CloseGame(), now + 1)
    assert isinstance(refused, Refusal) and refused.code is QuizCode.NOT_FINISHED  # only a finished game closes
    room.question(4, 5, TEAMS[1], False, now + 10)
    assert room.state.game.finished
    closed = room.do(cmd.CloseGame("этап завершён"), now + 20_000)
    assert closed == [GameClosed(now + 20_000, "этап завершён")]
    assert room.ask(cmd.CloseGame(), now + 20_001) == []  # closed already: nothing new
    for command in (cmd.UndoTo(0), cmd.Undo(), cmd.Reverse(1, TEAMS[1]), cmd.Correct(TEAMS[0], 1, "x")):
        refused = room.ask(command, now + 21_000)
        assert isinstance(refused, Refusal) and refused.code is QuizCode.GAME_CLOSED
        assert refused.params["clause"] == "SI-6"
    game = room.state.game
    offered = {p.type for p in probes(room.state, "host", game)
               if not isinstance(decide(room.state, p, Context(HOST, now + 21_000)), Refusal)}  # fmt: skip
    assert not offered & {"undo_to", "undo", "reverse", "correct", "close_game"}


def test_the_host_is_offered_undo_to_once_there_is_a_moment_to_go_back_to() -> None:
    def offered(room: Room, now: int) -> set[str]:
        game = room.state.game.at(now)
        return {
            p.type
            for p in probes(room.state, "host", game)
            if not isinstance(decide(room.state, p, Context(HOST, now)), Refusal)
        }

    room = Room()
    room.do(cmd.CreateGame(setup(), keys=KEYS), 0)
    assert "undo_to" not in offered(room, 1)
    room.do(cmd.Draw(TEAMS[0]), 10)
    assert "undo_to" in offered(room, 11)
    assert "close_game" not in offered(room, 11)


# --- the property --------------------------------------------------------------------------------------------

HOST_MOVES = ("draw", "choose", "finish", "key", "tick", "right", "wrong", "correct", "reverse", "undo", "undo_to")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_undone_to_step_k_the_game_is_the_game_the_log_had_at_step_k(data: st.DataObject) -> None:
    room = Room()
    room.do(cmd.CreateGame(setup(themes=5), keys=KEYS), 0)
    now = 0
    for _ in range(data.draw(st.integers(5, 60), label="moves")):
        now += data.draw(st.integers(1, 6_000), label="wait")
        move = data.draw(st.sampled_from(HOST_MOVES), label="move")
        game = room.state.game.at(now)
        command: object
        actor = HOST
        if move == "draw":
            command = cmd.Draw(data.draw(st.sampled_from(TEAMS)))
        elif move == "choose":
            cells = game.open_cells if game.setup is not None and game.phase is Phase.CHOOSING else ()
            if not cells:
                continue
            command = cmd.Choose(*data.draw(st.sampled_from(cells)))
        elif move == "finish":
            command = cmd.FinishReading()
        elif move == "key":
            command = cmd.Key(data.draw(st.sampled_from(sorted(KEYS))))
        elif move == "tick":
            command, actor = cmd.TICK, TIMER
        elif move in ("right", "wrong"):
            command = cmd.Right() if move == "right" else cmd.Wrong()
        elif move == "correct":
            command = cmd.Correct(data.draw(st.sampled_from(TEAMS)), data.draw(st.integers(-3, 3)), "x")
        elif move == "reverse":
            counted = [r for r in game.answers if not r.void]
            if not counted:
                continue
            record = data.draw(st.sampled_from(counted))
            command = cmd.Reverse(record.question, record.team)
        elif move == "undo":
            command = cmd.Undo()
        else:
            command = cmd.UndoTo(data.draw(st.sampled_from([p.step for p in room.state.points])))
        room.ask(command, now, actor)
    # every moment the game can go back to is the game the log had there
    for point in room.state.points[:-1]:
        probe = Room()
        probe.state = room.state
        decided = probe.do(cmd.UndoTo(point.step), now + 1)
        assert probe.state.game == room.seen[point.step]
        assert probe.state.game == replay(room.state.history[: point.step], room.state.origin)
        assert dict(point.scores) == probe.state.game.scores
        assert point.questions == sum(isinstance(e, QuestionChosen) for e in room.state.history[: point.step])
        assert decided == [UndoneTo(now + 1, point.step, point.questions, len(room.state.history) - point.step)]
