"""The commands a role is asked about for its "what may I do now" list: one of each kind it may give, with the
parameters the state suggests (the first open cell, the latest counted answer, a mapped key).

``decide`` answers for each (:func:`toreshi.kit.core.allowed`), so a page offers exactly the buttons the rules
would accept. :func:`offered` is that list as a room asks for it after every event: the same answer without running
the rules on most probes (issue 32: a full ``decide`` per probe, each accepted one folding a whole new game, was the
largest cost of a press cycle). For each probe it checks what ``decide`` and the game's rules check for exactly that
probe's parameters, in one place below; the press, a buzzer key and a stake, whose rules are the arbiter's and the
stakes', are still asked of ``decide``. A property test plays random games and compares it with the probes asked of
``decide`` at every step and for every role (``tests/quiz/play/test_offered.py``).
"""

from __future__ import annotations

from toreshi.kit.core import Actor, Context, allowed
from toreshi.kit.refusal import Refusal
from toreshi.quiz.board import VALUES
from toreshi.quiz.events import GameKind
from toreshi.quiz.game import GameState, Phase
from toreshi.quiz.play import commands as cmd
from toreshi.quiz.play.commands import Command
from toreshi.quiz.play.decide import decide, nothing_new_to_announce
from toreshi.quiz.play.state import PlayState

__all__ = ["offered", "offered_by_decide", "probes"]

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


# --- what the rules would accept of the probes, without running them --------------------------------------------

_ASKING = (Phase.READING, Phase.PRESS_WINDOW, Phase.ANSWERING)
"""The phases a question is being asked in (a replacement's, SI-4.6)."""


def offered_by_decide(state: PlayState, actor: Actor, now: int) -> list[str]:
    """The same list as :func:`offered`, by asking :func:`decide` every probe (one of a kind enough): exact by
    construction and ten times dearer — the oracle the tests and ``benchmarks/quiz_can.py`` hold ``offered`` to."""
    if not state.created:
        return []
    now = max(now, state.game.last_ms)
    context = Context(actor, now_ms=now)
    found: set[str] = set()
    for probe in probes(state, actor.role, state.game.at(now)):
        if probe.type not in found and allowed(decide, state, context, (probe,), name=_command_type):
            found.add(probe.type)
    return sorted(found)


def _command_type(command: Command) -> str:
    return command.type


def offered(state: PlayState, actor: Actor, now: int, game: GameState | None = None) -> list[str]:
    """The types of the probe commands (:func:`probes`) of ``actor``'s role that ``decide`` accepts at ``now``,
    sorted: what :func:`toreshi.kit.core.allowed` answers for them, one probe of a kind enough. ``game`` is the
    state's game at ``now`` when the caller has it."""
    if not state.created:
        return []
    now = max(now, state.game.last_ms)
    game = state.game.at(now) if game is None else game
    role = actor.role
    if role in cmd.HOST_ROLES:
        found = _host_offered(state, game)
        asked: list[Command] = [probe for probe in _special(game, game.stake_turn()) if probe.type == "stake"]
        if game._setup.kind is GameKind.SHOOTOUT:
            asked.append(cmd.EndGame())  # ended only once the tie is broken: the rules know the cuts
        if state.keys:
            asked.append(cmd.Key(next(iter(state.keys))))
    elif role == "team":
        found = {"give"} if _gives(game, actor.name) else set()
        if _requests(game, actor.name):
            found.add("request_score")
        asked = [cmd.PressBuzzer(), *(probe for probe in _special(game, None) if probe.type == "stake")]
    elif role == "assistant":
        found = {"announce_score"} if _announces(game) else set()
        if _requests(game, game.teams[0]):
            found.add("request_score")
        asked = []
    elif role == "projector":
        found, asked = set(), [cmd.Key(key) for key in state.keys] if state.projector_keys else []
    else:
        return []
    context = Context(actor, now_ms=now)
    for probe in asked:
        if probe.type not in found and not isinstance(decide(state, probe, context), Refusal):
            found.add(probe.type)
    return sorted(found)


def _host_offered(state: PlayState, game: GameState) -> set[str]:
    """What ``decide`` accepts of the host's probes (:func:`_host`) but the key and the stake, each as the rules
    check that very command (the probe's parameters are the ones :func:`_host` gives)."""
    phase, current, closed = game.phase, game.current, state.closed
    answering = current.answering_team if current is not None else None
    in_play = bool(game.themes_in_play)
    counted = next((r for r in reversed(game.answers) if not r.void), None)
    history = len(state.history)
    rules = {
        "draw": phase is Phase.DRAW,
        "strike": game.striker is not None and in_play,
        "announce": phase is not Phase.FINISHED and in_play,
        "choose": game.chooser is not None
        and phase is Phase.CHOOSING
        and bool(game.open_cells)
        and not game._last_question_needs_announcement(),
        "reserve": phase is Phase.CHOOSING
        and game.sudden_death
        and any(i not in game.used_reserve for i in range(len(game._setup.board.reserve))),
        "finish_reading": not state.pending
        and phase is Phase.READING
        and current is not None
        and current.reading_total_ms is None
        and current.reading_since_ms is not None,
        "right": answering is not None and phase is Phase.ANSWERING,
        "wrong": answering is not None and phase is Phase.ANSWERING,
        "clarify": current is not None and phase is Phase.ANSWERING,
        "extend": current is not None and phase is Phase.ANSWERING and game._setup.answer_ms > 0,
        "cancel_press": answering is not None and phase is Phase.ANSWERING and current is not None and not current.solo,
        "replace": _replaceable(game),
        "reverse": not closed and counted is not None and (current is None or current.number != counted.question),
        "undo": not closed and _undoable(game),
        "undo_to": not closed and any(point.step < history for point in state.points),
        "correct": not closed,
        "warn": True,
        "sanction": bool(game.warnings),
        "announce_score": _announces(game),
        "request_score": _requests(game, game.teams[0]),
        "map_keys": True,
        "media": _media_on(game),
        "restore_theme": bool(game.struck)
        and not game.played
        and current is None
        and phase in (Phase.STRIKING, Phase.CHOOSING),
        "end_game": _endable(game),
        "give": _gives(game, None),
        "close_game": not closed and state.game.finished,
    }
    return {kind for kind, yes in rules.items() if yes}


def _replaceable(game: GameState) -> bool:
    """The probe :func:`_replacement` finds another theme's open cell or a reserve question of the value."""
    current = game.current
    if current is None or game.phase not in _ASKING:
        return False
    found = _replacement(game)
    return found.reserve is not None or (found.theme is not None and found.theme != current.theme)


def _undoable(game: GameState) -> bool:
    """``decide``'s ``undo``: the question played last has a counted answer, and none of the one in play has."""
    current = game.current
    if current is not None and any(r.question == current.number and not r.void for r in game.answers):
        return False
    last = game.played[-1].number if game.played else None
    return any(r.question == last and not r.void for r in game.answers)


def _announces(game: GameState) -> bool:
    """The score announced: nothing new to say (accepted, nothing stored) or the game has an assistant."""
    return nothing_new_to_announce(game) or game._setup.assistant is not None


def _requests(game: GameState, team: str) -> bool:
    """``team`` asks for the score: already asking (nothing stored), else while the game runs, if it plays."""
    return team in game.score_requests or (game.phase is not Phase.FINISHED and team in game.teams)


def _media_on(game: GameState) -> bool:
    """``decide``'s media control: the question on (or just over) has audio or video."""
    question = game.current.question if game.current is not None else None
    if question is None and game.played and game.phase is not Phase.FINISHED:
        question = game.played[-1].question
    return question is not None and any(item.playable for item in (*question.items, *question.answer_items))


def _endable(game: GameState) -> bool:
    """The host may end a started game that is not over (a shootout is asked of the rules: see :func:`offered`)."""
    if game._setup.kind is GameKind.SHOOTOUT:
        return False
    return game.phase is not Phase.FINISHED and bool(game.played or game.current is not None)


def _gives(game: GameState, team: str | None) -> bool:
    """The probe ``give`` (to the first other team than the chooser) of the host (``team`` ``None``) or of a team:
    a secret question waits to be handed over, and only the chooser's phone hands it."""
    if game.phase is not Phase.GIVING or game.current is None:
        return False
    if not any(t != game.chooser for t in game.teams):
        return False
    return team is None or team == game.chooser
