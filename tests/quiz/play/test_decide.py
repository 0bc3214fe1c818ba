"""The quiz room's core: decide answers with events or a refusal, draws lots only from the generator it is given,
records what it drew, and lets a programming error go up."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from toreshi.kit.core import Actor, Context, fold
from toreshi.kit.refusal import Common, Refusal
from toreshi.quiz.board import Board
from toreshi.quiz.buzzer import ArbitrationMode
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Assistant, FirstChooserDrawn, GameSetup
from toreshi.quiz.play.commands import (
    COMMANDS,
    TICK,
    Arbitration,
    Choose,
    CreateGame,
    Draw,
    FinishReading,
    PressBuzzer,
    Right,
)
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.events import EVENTS, BuzzDecided, PressReceived, QuizCreated
from toreshi.quiz.play.state import PlayState, evolve

TEAMS = ("Алтын", "Барыс", "Сұңқар")
HOST = Actor("host", "Жанна")
SETUP = GameSetup(TEAMS, Board.of(*"12345"), assistant=Assistant("Ерлан", "Тұлпар"))


def context(actor: Actor = HOST, now: int = 0, seed: int | None = None, **meta: object) -> Context:
    return Context(actor, now, None if seed is None else random.Random(seed), meta)


def play(state: PlayState, command: object, ctx: Context) -> PlayState:
    decided = decide(state, command, ctx)  # type: ignore[arg-type]
    assert not isinstance(decided, Refusal), decided
    return fold(evolve, state, decided)


def created(mode: ArbitrationMode = ArbitrationMode.COMPENSATED) -> PlayState:
    return play(PlayState(), CreateGame(SETUP, arbitration=Arbitration(mode=mode, random_window_ms=200)), context())


def test_a_refusal_is_returned_with_its_code_and_nothing_changes() -> None:
    state = created()
    assert decide(state, Choose(0, 1), context(now=10)) == Refusal(
        QuizCode.WRONG_PHASE, {"action_term": "quiz_action_choose", "phase_term": "quiz_phase_draw"}
    )
    assert decide(state, Right(), context(Actor("team", TEAMS[0]))) == Refusal(
        Common.FORBIDDEN, {"command": "right", "role": "team"}
    )
    assert decide(PlayState(), Draw(TEAMS[0]), context()) == Refusal(QuizCode.NOT_CREATED)
    assert decide(state, CreateGame(SETUP), context()) == Refusal(QuizCode.ALREADY_CREATED)


def test_the_lot_is_drawn_from_the_generator_given_and_recorded() -> None:
    state = created()
    drawn = {seed: decide(state, Draw(), context(now=5, seed=seed)) for seed in range(30)}
    teams: dict[int, str] = {}
    for seed, events in drawn.items():
        assert isinstance(events, list) and len(events) == 1 and isinstance(events[0], FirstChooserDrawn)
        teams[seed] = events[0].team
    assert set(teams.values()) == set(TEAMS)  # every team can be drawn
    assert decide(state, Draw(), context(now=5, seed=7)) == drawn[7]  # the same seed, the same lot
    assert drawn[7] == [FirstChooserDrawn(5, teams[7])]  # the event holds the result: a replay draws nothing


def test_a_lot_without_a_generator_is_a_programming_error_not_a_refusal() -> None:
    with pytest.raises(TypeError, match=r"Context\.random"):
        decide(created(), Draw(), context())


def test_a_random_pick_among_presses_comes_from_the_generator_and_the_decision_records_it() -> None:
    state = created(ArbitrationMode.RANDOM_WINDOW)
    state = play(state, Draw(TEAMS[0]), context(now=10))
    state = play(state, Choose(0, 1), context(now=100))
    state = play(state, FinishReading(), context(now=200))
    for offset, team in enumerate(TEAMS):
        state = play(state, PressBuzzer(), context(Actor("team", team), now=300 + offset, received_ms=300 + offset))
    assert [p.team for p in state.pending] == list(TEAMS)
    due = state.deadline_ms()
    assert due == 500  # the first arrival and the 200 ms window
    winners: dict[int, str] = {}
    for seed in range(40):
        events = decide(state, TICK, Context(Actor("timer"), due, random.Random(seed)))
        assert isinstance(events, list)
        decision = events[0]
        assert isinstance(decision, BuzzDecided) and decision.tie
        assert decision.order[0].team == decision.winner
        winners[seed] = decision.winner
    assert set(winners.values()) == set(TEAMS)
    after = fold(evolve, state, decide(state, TICK, Context(Actor("timer"), due, random.Random(3))))  # type: ignore[arg-type]
    assert after.game.current is not None and after.game.current.answering_team == winners[3]


def test_what_the_socket_measured_is_read_from_the_context_never_from_the_command() -> None:
    state = play(play(created(), Draw(TEAMS[0]), context(now=10)), Choose(0, 1), context(now=100))
    sync = {"offset_ms": 1_000, "offset_low_ms": 990, "offset_high_ms": 1_010, "rtt_median_ms": 20, "rtt_max_ms": 30}
    (pressed,) = decide(
        state, PressBuzzer(tc=1_450.4), context(Actor("team", TEAMS[1]), now=600, received_ms=480, sync=sync)
    )  # type: ignore[misc]
    assert isinstance(pressed, PressReceived)
    assert (pressed.received_ms, pressed.client_ms, pressed.sync is not None) == (480, 1_450, True)
    (unsynced,) = decide(state, PressBuzzer(tc=1_450.4), context(Actor("team", TEAMS[1]), now=600))  # type: ignore[misc]
    assert isinstance(unsynced, PressReceived) and (unsynced.received_ms, unsynced.client_ms) == (600, None)


def test_the_creation_event_carries_what_the_room_needs_to_rebuild() -> None:
    command = CreateGame(replace(SETUP, press_window_ms=4_000), title="Бой 1", keys={"1": TEAMS[0]})
    (event,) = decide(PlayState(), command, context(now=7))  # type: ignore[misc]
    assert event == QuizCreated(7, command.setup, title="Бой 1", keys={"1": TEAMS[0]})
    assert decide(PlayState(), replace(command, keys={"1": "Тұлпар"}), context()) == Refusal(
        QuizCode.KEY_TEAM, {"key": "1", "team": "Тұлпар"}
    )


def test_the_buzzer_press_keeps_its_wire_name_and_a_stored_press_still_reads() -> None:
    """The command class was renamed ``PressBuzzer`` and the arbiter's ``ReceivedPress`` (four ``Press`` classes
    clashed): the phones still send ``press``, and a ``press_received`` row stored before the rename reads back into
    the same pending press for the arbiter."""
    assert COMMANDS.read("press", {"tc": 1_450.5}) == PressBuzzer(tc=1_450.5)
    assert COMMANDS.encode(PressBuzzer(button="F1")) == {"type": "press", "tc": None, "button": "F1"}
    state = play(play(created(), Draw(TEAMS[0]), context(now=10)), Choose(0, 1), context(now=100))
    stored = {
        "type": "press_received",
        "at_ms": 480,
        "team": TEAMS[1],
        "question": 1,
        "received_ms": 480,
        "client_ms": 470,
    }
    event = EVENTS.decode(stored)
    assert event == PressReceived(480, TEAMS[1], 1, 480, 470)
    after = fold(evolve, state, [event])
    (pending,) = after.pending
    assert (pending.press().team, pending.press().received_ms, pending.press().client_ms) == (TEAMS[1], 480, 470)
