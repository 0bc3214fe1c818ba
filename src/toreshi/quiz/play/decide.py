"""The quiz room's ``decide``: a typed command, the room's state and the context → the events, or a refusal.

Pure: the room time, who asks, what the server measured and a generator for the lot all come in through the
:class:`~toreshi.kit.core.Context`. Every rule of the game lives in :mod:`toreshi.quiz.game`; ``decide`` turns a
host's tool, a team's press or the timer into events and tries the game's events on the game (whose rules refuse
with a :class:`~toreshi.quiz.codes.QuizCode`), so what ``decide`` accepts, :func:`~toreshi.quiz.play.state.evolve`
folds. "What may this role do now" is asked of this same function (:func:`toreshi.kit.core.allowed`).

>>> from toreshi.kit.core import Actor, Context
>>> from toreshi.quiz.play.commands import Draw
>>> decide(PlayState(), Draw("Алтын"), Context(Actor("host"), now_ms=0))
Refusal(code=<QuizCode.NOT_CREATED: 'quiz_not_created'>, params=mappingproxy({}), details=())
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from toreshi.kit.core import Context, Decision
from toreshi.kit.lots import new_seed
from toreshi.kit.refusal import Common, Refused
from toreshi.quiz import events as ev
from toreshi.quiz.codes import QuizCode
from toreshi.quiz.events import Event
from toreshi.quiz.game import GameState, Phase
from toreshi.quiz.lots import choice_order
from toreshi.quiz.play import commands as cmd
from toreshi.quiz.play import presses
from toreshi.quiz.play.commands import Command, KeyMap
from toreshi.quiz.play.events import GameClosed, KeysMapped, LinkMeasured, MediaControlled, QuizCreated, UndoneTo
from toreshi.quiz.play.state import PlayState, checked

__all__ = ["decide", "nothing_new_to_announce"]

CLOSED_CLAUSE = "SI-6"
"""The clause a closed game's refusal cites: a tour's results are final once its stage is over."""
TEAM = "team"
BUTTONS = "buttons"
PROJECTOR = "projector"


def decide(state: PlayState, command: Command, context: Context) -> Decision[Event]:
    """The events ``command`` causes, or why nothing happens. A programming error is raised, never refused."""
    try:
        return _decide(state, command, context)
    except Refused as refused:
        return refused.refusal


def _decide(state: PlayState, command: Command, context: Context) -> Sequence[Event]:
    role = context.actor.role
    if command.type not in cmd.ROLE_COMMANDS.get(role, frozenset()):
        raise Refused(Common.FORBIDDEN, command=command.type, role=role)
    if not state.created:
        if isinstance(command, cmd.Tick):
            return []
        if not isinstance(command, cmd.CreateGame):
            raise Refused(QuizCode.NOT_CREATED)
        return _create(command, context.now_ms, context.random)
    now = max(context.now_ms, state.game.last_ms)
    match command:
        case cmd.CreateGame():
            raise Refused(QuizCode.ALREADY_CREATED)
        case cmd.Undo() | cmd.UndoTo() | cmd.Reverse() | cmd.Correct() if state.closed:
            raise Refused(QuizCode.GAME_CLOSED, clause=CLOSED_CLAUSE)  # SI-6: a closed result is final
        case cmd.UndoTo():
            return [_undo_to(state, command.step, now)]
        case cmd.CloseGame():
            if state.closed:
                return []  # closed already: nothing new
            if not state.game.finished:
                raise Refused(QuizCode.NOT_FINISHED)
            return [GameClosed(now, command.reason.strip())]
        case cmd.Tick():
            return presses.tick(state, now, context.random)
        case cmd.PressBuzzer():
            return _press(state, command, context, now)
        case cmd.Key():
            if role == PROJECTOR and not state.projector_keys:
                # The projector's link forwards USB buzzers only where the host said they are plugged in there.
                raise Refused(QuizCode.PROJECTOR_KEYS_OFF)
            team = state.keys.get(command.key)
            if team is None:
                raise Refused(QuizCode.UNMAPPED_KEY, key=command.key)
            # A USB buzzer types on the host's (or projector's) machine: placed at the server's receipt time.
            received = presses.received_ms(context.meta, now)
            return presses.press(state, team, received, None, source="keyboard", sync=None, rng=context.random)
        case cmd.Sync():
            return _sync(state, context)
        case cmd.MapKeys():
            keys, buttons = _key_map(command.keys, state.game.teams), _key_map(command.buttons, state.game.teams)
            return [KeysMapped(now, keys, buttons, command.projector)]
        case cmd.AnnounceScore() if nothing_new_to_announce(state.game.at(now)):
            return []  # idempotent: the same scores announced again, with nobody asking, store nothing
        case cmd.Media():
            return _media(state, command, now)
        case cmd.MediaFinished():
            return _media_finished(state, command, now)
        case cmd.Stake():
            game = state.game.at(now)
            team = context.actor.name if role == TEAM else command.team or game.stake_turn()
            if team is None:
                raise game.not_now("stake")
            return checked(state.game, [ev.StakeMade(now, team, command.amount)])
        case cmd.Give():
            game = state.game.at(now)
            if role == TEAM and context.actor.name != game.chooser:
                raise Refused(QuizCode.NOT_CHOOSER, chooser=str(game.chooser), team=context.actor.name)
            return checked(state.game, [ev.SecretGiven(now, command.team)])
        case cmd.RequestScore():
            team = context.actor.name if role == TEAM else command.team
            if team is None:
                raise Refused(Common.FIELD_REQUIRED, field="team")
            if team in state.game.score_requests:
                return []  # idempotent: the team's request is pending until the score is announced
            return checked(state.game, [ev.ScoreRequested(now, team)])
        case _:
            return checked(state.game, _host(state, command, now, context.random))


def nothing_new_to_announce(game: GameState) -> bool:
    """The scores were announced as they stand, nobody asked since and no announcement is due (SI-4.7)."""
    if not game.announcements or game.score_requests or game.score_announcement_due:
        return False
    return dict(game.announcements[-1].scores) == game.scores


def _create(command: cmd.CreateGame, now: int, rng: random.Random | None) -> Sequence[Event]:
    setup = command.setup
    if not setup.lots_seed and rng is not None:
        # The seed of the order of choice (SI-3.2), published with the game from now on, before the draw. (A room
        # always passes its generator; only a probe decides without one, and draws nothing.)
        setup = replace(setup, lots_seed=new_seed(rng))
    GameState().apply(ev.GameCreated(now, setup))  # the setup's rules (teams, themes, the assistant)
    teams = setup.teams
    created = QuizCreated(
        now,
        setup,
        title=command.title,
        notes=command.notes,
        arbitration=command.arbitration,
        keys=_key_map(command.keys, teams),
        buttons=_key_map(command.buttons, teams),
        projector_keys=command.projector_keys,
    )
    return [created]


def _media(state: PlayState, command: cmd.Media, now: int) -> Sequence[Event]:
    """The host's media control: only while a question with audio or video is on (or just over, for its answer)."""
    game = state.game.at(now)
    number = state.question_number
    if command.action is cmd.MediaAction.VOLUME:
        return [MediaControlled(now, number, command.action, command.level)]
    question = game.current.question if game.current is not None else None
    if question is None and game.played and game.phase is not Phase.FINISHED:
        question = game.played[-1].question  # its answer's media, shown after the question
    if question is None or not any(item.playable for item in (*question.items, *question.answer_items)):
        raise Refused(QuizCode.NO_MEDIA)
    return [MediaControlled(now, number, command.action)]


def _media_finished(state: PlayState, command: cmd.MediaFinished, now: int) -> Sequence[Event]:
    """The projector's report that the question's media has ended opens the press window (waitForFinish)."""
    game = state.game.at(now)
    current = game.current
    if (
        current is None
        or current.number != command.question
        or game.phase is not Phase.READING
        or current.reading_since_ms is None
        or current.reading_total_ms is not None
        or not current.question.waits_for_media
        or state.pending
    ):
        return []  # stale or not waiting: nothing to open
    return checked(state.game, [ev.ReadingFinished(now)])


def _key_map(mapping: KeyMap, teams: Sequence[str]) -> dict[str, str]:
    for key, team in mapping.items():
        if not 0 < len(key) <= cmd.MAX_KEY or team not in teams:
            raise Refused(QuizCode.KEY_TEAM, key=key[: cmd.MAX_KEY], team=team)
    return dict(mapping)


def _press(state: PlayState, command: cmd.PressBuzzer, context: Context, now: int) -> Sequence[Event]:
    received = presses.received_ms(context.meta, now)
    if context.actor.role == BUTTONS:
        button = command.button or ""
        team = state.buttons.get(button)
        if team is None:
            raise Refused(QuizCode.UNMAPPED_BUTTON, button=button)
        source = str(context.meta.get("source", "serial"))
        return presses.press(state, team, received, None, source=source, sync=None, rng=context.random)
    sync = presses.sync_from_meta(context.meta.get("sync"))
    # A touch time means nothing without the connection's clock sync.
    client_ms = round(command.tc) if command.tc is not None and sync is not None else None
    return presses.press(state, context.actor.name, received, client_ms, source="web", sync=sync, rng=context.random)


def _sync(state: PlayState, context: Context) -> Sequence[Event]:
    sync = presses.sync_from_meta(context.meta.get("sync"))
    if sync is None:
        raise Refused(QuizCode.NO_SYNC)
    team = context.actor.name
    known = state.syncs.get(team)
    if known is not None and abs(known.rtt_max_ms - sync.rtt_max_ms) < 10 and abs(known.offset_ms - sync.offset_ms) < 5:
        return []  # nothing new worth recording
    recorded = state.synced_ms.get(team)
    if recorded is not None and recorded >= state.game.last_ms:
        # Once per team between two moves of the game: a client that makes every measurement differ cannot grow
        # the log with it (issue 13 §2); its presses carry the connection's sync anyway.
        return []
    return [LinkMeasured(state.game.last_ms, team, sync)]


def _team(team: str | None, default: str | None, game: GameState, doing: str) -> str:
    """The team a host's command names, or the one the game implies (the chooser, the striker, the answerer).

    The game implies nobody only when it is not at the stage for ``doing`` (before the draw, outside the striking or
    the answering), which is what the refusal says."""
    chosen = default if team is None else team
    if chosen is None:
        raise game.not_now(doing)
    return chosen


def _host(state: PlayState, command: Command, now: int, rng: random.Random | None) -> list[Event]:
    """The game events of a host's tool."""
    game = state.game.at(now)
    current = game.current
    answering = current.answering_team if current is not None else None
    match command:
        case cmd.Draw():
            return [_draw(game, command.team, now, rng)]  # the lot (SI-3.2), recorded as an event
        case cmd.Strike():
            return [ev.ThemeStruck(now, _team(command.team, game.striker, game, "strike"), command.theme)]
        case cmd.RestoreTheme():
            if command.theme is None and not game.struck:
                raise Refused(QuizCode.NOTHING_TO_RESTORE)
            return [ev.ThemeRestored(now, game.struck[-1] if command.theme is None else command.theme)]
        case cmd.AnnounceTheme():
            return [ev.ThemeAnnounced(now, command.theme, command.explanation)]
        case cmd.Choose():
            team = _team(command.team, game.chooser, game, "choose")
            events: list[Event] = []
            if command.theme not in game.announced and command.theme in range(len(game._setup.board.themes)):
                events.append(ev.ThemeAnnounced(now, command.theme))  # choosing from a theme announces it
            return [*events, ev.QuestionChosen(now, team, command.theme, command.value)]
        case cmd.Reserve():
            return [ev.ReserveQuestionChosen(now, command.reserve)]
        case cmd.FinishReading():
            if state.pending:
                # A press is being decided: it stops reading anyway (SI-3.6), and it was made while reading.
                raise Refused(QuizCode.ARBITRATING)
            return [ev.ReadingFinished(now)]
        case cmd.Right() | cmd.Wrong():
            correct = isinstance(command, cmd.Right)
            return [ev.AnswerJudged(now, _team(command.team, answering, game, "judge"), correct)]
        case cmd.Clarify():
            return [ev.ClarificationRequested(now)]
        case cmd.Extend():
            return [ev.AnswerTimeExtended(now, command.ms if command.ms is not None else game._setup.answer_ms)]
        case cmd.CancelPress():
            return [ev.PressCancelled(now, _team(command.team, answering, game, "cancel_press"))]
        case cmd.Replace():
            return [ev.QuestionReplaced(now, command.reason, command.theme, command.reserve)]
        case cmd.Reverse():
            return [ev.DecisionReversed(now, command.question, command.team)]
        case cmd.Undo():
            return [_undo(state.game, now)]
        case cmd.Correct():
            return [ev.ScoreCorrected(now, command.team, command.delta, command.reason)]
        case cmd.Warn():
            return [ev.AudienceWarned(now, command.person, command.note)]
        case cmd.Sanction():
            return [ev.AudienceSanctioned(now, command.person, command.scope)]
        case cmd.AnnounceScore():
            return [ev.ScoreAnnounced(now)]
        case cmd.EndGame():
            return [ev.GameEnded(now, command.reason.strip())]
    raise TypeError(f"no host tool for {command!r}")  # every command is matched above


def _draw(game: GameState, team: str | None, now: int, rng: random.Random | None) -> ev.FirstChooserDrawn:
    """The lot for the first chooser (SI-3.2): the order the game's published seed draws; a team the host names
    instead of the lot's first is recorded as an override. A game recorded before issue 29 has no seed: its room's
    generator draws, as it did then."""
    seed = game._setup.lots_seed
    if not seed:
        if team is not None:
            return ev.FirstChooserDrawn(now, team)
        if rng is None:
            raise TypeError("a draw of lots needs Context.random")  # the room passes its generator to every decision
        return ev.FirstChooserDrawn(now, rng.choice(game.teams))
    order = choice_order(seed, game.teams)
    chosen = order[0] if team is None else team
    return ev.FirstChooserDrawn(now, chosen, seed=seed, order=order, overridden=chosen != order[0])


def _undo_to(state: PlayState, step: int, now: int) -> Event:
    """Back to ``step``: one of the game's moments between questions before the current one (a point of
    :attr:`PlayState.points`). The event names the step; ``evolve`` replays the game's first ``step`` events."""
    history = state.history
    if step == len(history):
        raise Refused(QuizCode.NOTHING_TO_UNDO)
    point = next((point for point in state.points if point.step == step), None)
    if step > len(history) or point is None:
        raise Refused(QuizCode.UNDO_POINT, step=step)
    # The point counted the questions chosen by its step when it was made (``questions_chosen(history[:step])``,
    # without reading the whole history again: the host's "undo to" button is asked about after every event).
    return UndoneTo(now, step, point.questions, len(history) - step)


def _undo(game: GameState, now: int) -> Event:
    """Undo the last ruling: reverse the latest counted answer of the question played last (the core keeps every
    event, so an undo is itself an event in the record). A question that ended with no counted answer («время»,
    replaced) leaves nothing to undo: Z never reaches back to flip an older question's ruling unseen."""
    current = game.current
    if current is not None and any(r.question == current.number and not r.void for r in game.answers):
        raise Refused(QuizCode.UNDO_IN_PLAY)
    last = game.played[-1].number if game.played else None
    for record in reversed(game.answers):
        if record.question == last and not record.void:
            return ev.DecisionReversed(now, record.question, record.team)
    raise Refused(QuizCode.NOTHING_TO_UNDO)
