"""The events of a quiz room's log: the game's own (:mod:`toreshi.quiz.events`) and the room's around them.

The room records what its arbitration needs and what an appeal may ask: the game was created with its notes and
buzzers, a team's link was measured, a press was received (with what the server measured), a press was too late,
the buzzer was decided (the full order), the buzzer keys were mapped. Every event of the log, game or room, travels
through :data:`EVENTS`, one :class:`~toreshi.kit.codec.Codec` for all of them, strict when a stored log is read.

A log stores an event's type beside its JSON, so room events written before the kit (without a ``"type"`` inside)
read back the same:

>>> stored = {"team": "Алтын", "question": 2, "reason": "closed", "received_ms": 8050, "source": "web", "at_ms": 8050}
>>> EVENTS.decode(stored, name="press_late")
PressLate(at_ms=8050, team='Алтын', question=2, reason=<LateReason.CLOSED: 'closed'>, received_ms=8050, source='web')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from toreshi.kit.codec import Codec, spec
from toreshi.quiz.buzzer import ArbitrationMode, ClockSync
from toreshi.quiz.events import EVENT_TYPES, Event, GameSetup
from toreshi.quiz.play.commands import Arbitration, KeyMap, MediaAction, Note

__all__ = [
    "EVENTS",
    "ROOM_EVENT_TYPES",
    "BuzzDecided",
    "GameClosed",
    "KeysMapped",
    "LateReason",
    "LinkMeasured",
    "MediaControlled",
    "PlacedEntry",
    "PressLate",
    "PressReceived",
    "QuizCreated",
    "QuizEvent",
    "UndoneTo",
]


@dataclass(frozen=True, slots=True)
class QuizCreated(Event):
    """The room was created: the game's setup (its ``game_created``), the host's notes, buzzers and arbitration."""

    type: ClassVar[str] = "quiz_created"
    setup: GameSetup
    title: str = ""
    notes: Mapping[str, Note] = field(default_factory=dict)
    arbitration: Arbitration = field(default_factory=Arbitration)
    keys: KeyMap = field(default_factory=dict)
    buttons: KeyMap = field(default_factory=dict)
    projector_keys: bool = True
    """The projector's link may forward keyboard buzzers (a new game records the host's choice; a game created
    before the choice existed kept them on, as it had them)."""


@dataclass(frozen=True, slots=True)
class KeysMapped(Event):
    type: ClassVar[str] = "keys_mapped"
    keys: KeyMap = field(default_factory=dict)
    buttons: KeyMap = field(default_factory=dict)
    projector_keys: bool | None = None
    """The projector's keyboard buzzers switched on or off; ``None``: as they were."""


@dataclass(frozen=True, slots=True)
class LinkMeasured(Event):
    """A team's phone link, as the server measured it: what its presses are placed with."""

    type: ClassVar[str] = "link_measured"
    team: str
    sync: ClockSync


@dataclass(frozen=True, slots=True)
class PressReceived(Event):
    """A press fed to the arbiter of the current opening: when it arrived (room time), the client's touch time on
    its own clock (``None`` for a source on the server's clock) and the link it came over."""

    type: ClassVar[str] = "press_received"
    team: str
    question: int
    received_ms: int
    client_ms: int | None = None
    source: str = "web"
    sync: ClockSync | None = None


class LateReason(StrEnum):
    """Why a press did not count."""

    ANSWERING = "answering"
    """Another team is answering (or the press came before the buttons reopened)."""
    TIME = "time"
    """After «время» (SI-3.10)."""
    CLOSED = "closed"
    """No question is open."""


@dataclass(frozen=True, slots=True)
class PressLate(Event):
    """A press that came when the buttons were closed; recorded once per team, question and reason."""

    type: ClassVar[str] = "press_late"
    team: str
    question: int
    reason: LateReason
    received_ms: int
    source: str = "web"


@dataclass(frozen=True, slots=True)
class PlacedEntry:
    """One press in a decision's order: where the arbiter placed it and how it arrived."""

    team: str
    time_ms: int
    received_ms: int
    client_ms: int | None = None
    uncertainty_ms: int = 0
    clamped: bool = False
    source: str = ""
    backdated: bool = field(default=False, metadata=spec(omit_default=True))
    """The client claimed more lag than the server measured for its connection: not believed (placed at its
    arrival), and counted against the team on the host's connections panel (issue 26)."""


@dataclass(frozen=True, slots=True)
class BuzzDecided(Event):
    """The arbiter's decision for question ``question``: the winner and every press in order (the "lost button"
    display and the appeal record), how long it waited and in which mode."""

    type: ClassVar[str] = "buzz_decided"
    question: int
    winner: str
    order: tuple[PlacedEntry, ...]
    decided_ms: int
    first_arrival_ms: int
    tie: bool = False
    mode: ArbitrationMode = ArbitrationMode.COMPENSATED


@dataclass(frozen=True, slots=True)
class MediaControlled(Event):
    """The host played, paused or replayed the media of question ``question`` on the projector."""

    type: ClassVar[str] = "media_controlled"
    question: int
    action: MediaAction
    level: int = 80


@dataclass(frozen=True, slots=True)
class UndoneTo(Event):
    """The host (or the arbiter after the game) took the game back to step ``step``: the game is as it stood after
    its first ``step`` game events (:attr:`~toreshi.quiz.play.state.PlayState.history`), a moment between
    questions. Nothing is deleted: the undone events stay in the log, before this one, and the report tells them
    as undone; ``questions`` is how many questions had been chosen at that step (the report's numbering)."""

    type: ClassVar[str] = "undone_to"
    step: int
    questions: int = 0
    undone: int = 0
    """How many game events the undo set aside (for the record: the log still holds them)."""


@dataclass(frozen=True, slots=True)
class GameClosed(Event):
    """The game's result was closed (SI-6: a tour's results are final): its stage moved on, or the host closed it.
    From now on no ruling, correction or undo may change it."""

    type: ClassVar[str] = "game_closed"
    reason: str = ""


ROOM_EVENT_TYPES: tuple[type[Event], ...] = (
    QuizCreated,
    KeysMapped,
    LinkMeasured,
    PressReceived,
    PressLate,
    BuzzDecided,
    MediaControlled,
    UndoneTo,
    GameClosed,
)

QuizEvent = Event
"""Any event of a quiz room's log (a game event or a room event)."""

EVENTS: Codec[Event] = Codec(*EVENT_TYPES, *ROOM_EVENT_TYPES)
"""The codec of a quiz room's log."""
