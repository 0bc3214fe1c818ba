"""The commands a role is asked about for its "what may I do now" list: one of each kind it may give, with the
parameters the state suggests (the first open cell, the latest counted answer, a mapped key).

``decide`` answers for each (:func:`toreshi.kit.core.allowed`), so a page offers exactly the buttons the rules
would accept — no list of what is allowed is kept beside the rules.
"""

from __future__ import annotations

from toreshi.quiz.board import VALUES
from toreshi.quiz.game import GameState
from toreshi.quiz.play import commands as cmd
from toreshi.quiz.play.commands import Command
from toreshi.quiz.play.state import PlayState

__all__ = ["probes"]

_ANYONE = "·"
"""A person or a reason in a probe: any non-empty text does (the rules ask only that there is one)."""


def probes(state: PlayState, role: str, game: GameState) -> list[Command]:
    """The probe commands of ``role`` in ``state``, whose game stands at ``game`` (the state's game at now)."""
    if not state.created:
        return []
    if role in cmd.HOST_ROLES:
        return _host(state, game)
    if role == "team":
        return [cmd.PressBuzzer(), cmd.RequestScore(), *_special(game, None)]
    if role == "assistant":
        return [cmd.AnnounceScore(), cmd.RequestScore(game.teams[0])]
    if role == "projector":
        return [cmd.Key(key) for key in state.keys] if state.projector_keys else []
    return []


def _host(state: PlayState, game: GameState, /) -> list[Command]:
    teams = game.teams
    in_play = game.themes_in_play or (0,)
    cell = game.open_cells[0] if game.open_cells else (in_play[0], VALUES[0])
    unused = [index for index in range(len(game._setup.board.reserve)) if index not in game.used_reserve]
    found: list[Command] = [
        cmd.Draw(teams[0]),
        cmd.Strike(in_play[0]),
        cmd.AnnounceTheme(in_play[0]),
        cmd.Choose(*cell),
        cmd.Reserve(unused[0] if unused else 0),
        cmd.FinishReading(),
        cmd.Right(),
        cmd.Wrong(),
        cmd.Clarify(),
        cmd.Extend(),
        cmd.CancelPress(),
        _replacement(game),
        _reversal(game),
        cmd.Undo(),
        cmd.UndoTo(_undo_point(state)),
        cmd.Correct(teams[0], 1, _ANYONE),
        cmd.Warn(_ANYONE),
        cmd.Sanction(game.warnings[0] if game.warnings else _ANYONE),
        cmd.AnnounceScore(),
        cmd.RequestScore(teams[0]),
        cmd.MapKeys(),
        cmd.Media(cmd.MediaAction.PLAY),
        cmd.RestoreTheme(),
        cmd.EndGame(),
    ]
    found.extend(_special(game, game.stake_turn()))
    if not state.closed:
        found.append(cmd.CloseGame())  # closing again stores nothing and is not offered
    if state.keys:
        found.append(cmd.Key(next(iter(state.keys))))
    return found


def _special(game: GameState, team: str | None) -> list[Command]:
    """A stake question's stake (the least one) and a secret question's handing over (to another team)."""
    found: list[Command] = []
    turn = game.stake_turn()
    if turn is not None:
        found.append(cmd.Stake(game.stake_bounds(turn)[0], team))
    others = [t for t in game.teams if t != game.chooser]
    if others:
        found.append(cmd.Give(others[0]))
    return found


def _undo_point(state: PlayState) -> int:
    """The latest moment between questions before now (the host's list offers every one)."""
    earlier = [point.step for point in state.points if point.step < len(state.history)]
    return earlier[-1] if earlier else len(state.history)


def _replacement(game: GameState) -> cmd.Replace:
    """Another theme's cell of the question's value, else a reserve question of that value (SI-4.6)."""
    current = game.current
    if current is None:
        return cmd.Replace(theme=0)
    for theme in game.themes_in_play:
        if theme != current.theme and game.is_open(theme, current.value):
            return cmd.Replace(theme=theme)
    for index, spare in enumerate(game._setup.board.reserve):
        if index not in game.used_reserve and spare.value == current.value:
            return cmd.Replace(reserve=index)
    return cmd.Replace(theme=current.theme)


def _reversal(game: GameState) -> cmd.Reverse:
    """The latest counted answer (a reversal of it is what the host may ask for)."""
    for record in reversed(game.answers):
        if not record.void:
            return cmd.Reverse(record.question, record.team)
    return cmd.Reverse(1, game.teams[0])
