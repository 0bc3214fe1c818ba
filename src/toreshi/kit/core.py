"""The shape every room's core has, and the questions every room asks it.

A core is two pure functions over an immutable state: ``decide(state, command, context)`` returns the events a
command causes or a :class:`~toreshi.kit.refusal.Refusal`, and ``evolve(state, event)`` returns the state after an
event (also used to replay a stored log). The :class:`Context` brings everything from outside that a decision may
depend on — who asks, the room time, a source of randomness for a draw of lots, what the server measured about the
command — so that a core never reads a clock, a random generator or a socket.

"What may this actor do now" is asked of the same ``decide`` (:func:`allowed`), so a page never offers a button
that the rules would refuse, and no room keeps a second, hand-written list of what is allowed.

>>> from dataclasses import dataclass
>>> from toreshi.kit.refusal import Common
>>> @dataclass(frozen=True)
... class Count:
...     n: int
>>> def decide(state: Count, command: str, context: Context) -> Decision[str]:
...     if context.actor.role != "host":
...         return Refusal(Common.FORBIDDEN, {"command": command})
...     return [command]
>>> allowed(decide, Count(0), Context(Actor("host"), now_ms=0), ["next", "undo"])
('next', 'undo')
>>> allowed(decide, Count(0), Context(Actor("team"), now_ms=0), ["next", "undo"])
()
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from toreshi.kit.refusal import Refusal, Refused

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")

Decision = Sequence[E] | Refusal
"""What ``decide`` returns: the events (possibly none), or why nothing happens."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sends a command: a role in this room (``white``, ``arbiter``, ``host``, ``team``, ``spectator`` …)
    and, where several people share a role, which one (a team's name, a user name)."""

    role: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class Context:
    """Everything a decision may use besides the state and the command."""

    actor: Actor
    now_ms: int
    """The room time of the decision (integer milliseconds of one monotonic timeline per room)."""
    random: random.Random | None = None
    """A generator for a draw of lots, seeded outside the core; ``None`` where nothing may be drawn (probes)."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """What the server measured about the command (arrival time, clock sync), never what a client claimed."""


def decide_catching(
    decide: Callable[[S, C, Context], Sequence[E] | Refusal], state: S, command: C, context: Context
) -> Sequence[E] | Refusal:
    """``decide``, with a :class:`~toreshi.kit.refusal.Refused` raised deep inside turned into its refusal.

    Only refusals are caught: any other exception is a programming error and goes up to be logged."""
    try:
        return decide(state, command, context)
    except Refused as refused:
        return refused.refusal


def allowed(
    decide: Callable[[S, C, Context], Sequence[E] | Refusal],
    state: S,
    context: Context,
    probes: Iterable[C],
    name: Callable[[C], str] = str,
) -> tuple[str, ...]:
    """The names of the probe commands that ``decide`` would accept now (their events are thrown away)."""
    return tuple(
        name(probe) for probe in probes if not isinstance(decide_catching(decide, state, probe, context), Refusal)
    )


def fold(evolve: Callable[[S, E], S], state: S, events: Iterable[E]) -> S:
    """The state after ``events`` (a replay)."""
    for event in events:
        state = evolve(state, event)
    return state


def proven(evolve: Callable[[S, E], S], state: S, events: Callable[[], Sequence[E]]) -> Sequence[E] | Refusal:
    """The events ``events()`` makes, proven by folding them into ``state``, or why not: a log only ever holds
    events that apply. Only refusals are caught; any other exception is a programming error and goes up."""
    try:
        made = events()
        fold(evolve, state, made)
    except Refused as refused:
        return refused.refusal
    return made
