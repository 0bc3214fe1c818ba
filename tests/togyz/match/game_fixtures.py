"""Helpers shared by the live-game tests: game builders and random playouts found by search, not hard-coded."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from toreshi.clock import BLITZ, TimeControl
from toreshi.kit.refusal import ParamValue, RefusalCode, Refused
from toreshi.togyz import Position, Side
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.settings import GameSettings

SALT = "5eed" * 8


def new_game(control: TimeControl = BLITZ, settings: GameSettings | None = None, *, at: int = 0) -> MatchGame:
    return MatchGame.create("Abay", "Bolat", control, settings, now_ms=at)


def started(control: TimeControl = BLITZ, settings: GameSettings | None = None, *, at: int = 0) -> MatchGame:
    return new_game(control, settings, at=at).start(now_ms=at)


def refusal(call: Callable[[], object]) -> tuple[RefusalCode, dict[str, ParamValue]]:
    """The code and parameters ``call()`` is refused with (it must be refused)."""
    with pytest.raises(Refused) as caught:
        call()
    return caught.value.refusal.code, dict(caught.value.params)


def playout(seed: int) -> list[int]:
    """A random game from the start to its board end."""
    rng = random.Random(seed)
    pos = Position()
    holes = []
    while not pos.is_game_over():
        hole = rng.choice(pos.legal_moves())
        pos.push(hole)
        holes.append(hole)
    return holes


def find_playout(accept: Callable[[list[int], Position], bool], tries: int = 2000) -> list[int]:
    """The first random playout whose move list and final position satisfy ``accept``."""
    for seed in range(tries):
        holes = playout(seed)
        pos = Position()
        for hole in holes:
            pos.push(hole)
        if accept(holes, pos):
            return holes
    raise AssertionError("no playout found")


def play(game: MatchGame, holes: list[int], *, at: int, step: int = 1000) -> tuple[MatchGame, int]:
    """Play ``holes`` with a press after each, ``step`` ms apart; returns the game and the time reached."""
    for hole in holes:
        at += step
        side: Side = game.state.board.turn
        game = game.move(side, hole, now_ms=at)
    return game, at
