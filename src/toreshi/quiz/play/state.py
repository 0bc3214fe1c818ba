"""The state of a quiz room — the game and everything around it — and its fold (:func:`evolve`).

:class:`PlayState` is immutable: the game (:class:`~toreshi.quiz.game.GameState`), the host's notes, the buzzer
keys and buttons, the arbitration settings, each team's measured link, the presses waiting for the arbiter's
decision, the last decision and the presses that came too late for the question in play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from toreshi.quiz.buzzer import Arbiter, ArbiterSettings, ClockSync, ReceivedPress
from toreshi.quiz.events import Event, GameCreated, QuestionChosen, ReserveQuestionChosen
from toreshi.quiz.game import GameState, Phase, replay
from toreshi.quiz.play.commands import KeyMap, MediaAction, Note
from toreshi.quiz.play.events import (
    BuzzDecided,
    GameClosed,
    KeysMapped,
    LinkMeasured,
    MediaControlled,
    PressLate,
    PressReceived,
    QuizCreated,
    UndoneTo,
)

__all__ = [
    "BACKDATING_MARKED_AFTER",
    "FALLBACK_RTT_MS",
    "Claims",
    "PendingPress",
    "PlayState",
    "UndoPoint",
    "checked",
    "evolve",
    "questions_chosen",
]

FALLBACK_RTT_MS = 150
"""The uplink assumed for a team whose link has not been measured yet (compensated mode needs one)."""


BACKDATING_MARKED_AFTER = 2
"""A team is marked on the host's connections panel once this many of its presses, and at least a quarter of those
placed from its phone's claim, claimed more lag than its link has (``backdated``). An honest phone's press does so
now and then (1-3 % on a club network, ``benchmarks/buzzer_fairness.py``: a slow packet); a client that backdates
every press (97 % of them caught on a LAN) is marked after its second."""


@dataclass(frozen=True, slots=True)
class Claims:
    """A team's presses placed from its phone's claimed touch, and how many of them claimed too much lag."""

    placed: int = 0
    backdated: int = 0

    @property
    def marked(self) -> bool:
        return self.backdated >= BACKDATING_MARKED_AFTER and 4 * self.backdated >= self.placed


@dataclass(frozen=True, slots=True)
class PendingPress:
    """A press fed to the arbiter of the current opening, with how it reached the server."""

    team: str
    received_ms: int
    client_ms: int | None
    source: str

    def press(self) -> ReceivedPress:
        return ReceivedPress(self.team, self.received_ms, self.client_ms)


@dataclass(frozen=True, slots=True)
class UndoPoint:
    """A moment between questions the host may take the game back to: after the game's first ``step`` events
    (``event`` the last of them, ``None`` for the game's creation), with the scores as they stood then."""

    step: int
    at_ms: int
    event: Event | None
    questions: int
    """How many questions had been chosen by then."""
    scores: tuple[tuple[str, int], ...]
    last: tuple[str, int] | None = None
    """The question played last by then: its theme's name and its value (what the host's list names)."""


def _point(step: int, game: GameState, event: Event | None, questions: int) -> UndoPoint:
    last = None
    if game.played:
        played = game.played[-1]
        theme = game._setup.board.themes[played.theme].name if played.theme is not None else played.question.theme
        last = (theme, played.value)
    return UndoPoint(step, game.last_ms, event, questions, tuple(game.scores.items()), last)


def questions_chosen(events: Sequence[Event]) -> int:
    """How many questions ``events`` chose (a board cell or a reserve question): the report's numbering."""
    return sum(isinstance(event, QuestionChosen | ReserveQuestionChosen) for event in events)


def checked(game: GameState, events: Sequence[Event]) -> list[Event]:
    """``events`` as they are, once the game's rules accept them in turn on ``game`` (raises
    :class:`~toreshi.kit.refusal.Refused` otherwise): what ``decide`` returns, ``evolve`` folds."""
    replay(events, game)
    return list(events)


@dataclass(frozen=True, slots=True)
class PlayState:
    """A quiz room at one moment (never changed: :func:`evolve` makes the next one)."""

    game: GameState = field(default_factory=GameState)
    title: str = ""
    notes: Mapping[str, Note] = field(default_factory=dict)
    """Host-only notes per cell ``"theme:value"`` or reserve question ``"r:index"``."""
    keys: KeyMap = field(default_factory=dict)
    """Keyboard keys of USB buzzers → team."""
    buttons: KeyMap = field(default_factory=dict)
    """Serial-port button numbers → team."""
    projector_keys: bool = False
    """The host enabled keyboard buzzers on the projector's machine (else its link cannot press for a team)."""
    settings: ArbiterSettings = field(default_factory=ArbiterSettings)
    syncs: Mapping[str, ClockSync] = field(default_factory=dict)
    """Each team's link, as last measured."""
    synced_ms: Mapping[str, int] = field(default_factory=dict)
    """When each team's link was last recorded (a ``link_measured`` event)."""
    pending: tuple[PendingPress, ...] = ()
    """Presses of the current opening that wait for the arbiter's decision."""
    decision: BuzzDecided | None = None
    claims: Mapping[str, Claims] = field(default_factory=dict)
    """Per team, its claimed presses and the backdated ones among them, over the whole game (issue 26)."""
    late: tuple[PressLate, ...] = ()
    """The late presses of the latest question (one per team and reason)."""
    media: MediaControlled | None = None
    """The host's latest play, pause or replay of a question's media on the projector."""
    media_count: int = 0
    """How many times the host has controlled media (a projector acts on each new one once)."""
    volume: int = 80
    """The projector's volume, 0 (muted) to 100."""
    origin: GameState = field(default_factory=GameState)
    """The game as it was created: what an undo replays :attr:`history` from."""
    history: tuple[Event, ...] = ()
    """The game events that make :attr:`game` now, in order (an undo cuts it; the room's log keeps everything)."""
    points: tuple[UndoPoint, ...] = ()
    """The moments between questions of :attr:`history`, oldest first: where the host may undo to."""
    chosen: int = 0
    """How many questions :attr:`history` chose."""
    closed: bool = False
    """The game's result is closed (SI-6): no undo, reversal or correction any more."""

    @property
    def created(self) -> bool:
        return self.game.setup is not None

    @property
    def question_number(self) -> int:
        """The question in play, else the last one played (0 before the first)."""
        game = self.game
        if game.current is not None:
            return game.current.number
        return game.played[-1].number if game.played else 0

    def arbiter(self, pending: Sequence[PendingPress] | None = None) -> Arbiter | None:
        """The arbiter of the current opening with every pending press (or ``pending``), or ``None`` when nobody
        has pressed or the buttons are closed."""
        pending = self.pending if pending is None else pending
        if not pending:
            return None
        opened = self.game.opened_ms
        if opened is None:
            return None
        syncs: dict[str, ClockSync] = {}
        for team in self.game.eligible:
            sync = self.syncs.get(team)
            if sync is None:
                hardware = team in self.keys.values() or team in self.buttons.values()
                sync = ClockSync.exact() if hardware else ClockSync(0, 0, 0, FALLBACK_RTT_MS, FALLBACK_RTT_MS)
            syncs[team] = sync
        arbiter = Arbiter.open(opened, self.game.eligible, syncs, self.settings)
        for waiting in sorted(pending, key=lambda p: p.received_ms):
            arbiter = arbiter.press(waiting.press())
        return arbiter

    def deadline_ms(self) -> int | None:
        """When the room must next decide on its own: the arbiter's decision, «время», the end of an answer."""
        arbiter = self.arbiter()
        if arbiter is not None:
            return arbiter.decision_due_ms
        game = self.game
        deadline = game.next_deadline_ms
        if deadline is not None and game.phase is Phase.READING:
            # Simulated reading ends by itself (no event); what needs waking is "время" after the window.
            deadline = game.at(deadline).next_deadline_ms
        return deadline


def evolve(state: PlayState, event: Event) -> PlayState:
    """The room after ``event`` (a game event goes to the game, whose rules check it again: a log that breaks them
    is refused, not folded)."""
    if isinstance(event, QuizCreated):
        game = state.game.apply(GameCreated(event.at_ms, event.setup))
        return PlayState(
            game=game,
            origin=game,
            points=(_point(0, game, None, 0),),
            title=event.title,
            notes=event.notes,
            keys=event.keys,
            buttons=event.buttons,
            projector_keys=event.projector_keys,
            settings=event.arbitration.settings(),
        )
    if isinstance(event, KeysMapped):
        projector = state.projector_keys if event.projector_keys is None else event.projector_keys
        return replace(state, keys=event.keys, buttons=event.buttons, projector_keys=projector)
    if isinstance(event, MediaControlled):
        if event.action is MediaAction.VOLUME:
            return replace(state, volume=event.level)
        return replace(state, media=event, media_count=state.media_count + 1)
    if isinstance(event, LinkMeasured):
        return replace(
            state, syncs={**state.syncs, event.team: event.sync}, synced_ms={**state.synced_ms, event.team: event.at_ms}
        )
    if isinstance(event, PressReceived):
        syncs = state.syncs if event.sync is None else {**state.syncs, event.team: event.sync}
        pending = PendingPress(event.team, event.received_ms, event.client_ms, event.source)
        return replace(state, syncs=syncs, pending=(*state.pending, pending))
    if isinstance(event, BuzzDecided):
        return replace(state, pending=(), decision=event, claims=_claims(state.claims, event))
    if isinstance(event, PressLate):
        kept = tuple(late for late in state.late if late.question == event.question)
        return replace(state, late=(*kept, event))
    if isinstance(event, UndoneTo):
        standing = state.history[: event.step]
        return replace(
            state,
            game=replay(standing, state.origin),
            history=standing,
            chosen=questions_chosen(standing),
            points=tuple(point for point in state.points if point.step <= event.step),
            pending=(),
            decision=None,
            late=(),
        )
    if isinstance(event, GameClosed):
        return replace(state, closed=True)
    game = state.game.apply(event)
    history = (*state.history, event)
    chosen = state.chosen + questions_chosen((event,))
    points = state.points
    if game.current is None:
        points = (*points, _point(len(history), game, event, chosen))
    # A new opening of the buttons (a question, its reopening after "неверно") starts with no pending press.
    same_opening = _opening_of(state.game) == _opening_of(game)
    return replace(
        state, game=game, history=history, chosen=chosen, points=points, pending=state.pending if same_opening else ()
    )


def _claims(claims: Mapping[str, Claims], decided: BuzzDecided) -> Mapping[str, Claims]:
    counted = dict(claims)
    for entry in decided.order:
        if entry.client_ms is None:
            continue  # a button, a key: on the server's clock, nothing claimed
        was = counted.get(entry.team, Claims())
        counted[entry.team] = Claims(was.placed + 1, was.backdated + entry.backdated)
    return counted


def _opening_of(game: GameState) -> tuple[Phase, int | None, int | None]:
    return game.phase, None if game.current is None else game.current.number, game.opened_ms
