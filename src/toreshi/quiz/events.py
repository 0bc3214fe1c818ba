"""The typed events of one «Своя игра» game; the game state is a fold of them (:mod:`toreshi.quiz.game`).

Every event carries ``at_ms``: the server's monotonic time in integer milliseconds when it was recorded. Events
are JSON-serialisable so that the live layer can persist the log and rebuild a room by replay:

>>> event = Buzzed(at_ms=12_500, team="Арыстан", press_ms=12_430)
>>> event.to_dict()
{'type': 'buzzed', 'at_ms': 12500, 'team': 'Арыстан', 'press_ms': 12430}
>>> event_from_dict(event.to_dict()) == event
True
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, Union, get_args, get_origin, get_type_hints

from toreshi.quiz.board import Board

__all__ = [
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
    "ThemeAnnounced",
    "ThemeStruck",
    "TimeCalled",
    "event_from_dict",
]

MAX_TEAMS = 4
"""At most 4 teams play in each game (SI-3.0.1)."""


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

    name: str
    team: str


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Who plays, on which board, and the game's settings. Times are integer milliseconds."""

    teams: tuple[str, ...]
    board: Board
    kind: GameKind = GameKind.QUALIFYING
    assistant: Assistant | None = None
    reading: ReadingMode = ReadingMode.HOST
    chars_per_second: int = 20
    """Simulated reading speed (SIGame's default is 20 characters per second)."""
    press_window_ms: int = 5_000
    """Time to press after reading or after "неверно" before "время" (SI-3.9, SI-3.10)."""
    answer_ms: int = 5_000
    """Time the recognised team has to answer (SI-3.7)."""
    qualifying_themes: int = 5
    final_themes: int = 11
    final_themes_kept: int = 5
    shootout_cuts: tuple[int, ...] = ()
    """For a shootout: after how many of the tied teams each advancing boundary falls (e.g. ``(1,)``)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "teams": list(self.teams),
            "board": self.board.to_dict(),
            "kind": self.kind.value,
            "assistant": None if self.assistant is None else {"name": self.assistant.name, "team": self.assistant.team},
            "reading": self.reading.value,
            "chars_per_second": self.chars_per_second,
            "press_window_ms": self.press_window_ms,
            "answer_ms": self.answer_ms,
            "qualifying_themes": self.qualifying_themes,
            "final_themes": self.final_themes,
            "final_themes_kept": self.final_themes_kept,
            "shootout_cuts": list(self.shootout_cuts),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GameSetup:
        assistant = data.get("assistant")
        return GameSetup(
            teams=tuple(str(t) for t in data["teams"]),
            board=Board.from_dict(data["board"]),
            kind=GameKind(data.get("kind", GameKind.QUALIFYING)),
            assistant=None if assistant is None else Assistant(str(assistant["name"]), str(assistant["team"])),
            reading=ReadingMode(data.get("reading", ReadingMode.HOST)),
            chars_per_second=int(data.get("chars_per_second", 20)),
            press_window_ms=int(data.get("press_window_ms", 5_000)),
            answer_ms=int(data.get("answer_ms", 5_000)),
            qualifying_themes=int(data.get("qualifying_themes", 5)),
            final_themes=int(data.get("final_themes", 11)),
            final_themes_kept=int(data.get("final_themes_kept", 5)),
            shootout_cuts=tuple(int(c) for c in data.get("shootout_cuts", ())),
        )


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all game events. ``type`` names the event in its JSON form."""

    type: ClassVar[str] = ""
    at_ms: int

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            data[f.name] = _encode(getattr(self, f.name))
        return data


def _encode(value: Any) -> Any:
    if isinstance(value, GameSetup):
        return value.to_dict()
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


def _decode(hint: Any, value: Any) -> Any:
    if get_origin(hint) in (Union, types.UnionType):
        if value is None:
            return None
        (hint,) = (arg for arg in get_args(hint) if arg is not type(None))
    if hint is GameSetup:
        return GameSetup.from_dict(value)
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return hint(value)
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true/false, got {value!r}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"expected an integer, got {value!r}")
        return value
    if hint is str:
        return str(value)
    raise TypeError(f"cannot decode a field of type {hint!r}")  # pragma: no cover - a programming error


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from its JSON form; an unknown type or a bad field is a ``ValueError``."""
    kind = data.get("type")
    cls = _REGISTRY.get(str(kind))
    if cls is None:
        raise ValueError(f"unknown game event type {kind!r}")
    hints = get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise ValueError(f"event {kind!r} lacks the field {f.name!r}")
        values[f.name] = _decode(hints[f.name], data[f.name])
    return cls(**values)


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    type: ClassVar[str] = "game_created"
    setup: GameSetup


@dataclass(frozen=True, slots=True)
class FirstChooserDrawn(Event):
    """The lot for the first chooser (SI-3.2); the caller draws it with its own randomness and records it."""

    type: ClassVar[str] = "first_chooser_drawn"
    team: str


@dataclass(frozen=True, slots=True)
class ThemeStruck(Event):
    """In the final, a team strikes one of the remaining themes (SI-3.3)."""

    type: ClassVar[str] = "theme_struck"
    team: str
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


EVENT_TYPES: tuple[type[Event], ...] = (
    GameCreated,
    FirstChooserDrawn,
    ThemeStruck,
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
)
_REGISTRY: dict[str, type[Event]] = {cls.type: cls for cls in EVENT_TYPES}
