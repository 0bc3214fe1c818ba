"""The events of one live game: what happened, when (monotonic ms), and nothing derived.

A game's state is a fold of its events (:mod:`toreshi.togyz.match.state`); the store and the live rooms persist
and ship them as JSON through the kit's one codec (:data:`EVENTS`, :func:`event_to_dict`, :func:`event_from_dict`).
Events carry the inputs of each decision only (the hole played, the lag reported, the salt revealed); the clock
times, results and envelopes are recomputed by the fold, so a log cannot contradict itself.

>>> event = MovePlayed(at_ms=61_250, side=WHITE, hole=7)
>>> event_to_dict(event)
{'type': 'move_played', 'at_ms': 61250, 'side': 'white', 'hole': 7}
>>> event_from_dict(event_to_dict(event)) == event
True

Logs written before the kit name the event under ``"kind"``; they are read as they are:

>>> event_from_dict({"kind": "move_played", "at_ms": 61250, "side": "white", "hole": 7}, name="move_played")
MovePlayed(at_ms=61250, side=<Side.WHITE: 0>, hole=7)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar

from toreshi.clock.timecontrol import TimeControl
from toreshi.kit.codec import SIDE, Codec, CodecError
from toreshi.kit.refusal import Refused
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.settings import GameSettings
from toreshi.togyz.position import BLACK, WHITE, Side

LEGACY_TAG = "kind"
"""Where logs written before the kit's codec kept an event's type (now ``"type"``, as every room kind's)."""


class Actor(Enum):
    """Who issued a command that players and arbiters may both issue (pausing, claiming a flag)."""

    WHITE = "white"
    BLACK = "black"
    ARBITER = "arbiter"

    @classmethod
    def player(cls, side: Side) -> Actor:
        return cls.WHITE if side is WHITE else cls.BLACK

    @property
    def side(self) -> Side | None:
        return {Actor.WHITE: WHITE, Actor.BLACK: BLACK, Actor.ARBITER: None}[self]


@dataclass(frozen=True, slots=True)
class GameEvent:
    type: ClassVar[str] = ""
    at_ms: int
    """Monotonic milliseconds of the server when the event was decided."""


@dataclass(frozen=True, slots=True)
class GameCreated(GameEvent):
    type: ClassVar[str] = "game_created"
    white: str
    black: str
    control: TimeControl
    settings: GameSettings
    event: str = ""
    """What the record's heading names: the competition (PGN ``Event``), empty for a single game."""
    round: str = ""
    """The round, as the competition numbers it (PGN ``Round``)."""
    board: int | None = None
    """The board number in the round, when the game belongs to one."""


@dataclass(frozen=True, slots=True)
class GamePostponed(GameEvent):
    """TK-A1: the chief arbiters' board postpones the game for a recognised reason."""

    type: ClassVar[str] = "game_postponed"
    reason: str


@dataclass(frozen=True, slots=True)
class SetupConfirmed(GameEvent):
    """TK-B5: ``side`` has checked the starting set-up (before the start)."""

    type: ClassVar[str] = "setup_confirmed"
    side: Side


@dataclass(frozen=True, slots=True)
class SetupComplained(GameEvent):
    """TK-B5: ``side`` reports a fault in the set-up before the start; both players check it again afterwards."""

    type: ClassVar[str] = "setup_complained"
    side: Side


@dataclass(frozen=True, slots=True)
class GameStarted(GameEvent):
    """The round start (TK-C5) or the arbiter's start (TK-B4); ``absent`` players have not come yet (TK-C6)."""

    type: ClassVar[str] = "game_started"
    absent: tuple[Side, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerArrived(GameEvent):
    type: ClassVar[str] = "player_arrived"
    side: Side


@dataclass(frozen=True, slots=True)
class MovePlayed(GameEvent):
    """The sowing is made on the board; the mover's clock still runs until :class:`ClockPressed`."""

    type: ClassVar[str] = "move_played"
    side: Side
    hole: int


@dataclass(frozen=True, slots=True)
class DrawOffered(GameEvent):
    """TK-R8: after the offerer's own move, before the press; written ``=``."""

    type: ClassVar[str] = "draw_offered"
    side: Side


@dataclass(frozen=True, slots=True)
class ClockPressed(GameEvent):
    type: ClassVar[str] = "clock_pressed"
    side: Side
    lag_ms: int = 0
    """Network lag the client reported for this move (0 over the board)."""


@dataclass(frozen=True, slots=True)
class DrawAccepted(GameEvent):
    type: ClassVar[str] = "draw_accepted"
    side: Side


@dataclass(frozen=True, slots=True)
class DrawDeclined(GameEvent):
    type: ClassVar[str] = "draw_declined"
    side: Side


@dataclass(frozen=True, slots=True)
class Resigned(GameEvent):
    type: ClassVar[str] = "resigned"
    side: Side


@dataclass(frozen=True, slots=True)
class MovesTakenBack(GameEvent):
    """In a practice game ``side`` took back its last move and the reply to it (``plies`` plies)."""

    type: ClassVar[str] = "moves_taken_back"
    side: Side
    plies: int


@dataclass(frozen=True, slots=True)
class FlagFell(GameEvent):
    """``side``'s time ran out; ``by`` is who announced it, ``None`` for the clock itself (TK-B9, TK-B10)."""

    type: ClassVar[str] = "flag_fell"
    side: Side
    by: Actor | None = None


@dataclass(frozen=True, slots=True)
class ClockPaused(GameEvent):
    type: ClassVar[str] = "clock_paused"
    by: Actor


@dataclass(frozen=True, slots=True)
class ClockResumed(GameEvent):
    type: ClassVar[str] = "clock_resumed"


@dataclass(frozen=True, slots=True)
class ClocksSet(GameEvent):
    """The arbiter sets both dials (TK-C10, TK-C11)."""

    type: ClassVar[str] = "clocks_set"
    white_ms: int
    black_ms: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TimeAdded(GameEvent):
    """The arbiter adds (or, negative, takes) time: extra time (TK-B3), a penalty (TK-C15)."""

    type: ClassVar[str] = "time_added"
    side: Side
    delta_ms: int
    reason: str = ""
    departure: bool = False
    """More than the tournament's amount (``clock_correction_warning_ms``): confirmed with the reason, a departure
    from the regulation its tournament records (issue 29)."""
    by: str = ""
    """Who made a departure (the arbiter's name, for the tournament's audit log; never shown to spectators)."""


@dataclass(frozen=True, slots=True)
class BothFlagsExtended(GameEvent):
    """TK-C14: both flags are down; each player gets the configured extra time."""

    type: ClassVar[str] = "both_flags_extended"


@dataclass(frozen=True, slots=True)
class GameAdjourned(GameEvent):
    """TK-A2, TK-A3: the player to move has sealed a move; only its commitment is recorded."""

    type: ClassVar[str] = "game_adjourned"
    sealer: Side
    commitment: str


@dataclass(frozen=True, slots=True)
class EnvelopeOpened(GameEvent):
    """TK-A4: resumption; the sealed move and its salt are revealed and checked against the commitment."""

    type: ClassVar[str] = "envelope_opened"
    hole: int
    salt: str


@dataclass(frozen=True, slots=True)
class DefaultDeclared(GameEvent):
    """TK-R4, TK-C6: the absent players lose by default (more than the late limit after the round start)."""

    type: ClassVar[str] = "default_declared"


@dataclass(frozen=True, slots=True)
class ArbiterDecided(GameEvent):
    """A result set by the arbiters (TK-R3 g, TK-C14, TK-C19)."""

    type: ClassVar[str] = "arbiter_decided"
    result: GameResult
    reason: str


@dataclass(frozen=True, slots=True)
class ResultSigned(GameEvent):
    type: ClassVar[str] = "result_signed"
    side: Side


@dataclass(frozen=True, slots=True)
class ProtestFiled(GameEvent):
    """A protest about the game, on behalf of ``side`` (TK-P1, TK-P2)."""

    type: ClassVar[str] = "protest_filed"
    side: Side


@dataclass(frozen=True, slots=True)
class AdjournmentRequested(GameEvent):
    """TK-A2: the arbiters decide to adjourn; the player to move (``sealer``) may now seal a move. Kept by the
    match, not the game: the game's state (and its clocks) do not change until the move is sealed."""

    type: ClassVar[str] = "adjournment_requested"
    sealer: Side


@dataclass(frozen=True, slots=True)
class AdjournmentCancelled(GameEvent):
    """The arbiters withdraw their decision to adjourn."""

    type: ClassVar[str] = "adjournment_cancelled"


@dataclass(frozen=True, slots=True)
class ArbiterCalled(GameEvent):
    """``side``'s player calls the arbiter to the board. Kept by the match, beside the game: a call changes
    nothing on the board or the clocks, but it is in the log, so the record shows who called and when."""

    type: ClassVar[str] = "arbiter_called"
    side: Side


@dataclass(frozen=True, slots=True)
class CallAcknowledged(GameEvent):
    """The arbiter answers ``side``'s open call."""

    type: ClassVar[str] = "call_acknowledged"
    side: Side


GAME_EVENTS: tuple[type[GameEvent], ...] = (
    GameCreated,
    GamePostponed,
    SetupConfirmed,
    SetupComplained,
    GameStarted,
    PlayerArrived,
    MovePlayed,
    DrawOffered,
    ClockPressed,
    DrawAccepted,
    DrawDeclined,
    Resigned,
    MovesTakenBack,
    FlagFell,
    ClockPaused,
    ClockResumed,
    ClocksSet,
    TimeAdded,
    BothFlagsExtended,
    GameAdjourned,
    EnvelopeOpened,
    DefaultDeclared,
    ArbiterDecided,
    ResultSigned,
    ProtestFiled,
)
"""The events the game's fold (:meth:`~toreshi.togyz.match.state.GameState.apply`) takes."""
MATCH_EVENTS: tuple[type[GameEvent], ...] = (
    AdjournmentRequested,
    AdjournmentCancelled,
    ArbiterCalled,
    CallAcknowledged,
)
"""The events of the match around the game (:mod:`toreshi.togyz.match.core`)."""

EVENTS: Codec[GameEvent] = Codec(*GAME_EVENTS, *MATCH_EVENTS, converters={Side: SIDE})
"""The one codec of a togyz room's log: sides as ``"white"``/``"black"``, the time control and the settings as
their own objects, results and actors by value."""


def event_to_dict(event: GameEvent) -> dict[str, Any]:
    """A JSON-ready dict: ``type`` plus every field."""
    return EVENTS.encode(event)


def event_from_dict(data: Mapping[str, Any], *, name: str | None = None) -> GameEvent:
    """Read a stored event back (``name``: the type the store keeps beside it). Strict: raises
    :class:`~toreshi.kit.codec.CodecError` naming the faulty field — a corrupt log is a server error.

    A payload written before the kit carries ``"kind"`` instead of ``"type"``; it is read the same way."""
    if LEGACY_TAG in data:
        legacy = data[LEGACY_TAG]
        if not isinstance(legacy, str) or (name is not None and legacy != name):
            raise CodecError(LEGACY_TAG, f"{legacy!r} stored as {name!r}")
        data = {key: value for key, value in data.items() if key != LEGACY_TAG}
        name = legacy
    try:
        return EVENTS.decode(data, name=name)
    except Refused as refused:
        # A time control or settings that the rules refuse: the log holds what this program never writes.
        raise CodecError(str(name or data.get("type")), f"refused when read back: {refused}") from None
