"""The togyz room's core on the room kit: ``decide(match, command, context)`` and ``evolve(match, event)``.

A :class:`Match` is the game (:class:`~toreshi.togyz.match.game.MatchGame`, the fold of its events) plus the one thing
the arbiters decide around it, an adjournment asked for (TK-A2). :func:`decide` takes a typed command
(:mod:`toreshi.togyz.match.commands`) from an actor — ``white``, ``black`` (the players' links), ``arbiter``, anyone
else a spectator — and returns the events it causes or a :class:`~toreshi.kit.refusal.Refusal`; the game's fold
is the only judge of the regulation, so :func:`decide` builds the events through it and a refused event refuses
the command. :func:`evolve` folds an event (also a stored one). What an actor may do now (:func:`can`) is asked of
the same :func:`decide`.

>>> from toreshi.clock import BLITZ
>>> from toreshi.kit.core import Actor, Context
>>> from toreshi.togyz.match.commands import Create, Move, Start
>>> arbiter, white = Context(Actor("arbiter"), now_ms=0), Context(Actor("white"), now_ms=5_000)
>>> match = fold(Match(), decide(Match(), Create("Асқар", "Бекзат", BLITZ), arbiter))
>>> match = fold(match, decide(match, Start(), arbiter))
>>> [event.type for event in decide(match, Move(7), white)]
['move_played', 'clock_pressed']
>>> refusal = decide(match, Move(7), Context(Actor("black"), now_ms=5_000))
>>> print(refusal)
not_your_turn (player='Бекзат', to_move='Асқар')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from toreshi.clock.flag import FlagMode
from toreshi.clock.gameclock import ClockState
from toreshi.kit import core as kit
from toreshi.kit.core import Actor, Context, Decision
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.commands import (
    COMMANDS,
    AcceptDraw,
    AcknowledgeCall,
    AddTime,
    Adjourn,
    Arrive,
    CallArbiter,
    CancelAdjournment,
    ClaimFlag,
    ComplainSetup,
    ConfirmSetup,
    Create,
    Decide,
    DeclareDefault,
    DeclineDraw,
    ExtendBothFlags,
    FileProtest,
    Move,
    OfferDraw,
    OpenEnvelope,
    Pause,
    Postpone,
    PressClock,
    RequestAdjournment,
    Resign,
    Resume,
    SetClocks,
    Sign,
    Start,
    TakeBack,
    TogyzCommand,
)
from toreshi.togyz.match.events import Actor as Caller
from toreshi.togyz.match.events import (
    AdjournmentCancelled,
    AdjournmentRequested,
    ArbiterCalled,
    CallAcknowledged,
    GameEvent,
)
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.state import GameState, GameStatus
from toreshi.togyz.position import BLACK, WHITE, Side

ARBITER = "arbiter"
PLAYERS: dict[str, Side] = {"white": WHITE, "black": BLACK}
"""The players' roles, each a side of the board (a player's side comes from the link, never from a command)."""

PLAYER_COMMANDS = frozenset(
    {
        "move",
        "press",
        "offer_draw",
        "accept_draw",
        "decline_draw",
        "resign",
        "take_back",
        "claim_flag",
        "sign",
        "pause",
        "adjourn",
        "file_protest",
        "confirm_setup",
        "complain_setup",
        "call_arbiter",
    }
)
ARBITER_COMMANDS = frozenset(
    {
        "start",
        "pause",
        "resume",
        "add_time",
        "set_clocks",
        "extend_both_flags",
        "arrive",
        "declare_default",
        "open_envelope",
        "decide",
        "claim_flag",
        "postpone",
        "request_adjournment",
        "cancel_adjournment",
        "acknowledge_call",
    }
)
PROBE_SALT = "0" * 32
"""The salt of the ``adjourn`` probe in :func:`can` (its commitment is computed and thrown away)."""
CALL_INTERVAL_MS = 30_000
"""How soon a player may call the arbiter again after their previous call (answered or not): with at most one
open call per player, this bounds the calls a player can make however fast the arbiter answers."""


@dataclass(frozen=True)
class ArbiterCall:
    """A player's call to the arbiter: who, when (monotonic ms), and when the arbiter answered (``None``: open)."""

    side: Side
    called_at_ms: int
    answered_at_ms: int | None = None

    @property
    def open(self) -> bool:
        return self.answered_at_ms is None


@dataclass(frozen=True)
class Match:
    """The state of a togyz room: the game once created, and whether the arbiters have asked to adjourn."""

    game: MatchGame | None = None
    adjournment_requested: bool = False
    """The arbiters have decided to adjourn (TK-A2): the player to move may seal a move. Cleared by the sealing,
    the end of the game, or ``cancel_adjournment``."""
    sealer: Side | None = None
    """While an adjournment is requested: who seals, fixed when the arbiters adjourn (TK-A2). Nobody plays
    openly until the sealing, so the duty never passes to the opponent."""
    calls: tuple[ArbiterCall, ...] = ()
    """Every call to the arbiter in this game, oldest first, answered or open (the game's record shows them)."""

    def open_call(self, side: Side) -> ArbiterCall | None:
        """``side``'s call the arbiter has not answered yet (a player has at most one)."""
        return next((call for call in self.calls if call.side is side and call.open), None)

    def last_call(self, side: Side) -> ArbiterCall | None:
        return next((call for call in reversed(self.calls) if call.side is side), None)

    @property
    def state(self) -> GameState | None:
        return None if self.game is None else self.game.state


def admit(match: Match, role: str, name: str) -> Refusal | None:
    """Whether ``role`` may send the command ``name`` at all in this phase, asked before its data is read (so
    that a spectator's malformed move is refused as forbidden, not for its hole)."""
    if COMMANDS.class_of(name) is None:
        return Refusal(Common.UNKNOWN_COMMAND, {"command": name[:40]})
    if match.game is None:
        return None if (name, role) == ("create", ARBITER) else Refusal(TogyzCode.NO_GAME)
    if name == "create" and role == ARBITER:
        return Refusal(TogyzCode.ALREADY_CREATED)
    if (role in PLAYERS and name in PLAYER_COMMANDS) or (role == ARBITER and name in ARBITER_COMMANDS):
        return None
    return Refusal(Common.FORBIDDEN, {"command": name, "role": role if role in (*PLAYERS, ARBITER) else "spectator"})


def decide(match: Match, command: TogyzCommand, context: Context) -> Decision[GameEvent]:
    """The events ``command`` from ``context.actor`` causes at ``context.now_ms``, or why nothing happens."""
    refusal = admit(match, context.actor.role, command.type)
    if refusal is not None:
        return refusal
    try:
        return _decide(match, command, context.actor.role, context.now_ms, context.actor.name)
    except Refused as refused:
        return refused.refusal


def evolve(match: Match, event: GameEvent) -> Match:
    """The match after ``event``; raises :class:`~toreshi.kit.refusal.Refused` for an event the rules refuse
    (only a corrupt stored log holds one: :func:`decide` never returns such events)."""
    if isinstance(event, AdjournmentRequested):
        return replace(match, adjournment_requested=True, sealer=event.sealer)
    if isinstance(event, AdjournmentCancelled):
        return replace(match, adjournment_requested=False, sealer=None)
    if isinstance(event, ArbiterCalled | CallAcknowledged):
        return _evolve_call(match, event)
    game = MatchGame.replay([event]) if match.game is None else match.game.apply(event)
    settled = game.state.status in (GameStatus.ADJOURNED, GameStatus.FINISHED)
    still = match.adjournment_requested and not settled
    return replace(match, game=game, adjournment_requested=still, sealer=match.sealer if still else None)


def _evolve_call(match: Match, event: ArbiterCalled | CallAcknowledged) -> Match:
    """A call made or answered; the same checks as :func:`_decide_call`, so a stored log cannot hold a second
    open call of one player or an answer to no call."""
    if match.game is None:
        raise Refused(TogyzCode.NO_GAME)
    name = match.game.state.player(event.side)
    if isinstance(event, ArbiterCalled):
        if match.open_call(event.side) is not None:
            raise Refused(TogyzCode.CALL_ALREADY_OPEN, player=name)
        return replace(match, calls=(*match.calls, ArbiterCall(event.side, event.at_ms)))
    open_call = match.open_call(event.side)
    if open_call is None:
        raise Refused(TogyzCode.NO_OPEN_CALL, player=name)
    answered = replace(open_call, answered_at_ms=event.at_ms)
    return replace(match, calls=tuple(answered if call is open_call else call for call in match.calls))


def _decide_call(match: Match, command: CallArbiter | AcknowledgeCall, side: Side | None, now: int) -> GameEvent:
    """A player's call (one open call each, and no sooner than :data:`CALL_INTERVAL_MS` after their last), or
    the arbiter's answer to one; checked by folding it (:func:`_evolve_call`)."""
    event: ArbiterCalled | CallAcknowledged
    if isinstance(command, CallArbiter):
        assert side is not None  # admitted: only the players call
        if match.game is not None and match.game.state.settings.practice_level:
            raise Refused(TogyzCode.NO_ARBITER_IN_PRACTICE)
        last = match.last_call(side)
        if last is not None and last.open:
            raise Refused(TogyzCode.CALL_ALREADY_OPEN, player=_player(match, side))
        if last is not None and now - last.called_at_ms < CALL_INTERVAL_MS:
            waited = max(0, now - last.called_at_ms) // 1000
            raise Refused(
                TogyzCode.CALL_TOO_SOON,
                player=_player(match, side),
                seconds=waited,
                limit=CALL_INTERVAL_MS // 1000,
            )
        event = ArbiterCalled(now, side)
    else:
        event = CallAcknowledged(now, command.side)
    _evolve_call(match, event)
    return event


def _player(match: Match, side: Side) -> str:
    assert match.game is not None
    return match.game.state.player(side)


def fold(match: Match, events: Iterable[GameEvent] | Refusal) -> Match:
    """``match`` after ``events`` (a :class:`~toreshi.kit.refusal.Refusal` is raised: a convenience for tests)."""
    if isinstance(events, Refusal):
        raise Refused(events)
    return kit.fold(evolve, match, events)


def due(match: Match, now_ms: int) -> Sequence[GameEvent]:
    """What time alone causes at ``now_ms``: an automatic flag fall (TK-B10), else nothing."""
    if match.game is None:
        return ()
    return match.game.tick(now_ms=now_ms).events[len(match.game.events) :]


def playable_holes(state: GameState) -> list[int]:
    """The holes the player to move may sow from now: none while that player has not arrived (TK-C6), only the
    sealed move right after the envelope is opened (TK-A4)."""
    if state.status is not GameStatus.LIVE or state.move_pending or state.board.turn in state.absent:
        return []
    legal = state.board.legal_moves()
    if state.sealed_hole is not None:
        return [hole for hole in legal if hole == state.sealed_hole]
    return list(legal)


def can(match: Match, actor: Actor, now_ms: int) -> tuple[str, ...]:
    """The commands ``actor`` may send now: each probe that :func:`decide` accepts (nothing is kept).

    A probe that surely fails is not run (:func:`_hopeless`, a cheap necessary condition): a view is built for
    every player's and arbiter's connection after every command, and playing each probe through the game costs.
    ``decide`` stays the only judge: a test checks, over random games, that the list is exactly what it accepts."""
    state = match.state
    if state is None or (actor.role not in PLAYERS and actor.role != ARBITER):
        return ()
    probes: list[TogyzCommand]
    if actor.role == ARBITER:
        probes = [Start(), Pause(), Resume(), ExtendBothFlags(), DeclareDefault(), RequestAdjournment(),
                  CancelAdjournment(), AcknowledgeCall(WHITE), AcknowledgeCall(BLACK)]  # fmt: skip
    else:
        holes = playable_holes(state)
        probes = [Move(holes[0])] if holes else []
        probes += [OfferDraw(), AcceptDraw(), DeclineDraw(), Resign(), Sign(), PressClock(), ClaimFlag(),
                   ConfirmSetup(), ComplainSetup(), TakeBack(), CallArbiter()]  # fmt: skip
        if holes:
            probes.append(Adjourn(holes[0], PROBE_SALT))
    now = max(now_ms, state.last_at_ms)
    side = PLAYERS.get(actor.role)
    hopeful = [probe for probe in probes if not _hopeless(match, state, probe, side, now)]
    accepted = kit.allowed(decide, match, Context(actor, now), hopeful, name=lambda probe: probe.type)
    return tuple(dict.fromkeys(accepted))  # one name, though both players' calls may be answered


def _hopeless(match: Match, state: GameState, probe: TogyzCommand, side: Side | None, now: int) -> bool:
    """True when the game would surely refuse ``probe`` (a necessary condition fails), so it need not be played."""
    if isinstance(probe, AcknowledgeCall):
        return match.open_call(probe.side) is None
    if isinstance(probe, CallArbiter):
        return bool(state.settings.practice_level)  # else at any phase, the end included (a dispute on the result)
    if state.is_over:
        return not isinstance(probe, Sign)
    match probe:
        case Sign():
            return True
        case ConfirmSetup() | ComplainSetup():
            return state.started
        case Move():
            return side is not state.board.turn
        case TakeBack():
            return not state.settings.practice_level or side is not state.board.turn
        case AcceptDraw() | DeclineDraw():
            return side is None or state.draw_offer is not side.other
        case PressClock() | OfferDraw():
            return not state.move_pending or state.clock.active is not side
        case ClaimFlag() if side is not None and state.settings.flag_mode is FlagMode.AUTOMATIC:
            return True
        case ClaimFlag() | ExtendBothFlags():
            return state.clock.state is ClockState.NOT_STARTED or all(
                state.clock.remaining(player, now) > 0 for player in (WHITE, BLACK)
            )
        case Start():
            return state.status not in (GameStatus.SCHEDULED, GameStatus.POSTPONED)
        case Resume():
            return state.status is not GameStatus.PAUSED
        case Pause() | RequestAdjournment():
            return state.status is not GameStatus.LIVE
        case CancelAdjournment() | Adjourn():
            return not match.adjournment_requested
        case DeclareDefault():
            return not state.absent
    return False


# --- deciding ------------------------------------------------------------------------------------------------


def _decide(match: Match, command: TogyzCommand, role: str, now: int, by: str = "") -> Sequence[GameEvent]:
    if isinstance(command, Create):
        created = MatchGame.create(
            command.white,
            command.black,
            command.control,
            command.settings,
            now_ms=now,
            event=command.event,
            round=command.round,
            board=command.board,
        )
        return created.events
    assert match.game is not None  # admitted: only ``create`` comes before the game
    state = match.game.state
    if isinstance(command, CallArbiter | AcknowledgeCall):
        return [_decide_call(match, command, PLAYERS.get(role), now)]
    if isinstance(command, RequestAdjournment):
        if match.adjournment_requested:
            raise Refused(TogyzCode.ADJOURNMENT_ALREADY_REQUESTED)
        state.require(GameStatus.LIVE)
        return [AdjournmentRequested(now, state.board.turn)]
    if isinstance(command, CancelAdjournment):
        if not match.adjournment_requested:
            raise Refused(TogyzCode.NO_ADJOURNMENT)
        return [AdjournmentCancelled(now)]
    side = PLAYERS.get(role)
    if isinstance(command, Adjourn) and not match.adjournment_requested:
        raise Refused(TogyzCode.SEAL_WITHOUT_ADJOURNMENT, clause="TK-A2")
    if match.adjournment_requested:
        _refuse_open_play(match, state, command, side)
    # The game's own commands: played on the game as it stands, keeping only the events they add.
    game = MatchGame((), state)
    after = _by_player(game, side, command, now) if side is not None else _by_arbiter(game, command, now, by)
    return after.events


def _refuse_open_play(match: Match, state: GameState, command: TogyzCommand, side: Side | None) -> None:
    """Once the arbiters adjourn (TK-A2) the only move is the sealed one: an open move (or taking one back)
    would pass the turn, and with it the duty to seal, to the opponent. Pressing the clock after a move already
    made stays allowed: it completes that move, and the sealer was the player whose turn it was."""
    sealer = match.sealer if match.sealer is not None else state.board.turn
    if isinstance(command, Move | TakeBack):
        raise Refused(TogyzCode.SEAL_ONLY_WHILE_ADJOURNING, player=state.player(sealer), clause="TK-A2")
    if isinstance(command, Adjourn) and side is not None and side is not sealer:
        raise Refused(TogyzCode.SEALER_NOT_TO_MOVE, player=state.player(side), to_move=state.player(sealer))


class _SideAction(Protocol):
    def __call__(self, game: MatchGame, side: Side, /, *, now_ms: int) -> MatchGame: ...


_BY_SIDE: dict[type[TogyzCommand], _SideAction] = {
    ConfirmSetup: MatchGame.confirm_setup,
    ComplainSetup: MatchGame.complain_setup,
    OfferDraw: MatchGame.offer_draw,
    AcceptDraw: MatchGame.accept_draw,
    DeclineDraw: MatchGame.decline_draw,
    Resign: MatchGame.resign,
    TakeBack: MatchGame.take_back,
    Sign: MatchGame.sign,
    FileProtest: MatchGame.file_protest,
}
"""A player's commands that carry no data: each is the game's method for the sender's side."""


def _by_player(game: MatchGame, side: Side, command: TogyzCommand, now: int) -> MatchGame:
    caller = Caller.player(side)
    match command:
        case Move(hole=hole, press=press, offer_draw=offer, lag_ms=lag):
            return game.move(side, hole, now_ms=now, press=press, offer_draw=offer, lag_ms=lag)
        case PressClock(lag_ms=lag):
            return game.press(side, now_ms=now, lag_ms=lag)
        case Adjourn(hole=hole, salt=salt):
            return game.adjourn(side, hole, salt, now_ms=now)
        case ClaimFlag():
            if game.state.settings.flag_mode is FlagMode.AUTOMATIC:
                # TK-B10: the clock records the fall itself; the opponent is not to race the timer for it.
                raise Refused(TogyzCode.FLAG_IS_AUTOMATIC, clause="TK-B10")
            return game.claim_flag(caller, now_ms=now)  # a player claims the opponent's flag, whatever it names
        case Pause():
            return game.pause(caller, now_ms=now)
    action = _BY_SIDE.get(type(command))
    if action is not None:
        return action(game, side, now_ms=now)
    raise TypeError(f"a player's {command.type!r} was admitted but has no action")  # a programming error


def _by_arbiter(game: MatchGame, command: TogyzCommand, now: int, by: str = "") -> MatchGame:
    match command:
        case Start(absent=absent):
            return game.start(now_ms=now, absent=absent)
        case Pause():
            return game.pause(Caller.ARBITER, now_ms=now)
        case Resume():
            return game.resume(now_ms=now)
        case AddTime(side=side, ms=delta, reason=reason, confirmed=confirmed):
            return game.add_time(side, delta, now_ms=now, reason=reason, confirmed=confirmed, by=by)
        case SetClocks(white_ms=white_ms, black_ms=black_ms, reason=reason):
            return game.set_clocks(white_ms, black_ms, now_ms=now, reason=reason)
        case Arrive(side=side):
            return game.arrive(side, now_ms=now)
        case OpenEnvelope(hole=hole, salt=salt):
            return game.open_envelope(hole, salt, now_ms=now)
        case Decide(result=result, reason=reason):
            return game.decide(result, reason, now_ms=now)
        case ClaimFlag(side=named):
            return game.claim_flag(Caller.ARBITER, now_ms=now, side=named)
        case Postpone(reason=reason):
            return game.postpone(reason, now_ms=now)
        case ExtendBothFlags():
            return game.extend_both_flags(now_ms=now)
        case DeclareDefault():
            return game.declare_default(now_ms=now)
    raise TypeError(f"the arbiter's {command.type!r} was admitted but has no action")  # a programming error
