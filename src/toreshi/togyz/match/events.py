"""The events of one live game: what happened, when (monotonic ms), and nothing derived.

A game's state is a fold of its events (:mod:`toreshi.togyz.match.state`); the store and the live rooms persist
and ship them as JSON through :func:`event_to_dict` / :func:`event_from_dict`. Events carry the inputs of each
decision only (the hole played, the lag reported, the salt revealed); the clock times, results and envelopes are
recomputed by the fold, so a log cannot contradict itself.

>>> event = MovePlayed(at_ms=61_250, side=WHITE, hole=7)
>>> event_to_dict(event)
{'kind': 'move_played', 'at_ms': 61250, 'side': 'white', 'hole': 7}
>>> event_from_dict(event_to_dict(event)) == event
True
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, dataclass, fields
from enum import Enum
from typing import Any, ClassVar, Union

from toreshi.clock.timecontrol import TimeControl, TimeControlError
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.settings import GameSettings, SettingsError
from toreshi.togyz.position import BLACK, WHITE, Side


class EventLogError(ValueError):
    """An event dict that cannot be read: unknown kind, missing or badly typed field."""


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
    kind: ClassVar[str] = ""
    at_ms: int
    """Monotonic milliseconds of the server when the event was decided."""


@dataclass(frozen=True, slots=True)
class GameCreated(GameEvent):
    kind: ClassVar[str] = "game_created"
    white: str
    black: str
    control: TimeControl
    settings: GameSettings


@dataclass(frozen=True, slots=True)
class GamePostponed(GameEvent):
    """TK-A1: the chief arbiters' board postpones the game for a recognised reason."""

    kind: ClassVar[str] = "game_postponed"
    reason: str


@dataclass(frozen=True, slots=True)
class GameStarted(GameEvent):
    """The round start (TK-C5) or the arbiter's start (TK-B4); ``absent`` players have not come yet (TK-C6)."""

    kind: ClassVar[str] = "game_started"
    absent: tuple[Side, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerArrived(GameEvent):
    kind: ClassVar[str] = "player_arrived"
    side: Side


@dataclass(frozen=True, slots=True)
class MovePlayed(GameEvent):
    """The sowing is made on the board; the mover's clock still runs until :class:`ClockPressed`."""

    kind: ClassVar[str] = "move_played"
    side: Side
    hole: int


@dataclass(frozen=True, slots=True)
class DrawOffered(GameEvent):
    """TK-R8: after the offerer's own move, before the press; written ``=``."""

    kind: ClassVar[str] = "draw_offered"
    side: Side


@dataclass(frozen=True, slots=True)
class ClockPressed(GameEvent):
    kind: ClassVar[str] = "clock_pressed"
    side: Side
    lag_ms: int = 0
    """Network lag the client reported for this move (0 over the board)."""


@dataclass(frozen=True, slots=True)
class DrawAccepted(GameEvent):
    kind: ClassVar[str] = "draw_accepted"
    side: Side


@dataclass(frozen=True, slots=True)
class DrawDeclined(GameEvent):
    kind: ClassVar[str] = "draw_declined"
    side: Side


@dataclass(frozen=True, slots=True)
class Resigned(GameEvent):
    kind: ClassVar[str] = "resigned"
    side: Side


@dataclass(frozen=True, slots=True)
class FlagFell(GameEvent):
    """``side``'s time ran out; ``by`` is who announced it, ``None`` for the clock itself (TK-B9, TK-B10)."""

    kind: ClassVar[str] = "flag_fell"
    side: Side
    by: Actor | None = None


@dataclass(frozen=True, slots=True)
class ClockPaused(GameEvent):
    kind: ClassVar[str] = "clock_paused"
    by: Actor


@dataclass(frozen=True, slots=True)
class ClockResumed(GameEvent):
    kind: ClassVar[str] = "clock_resumed"


@dataclass(frozen=True, slots=True)
class ClocksSet(GameEvent):
    """The arbiter sets both dials (TK-C10, TK-C11)."""

    kind: ClassVar[str] = "clocks_set"
    white_ms: int
    black_ms: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TimeAdded(GameEvent):
    """The arbiter adds (or, negative, takes) time: extra time (TK-B3), a penalty (TK-C15)."""

    kind: ClassVar[str] = "time_added"
    side: Side
    delta_ms: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class BothFlagsExtended(GameEvent):
    """TK-C14: both flags are down; each player gets the configured extra time."""

    kind: ClassVar[str] = "both_flags_extended"


@dataclass(frozen=True, slots=True)
class GameAdjourned(GameEvent):
    """TK-A2, TK-A3: the player to move has sealed a move; only its commitment is recorded."""

    kind: ClassVar[str] = "game_adjourned"
    sealer: Side
    commitment: str


@dataclass(frozen=True, slots=True)
class EnvelopeOpened(GameEvent):
    """TK-A4: resumption; the sealed move and its salt are revealed and checked against the commitment."""

    kind: ClassVar[str] = "envelope_opened"
    hole: int
    salt: str


@dataclass(frozen=True, slots=True)
class DefaultDeclared(GameEvent):
    """TK-R4, TK-C6: the absent players lose by default (more than the late limit after the round start)."""

    kind: ClassVar[str] = "default_declared"


@dataclass(frozen=True, slots=True)
class ArbiterDecided(GameEvent):
    """A result set by the arbiters (TK-R3 g, TK-C14, TK-C19)."""

    kind: ClassVar[str] = "arbiter_decided"
    result: GameResult
    reason: str


@dataclass(frozen=True, slots=True)
class ResultSigned(GameEvent):
    kind: ClassVar[str] = "result_signed"
    side: Side


@dataclass(frozen=True, slots=True)
class ProtestFiled(GameEvent):
    """A protest about the game, on behalf of ``side`` (TK-P1, TK-P2)."""

    kind: ClassVar[str] = "protest_filed"
    side: Side


EVENT_TYPES: dict[str, type[GameEvent]] = {
    cls.kind: cls
    for cls in (
        GameCreated,
        GamePostponed,
        GameStarted,
        PlayerArrived,
        MovePlayed,
        DrawOffered,
        ClockPressed,
        DrawAccepted,
        DrawDeclined,
        Resigned,
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
}

_SIDE_NAMES = {WHITE: "white", BLACK: "black"}
_SIDES = {name: side for side, name in _SIDE_NAMES.items()}


def _encode(value: object) -> object:
    if isinstance(value, Side):
        return _SIDE_NAMES[value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, TimeControl | GameSettings):
        return value.to_dict()
    if isinstance(value, tuple):
        return [_encode(item) for item in value]
    return value


def event_to_dict(event: GameEvent) -> dict[str, object]:
    """A JSON-ready dict: ``kind`` plus every field, sides as ``"white"``/``"black"``, times as integers."""
    data: dict[str, object] = {"kind": event.kind}
    for field in fields(event):
        data[field.name] = _encode(getattr(event, field.name))
    return data


def _decode(hint: Any, raw: object, where: str) -> object:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if raw is None and type(None) in options:
            return None
        (inner,) = (option for option in options if option is not type(None))
        return _decode(inner, raw, where)
    if origin is tuple:
        if not isinstance(raw, list):
            raise EventLogError(f"{where} must be a list, not {raw!r}")
        (item, _ellipsis) = typing.get_args(hint)
        return tuple(_decode(item, element, where) for element in raw)
    if hint is Side:
        if not isinstance(raw, str) or raw not in _SIDES:
            raise EventLogError(f"{where} must be 'white' or 'black', not {raw!r}")
        return _SIDES[raw]
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(raw)
        except ValueError:
            raise EventLogError(f"{where} cannot be {raw!r}") from None
    if hint in (TimeControl, GameSettings):
        if not isinstance(raw, dict):
            raise EventLogError(f"{where} must be an object, not {raw!r}")
        try:
            return hint.from_dict(raw)
        except (TimeControlError, SettingsError) as error:
            raise EventLogError(f"{where}: {error}") from None
    if hint is bool:
        ok = isinstance(raw, bool)
    elif hint is int:
        ok = isinstance(raw, int) and not isinstance(raw, bool)
    else:
        ok = isinstance(raw, hint)
    if not ok:
        raise EventLogError(f"{where} must be {hint.__name__}, not {raw!r}")
    return raw


_HINTS: dict[type[GameEvent], dict[str, Any]] = {}


def _hints(cls: type[GameEvent]) -> dict[str, Any]:
    # get_type_hints resolves the string annotations on every call; a replay reads thousands of events.
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def event_from_dict(data: dict[str, object]) -> GameEvent:
    """Read :func:`event_to_dict` output back; raises :class:`EventLogError` naming the faulty field."""
    kind = data.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventLogError(f"unknown event kind {kind!r}")
    hints = _hints(cls)
    names = {field.name for field in fields(cls)}
    unknown = set(data) - names - {"kind"}
    if unknown:
        raise EventLogError(f"{kind}: unknown fields {sorted(unknown)}")
    values: dict[str, object] = {}
    for field in fields(cls):
        if field.name not in data:
            if field.default is not MISSING:
                continue
            raise EventLogError(f"{kind}: missing field {field.name!r}")
        values[field.name] = _decode(hints[field.name], data[field.name], f"{kind}.{field.name}")
    event: GameEvent = typing.cast(Any, cls)(**values)
    return event
