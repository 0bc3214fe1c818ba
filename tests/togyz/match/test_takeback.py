"""Takebacks: a practice game's player takes back their move and the engine's reply; nowhere else."""

from __future__ import annotations

import pytest

from toreshi.clock import BLITZ
from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.commands import Create, Move, Start, TakeBack
from toreshi.togyz.match.core import Match, can, decide, fold
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.settings import GameSettings
from toreshi.togyz.position import BLACK, WHITE, Position

ARBITER = Context(Actor("arbiter"), now_ms=0)


def started(settings: GameSettings) -> Match:
    match = fold(Match(), decide(Match(), Create("Асқар", "Компьютер", BLITZ, settings), ARBITER))
    return fold(match, decide(match, Start(), ARBITER))


def play(match: Match, role: str, hole: int, at: int) -> Match:
    return fold(match, decide(match, Move(hole), Context(Actor(role), now_ms=at)))


PRACTICE = GameSettings(practice_level=3, engine_side=BLACK)


def test_a_takeback_undoes_the_players_move_and_the_reply_and_keeps_the_clocks() -> None:
    match = play(play(play(play(started(PRACTICE), "white", 7, 1_000), "black", 3, 2_000), "white", 9, 3_000),
                 "black", 1, 4_000)  # fmt: skip
    white = Context(Actor("white"), now_ms=6_000)
    assert "take_back" in can(match, Actor("white"), 6_000)
    before = match.state
    assert before is not None
    after = fold(match, decide(match, TakeBack(), white))
    state = after.state
    assert state is not None
    expected = Position()
    for hole in (7, 3):
        expected.play(hole)
    assert [ply.hole for ply in state.plies] == [7, 3] and state.board == expected
    assert state.clock.remaining(WHITE, 6_000) == before.clock.remaining(WHITE, 6_000)
    assert state.board.turn is WHITE and state.clock.running_side is WHITE
    # Replayed from the log, the same state.
    assert after.game is not None and MatchGame.replay(after.game.events).state == state
    # Twice more: one pair left, then nothing to take back.
    again = fold(after, decide(after, TakeBack(), white))
    assert again.state is not None and again.state.plies == ()
    refusal = decide(again, TakeBack(), white)
    assert isinstance(refusal, Refusal) and refusal.code is TogyzCode.NOTHING_TO_TAKE_BACK
    assert "take_back" not in can(again, Actor("white"), 6_000)


def test_not_on_the_engines_turn() -> None:
    match = play(started(PRACTICE), "white", 7, 1_000)
    refusal = decide(match, TakeBack(), Context(Actor("white"), now_ms=1_500))
    assert isinstance(refusal, Refusal) and refusal.code is TogyzCode.NOT_YOUR_TURN
    assert "take_back" not in can(match, Actor("white"), 1_500)


@pytest.mark.parametrize("settings", [GameSettings(), GameSettings(engine_side=BLACK)])
def test_a_game_between_people_allows_no_takeback(settings: GameSettings) -> None:
    match = play(play(started(settings), "white", 7, 1_000), "black", 3, 2_000)
    refusal = decide(match, TakeBack(), Context(Actor("white"), now_ms=3_000))
    assert isinstance(refusal, Refusal) and refusal.code is TogyzCode.TAKEBACK_NOT_PRACTICE
    assert "take_back" not in can(match, Actor("white"), 3_000)
    spectator = decide(match, TakeBack(), Context(Actor("spectator"), now_ms=3_000))
    assert isinstance(spectator, Refusal) and spectator.code is not TogyzCode.TAKEBACK_NOT_PRACTICE
