"""What the host, the teams, the assistant, the projector and the buttons send: typed commands, read at the edge.

Every command is a frozen dataclass named by its ``type``; :data:`COMMANDS` (the room kit's
:class:`~toreshi.kit.codec.Codec`) reads it from a client's JSON with every field checked and refuses, naming the
field, what is not of the right shape. Who may send which command is :data:`ROLE_COMMANDS`. The room's own
timer sends :data:`TICK`, which no client can (it is not in the codec).

>>> COMMANDS.read("choose", {"theme": 0, "value": 3})
Choose(theme=0, value=3, team=None)
>>> COMMANDS.read("extend", {"ms": 600_000})
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_too_large (field='ms', maximum=60000)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from toreshi.kit.codec import Codec, spec
from toreshi.kit.payload import MAX_NAME
from toreshi.quiz.board import MAX_LONG_TEXT, MAX_SHORT_TEXT
from toreshi.quiz.buzzer import DEFAULT_MAX_COMPENSATION_MS, ArbiterSettings, ArbitrationMode, TieRule
from toreshi.quiz.events import GameSetup, ReplacementReason, SanctionScope

__all__ = [
    "COMMANDS",
    "HOST_ROLES",
    "MAX_EXTENSION_MS",
    "ROLE_COMMANDS",
    "TICK",
    "AnnounceScore",
    "AnnounceTheme",
    "Arbitration",
    "CancelPress",
    "Choose",
    "Clarify",
    "CloseGame",
    "Command",
    "Correct",
    "CreateGame",
    "Draw",
    "EndGame",
    "Extend",
    "FinishReading",
    "Give",
    "Key",
    "MapKeys",
    "Media",
    "MediaAction",
    "MediaFinished",
    "Note",
    "PressBuzzer",
    "Replace",
    "RequestScore",
    "Reserve",
    "RestoreTheme",
    "Reverse",
    "Right",
    "Sanction",
    "Stake",
    "Strike",
    "Sync",
    "Tick",
    "Undo",
    "UndoTo",
    "Warn",
    "Wrong",
]

MAX_EXTENSION_MS = 60_000
MAX_KEY = 20
"""A buzzer's key (``"1"``, ``"F9"``) or a serial button's number."""
MAX_TITLE = 100
MAX_THEME = 1_000
"""Theme and reserve indexes beyond any board (the core names the theme that is not there)."""
MAX_DELTA = 10_000
MAX_CELLS = 30 * 5 + 50 * 30 * 5
"""Notes: a cell of every theme and every reserve question a pack can give."""


@dataclass(frozen=True, slots=True)
class Note:
    """What the host sees beside a question and nobody else (its comment, sources, authors)."""

    comment: str = field(default="", metadata=spec(max_length=MAX_LONG_TEXT, multiline=True))
    sources: tuple[str, ...] = field(default=(), metadata=spec(max_length=MAX_LONG_TEXT, multiline=True, max_items=10))
    authors: tuple[str, ...] = field(default=(), metadata=spec(max_length=MAX_SHORT_TEXT, multiline=True, max_items=10))


@dataclass(frozen=True, slots=True)
class Arbitration:
    """How a game decides who pressed first (:mod:`toreshi.quiz.buzzer`)."""

    mode: ArbitrationMode = ArbitrationMode.COMPENSATED
    tie_rule: TieRule = TieRule.EARLIER_ARRIVAL
    random_window_ms: int = field(default=300, metadata=spec(minimum=1, maximum=5_000))
    max_compensation_ms: int = field(default=DEFAULT_MAX_COMPENSATION_MS, metadata=spec(minimum=0, maximum=1_000))
    """The cap on a team's compensated uplink (:attr:`toreshi.quiz.buzzer.ArbiterSettings.max_compensation_ms`)."""

    def settings(self) -> ArbiterSettings:
        return ArbiterSettings(
            mode=self.mode,
            tie_rule=self.tie_rule,
            random_window_ms=self.random_window_ms,
            max_compensation_ms=self.max_compensation_ms,
        )


KeyMap = Mapping[str, str]
"""Buzzer keys (or serial button numbers) → the team they press for."""


@dataclass(frozen=True, slots=True)
class CreateGame:
    """The host creates the game: its setup, the host's notes per cell (``"theme:value"``, or ``"r:index"`` for a
    reserve question), the buzzers and the arbitration."""

    type: ClassVar[str] = "create"
    setup: GameSetup
    title: str = field(default="", metadata=spec(max_length=MAX_TITLE))
    notes: Mapping[str, Note] = field(default_factory=dict, metadata=spec(max_items=MAX_CELLS))
    keys: KeyMap = field(default_factory=dict, metadata=spec(max_length=MAX_NAME, max_items=64))
    buttons: KeyMap = field(default_factory=dict, metadata=spec(max_length=MAX_NAME, max_items=64))
    arbitration: Arbitration = Arbitration()
    projector_keys: bool = True
    """USB buzzers are plugged into the projector's machine: its link may forward their keys (the new-game form
    asks, and leaves it off unless the host ticks it)."""


_TEAM = spec(name=True)
_INDEX = spec(minimum=0, maximum=MAX_THEME)


@dataclass(frozen=True, slots=True)
class Draw:
    """The lot for the first chooser (SI-3.2): ``team`` when drawn by hand, else the room draws it."""

    type: ClassVar[str] = "draw"
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class Strike:
    """In the final, the striker (or ``team``) strikes a theme (SI-3.3)."""

    type: ClassVar[str] = "strike"
    theme: int = field(metadata=_INDEX)
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class RestoreTheme:
    """The host takes back the last strike of the final (``theme``, if given, must be the last struck one), before
    any question is chosen."""

    type: ClassVar[str] = "restore_theme"
    theme: int | None = field(default=None, metadata=_INDEX)


@dataclass(frozen=True, slots=True)
class AnnounceTheme:
    type: ClassVar[str] = "announce"
    theme: int = field(metadata=_INDEX)
    explanation: str = field(default="", metadata=spec(max_length=MAX_LONG_TEXT, multiline=True))


@dataclass(frozen=True, slots=True)
class Choose:
    """The chooser (or ``team``) picks a cell; a theme not yet announced is announced with it."""

    type: ClassVar[str] = "choose"
    theme: int = field(metadata=_INDEX)
    value: int = field(metadata=spec(minimum=1, maximum=5))
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class Reserve:
    """A single reserve question of a shootout's sudden death (SI-2.2)."""

    type: ClassVar[str] = "reserve"
    reserve: int = field(metadata=_INDEX)


@dataclass(frozen=True, slots=True)
class FinishReading:
    type: ClassVar[str] = "finish_reading"


@dataclass(frozen=True, slots=True)
class Right:
    type: ClassVar[str] = "right"
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class Wrong:
    type: ClassVar[str] = "wrong"
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class Clarify:
    type: ClassVar[str] = "clarify"


@dataclass(frozen=True, slots=True)
class Extend:
    """More answer time (SI-3.7): ``ms``, or one answer time more."""

    type: ClassVar[str] = "extend"
    ms: int | None = field(default=None, metadata=spec(minimum=1, maximum=MAX_EXTENSION_MS))


@dataclass(frozen=True, slots=True)
class CancelPress:
    type: ClassVar[str] = "cancel_press"
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class Replace:
    """The question is replaced by another theme's of the same value, or by a reserve one (SI-4.6)."""

    type: ClassVar[str] = "replace"
    reason: ReplacementReason = ReplacementReason.HOST_ERROR
    theme: int | None = field(default=None, metadata=spec(minimum=0, maximum=MAX_THEME))
    reserve: int | None = field(default=None, metadata=spec(minimum=0, maximum=MAX_THEME))


@dataclass(frozen=True, slots=True)
class Reverse:
    """A ruling on a finished question (1-based ``question``) is reversed."""

    type: ClassVar[str] = "reverse"
    question: int = field(metadata=spec(minimum=1, maximum=MAX_THEME))
    team: str = field(metadata=spec(name=True))


@dataclass(frozen=True, slots=True)
class Undo:
    """The last counted ruling of a finished question is reversed."""

    type: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Stake:
    """SIGame's stake question (a game setting): a team's stake in its turn, ``amount`` points or a pass (``None``).
    A team's phone stakes for its own team; the host names ``team`` (or it is whose turn it is)."""

    type: ClassVar[str] = "stake"
    amount: int | None = field(default=None, metadata=spec(minimum=1, maximum=MAX_DELTA))
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class Give:
    """SIGame's secret question (a game setting): the chooser (its phone, or the host) hands it to ``team``."""

    type: ClassVar[str] = "give"
    team: str = field(metadata=spec(name=True))


@dataclass(frozen=True, slots=True)
class UndoTo:
    """The game goes back to ``step`` (a moment between questions from the host's list of the game's events): every
    later ruling, strike, choice and correction is undone, by an event; the log keeps them."""

    type: ClassVar[str] = "undo_to"
    step: int = field(metadata=spec(minimum=0, maximum=100_000))


@dataclass(frozen=True, slots=True)
class CloseGame:
    """The game's result is closed (SI-6): after it, no undo, reversal or correction (the tour closes its games
    when their stage moves on; the host may close a game of its own)."""

    type: ClassVar[str] = "close_game"
    reason: str = field(default="", metadata=spec(max_length=500))


@dataclass(frozen=True, slots=True)
class Correct:
    type: ClassVar[str] = "correct"
    team: str = field(metadata=spec(name=True))
    delta: int = field(metadata=spec(minimum=-MAX_DELTA, maximum=MAX_DELTA))
    reason: str = field(default="", metadata=spec(max_length=500))


@dataclass(frozen=True, slots=True)
class Warn:
    """A spectator who prompted is warned (SI-4.5)."""

    type: ClassVar[str] = "warn"
    person: str = field(default="", metadata=spec(max_length=MAX_NAME))
    note: str = field(default="", metadata=spec(max_length=500))


@dataclass(frozen=True, slots=True)
class Sanction:
    type: ClassVar[str] = "sanction"
    person: str = field(default="", metadata=spec(max_length=MAX_NAME))
    scope: SanctionScope = SanctionScope.GAME


@dataclass(frozen=True, slots=True)
class AnnounceScore:
    type: ClassVar[str] = "announce_score"


@dataclass(frozen=True, slots=True)
class RequestScore:
    """A team asks for the score (the host or the assistant names the ``team``), SI-4.7."""

    type: ClassVar[str] = "request_score"
    team: str | None = field(default=None, metadata=_TEAM)


@dataclass(frozen=True, slots=True)
class Key:
    """A USB buzzer typed ``key`` on the host's or the projector's machine."""

    type: ClassVar[str] = "key"
    key: str = field(metadata=spec(max_length=MAX_KEY))


@dataclass(frozen=True, slots=True)
class MapKeys:
    type: ClassVar[str] = "map_keys"
    keys: KeyMap = field(default_factory=dict, metadata=spec(max_length=MAX_NAME, max_items=64))
    buttons: KeyMap = field(default_factory=dict, metadata=spec(max_length=MAX_NAME, max_items=64))
    projector: bool | None = None
    """Whether the projector's link may forward the keys (``None``: as it was)."""


@dataclass(frozen=True, slots=True)
class PressBuzzer:
    """A team's press with ``tc``, the touch on its phone's ping clock; a serial box's ``button``."""

    type: ClassVar[str] = "press"
    tc: float | None = field(default=None, metadata=spec(minimum=0, maximum=1e16))
    button: str | None = field(default=None, metadata=spec(max_length=MAX_KEY))


@dataclass(frozen=True, slots=True)
class Sync:
    """A team's phone asks the room to record its measured link (for fair arbitration)."""

    type: ClassVar[str] = "sync"


class MediaAction(StrEnum):
    """What the host does to the question's audio or video on the projector."""

    PLAY = "play"
    PAUSE = "pause"
    REPLAY = "replay"
    VOLUME = "volume"
    """The projector's volume (its sounds and the pack's media), ``level`` 0 (mute) to 100."""


@dataclass(frozen=True, slots=True)
class Media:
    """The host plays, pauses or replays the question's media on the projector (SIGame's host controls), or sets
    the projector's volume."""

    type: ClassVar[str] = "media"
    action: MediaAction
    level: int = field(default=80, metadata=spec(minimum=0, maximum=100))


@dataclass(frozen=True, slots=True)
class MediaFinished:
    """The projector says the audio or video of question ``question`` has finished: its press window opens
    (SIGame's ``waitForFinish``). A stale report (another question, reading interrupted) changes nothing."""

    type: ClassVar[str] = "media_finished"
    question: int = field(metadata=spec(minimum=1, maximum=100_000))


@dataclass(frozen=True, slots=True)
class EndGame:
    """The host ends the game before its board is played out, with the scores as they stand (``reason``: for the
    record and the report)."""

    type: ClassVar[str] = "end_game"
    reason: str = field(default="", metadata=spec(max_length=500))


@dataclass(frozen=True, slots=True)
class Tick:
    """The room's timer: whatever time alone decides now («время», a press's arbitration)."""

    type: ClassVar[str] = "tick"


TICK = Tick()

Command = (
    CreateGame | Draw | Strike | AnnounceTheme | Choose | Reserve | FinishReading | Right | Wrong | Clarify | Extend
    | CancelPress | Replace | Reverse | Undo | UndoTo | CloseGame | Correct | Warn | Sanction | AnnounceScore
    | RequestScore | Key | MapKeys | PressBuzzer | Sync | Media | MediaFinished | RestoreTheme | EndGame | Stake | Give
    | Tick
)  # fmt: skip
"""Every command of a quiz room."""

COMMANDS: Codec[Command] = Codec(
    CreateGame, Draw, Strike, AnnounceTheme, Choose, Reserve, FinishReading, Right, Wrong, Clarify, Extend,
    CancelPress, Replace, Reverse, Undo, UndoTo, CloseGame, Correct, Warn, Sanction, AnnounceScore, RequestScore,
    Key, MapKeys, PressBuzzer, Sync, Media, MediaFinished, RestoreTheme, EndGame, Stake, Give,
)  # fmt: skip
"""What clients may send (the timer's :class:`Tick` is not among them)."""

HOST_ROLES = frozenset({"host", "arbiter"})
"""The host of the game; a signed-in arbiter is a host too."""

_HOST = frozenset(COMMANDS.names) - {"press", "sync"}
ROLE_COMMANDS: Mapping[str, frozenset[str]] = {
    "host": _HOST,
    "arbiter": _HOST,
    "team": frozenset({"press", "sync", "request_score", "stake", "give"}),
    "assistant": frozenset({"announce_score", "request_score"}),
    "projector": frozenset({"key", "media_finished"}),
    "buttons": frozenset({"press"}),
    "timer": frozenset({"tick"}),
}
"""The commands each role may give (``team``: a team's phones, its ``Actor.name`` the team; ``assistant``: the
host's assistant, SI-4.1, who keeps and announces the score; ``projector``: the board on the wall, which forwards
USB buzzers' keys; ``buttons``: a serial button box; ``timer``: the room itself). Anyone else only watches."""
