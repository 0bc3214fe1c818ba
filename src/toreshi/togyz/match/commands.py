"""What clients may ask of a togyz room: one typed command per socket command, read once at the edge.

``type`` is the name the pages send (``cmd.type`` in docs/protocol.md); the fields are the command's ``data``.
:data:`COMMANDS` reads untrusted JSON into these classes with the kit's codec — every field checked and bounded, a
bad one refused with a code that names it — so the core (:mod:`toreshi.togyz.match.core`) only ever sees
well-formed commands. Who sends a command is not part of it: a player's side comes from the connection, never from
the data.

>>> COMMANDS.read("move", {"hole": 7, "offer_draw": True})
Move(hole=7, press=True, offer_draw=True, lag_ms=0)
>>> COMMANDS.read("add_time", {"side": "black", "ms": 60000})
AddTime(side=<Side.BLACK: 1>, ms=60000, reason='', confirmed=False)
>>> COMMANDS.read("move", {"hole": 10})
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_too_large (field='hole', maximum=9)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from toreshi.clock.timecontrol import MS_PER_MINUTE, TimeControl
from toreshi.kit.codec import SIDE, Codec, Converter, spec
from toreshi.kit.refusal import Common, Refused
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.settings import SETTING_NAMES, GameSettings
from toreshi.togyz.position import Side

HOLE = spec(minimum=1, maximum=9)
MAX_LAG_MS = 60_000
"""More lag than a minute is not lag; the clock forgives at most the player's quota anyway."""
MAX_CLOCK_MS = 24 * 60 * MS_PER_MINUTE
"""No dial holds more than a day."""
MAX_TIME_CHANGE_MS = 10**12
"""What ``add_time`` reads at all: beyond it a number is not a time. Within it, the game itself refuses a change
that would leave a dial below zero or above :data:`MAX_CLOCK_MS`, saying so in minutes and seconds."""
REASON = spec(max_length=500)
SALT = spec(max_length=200)
MAX_PLAYER_NAME = 80
"""A player's name: what the store's ``room_grants.name`` holds beside each secret link."""
PLAYER_NAME = spec(name=True, max_length=MAX_PLAYER_NAME)
MAX_BOARDS = 1_000


@dataclass(frozen=True, slots=True)
class TogyzCommand:
    """Base of every command (the codec reads the subclasses)."""

    type: ClassVar[str] = ""


# --- the arbiter before the game ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Create(TogyzCommand):
    """A new game: the players' names, the time control and the organiser's settings (only before it exists);
    ``event``, ``round`` and ``board`` head its record when it belongs to a competition."""

    type: ClassVar[str] = "create"
    white: str = field(metadata=PLAYER_NAME)
    black: str = field(metadata=PLAYER_NAME)
    control: TimeControl
    settings: GameSettings = field(default_factory=GameSettings)
    event: str = field(default="", metadata=spec(max_length=100))
    round: str = field(default="", metadata=spec(max_length=20))
    board: int | None = field(default=None, metadata=spec(minimum=1, maximum=MAX_BOARDS))


@dataclass(frozen=True, slots=True)
class Postpone(TogyzCommand):
    type: ClassVar[str] = "postpone"
    reason: str = field(default="", metadata=REASON)


@dataclass(frozen=True, slots=True)
class Start(TogyzCommand):
    """The round start; ``absent`` players have not come yet (TK-C6)."""

    type: ClassVar[str] = "start"
    absent: tuple[Side, ...] = field(default=(), metadata=spec(max_items=2))


@dataclass(frozen=True, slots=True)
class Arrive(TogyzCommand):
    type: ClassVar[str] = "arrive"
    side: Side


@dataclass(frozen=True, slots=True)
class DeclareDefault(TogyzCommand):
    type: ClassVar[str] = "declare_default"


# --- the players ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConfirmSetup(TogyzCommand):
    """The player has checked the starting set-up (TK-B5)."""

    type: ClassVar[str] = "confirm_setup"


@dataclass(frozen=True, slots=True)
class ComplainSetup(TogyzCommand):
    """The player reports a fault in the set-up: accepted before the start only (TK-B5)."""

    type: ClassVar[str] = "complain_setup"


@dataclass(frozen=True, slots=True)
class Move(TogyzCommand):
    """Sow from ``hole``; by default the clock is pressed too (``press``), optionally with a draw offer (TK-R8)."""

    type: ClassVar[str] = "move"
    hole: int = field(metadata=HOLE)
    press: bool = True
    offer_draw: bool = False
    lag_ms: int = field(default=0, metadata=spec(minimum=0, maximum=MAX_LAG_MS))


@dataclass(frozen=True, slots=True)
class PressClock(TogyzCommand):
    type: ClassVar[str] = "press"
    lag_ms: int = field(default=0, metadata=spec(minimum=0, maximum=MAX_LAG_MS))


@dataclass(frozen=True, slots=True)
class OfferDraw(TogyzCommand):
    type: ClassVar[str] = "offer_draw"


@dataclass(frozen=True, slots=True)
class AcceptDraw(TogyzCommand):
    type: ClassVar[str] = "accept_draw"


@dataclass(frozen=True, slots=True)
class DeclineDraw(TogyzCommand):
    type: ClassVar[str] = "decline_draw"


@dataclass(frozen=True, slots=True)
class Resign(TogyzCommand):
    type: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class TakeBack(TogyzCommand):
    """In a practice game: take back one's last move and the engine's reply (on one's own turn)."""

    type: ClassVar[str] = "take_back"


@dataclass(frozen=True, slots=True)
class Sign(TogyzCommand):
    type: ClassVar[str] = "sign"


@dataclass(frozen=True, slots=True)
class FileProtest(TogyzCommand):
    type: ClassVar[str] = "file_protest"


@dataclass(frozen=True, slots=True)
class Adjourn(TogyzCommand):
    """The player to move seals ``hole`` (TK-A2); the server keeps only the commitment over hole and ``salt``."""

    type: ClassVar[str] = "adjourn"
    hole: int = field(metadata=HOLE)
    salt: str = field(metadata=SALT)


@dataclass(frozen=True, slots=True)
class CallArbiter(TogyzCommand):
    """The player calls the arbiter to the board (a dispute, an irregularity, a question)."""

    type: ClassVar[str] = "call_arbiter"


# --- either --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClaimFlag(TogyzCommand):
    """A flag fall announced (TK-B9): a player claims the opponent's; the arbiter names ``side`` (or the one that
    is out)."""

    type: ClassVar[str] = "claim_flag"
    side: Side | None = None


@dataclass(frozen=True, slots=True)
class Pause(TogyzCommand):
    type: ClassVar[str] = "pause"


# --- the arbiter during the game -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Resume(TogyzCommand):
    type: ClassVar[str] = "resume"


@dataclass(frozen=True, slots=True)
class AddTime(TogyzCommand):
    """Add (negative: take) ``ms`` on ``side``'s dial (TK-B3, TK-C15)."""

    type: ClassVar[str] = "add_time"
    side: Side
    ms: int = field(metadata=spec(minimum=-MAX_TIME_CHANGE_MS, maximum=MAX_TIME_CHANGE_MS))
    reason: str = field(default="", metadata=REASON)
    confirmed: bool = False
    """The arbiter confirmed the warning of a correction above the tournament's amount (a departure)."""


@dataclass(frozen=True, slots=True)
class SetClocks(TogyzCommand):
    """Set both dials (TK-C10, TK-C11)."""

    type: ClassVar[str] = "set_clocks"
    white_ms: int = field(metadata=spec(minimum=0, maximum=MAX_CLOCK_MS))
    black_ms: int = field(metadata=spec(minimum=0, maximum=MAX_CLOCK_MS))
    reason: str = field(default="", metadata=REASON)


@dataclass(frozen=True, slots=True)
class ExtendBothFlags(TogyzCommand):
    type: ClassVar[str] = "extend_both_flags"


@dataclass(frozen=True, slots=True)
class RequestAdjournment(TogyzCommand):
    """The arbiters decide to adjourn (TK-A2): the player to move may seal a move."""

    type: ClassVar[str] = "request_adjournment"


@dataclass(frozen=True, slots=True)
class CancelAdjournment(TogyzCommand):
    type: ClassVar[str] = "cancel_adjournment"


@dataclass(frozen=True, slots=True)
class OpenEnvelope(TogyzCommand):
    """Resumption (TK-A4): the sealer's hole and salt, checked against the seal."""

    type: ClassVar[str] = "open_envelope"
    hole: int = field(metadata=HOLE)
    salt: str = field(metadata=SALT)


@dataclass(frozen=True, slots=True)
class Decide(TogyzCommand):
    """A result set by the arbiters, with their reason (TK-R3 g, TK-C14, TK-C19)."""

    type: ClassVar[str] = "decide"
    result: GameResult
    reason: str = field(default="", metadata=REASON)


@dataclass(frozen=True, slots=True)
class AcknowledgeCall(TogyzCommand):
    """The arbiter answers ``side``'s open call (is on the way, or has come)."""

    type: ClassVar[str] = "acknowledge_call"
    side: Side


@dataclass(frozen=True, slots=True)
class _Settings:
    # The codec reads named objects only: the settings are read as the one field of this wrapper.
    type: ClassVar[str] = "settings"
    settings: GameSettings


_SETTINGS = Codec(_Settings, converters={Side: SIDE})


def _settings_from_client(raw: Any) -> GameSettings:
    """The organiser's settings: every field checked, and — unlike other objects from clients — an unknown key is
    refused, since a mistyped setting silently left at its default would change how the game is refereed."""
    if not isinstance(raw, Mapping) or not all(isinstance(key, str) for key in raw):
        raise Refused(Common.BAD_REQUEST, field="settings")
    unknown = sorted(set(raw) - SETTING_NAMES)
    if unknown:
        raise Refused(TogyzCode.UNKNOWN_SETTING, field=unknown[0][:40])
    return _SETTINGS.read("settings", {"settings": raw}).settings


def _settings_to_json(settings: GameSettings) -> Any:
    return _SETTINGS.encode(_Settings(settings))["settings"]


COMMANDS: Codec[TogyzCommand] = Codec(
    Create,
    Postpone,
    Start,
    Arrive,
    DeclareDefault,
    ConfirmSetup,
    ComplainSetup,
    Move,
    PressClock,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    TakeBack,
    Sign,
    FileProtest,
    Adjourn,
    CallArbiter,
    ClaimFlag,
    Pause,
    Resume,
    AddTime,
    SetClocks,
    ExtendBothFlags,
    RequestAdjournment,
    CancelAdjournment,
    OpenEnvelope,
    Decide,
    AcknowledgeCall,
    converters={
        Side: SIDE,
        GameSettings: Converter[GameSettings](encode=_settings_to_json, decode=_settings_from_client),
    },
)
"""The one reader of a togyz room's commands (``COMMANDS.read(name, data)``; refuses, never raises otherwise)."""
