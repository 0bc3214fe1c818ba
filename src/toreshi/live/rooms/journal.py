"""What the two tournament rooms share (:mod:`~toreshi.live.rooms.tournament`, :mod:`~toreshi.live.rooms.teams`):
a command is decided by a pure journal at the wall time the pages stamped on it (``meta["at"]``; a command without
it — sent over a socket — is refused ``tournament_pages_only``), an event is shown as it is stored, and no timer
ever runs."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from toreshi.kit.core import Context
from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.room import Command, Decided, Payload
from toreshi.tournament.codes import TournamentCode

Event = TypeVar("Event")


def wall_time(meta: Mapping[str, Any]) -> datetime:
    """The aware wall time the service stamped on a command (``meta["at"]``)."""
    stamped = meta.get("at")
    if stamped is None:
        raise Refused(TournamentCode.PAGES_ONLY)
    moment = datetime.fromisoformat(str(stamped))  # the service's own stamp: a bad one is a programming error
    if moment.tzinfo is None:
        raise ValueError("the service stamps aware times")
    return moment


def stamped(command: Command, now_ms: int) -> Context:
    """The journal's context of ``command``: its actor, the room time and the stamped wall time."""
    return Context(command.actor, now_ms, meta={"at": wall_time(command.meta)})


def events_of(decision: Sequence[Event] | Refusal, encode: Callable[[Event], tuple[str, Payload]]) -> list[Decided]:
    """The journal's decision as events for the log; raises :class:`Refused` for a refusal."""
    if isinstance(decision, Refusal):
        raise Refused(decision)
    return [Decided(*encode(event)) for event in decision]


class JournalRoom:
    """The part of a :class:`~toreshi.live.room.RoomLogic` the tournament rooms share: no timer, and what everyone
    sees of an event is the event."""

    def deadline_ms(self) -> int | None:
        return None

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        return []

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        return {"event": dict(event.payload)}
