"""What a live room is made of: commands in, decided events out, and the logic that folds them.

A :class:`RoomLogic` is pure: it decides events from a command and the room time, applies events to its state,
and says when it next needs waking (a flag fall, the end of a 5-second answer window). It never reads a clock and
never does I/O; the :class:`~toreshi.live.owner.RoomOwner` does that around it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from toreshi.kit.core import Actor as Actor
from toreshi.live.protocol import EventFrame

Payload = dict[str, Any]


@dataclass(frozen=True)
class Command:
    """An intent from a client: a move, a press, a verdict. ``id`` lets the owner drop a retried duplicate.

    ``data`` is what the client sent and is never trusted. ``meta`` is what the server itself measured about the
    command (set only by the socket or another server-side source, never copied from a client message): the room
    time it was received (``received_ms``) and the connection's clock sync (``sync``), for buzzer arbitration.
    """

    type: str
    actor: Actor
    data: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Decided:
    """An event decided by the logic, not yet persisted."""

    type: str
    payload: Payload


class RoomLogic(Protocol):
    """The pure heart of a room kind (a togyz game, a quiz game)."""

    kind: str

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        """The events a command causes at room time ``now_ms``; raises :class:`~toreshi.kit.refusal.Refused`.
        Must not mutate. Any other exception is a programming error (logged, answered as a server error)."""
        ...

    def apply(self, event: Decided, at_ms: int) -> None:
        """Fold one event into the state (also used to replay the log)."""
        ...

    def deadline_ms(self) -> int | None:
        """The room time at which :meth:`on_deadline` must be called, or ``None``."""
        ...

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        """The events that time alone causes (a flag fall, «время»); may be empty if nothing is due yet."""
        ...

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        """The whole state as ``actor`` may see it (``None``: a spectator), for a snapshot or a resync."""
        ...

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        """What everyone may see of an event (a sealed move, a host's answer key are left out) and, ``with_state``,
        of the state after it. Without: another event of the same command follows at once and brings the state."""
        ...


@runtime_checkable
class Finishing(Protocol):
    """A room logic that can tell when its room is over (the owner then marks the room finished in the store,
    so that a restart does not resume it)."""

    def is_finished(self) -> bool: ...


@runtime_checkable
class Foreseeing(Protocol):
    """A room logic that can tell, before they are stored, whether events end the room: the owner then writes the
    final event and the room's "finished" in one transaction (a crash between two writes would leave a finished
    game "live" forever)."""

    def finishes(self, events: Sequence[Decided]) -> bool:
        """Whether the room is over once ``events`` (decided, not yet applied) are applied. Must not mutate."""
        ...


@runtime_checkable
class Withholding(Protocol):
    """A room logic some of whose events a connection may not be sent at once (a quiz team must not learn of another
    team's press before its decision): the socket holds them back until an event that releases them."""

    def withholds(self, actor: Actor | None, frame: EventFrame) -> bool:
        """Whether a connection of ``actor`` (``None``: a spectator) must wait before it is sent ``frame``."""
        ...

    def releases(self, frame: EventFrame) -> bool:
        """Whether ``frame`` releases the events held back before it (they all go out together)."""
        ...
