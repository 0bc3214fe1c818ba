"""One «Своя игра» game by the club regulation: the state is a fold of typed events (:mod:`toreshi.quiz.events`).

The core is pure: it never reads a clock. Every event carries the server's monotonic time in milliseconds and the
state derives every deadline from those times (the 5 s press window, SI-3.10; the 5 s answer time, SI-3.7; the end
of simulated reading, SI-3.6). The live layer schedules its timers from :attr:`GameState.next_deadline_ms` and
posts ``TimeCalled`` / ``AnswerTimeExpired`` when they fire; an event that breaks the rules raises
:class:`~toreshi.kit.refusal.Refused` with a :class:`~toreshi.quiz.codes.QuizCode` and its parameters (the team,
the theme, the clause) and leaves the state unchanged.

>>> from toreshi.quiz.board import Board
>>> from toreshi.quiz.events import *
>>> setup = GameSetup(("A", "B"), Board.of("T1", "T2", "T3", "T4", "T5"), assistant=Assistant("Ерлан", "C"))
>>> state = replay([
...     GameCreated(0, setup),
...     FirstChooserDrawn(1_000, "B"),
...     ThemeAnnounced(2_000, theme=0),
...     QuestionChosen(3_000, team="B", theme=0, value=3),
...     Buzzed(4_500, team="A", press_ms=4_480),   # pressed during reading: reading stops (SI-3.6)
...     AnswerJudged(6_000, team="A", correct=False),
...     ReadingFinished(8_000),
...     Buzzed(9_000, team="B", press_ms=8_990),
...     AnswerJudged(10_000, team="B", correct=True),
... ])
>>> state.scores
{'A': -3, 'B': 3}
>>> state.phase, state.chooser
(<Phase.CHOOSING: 'choosing'>, 'B')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from toreshi.kit.refusal import Refused
from toreshi.quiz import events as ev
from toreshi.quiz.board import VALUES, BoardQuestion
from toreshi.quiz.codes import ACTIONS, QuizCode, game_term, phase_term
from toreshi.quiz.events import MAX_TEAMS, Event, GameKind, GameSetup, ReadingMode, SanctionScope
from toreshi.quiz.shootout import is_decided

__all__ = [
    "AnswerRecord",
    "CurrentQuestion",
    "GameState",
    "Outcome",
    "Phase",
    "PlayedQuestion",
    "ScoreSnapshot",
    "final_scores",
    "replay",
]


SPECIAL_KINDS = {
    "stake": "stake",
    "secret": "secret",
    "secretPublicPrice": "secret",
    "secretNoQuestion": "secret",
    "noRisk": "no_risk",
}
"""SIGame's question types this game plays by SIGame's rules when its setting says so (issue 31); ``stakeAll`` and
``forAll`` (answered in writing by every team) and custom types play as ordinary questions."""


_State = TypeVar("_State", "GameState", "CurrentQuestion", "AnswerRecord")


def replace(state: _State, /, **changes: Any) -> _State:
    """``dataclasses.replace`` for the game's frozen, slotted values (which have no ``__post_init__``), without
    running ``__init__`` again: a room asks the rules about every tool of the host after each event, which applies
    some thirty events, and ``dataclasses.replace`` was half of that time. A state's ``_memo`` starts empty."""
    copy = _COPIERS.get(type(state))
    if copy is None:
        copy = _COPIERS[type(state)] = _copier(type(state))
    copied: _State = copy(state, changes)
    return copied


_COPIERS: dict[type[Any], Callable[[Any, dict[str, Any]], Any]] = {}


def _copier(cls: type[Any]) -> Callable[[Any, dict[str, Any]], Any]:
    """A copy function for ``cls`` with one line per field (a loop of ``getattr``/``setattr`` is twice as slow),
    made once per class the way ``dataclasses`` makes ``__init__``."""
    lines = ["def copy(state, changes):", "    new = new_object(cls)", "    take = changes.pop"]
    for name in cls.__slots__:
        value = "{}" if name == "_memo" else f"take({name!r}, state.{name}) if changes else state.{name}"
        lines.append(f"    set_slot(new, {name!r}, {value})")
    lines += ["    if changes:", "        raise TypeError(f'no fields {sorted(changes)}')", "    return new"]
    namespace: dict[str, Any] = {"new_object": object.__new__, "set_slot": object.__setattr__, "cls": cls}
    exec("\n".join(lines), namespace)  # the code is made of the class's own field names, nothing else
    copy: Callable[[Any, dict[str, Any]], Any] = namespace["copy"]
    return copy


class Phase(StrEnum):
    NOT_CREATED = "not_created"
    DRAW = "draw"
    """Waiting for the lot that decides the first chooser (SI-3.2)."""
    STRIKING = "striking"
    """Final only: teams strike themes in turn until 5 remain (SI-3.3)."""
    CHOOSING = "choosing"
    READING = "reading"
    PRESS_WINDOW = "press_window"
    """Reading is over; the 5 s press window runs (SI-3.10)."""
    ANSWERING = "answering"
    FINISHED = "finished"
    STAKING = "staking"
    """SIGame's stake question (a game setting, issue 31): the teams stake in turn, the highest answers alone."""
    GIVING = "giving"
    """SIGame's secret question (a game setting, issue 31): the chooser hands it to another team."""


class Outcome(StrEnum):
    """How a question ended."""

    RIGHT = "right"
    TIME = "time"
    """Nobody pressed in the window, "время" (SI-3.10)."""
    ALL_ANSWERED = "all_answered"
    """Every team answered wrong: nobody may press any more (SI-3.5)."""
    DECIDED = "decided"
    """A shootout question stopped by a wrong answer that settled the tie (SI-2.2)."""
    SOLO = "solo"
    """A special question (issue 31) answered wrong by the one team that answers it: nobody else may."""


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    """One team's answer to one question; the score is the sum of these (SI-3.8) plus host corrections."""

    question: int
    team: str
    value: int
    correct: bool
    timed_out: bool = False
    reversed: bool = False
    void: bool = False
    """The question was replaced (SI-4.6): the answer no longer counts."""
    risk_free: bool = False
    """SIGame's no-risk question (issue 31): a wrong answer costs nothing."""

    @property
    def points(self) -> int:
        if self.void:
            return 0
        if not self.correct and self.risk_free:
            return 0
        return self.value if self.correct else -self.value


@dataclass(frozen=True, slots=True)
class PlayedQuestion:
    number: int
    theme: int | None
    """The board theme, or ``None`` for a reserve question in a shootout."""
    value: int
    question: BoardQuestion
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class ScoreSnapshot:
    at_ms: int
    scores: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class CurrentQuestion:
    """The question in play: what is read, who has answered, where reading and the timers stand."""

    number: int
    theme: int | None
    value: int
    question: BoardQuestion
    answered: frozenset[str] = frozenset()
    reading_total_ms: int | None = None
    """Simulated reading: the time the whole text takes; ``None`` when the host reads aloud."""
    read_ms: int = 0
    """Simulated reading: how much has been read before the latest interruption."""
    reading_since_ms: int | None = None
    """When reading (re)started; ``None`` while it is interrupted or over."""
    reading_done: bool = False
    window_start_ms: int | None = None
    answering_team: str | None = None
    answer_deadline_ms: int | None = None
    clarifying: bool = False
    """The host said «Уточните» to the team answering now (its answer time restarted, SI-3.7): the screens and
    the phones say it too, until the ruling."""
    special: str = ""
    """SIGame's rules this question plays by (a game setting, issue 31): ``stake``, ``secret``, ``no_risk``; ``""``
    for the regulation's (presses)."""
    stakes: tuple[tuple[str, int | None], ...] = ()
    """A stake question's stakes in order (``None``: a pass)."""
    price: int = 0
    """A special question's points at stake for the one team answering it (0: none yet)."""

    @property
    def solo(self) -> bool:
        """One team answers alone (a special question past its stakes or its handing over)."""
        return bool(self.special) and self.price > 0

    @property
    def reading_ends_ms(self) -> int | None:
        """Simulated reading: when the rest of the text is out, while it runs (``None`` otherwise)."""
        if self.reading_total_ms is None or self.reading_since_ms is None:
            return None
        return self.reading_since_ms + self.reading_total_ms - self.read_ms


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole game at one moment. Build it with :func:`replay`; advance it with :meth:`apply`."""

    setup: GameSetup | None = None
    phase: Phase = Phase.NOT_CREATED
    last_ms: int = 0
    chooser: str | None = None
    first_chooser: str | None = None
    struck: tuple[int, ...] = ()
    announced: tuple[int, ...] = ()
    used: frozenset[tuple[int, int]] = frozenset()
    """Board cells (theme, value) already played or given away as replacements."""
    used_reserve: frozenset[int] = frozenset()
    current: CurrentQuestion | None = None
    played: tuple[PlayedQuestion, ...] = ()
    answers: tuple[AnswerRecord, ...] = ()
    corrections: tuple[ev.ScoreCorrected, ...] = ()
    audit: tuple[Event, ...] = ()
    """Every host intervention, in order: cancelled presses, reversals, corrections, replacements, warnings."""
    warnings: tuple[str, ...] = ()
    sanctions: tuple[tuple[str, SanctionScope], ...] = ()
    score_requests: tuple[str, ...] = ()
    announcements: tuple[ScoreSnapshot, ...] = ()
    announced_at_cells_left: int | None = None
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)
    """Values derived from this state, computed once (the state never changes; a new state starts empty)."""

    # -- derived views -------------------------------------------------------------------------------------

    @property
    def teams(self) -> tuple[str, ...]:
        return self._setup.teams

    @property
    def _setup(self) -> GameSetup:
        if self.setup is None:
            raise Refused(QuizCode.NOT_CREATED)
        return self.setup

    @property
    def scores(self) -> dict[str, int]:
        """Each team's score: ±value per answer (SI-3.8), void answers excluded, host corrections added."""
        totals = dict.fromkeys(self.teams, 0)
        for record in self.answers:
            totals[record.team] += record.points
        for correction in self.corrections:
            totals[correction.team] += correction.delta
        return totals

    @property
    def themes_in_play(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self._setup.board.themes)) if i not in self.struck)

    def is_open(self, theme: int, value: int) -> bool:
        """Whether a board cell may still be chosen."""
        cell = self._setup.board.themes[theme].cell(value)
        return not cell.empty and (theme, value) not in self.used and theme not in self.struck

    @property
    def open_cells(self) -> tuple[tuple[int, int], ...]:
        found: tuple[tuple[int, int], ...] | None = self._memo.get("open_cells")
        if found is None:
            if self.phase is Phase.STRIKING:
                found = ()
            else:
                found = tuple((t, v) for t in self.themes_in_play for v in VALUES if self.is_open(t, v))
            self._memo["open_cells"] = found
        return found

    def _open_count(self, enough: int) -> int:
        """How many cells are open, counting no further than ``enough`` (is any open? is one left?)."""
        found: tuple[tuple[int, int], ...] | None = self._memo.get("open_cells")
        if found is not None:
            return min(len(found), enough)
        if self.phase is Phase.STRIKING:
            return 0
        count = 0
        for theme in self.themes_in_play:
            for value in VALUES:
                if self.is_open(theme, value):
                    count += 1
                    if count >= enough:
                        return count
        return count

    @property
    def sudden_death(self) -> bool:
        """A shootout whose theme is exhausted with the tie unbroken: single reserve questions (SI-2.2)."""
        return self.setup is not None and self.setup.kind is GameKind.SHOOTOUT and not self._open_count(1)

    @property
    def score_announcement_due(self) -> bool:
        """The assistant must announce the score: a team asked, or only the last question is left (SI-4.7)."""
        if self.setup is None or self.setup.assistant is None:
            return False
        if self.score_requests:
            return True
        return self._last_question_needs_announcement()

    def _last_question_needs_announcement(self) -> bool:
        if self.setup is None or self.setup.assistant is None or self.phase is not Phase.CHOOSING:
            return False
        return self._open_count(2) == 1 and self.announced_at_cells_left != 1

    @property
    def eligible(self) -> tuple[str, ...]:
        """Teams that may still press on the current question (one answer per team, SI-3.5)."""
        if self.current is None:
            return ()
        return tuple(t for t in self.teams if t not in self.current.answered)

    @property
    def next_deadline_ms(self) -> int | None:
        """When the live layer must next act on its own: end of simulated reading, "время" for the press
        window (SI-3.10) or for the answer (SI-3.7)."""
        current = self.current
        if current is None:
            return None
        if self.phase is Phase.ANSWERING:
            return current.answer_deadline_ms
        if self.phase is Phase.PRESS_WINDOW:
            return self.window_closes_ms
        if self.phase is Phase.READING:
            return current.reading_ends_ms
        return None

    @property
    def opened_ms(self) -> int | None:
        """When the buttons (last) opened for the question in play, or ``None`` while they are closed."""
        current = self.current
        if current is None or self.phase not in (Phase.READING, Phase.PRESS_WINDOW):
            return None
        return current.reading_since_ms if self.phase is Phase.READING else current.window_start_ms

    @property
    def window_closes_ms(self) -> int | None:
        """When the press window of the question in play closes, "время" (SI-3.10); ``None`` while none runs."""
        current = self.current
        if current is None or current.window_start_ms is None:
            return None
        return current.window_start_ms + self._setup.press_window_ms

    def revealed_chars(self, now_ms: int) -> int:
        """Simulated reading: how many characters of the question are shown at ``now_ms`` (progressive reveal)."""
        current = self.current
        if current is None:
            return 0
        text_len = len(current.question.text)
        if current.reading_total_ms is None or current.reading_done:
            return text_len
        read = current.read_ms
        if current.reading_since_ms is not None and self.phase is Phase.READING:
            read += max(0, now_ms - current.reading_since_ms)
        return min(text_len, read * self._setup.chars_per_second // 1000)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    # -- transitions ---------------------------------------------------------------------------------------

    def apply(self, event: Event) -> GameState:
        """The state after ``event``; raises :class:`~toreshi.kit.refusal.Refused` (the state is unchanged) if the
        rules refuse it."""
        if isinstance(event, ev.GameCreated):
            return self._create(event)
        if self.setup is None:
            raise Refused(QuizCode.NOT_CREATED)
        if event.at_ms < self.last_ms:
            raise Refused(QuizCode.TIME_WENT_BACK, at_ms=event.at_ms, last_ms=self.last_ms)
        handler = _HANDLERS.get(type(event))
        if handler is None:  # pragma: no cover - every event type has a handler
            raise TypeError(f"no handler for the event {event.type!r}")
        base = self._advance(event.at_ms) if not isinstance(event, ev.Buzzed) else self
        state = handler(base, event)
        if state is base or state is self:
            return replace(state, last_ms=event.at_ms)
        # The handler made this state just now and nobody holds it yet: stamping it saves a copy per event (the
        # rooms ask the rules about every host tool after each event, so this is most of what they do).
        object.__setattr__(state, "last_ms", event.at_ms)
        return state

    def at(self, now_ms: int) -> GameState:
        """The state as it stands at ``now_ms`` with no new event (simulated reading may have ended)."""
        return self._advance(now_ms)

    def _advance(self, now_ms: int) -> GameState:
        """Let simulated reading run to ``now_ms``: once the whole text is out, the press window opens."""
        current = self.current
        if self.phase is not Phase.READING or current is None or current.reading_total_ms is None:
            return self
        ends = current.reading_ends_ms
        if ends is None or now_ms < ends:
            return self
        done = replace(
            current, read_ms=current.reading_total_ms, reading_since_ms=None, reading_done=True, window_start_ms=ends
        )
        return replace(self, phase=Phase.PRESS_WINDOW, current=done)

    def _create(self, event: ev.GameCreated) -> GameState:
        if self.setup is not None:
            raise Refused(QuizCode.ALREADY_CREATED)
        setup = event.setup
        teams = setup.teams
        if not 2 <= len(teams) <= MAX_TEAMS:
            raise Refused(QuizCode.TEAM_COUNT, count=len(teams), minimum=2, maximum=MAX_TEAMS, clause="SI-3.0.1")
        if len(set(teams)) != len(teams) or not all(t.strip() for t in teams):
            raise Refused(QuizCode.TEAM_NAMES)
        themes = len(setup.board.themes)
        expected = {
            GameKind.QUALIFYING: setup.qualifying_themes,
            GameKind.FINAL: setup.final_themes,
            GameKind.SHOOTOUT: 1,
        }[setup.kind]
        if themes != expected:
            clause = "SI-2.2" if setup.kind is GameKind.SHOOTOUT else "SI-3.3"
            raise Refused(
                QuizCode.THEME_COUNT, game_term=game_term(setup.kind.value), expected=expected, themes=themes,
                clause=clause,
            )  # fmt: skip
        if setup.kind is GameKind.FINAL and not 0 < setup.final_themes_kept <= setup.final_themes:
            raise Refused(QuizCode.FINAL_KEPT, kept=setup.final_themes_kept, themes=setup.final_themes)
        if setup.assistant is None and setup.kind is not GameKind.SHOOTOUT:
            raise Refused(QuizCode.ASSISTANT_REQUIRED, clause="SI-4.1")
        if setup.assistant is not None and setup.assistant.team in teams:
            raise Refused(
                QuizCode.ASSISTANT_PLAYS, assistant=setup.assistant.name, team=setup.assistant.team, clause="SI-4.1"
            )
        if setup.kind is GameKind.SHOOTOUT:
            cuts = setup.shootout_cuts
            if not cuts or any(not 0 < c < len(teams) for c in cuts):
                raise Refused(QuizCode.SHOOTOUT_CUTS, teams=len(teams), clause="SI-2.2")
        if setup.chars_per_second <= 0 or setup.press_window_ms <= 0 or setup.answer_ms <= 0:
            raise Refused(QuizCode.TIMERS)
        return GameState(setup=setup, phase=Phase.DRAW, last_ms=event.at_ms)

    def not_now(self, doing: str) -> Refused:
        """Why ``doing`` (a key of :data:`~toreshi.quiz.codes.ACTIONS`) cannot be done at the game's stage."""
        if self.phase is Phase.FINISHED:
            return Refused(QuizCode.FINISHED)
        return Refused(QuizCode.WRONG_PHASE, action_term=ACTIONS[doing], phase_term=phase_term(self.phase.value))

    def _require(self, *phases: Phase, doing: str) -> None:
        """``doing`` needs the game in one of ``phases``."""
        if self.phase not in phases:
            raise self.not_now(doing)

    def _require_team(self, team: str) -> None:
        if team not in self.teams:
            raise Refused(QuizCode.NOT_A_TEAM, team=team)

    def _theme_name(self, theme: int) -> str:
        return self._setup.board.themes[theme].name

    def _draw(self, event: ev.FirstChooserDrawn) -> GameState:
        self._require(Phase.DRAW, doing="draw")
        self._require_team(event.team)
        if event.order and sorted(event.order) != sorted(self.teams):
            raise Refused(QuizCode.NOT_A_TEAM, team=", ".join(event.order))  # the drawn order is of this game's teams
        striking = self._setup.kind is GameKind.FINAL
        return replace(
            self,
            chooser=event.team,
            first_chooser=event.team,
            phase=Phase.STRIKING if striking else Phase.CHOOSING,
            audit=(*self.audit, event) if event.overridden else self.audit,  # the host overrode the lot (SI-3.2)
        )

    @property
    def striker(self) -> str | None:
        """Whose turn it is to strike a theme in the final: seat order, starting with the drawn first chooser."""
        if self.phase is not Phase.STRIKING or self.first_chooser is None:
            return None
        first = self.teams.index(self.first_chooser)
        return self.teams[(first + len(self.struck)) % len(self.teams)]

    def _strike(self, event: ev.ThemeStruck) -> GameState:
        self._require(Phase.STRIKING, doing="strike")
        self._require_team(event.team)
        if event.team != self.striker:
            raise Refused(QuizCode.NOT_YOUR_STRIKE, striker=str(self.striker), team=event.team, clause="SI-3.3")
        self._require_in_play(event.theme)
        struck = (*self.struck, event.theme)
        setup = self._setup
        done = len(setup.board.themes) - len(struck) == setup.final_themes_kept
        return replace(self, struck=struck, phase=Phase.CHOOSING if done else Phase.STRIKING)

    def _restore_theme(self, event: ev.ThemeRestored) -> GameState:
        """Take back the last strike: only the last one, and only before the first question of the final."""
        if (
            not self.struck
            or self.played
            or self.current is not None
            or self.phase
            not in (
                Phase.STRIKING,
                Phase.CHOOSING,
            )
        ):
            raise Refused(QuizCode.NOTHING_TO_RESTORE)
        if event.theme != self.struck[-1]:
            raise Refused(QuizCode.NOT_LAST_STRUCK, theme=self._theme_name(self.struck[-1]))
        return replace(self, struck=self.struck[:-1], phase=Phase.STRIKING)

    def _announce_theme(self, event: ev.ThemeAnnounced) -> GameState:
        if self.phase is Phase.FINISHED:
            raise Refused(QuizCode.FINISHED)
        self._require_in_play(event.theme)
        if event.theme in self.announced:
            return self
        return replace(self, announced=(*self.announced, event.theme))

    def _require_theme(self, theme: int) -> None:
        if theme not in range(len(self._setup.board.themes)):
            raise Refused(QuizCode.NO_SUCH_THEME, number=theme + 1)

    def _require_in_play(self, theme: int) -> None:
        self._require_theme(theme)
        if theme in self.struck:
            raise Refused(QuizCode.THEME_STRUCK, theme=self._theme_name(theme))

    def _choose(self, event: ev.QuestionChosen) -> GameState:
        self._require(Phase.CHOOSING, doing="choose")
        self._require_team(event.team)
        if event.team != self.chooser:
            raise Refused(QuizCode.NOT_CHOOSER, chooser=str(self.chooser), team=event.team, clause="SI-3.2")
        self._require_in_play(event.theme)
        if event.value not in VALUES:
            raise Refused(QuizCode.NO_SUCH_VALUE, value=event.value, clause="SI-3.1")
        if not self.is_open(event.theme, event.value):
            raise Refused(QuizCode.CELL_PLAYED, theme=self._theme_name(event.theme), value=event.value)
        if event.theme not in self.announced:
            raise Refused(QuizCode.THEME_NOT_ANNOUNCED, theme=self._theme_name(event.theme), clause="SI-3.4")
        if self._last_question_needs_announcement():
            raise Refused(QuizCode.SCORE_FIRST, clause="SI-4.7")
        question = self._setup.board.themes[event.theme].cell(event.value)
        return self._start_question(event.at_ms, event.theme, event.value, question)._with_used(
            (event.theme, event.value)
        )

    def _with_used(self, cell: tuple[int, int]) -> GameState:
        return replace(self, used=self.used | {cell})

    def _choose_reserve(self, event: ev.ReserveQuestionChosen) -> GameState:
        self._require(Phase.CHOOSING, doing="reserve")
        if not self.sudden_death:
            raise Refused(QuizCode.NOT_SUDDEN_DEATH, clause="SI-2.2")
        reserve = self._reserve_question(event.reserve)
        state = self._start_question(event.at_ms, None, reserve.value, reserve)
        return replace(state, used_reserve=self.used_reserve | {event.reserve})

    def _reserve_question(self, index: int) -> BoardQuestion:
        reserve = self._setup.board.reserve
        if index not in range(len(reserve)):
            raise Refused(QuizCode.NO_SUCH_RESERVE, number=index + 1, count=len(reserve))
        if index in self.used_reserve:
            raise Refused(QuizCode.RESERVE_USED, number=index + 1)
        return reserve[index]

    def _start_question(self, at_ms: int, theme: int | None, value: int, question: BoardQuestion) -> GameState:
        setup = self._setup
        total: int | None = None
        if setup.reading is ReadingMode.SIMULATED and not question.waits_for_media:
            # A question whose audio or video must finish first is not timed by its text: the projector says when
            # the media has ended (or the host does), and the press window opens then (SIGame's waitForFinish).
            total = -(-len(question.text) * 1000 // setup.chars_per_second)
        current = CurrentQuestion(
            number=len(self.played) + 1,
            theme=theme,
            value=value,
            question=question,
            reading_total_ms=total,
            reading_since_ms=at_ms,
        )
        special = self._special_of(question) if theme is not None else ""
        if special:
            return self._start_special(current, special)
        return replace(self, phase=Phase.READING, current=current)._advance(at_ms)

    def _special_of(self, question: BoardQuestion) -> str:
        """The SIGame rules a board question plays by, when the game's setting says so (issue 31); a shootout and
        the kinds SIGame plays in writing (for all, stake for all) or by a pack's own script play as ordinary."""
        setup = self._setup
        if not setup.special_questions or setup.kind is GameKind.SHOOTOUT:
            return ""
        return SPECIAL_KINDS.get(question.kind, "")

    def _start_special(self, current: CurrentQuestion, special: str) -> GameState:
        """A stake question waits for the stakes, a secret one for the chooser to hand it over; a no-risk one goes
        to the chooser at once. Nobody presses: the host reads it to the team that answers alone."""
        quiet = replace(current, special=special, reading_total_ms=None, reading_since_ms=None, reading_done=True)
        if special == "stake":
            return replace(self, phase=Phase.STAKING, current=quiet)
        if special == "secret":
            return replace(self, phase=Phase.GIVING, current=quiet)
        assert self.chooser is not None
        return replace(self, phase=Phase.ANSWERING, current=self._solo(quiet, self.chooser, current.value))

    @staticmethod
    def _solo(current: CurrentQuestion, team: str, price: int) -> CurrentQuestion:
        return replace(current, answering_team=team, price=price, answer_deadline_ms=None)

    def stake_turn(self) -> str | None:
        """Whose turn it is to stake (the chooser opens, then the teams in order, passed ones skipped)."""
        current = self.current
        if self.phase is not Phase.STAKING or current is None or self.chooser is None:
            return None
        teams = self.teams
        passed = {team for team, amount in current.stakes if amount is None}
        last = current.stakes[-1][0] if current.stakes else None
        start = teams.index(self.chooser) if last is None else teams.index(last) + 1
        for offset in range(len(teams)):
            team = teams[(start + offset) % len(teams)]
            if team not in passed:
                return team
        return None

    def stake_bounds(self, team: str) -> tuple[int, int]:
        """The least and the most ``team`` may stake now: above the highest stake and at least the question's
        value; at most its score (all in), or the value when its score is lower (a team that cannot outbid may only
        pass)."""
        current = self._current
        high = max((amount for _, amount in current.stakes if amount is not None), default=0)
        least = max(current.value, high + 1)
        return least, max(self.scores[team], current.value)

    def _stake(self, event: ev.StakeMade) -> GameState:
        self._require(Phase.STAKING, doing="stake")
        self._require_team(event.team)
        turn = self.stake_turn()
        if event.team != turn:
            raise Refused(QuizCode.NOT_YOUR_STAKE, turn=str(turn), team=event.team)
        current = self._current
        least, most = self.stake_bounds(event.team)
        if event.amount is None and not current.stakes:
            raise Refused(QuizCode.STAKE_FIRST, minimum=least)
        if event.amount is not None and least > most:
            raise Refused(QuizCode.STAKE_PASS_ONLY, minimum=least)
        if event.amount is not None and not least <= event.amount <= most:
            raise Refused(QuizCode.STAKE_RANGE, minimum=least, maximum=most)
        current = replace(current, stakes=(*current.stakes, (event.team, event.amount)))
        bids = [(team, amount) for team, amount in current.stakes if amount is not None]
        passed = {team for team, amount in current.stakes if amount is None}
        leader, high = bids[-1]
        if all(team in passed for team in self.teams if team != leader):
            # everyone else passed: the highest stake answers alone for it
            return replace(self, phase=Phase.ANSWERING, current=self._solo(current, leader, high))
        return replace(self, current=current)

    def _give(self, event: ev.SecretGiven) -> GameState:
        self._require(Phase.GIVING, doing="give")
        self._require_team(event.team)
        if event.team == self.chooser:
            raise Refused(QuizCode.SECRET_SELF)
        current = self._current
        return replace(self, phase=Phase.ANSWERING, current=self._solo(current, event.team, current.value))

    def _reading_finished(self, event: ev.ReadingFinished) -> GameState:
        self._require(Phase.READING, doing="finish_reading")
        current = self._current
        if current.reading_total_ms is not None:
            raise Refused(QuizCode.READING_SIMULATED)
        if current.reading_since_ms is None:
            raise Refused(QuizCode.READING_INTERRUPTED, clause="SI-3.9")
        done = replace(current, reading_since_ms=None, reading_done=True, window_start_ms=event.at_ms)
        return replace(self, phase=Phase.PRESS_WINDOW, current=done)

    @property
    def _current(self) -> CurrentQuestion:
        if self.current is None:
            raise Refused(QuizCode.NO_QUESTION)
        return self.current

    def _buzz(self, event: ev.Buzzed) -> GameState:
        if event.press_ms > event.at_ms:
            raise Refused(QuizCode.PRESS_NOT_MADE_YET)
        state = self._advance(event.press_ms)
        state._require(Phase.READING, Phase.PRESS_WINDOW, doing="press")
        state._require_team(event.team)
        current = state._current
        if event.team in current.answered:
            raise Refused(QuizCode.ALREADY_ANSWERED, team=event.team, clause="SI-3.5")
        started = state.opened_ms
        if started is not None and event.press_ms < started:
            raise Refused(QuizCode.PRESS_BEFORE_OPENING)
        closes = state.window_closes_ms
        if state.phase is Phase.PRESS_WINDOW and closes is not None and event.press_ms > closes:
            raise Refused(QuizCode.PRESS_AFTER_TIME, clause="SI-3.10")
        if state.phase is Phase.READING and current.reading_since_ms is not None:
            # An early press stops reading; the rest is read after a wrong answer (SI-3.6, SI-3.9).
            current = replace(current, read_ms=current.read_ms + event.press_ms - current.reading_since_ms)
        current = replace(
            current,
            reading_since_ms=None,
            window_start_ms=None,
            answering_team=event.team,
            answer_deadline_ms=event.at_ms + self._setup.answer_ms,
        )
        return replace(state, phase=Phase.ANSWERING, current=current)

    def _judge(self, event: ev.AnswerJudged) -> GameState:
        self._require(Phase.ANSWERING, doing="judge")
        self._require_answering(event.team)
        return self._record_answer(event.at_ms, event.team, event.correct, timed_out=False)

    def _answer_expired(self, event: ev.AnswerTimeExpired) -> GameState:
        self._require(Phase.ANSWERING, doing="expire")
        current = self._current
        assert current.answering_team is not None and current.answer_deadline_ms is not None
        if event.at_ms < current.answer_deadline_ms:
            raise Refused(QuizCode.ANSWER_TIME_RUNS, clause="SI-3.7")
        return self._record_answer(event.at_ms, current.answering_team, False, timed_out=True)

    def _record_answer(self, at_ms: int, team: str, correct: bool, *, timed_out: bool) -> GameState:
        current = self._current
        if current.solo:
            # A special question (issue 31): the one team answers for its price; a no-risk one doubles it and
            # costs nothing when wrong; nobody else may answer.
            no_risk = current.special == "no_risk"
            price = current.price * 2 if no_risk else current.price
            record = AnswerRecord(current.number, team, price, correct, timed_out=timed_out, risk_free=no_risk)
            state = replace(self, answers=(*self.answers, record))
            if correct:
                return replace(state, chooser=team)._close(Outcome.RIGHT)
            return state._close(Outcome.SOLO)
        record = AnswerRecord(current.number, team, current.value, correct, timed_out=timed_out)
        state = replace(self, answers=(*self.answers, record))
        if correct:
            return replace(state, chooser=team)._close(Outcome.RIGHT)
        answered = current.answered | {team}
        state = replace(state, current=replace(current, answered=answered))
        if state._shootout_settled_mid_question():
            return state._close(Outcome.DECIDED)
        return state._reopen(at_ms)

    def _shootout_settled_mid_question(self) -> bool:
        """In a shootout a wrong answer can settle the tie before the question ends: in single-question play
        the first difference decides; during the theme, only if even this question cannot swing it back."""
        setup = self._setup
        if setup.kind is not GameKind.SHOOTOUT or self.current is None:
            return False
        single_question = self.current.theme is None  # a reserve question after the theme
        remaining = [] if single_question else [v for _, v in self.open_cells] + [self.current.value]
        return is_decided(self.scores, setup.shootout_cuts, remaining)

    def _reopen(self, at_ms: int) -> GameState:
        """After "неверно" (or a cancelled press): reading continues if unfinished, else the press window
        restarts from now — reset, not resumed (SI-3.9). With nobody left to press, the question ends."""
        current = self._current
        if all(t in current.answered for t in self.teams):
            return self._close(Outcome.ALL_ANSWERED)
        current = replace(current, answering_team=None, answer_deadline_ms=None, clarifying=False)
        if current.reading_done:
            return replace(self, phase=Phase.PRESS_WINDOW, current=replace(current, window_start_ms=at_ms))
        return replace(self, phase=Phase.READING, current=replace(current, reading_since_ms=at_ms))._advance(at_ms)

    def _extend(self, event: ev.AnswerTimeExtended) -> GameState:
        self._require(Phase.ANSWERING, doing="extend")
        if event.extra_ms <= 0:
            raise Refused(QuizCode.EXTENSION_NOT_POSITIVE)
        current = self._current
        deadline = current.answer_deadline_ms if current.answer_deadline_ms is not None else event.at_ms
        current = replace(current, answer_deadline_ms=max(deadline, event.at_ms) + event.extra_ms)
        return replace(self, current=current, audit=(*self.audit, event))

    def _clarify(self, event: ev.ClarificationRequested) -> GameState:
        self._require(Phase.ANSWERING, doing="clarify")
        current = replace(self._current, answer_deadline_ms=event.at_ms + self._setup.answer_ms, clarifying=True)
        return replace(self, current=current, audit=(*self.audit, event))

    def _time(self, event: ev.TimeCalled) -> GameState:
        self._require(Phase.PRESS_WINDOW, doing="call_time")
        closes = self.window_closes_ms
        assert closes is not None
        if event.at_ms < closes:
            raise Refused(QuizCode.WINDOW_RUNS, clause="SI-3.10")
        return self._close(Outcome.TIME)

    def _close(self, outcome: Outcome) -> GameState:
        current = self._current
        played = PlayedQuestion(current.number, current.theme, current.value, current.question, outcome)
        state = replace(self, current=None, played=(*self.played, played), phase=Phase.CHOOSING)
        return replace(state, phase=Phase.FINISHED) if state._is_over() else state

    def _is_over(self) -> bool:
        setup = self._setup
        if setup.kind is GameKind.SHOOTOUT:
            remaining = [v for _, v in self.open_cells]
            return is_decided(self.scores, setup.shootout_cuts, remaining)
        return not self._open_count(1)

    # -- host tools ----------------------------------------------------------------------------------------

    def _cancel_press(self, event: ev.PressCancelled) -> GameState:
        self._require(Phase.ANSWERING, doing="cancel_press")
        self._require_answering(event.team)
        if self._current.solo:
            raise Refused(QuizCode.SOLO_QUESTION)
        return replace(self, audit=(*self.audit, event))._reopen(event.at_ms)

    def _require_answering(self, team: str) -> None:
        answering = self._current.answering_team
        if team != answering:
            raise Refused(QuizCode.NOT_ANSWERING, answering=str(answering), team=team)

    def _reverse(self, event: ev.DecisionReversed) -> GameState:
        if self.current is not None and self.current.number == event.question:
            raise Refused(QuizCode.QUESTION_IN_PLAY, question=event.question)
        matches = [
            i
            for i, r in enumerate(self.answers)
            if r.question == event.question and r.team == event.team and not r.void
        ]
        if not matches:
            raise Refused(QuizCode.NO_COUNTED_ANSWER, team=event.team, question=event.question)
        (index,) = matches
        record = self.answers[index]
        flipped = replace(record, correct=not record.correct, reversed=not record.reversed)
        answers = (*self.answers[:index], flipped, *self.answers[index + 1 :])
        return replace(self, answers=answers, audit=(*self.audit, event))

    def _correct_score(self, event: ev.ScoreCorrected) -> GameState:
        self._require_team(event.team)
        if event.delta == 0:
            raise Refused(QuizCode.ZERO_CORRECTION)
        if not event.reason.strip():
            raise Refused(QuizCode.CORRECTION_REASON)
        return replace(self, corrections=(*self.corrections, event), audit=(*self.audit, event))

    def _replace_question(self, event: ev.QuestionReplaced) -> GameState:
        self._require(Phase.READING, Phase.PRESS_WINDOW, Phase.ANSWERING, doing="replace")
        current = self._current
        if (event.theme is None) == (event.reserve is None):
            raise Refused(QuizCode.REPLACEMENT_EITHER, clause="SI-4.6")
        state = self
        if event.theme is not None:
            if event.theme == current.theme:
                raise Refused(QuizCode.REPLACEMENT_SAME_THEME, clause="SI-4.6")
            self._require_theme(event.theme)
            if not self.is_open(event.theme, current.value):
                raise Refused(
                    QuizCode.NO_REPLACEMENT, theme=self._theme_name(event.theme), value=current.value, clause="SI-4.6"
                )
            question = self._setup.board.themes[event.theme].cell(current.value)
            state = state._with_used((event.theme, current.value))
        else:
            assert event.reserve is not None
            question = self._reserve_question(event.reserve)
            if question.value != current.value:
                raise Refused(
                    QuizCode.RESERVE_WRONG_VALUE, number=event.reserve + 1, reserve_value=question.value,
                    value=current.value, clause="SI-4.6",
                )  # fmt: skip
            state = replace(state, used_reserve=self.used_reserve | {event.reserve})
        # The replaced question is void: its answers no longer count and every team may answer the new one.
        answers = tuple(replace(r, void=True) if r.question == current.number else r for r in self.answers)
        state = replace(state, answers=answers, current=None, audit=(*self.audit, event))
        return state._start_question(event.at_ms, current.theme, current.value, question)

    def _warn(self, event: ev.AudienceWarned) -> GameState:
        if not event.person.strip():
            raise Refused(QuizCode.PERSON_REQUIRED)
        return replace(self, warnings=(*self.warnings, event.person), audit=(*self.audit, event))

    def _sanction(self, event: ev.AudienceSanctioned) -> GameState:
        if event.person not in self.warnings:
            raise Refused(QuizCode.NOT_WARNED, person=event.person, clause="SI-4.5")
        return replace(self, sanctions=(*self.sanctions, (event.person, event.scope)), audit=(*self.audit, event))

    def _request_score(self, event: ev.ScoreRequested) -> GameState:
        if self.phase is Phase.FINISHED:
            raise Refused(QuizCode.FINISHED)
        self._require_team(event.team)
        return replace(self, score_requests=(*self.score_requests, event.team))

    def _announce_score(self, event: ev.ScoreAnnounced) -> GameState:
        if self._setup.assistant is None:
            raise Refused(QuizCode.NO_ASSISTANT)
        snapshot = ScoreSnapshot(event.at_ms, tuple(self.scores.items()))
        cells_left = len(self.open_cells) if self.phase is Phase.CHOOSING else None
        return replace(
            self,
            announcements=(*self.announcements, snapshot),
            score_requests=(),
            announced_at_cells_left=cells_left,
        )

    def _end(self, event: ev.GameEnded) -> GameState:
        """The host ends the game early: the scores stand as they are (the answers of a question in play already
        given count; the question itself is not played)."""
        if self.phase is Phase.FINISHED:
            raise Refused(QuizCode.FINISHED)
        if not self.played and self.current is None:
            raise Refused(QuizCode.NOT_STARTED)
        setup = self._setup
        if setup.kind is GameKind.SHOOTOUT and not is_decided(self.scores, setup.shootout_cuts, ()):
            # A shootout is played to break a tie: ended with the tie standing, its result would settle nothing.
            raise Refused(QuizCode.SHOOTOUT_TIED, clause="SI-2.2")
        return replace(self, current=None, phase=Phase.FINISHED, audit=(*self.audit, event))


_HANDLERS: dict[type[Event], Callable[[GameState, Any], GameState]] = {
    ev.FirstChooserDrawn: GameState._draw,
    ev.ThemeStruck: GameState._strike,
    ev.ThemeRestored: GameState._restore_theme,
    ev.ThemeAnnounced: GameState._announce_theme,
    ev.QuestionChosen: GameState._choose,
    ev.ReserveQuestionChosen: GameState._choose_reserve,
    ev.ReadingFinished: GameState._reading_finished,
    ev.Buzzed: GameState._buzz,
    ev.AnswerJudged: GameState._judge,
    ev.AnswerTimeExpired: GameState._answer_expired,
    ev.AnswerTimeExtended: GameState._extend,
    ev.ClarificationRequested: GameState._clarify,
    ev.TimeCalled: GameState._time,
    ev.PressCancelled: GameState._cancel_press,
    ev.DecisionReversed: GameState._reverse,
    ev.ScoreCorrected: GameState._correct_score,
    ev.QuestionReplaced: GameState._replace_question,
    ev.AudienceWarned: GameState._warn,
    ev.AudienceSanctioned: GameState._sanction,
    ev.ScoreRequested: GameState._request_score,
    ev.ScoreAnnounced: GameState._announce_score,
    ev.GameEnded: GameState._end,
    ev.StakeMade: GameState._stake,
    ev.SecretGiven: GameState._give,
}


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold events into a state: the live state and a rebuilt one are equal by construction."""
    state = GameState() if state is None else state
    for event in events:
        state = state.apply(event)
    return state


def final_scores(state: GameState) -> Mapping[str, int]:
    """The scores of a finished game (the tournament records these)."""
    if not state.finished:
        raise Refused(QuizCode.NOT_FINISHED)
    return state.scores
