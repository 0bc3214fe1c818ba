"""A «Своя игра» game as a live room: the :class:`~toreshi.live.room.RoomLogic` around :mod:`toreshi.quiz.play`.

The adapter does what the pure core cannot: it reads each command at the edge into a typed one (the kit's codec,
which refuses naming the field), gives the core the room time, what the socket measured and the room's seeded
generator (:class:`~toreshi.kit.core.Context`), turns the core's events into persisted JSON and back, asks the core
when the room must next wake (:meth:`QuizRoom.deadline_ms`) and what time decides then, keeps the log the report
is built from, and shapes what each role sees (:mod:`toreshi.live.rooms.quiz.views`).

A refusal is raised as :class:`~toreshi.kit.refusal.Refused` with its code; any other exception is a programming
error and goes up (the socket answers it ``failed``).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.live.protocol import EventFrame
from toreshi.live.room import Command, Decided, Payload
from toreshi.live.rooms.quiz.report import Logged, report
from toreshi.live.rooms.quiz.roles import KIND, role_of
from toreshi.live.rooms.quiz.views import Views, sees_presses
from toreshi.quiz.events import Event, ScoreRequested
from toreshi.quiz.game import GameState
from toreshi.quiz.play.commands import COMMANDS, ROLE_COMMANDS, TICK
from toreshi.quiz.play.commands import Command as QuizCommand
from toreshi.quiz.play.decide import decide
from toreshi.quiz.play.events import (
    EVENTS,
    BuzzDecided,
    KeysMapped,
    LinkMeasured,
    PressLate,
    PressReceived,
    QuizCreated,
)
from toreshi.quiz.play.state import PlayState, evolve

__all__ = ["QuizRoom"]

TIMER = Actor("timer")
_NEUTRAL = frozenset({PressReceived.type, LinkMeasured.type, ScoreRequested.type, PressLate.type, KeysMapped.type})


@dataclass(frozen=True)
class _Typed(Decided):
    """A decided event that still holds its typed form, so that applying it does not read its JSON back."""

    event: Event


class QuizRoom:
    """The live room of one «Своя игра» game."""

    kind = KIND

    def __init__(self, rng: random.Random | None = None) -> None:
        self.state = PlayState()
        self.log: list[Logged] = []
        """Every applied event with its room time: the game report is built from it."""
        self._random = rng if rng is not None else random.Random(secrets.randbits(128))
        """The lot and the buzzer's random picks; what it draws is recorded in the events, so a replay needs none."""
        self._views = Views()
        self._foreseen: list[tuple[Decided, PlayState]] = []
        """The states :meth:`finishes` folded, each with its event: applying those events folds nothing twice."""

    # --- what the pages ask ----------------------------------------------------------------------------

    @property
    def created(self) -> bool:
        return self.state.created

    @property
    def game(self) -> GameState:
        return self.state.game

    @property
    def title(self) -> str:
        return self.state.title

    def is_finished(self) -> bool:
        return self.state.game.finished

    # --- deciding --------------------------------------------------------------------------------------

    def read(self, command: Command) -> QuizCommand:
        """The typed command of a client's ``command`` (raises :class:`Refused` naming the field)."""
        return COMMANDS.read(command.type, command.data)

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        actor = Actor(role_of(command.actor), command.actor.name)
        if COMMANDS.class_of(command.type) is not None and command.type not in ROLE_COMMANDS.get(actor.role, ()):
            # Who asks is checked before what they sent: a spectator's press is forbidden, whatever its fields.
            raise Refused(Common.FORBIDDEN, command=command.type, role=actor.role)
        typed = self.read(command)
        return self._decided(typed, Context(actor, now_ms, self._random, command.meta))

    def _decided(self, command: QuizCommand, context: Context) -> list[Decided]:
        result = decide(self.state, command, context)
        if isinstance(result, Refusal):
            raise Refused(result)
        return [_Typed(event.type, EVENTS.encode(event), event) for event in result]

    # --- folding and timers ----------------------------------------------------------------------------

    def finishes(self, events: Sequence[Decided]) -> bool:
        """Whether the game is over once ``events`` (decided, not yet applied) are applied: the owner then stores
        the final event and the room's "finished" in one transaction. The state is not changed."""
        state, folded = self.state, []
        for event in events:
            state = evolve(state, self._typed(event))
            folded.append((event, state))
        self._foreseen = folded
        return state.game.finished

    @staticmethod
    def _typed(event: Decided) -> Event:
        return event.event if isinstance(event, _Typed) else EVENTS.decode(event.payload, name=event.type)

    def apply(self, event: Decided, at_ms: int) -> None:
        typed = self._typed(event)
        if self._foreseen and self._foreseen[0][0] is event:  # folded already by `finishes`
            self.state = self._foreseen.pop(0)[1]
        else:
            self._foreseen = []
            self.state = evolve(self.state, typed)
        self.log.append((typed, at_ms))
        self._views.clear()

    def deadline_ms(self) -> int | None:
        return self.state.deadline_ms()

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        return self._decided(TICK, Context(TIMER, now_ms, self._random))

    # --- what clients see ------------------------------------------------------------------------------

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        return self._views.view(self.state, actor, now_ms)

    def withholds(self, actor: Actor | None, frame: EventFrame) -> bool:
        """Whether a connection of ``actor`` must not be sent the event ``frame`` (as published) until a later
        event comes (the socket holds it back): another team's press before its decision, for all but the host and
        the projector — the frame alone would tell a team that somebody pressed (issue 13 §1)."""
        if frame.type != PressReceived.type or sees_presses(role_of(actor)):
            return False
        event = frame.data.get("event")
        own = actor is not None and isinstance(event, dict) and event.get("team") == actor.name
        return not (own and role_of(actor) == "team")

    def releases(self, frame: EventFrame) -> bool:
        """Whether the event ``frame`` releases the events held back before it (:meth:`withholds`): any event but
        those that tell nothing of the game's course — another press, a measured link, a score request, a late
        press, new buzzer keys. The decision does, and so does any host's move that ends the opening."""
        return frame.type not in _NEUTRAL

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        """What every connection receives: the event without secrets and the public state after it."""
        payload = event.payload
        shown: Payload
        if event.type == QuizCreated.type:
            shown = {"title": payload.get("title", ""), "teams": list(payload["setup"]["teams"])}
        elif event.type in (LinkMeasured.type, PressReceived.type):
            shown = {"team": payload["team"], "source": payload.get("source", "web")}
        elif event.type == BuzzDecided.type:
            shown = {"winner": payload["winner"], "order": [e["team"] for e in payload["order"]], "tie": payload["tie"]}
        elif event.type == KeysMapped.type:
            shown = {}
        elif event.type == PressLate.type:
            shown = {"team": payload["team"], "reason": payload["reason"]}
        else:
            shown = payload  # a game event holds nothing secret
        if not with_state:
            return {"event": {"type": event.type, **shown}}
        at = payload.get("at_ms", self.state.game.last_ms)
        return {"event": {"type": event.type, **shown}, "state": self.view(None, int(at))}

    def report(self) -> Payload:
        """The game afterwards: per question, the presses in order, the decisions and the rulings."""
        return report(self.state, self.log)
