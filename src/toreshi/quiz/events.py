"""The typed events of one «Своя игра» game; the game state is a fold of them (:mod:`toreshi.quiz.game`).

Every event carries ``at_ms``: the server's monotonic time in integer milliseconds when it was recorded. Events
travel as JSON through the room kit's one codec (:data:`GAME_EVENTS`, a :class:`toreshi.kit.codec.Codec`), so that
the live layer can persist the log and rebuild a room by replay:

>>> event = Buzzed(at_ms=12_500, team="Арыстан", press_ms=12_430)
>>> GAME_EVENTS.encode(event)
{'type': 'buzzed', 'at_ms': 12500, 'team': 'Арыстан', 'press_ms': 12430}
>>> GAME_EVENTS.decode(GAME_EVENTS.encode(event)) == event
True

The setup (:class:`GameSetup`, its :class:`~toreshi.quiz.board.Board`) carries the limits a host's page is read
with (:func:`toreshi.kit.codec.spec`): the game is created by a command whose setup comes from a client.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from toreshi.kit.codec import Codec, spec
from toreshi.kit.lots import MAX_SEED_LENGTH
from toreshi.kit.payload import MAX_NAME
from toreshi.quiz.board import Board

__all__ = [
    "EVENT_TYPES",
    "GAME_EVENTS",
    "AnswerJudged",
    "AnswerTimeExpired",
    "AnswerTimeExtended",
    "Assistant",
    "AudienceSanctioned",
    "AudienceWarned",
    "Buzzed",
    "ClarificationRequested",
    "DecisionReversed",
    "Event",
    "FirstChooserDrawn",
    "GameCreated",
    "GameEnded",
    "GameKind",
    "GameSetup",
    "PressCancelled",
    "QuestionChosen",
    "QuestionReplaced",
    "ReadingFinished",
    "ReadingMode",
    "ReplacementReason",
    "ReserveQuestionChosen",
    "SanctionScope",
    "ScoreAnnounced",
    "ScoreCorrected",
    "ScoreRequested",
    "SecretGiven",
    "StakeMade",
    "ThemeAnnounced",
    "ThemeRestored",
    "ThemeStruck",
    "TimeCalled",
]

MAX_TEAMS = 4
"""At most 4 teams play in each game (SI-3.0.1)."""
MAX_TIMER_MS = 120_000
"""The longest press window or answer time a game may set."""


class GameKind(StrEnum):
    QUALIFYING = "qualifying"
    """5 themes, all played (SI-3.3)."""
    FINAL = "final"
    """11 themes struck in turn down to 5, then played (SI-3.3)."""
    SHOOTOUT = "shootout"
    """One theme, then single reserve questions, until the tie at an advancing place is broken (SI-2.2)."""


class ReadingMode(StrEnum):
    HOST = "host"
    """The host reads aloud and marks the end of reading (``ReadingFinished``)."""
    SIMULATED = "simulated"
    """The text is revealed at a set speed; reading ends when the whole text is out (SI-3.6)."""


class ReplacementReason(StrEnum):
    """Why a question is replaced by one of the same value from another theme (SI-4.6)."""

    HOST_ERROR = "host_error"
    AUDIENCE_PROMPT = "audience_prompt"


class SanctionScope(StrEnum):
    """How long a prompting spectator is removed for (SI-4.5)."""

    GAME = "game"
    ROUND = "round"


@dataclass(frozen=True, slots=True)
class Assistant:
    """The host's assistant, a player of a team not in this game (SI-4.1); keeps and announces the score."""

    name: str = field(metadata=spec(name=True))
    team: str = field(metadata=spec(name=True))


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Who plays, on which board, and the game's settings. Times are integer milliseconds."""

    teams: tuple[str, ...] = field(metadata=spec(name=True, max_length=MAX_NAME, max_items=16))
    board: Board
    kind: GameKind = GameKind.QUALIFYING
    assistant: Assistant | None = None
    reading: ReadingMode = ReadingMode.HOST
    chars_per_second: int = field(default=20, metadata=spec(minimum=1, maximum=1_000))
    """Simulated reading speed (SIGame's default is 20 characters per second)."""
    press_window_ms: int = field(default=5_000, metadata=spec(minimum=1, maximum=MAX_TIMER_MS))
    """Time to press after reading or after "неверно" before "время" (SI-3.9, SI-3.10)."""
    answer_ms: int = field(default=5_000, metadata=spec(minimum=1, maximum=MAX_TIMER_MS))
    """Time the recognised team has to answer (SI-3.7)."""
    qualifying_themes: int = field(default=5, metadata=spec(minimum=1, maximum=30))
    final_themes: int = field(default=11, metadata=spec(minimum=1, maximum=30))
    final_themes_kept: int = field(default=5, metadata=spec(minimum=1, maximum=30))
    shootout_cuts: tuple[int, ...] = field(default=(), metadata=spec(minimum=1, maximum=MAX_TEAMS, max_items=MAX_TEAMS))
    """For a shootout: after how many of the tied teams each advancing boundary falls (e.g. ``(1,)``)."""
    show_prices: bool = field(default=False, metadata=spec(omit_default=True))
    """The screens show each cell's price in the pack beside its value (issue 31: a pack of other prices mapped onto
    the regulation's 1-5); the score stays in points (SI-3.1, SI-3.8)."""
    special_questions: bool = field(default=False, metadata=spec(omit_default=True))
    """SIGame's special questions (stake, secret, no risk) play as SIGame plays them (issue 31). Off by default: the
    regulation's game has none, and with it off they play as ordinary questions (``docs/traceability.md``)."""
    lots_seed: str = field(default="", metadata=spec(max_length=MAX_SEED_LENGTH, omit_default=True))
    """The seed of the lot for the order of choice (SI-3.2, :mod:`toreshi.quiz.lots`), shown on the game's screens
    from its creation, before the draw. Empty only in a game recorded before issue 29 (drawn by the room's
    generator); a new game without one gets one when it is created."""


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all game events. ``type`` names the event in its JSON form."""

    type: ClassVar[str] = ""
    at_ms: int


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    type: ClassVar[str] = "game_created"
    setup: GameSetup


@dataclass(frozen=True, slots=True)
class FirstChooserDrawn(Event):
    """The lot for the first chooser (SI-3.2), recorded with the seed and the drawn order of choice.

    ``team`` chooses first. ``order`` is the order the seed draws (:func:`toreshi.quiz.lots.choice_order`); when
    the host named another team than the lot's first, ``overridden`` says so in the game's log. A game recorded
    before issue 29 has neither seed nor order."""

    type: ClassVar[str] = "first_chooser_drawn"
    team: str
    seed: str = field(default="", metadata=spec(max_length=MAX_SEED_LENGTH, omit_default=True))
    order: tuple[str, ...] = field(
        default=(), metadata=spec(name=True, max_length=MAX_NAME, max_items=16, omit_default=True)
    )
    overridden: bool = field(default=False, metadata=spec(omit_default=True))


@dataclass(frozen=True, slots=True)
class ThemeStruck(Event):
    """In the final, a team strikes one of the remaining themes (SI-3.3)."""

    type: ClassVar[str] = "theme_struck"
    team: str
    theme: int


@dataclass(frozen=True, slots=True)
class ThemeRestored(Event):
    """The host takes back the last strike of the final (a mis-click), before any question is chosen."""

    type: ClassVar[str] = "theme_restored"
    theme: int


@dataclass(frozen=True, slots=True)
class ThemeAnnounced(Event):
    """The host announces a theme and may explain how its questions are built (SI-3.4)."""

    type: ClassVar[str] = "theme_announced"
    theme: int
    explanation: str = ""


@dataclass(frozen=True, slots=True)
class QuestionChosen(Event):
    """The chooser picks a cell; reading starts at ``at_ms`` (SI-3.2)."""

    type: ClassVar[str] = "question_chosen"
    team: str
    theme: int
    value: int


@dataclass(frozen=True, slots=True)
class ReserveQuestionChosen(Event):
    """A single reserve question, asked once a shootout theme is exhausted with the tie unbroken (SI-2.2)."""

    type: ClassVar[str] = "reserve_question_chosen"
    reserve: int


@dataclass(frozen=True, slots=True)
class ReadingFinished(Event):
    """The host finished reading aloud (host reading mode); the press window starts (SI-3.10)."""

    type: ClassVar[str] = "reading_finished"


@dataclass(frozen=True, slots=True)
class Buzzed(Event):
    """The buzzer recognised ``team``; ``press_ms`` is the press on the server clock, ``at_ms`` the decision."""

    type: ClassVar[str] = "buzzed"
    team: str
    press_ms: int


@dataclass(frozen=True, slots=True)
class AnswerJudged(Event):
    """The host rules on the recognised team's answer (SI-3.8, SI-4.3, SI-4.4)."""

    type: ClassVar[str] = "answer_judged"
    team: str
    correct: bool


@dataclass(frozen=True, slots=True)
class AnswerTimeExpired(Event):
    """The recognised team did not answer in time: "время", counted as wrong (SI-3.7)."""

    type: ClassVar[str] = "answer_time_expired"


@dataclass(frozen=True, slots=True)
class AnswerTimeExtended(Event):
    """The host gives the recognised team more time for a long answer (SI-3.7)."""

    type: ClassVar[str] = "answer_time_extended"
    extra_ms: int


@dataclass(frozen=True, slots=True)
class ClarificationRequested(Event):
    """The host asks "уточните" (clarify); the team gets a fresh answer time (SI-3.7)."""

    type: ClassVar[str] = "clarification_requested"


@dataclass(frozen=True, slots=True)
class TimeCalled(Event):
    """Nobody pressed in the window: "время", the answer is shown, the question ends (SI-3.10)."""

    type: ClassVar[str] = "time_called"


@dataclass(frozen=True, slots=True)
class PressCancelled(Event):
    """The host cancels an accidental press: no answer is counted and the team may still press."""

    type: ClassVar[str] = "press_cancelled"
    team: str


@dataclass(frozen=True, slots=True)
class DecisionReversed(Event):
    """The host reverses a ruling on a finished question (1-based ``question``); scores are recomputed."""

    type: ClassVar[str] = "decision_reversed"
    question: int
    team: str


@dataclass(frozen=True, slots=True)
class ScoreCorrected(Event):
    type: ClassVar[str] = "score_corrected"
    team: str
    delta: int
    reason: str


@dataclass(frozen=True, slots=True)
class QuestionReplaced(Event):
    """The current question is replaced by one of the same value: another theme's cell or a reserve (SI-4.6)."""

    type: ClassVar[str] = "question_replaced"
    reason: ReplacementReason
    theme: int | None = None
    reserve: int | None = None


@dataclass(frozen=True, slots=True)
class AudienceWarned(Event):
    type: ClassVar[str] = "audience_warned"
    person: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class AudienceSanctioned(Event):
    """A spectator who prompted again after a warning is removed (SI-4.5)."""

    type: ClassVar[str] = "audience_sanctioned"
    person: str
    scope: SanctionScope


@dataclass(frozen=True, slots=True)
class ScoreRequested(Event):
    """A team asks for the score; the assistant owes an announcement (SI-4.7)."""

    type: ClassVar[str] = "score_requested"
    team: str


@dataclass(frozen=True, slots=True)
class ScoreAnnounced(Event):
    """The assistant announces the score (SI-4.7)."""

    type: ClassVar[str] = "score_announced"


@dataclass(frozen=True, slots=True)
class StakeMade(Event):
    """SIGame's stake question (a game setting, issue 31): ``team`` stakes ``amount`` points in its turn, or passes
    (``None``); the highest stake answers alone for it once every other team has passed."""

    type: ClassVar[str] = "stake_made"
    team: str
    amount: int | None = None


@dataclass(frozen=True, slots=True)
class SecretGiven(Event):
    """SIGame's secret question, «кот в мешке» (a game setting, issue 31): the chooser hands it to ``team``, which
    answers alone for its value."""

    type: ClassVar[str] = "secret_given"
    team: str


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The host ends the game before its board is played out: the scores stand as they are, the game is over
    (its result goes wherever a finished game's goes, a tour's stage included). ``reason`` is for the record."""

    type: ClassVar[str] = "game_ended"
    reason: str = ""


EVENT_TYPES: tuple[type[Event], ...] = (
    GameCreated,
    FirstChooserDrawn,
    ThemeStruck,
    ThemeRestored,
    ThemeAnnounced,
    QuestionChosen,
    ReserveQuestionChosen,
    ReadingFinished,
    Buzzed,
    AnswerJudged,
    AnswerTimeExpired,
    AnswerTimeExtended,
    ClarificationRequested,
    TimeCalled,
    PressCancelled,
    DecisionReversed,
    ScoreCorrected,
    QuestionReplaced,
    AudienceWarned,
    AudienceSanctioned,
    ScoreRequested,
    ScoreAnnounced,
    GameEnded,
    StakeMade,
    SecretGiven,
)
GAME_EVENTS: Codec[Event] = Codec(*EVENT_TYPES)
"""The codec of the game's events (the live room's log adds its own events: :mod:`toreshi.quiz.play.events`)."""
