"""A togyz kumalak game as a live room: socket commands → :class:`toreshi.togyz.match.game.Game` → events.

Roles: ``white`` and ``black`` (each player, by their per-game link), ``arbiter``, and everyone else a spectator.
Every rule lives in the game; this adapter only checks who may ask for what, turns game errors into refusals
with stable codes, and shapes the state that clients render (docs/protocol.md, "Room kind togyz").

The one thing the room adds of its own is the arbiters' decision to adjourn (TK-A2): ``request_adjournment``
records it as a room event (``adjournment_requested``, not a game event), and only then may the player to move
seal a move with ``adjourn``; ``cancel_adjournment`` withdraws it. Sealing or the end of the game clears it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from toreshi.clock.flag import FlagMode
from toreshi.clock.timecontrol import TimeControl, TimeControlError
from toreshi.live.room import Actor, Command, CommandRefusedError, Decided, Payload
from toreshi.togyz.fen import to_fen
from toreshi.togyz.match.events import Actor as GameActor
from toreshi.togyz.match.events import EventLogError, event_from_dict, event_to_dict
from toreshi.togyz.match.game import Game
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.sealed import SealedMoveError
from toreshi.togyz.match.settings import GameSettings, SettingsError
from toreshi.togyz.match.state import (
    DrawOfferError,
    FlagFallenError,
    GameError,
    GameOverError,
    GameStatus,
    NotYourTurnError,
)
from toreshi.togyz.position import BLACK, WHITE, IllegalMoveError, Side

KIND = "togyz"
PLAYER_ROLES = {"white": WHITE, "black": BLACK}
ARBITER = "arbiter"

_SIDES = {"white": WHITE, "black": BLACK}
_ERROR_CODES: tuple[tuple[type[Exception], str], ...] = (
    (NotYourTurnError, "not_your_turn"),
    (FlagFallenError, "flag_fallen"),
    (GameOverError, "game_over"),
    (DrawOfferError, "draw_offer"),
    (IllegalMoveError, "illegal_move"),
    (SealedMoveError, "sealed_move"),
    (TimeControlError, "bad_time_control"),
    (SettingsError, "bad_settings"),
    (GameError, "refused"),
    (ValueError, "bad_request"),
)

_PLAYER_COMMANDS = {
    "move",
    "press",
    "offer_draw",
    "accept_draw",
    "decline_draw",
    "resign",
    "claim_flag",
    "sign",
    "pause",
    "adjourn",
    "file_protest",
}
_ARBITER_COMMANDS = {
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
}
ADJOURNMENT_REQUESTED = "adjournment_requested"
ADJOURNMENT_CANCELLED = "adjournment_cancelled"
_ROOM_EVENTS = {ADJOURNMENT_REQUESTED, ADJOURNMENT_CANCELLED}
_PROBE_SALT = "0" * 32


def side_name(side: Side | None) -> str | None:
    return None if side is None else ("white" if side is WHITE else "black")


def _int(data: Mapping[str, Any], key: str, *, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandRefusedError("bad_request", f"'{key}' must be a whole number")
    return value


def _side(data: Mapping[str, Any], key: str = "side") -> Side:
    value = data.get(key)
    if value not in _SIDES:
        raise CommandRefusedError("bad_request", f"'{key}' must be 'white' or 'black'")
    return _SIDES[value]


def _text(data: Mapping[str, Any], key: str, *, default: str = "") -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > 500:
        raise CommandRefusedError("bad_request", f"'{key}' must be a text of at most 500 characters")
    return value


class TogyzRoom:
    """The :class:`~toreshi.live.room.RoomLogic` of a togyz game."""

    kind = KIND

    def __init__(self) -> None:
        self.game: Game | None = None
        self.adjournment_requested = False
        """The arbiters have decided to adjourn (TK-A2): the player to move may seal a move."""

    # --- deciding --------------------------------------------------------------------------------

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        if self.game is None:
            if command.type != "create" or command.actor.role != ARBITER:
                raise CommandRefusedError("no_game", "the game has not been created yet")
            return self._created(command.data, now_ms)
        if command.type in ("request_adjournment", "cancel_adjournment") and command.actor.role == ARBITER:
            return self._adjournment(command.type, now_ms)
        if command.type == "adjourn" and command.actor.role in PLAYER_ROLES and not self.adjournment_requested:
            raise CommandRefusedError("refused", "a move is sealed only when the arbiter adjourns the game (TK-A2)")
        action = self._action(command)
        try:
            after = action(self.game, now_ms)
        except Exception as error:
            for error_type, code in _ERROR_CODES:
                if isinstance(error, error_type):
                    raise CommandRefusedError(code, str(error)) from None
            raise
        new = after.events[len(self.game.events) :]
        return [Decided(event.kind, event_to_dict(event)) for event in new]

    def _created(self, data: Mapping[str, Any], now_ms: int) -> Sequence[Decided]:
        try:
            control = TimeControl.from_dict(dict(data["control"])) if "control" in data else None
            settings = GameSettings.from_dict(dict(data.get("settings", {})))
            if control is None:
                raise CommandRefusedError("bad_request", "a game needs a time control")
            game = Game.create(_text(data, "white"), _text(data, "black"), control, settings, now_ms=now_ms)
        except (GameError, TimeControlError, SettingsError, TypeError, KeyError) as error:
            raise CommandRefusedError("bad_request", str(error)) from None
        return [Decided(event.kind, event_to_dict(event)) for event in game.events]

    def _adjournment(self, kind: str, now_ms: int) -> Sequence[Decided]:
        assert self.game is not None
        state = self.game.state
        if kind == "cancel_adjournment":
            if not self.adjournment_requested:
                raise CommandRefusedError("refused", "no adjournment has been asked for")
            return [Decided(ADJOURNMENT_CANCELLED, {"at_ms": now_ms})]
        if self.adjournment_requested:
            raise CommandRefusedError("refused", "the adjournment has already been asked for")
        if state.status is not GameStatus.LIVE:
            raise CommandRefusedError("refused", f"only a game in play is adjourned, not a {state.status.value} one")
        return [Decided(ADJOURNMENT_REQUESTED, {"at_ms": now_ms, "sealer": side_name(state.board.turn)})]

    def _action(self, command: Command) -> Callable[[Game, int], Game]:
        role, data, kind = command.actor.role, command.data, command.type
        side = PLAYER_ROLES.get(role)
        if side is not None:
            if kind not in _PLAYER_COMMANDS:
                raise CommandRefusedError("forbidden", f"a player cannot {kind.replace('_', ' ')}")
            return self._player_action(side, kind, data)
        if role == ARBITER:
            if kind not in _ARBITER_COMMANDS:
                raise CommandRefusedError("forbidden", f"the arbiter does not {kind.replace('_', ' ')} here")
            return self._arbiter_action(kind, data)
        raise CommandRefusedError("forbidden", "spectators cannot act")

    def _player_action(self, side: Side, kind: str, data: Mapping[str, Any]) -> Callable[[Game, int], Game]:
        actor = GameActor.player(side)
        if kind == "move":
            hole = _int(data, "hole")
            press = bool(data.get("press", True))
            offer = bool(data.get("offer_draw", False))
            lag = max(0, _int(data, "lag_ms", default=0))
            return lambda g, t: g.move(side, hole, now_ms=t, press=press, offer_draw=offer, lag_ms=lag)
        if kind == "press":
            lag = max(0, _int(data, "lag_ms", default=0))
            return lambda g, t: g.press(side, now_ms=t, lag_ms=lag)
        if kind == "adjourn":
            hole, salt = _int(data, "hole"), _text(data, "salt")
            return lambda g, t: g.adjourn(side, hole, salt, now_ms=t)
        if kind == "claim_flag":
            return lambda g, t: g.claim_flag(actor, now_ms=t)
        if kind == "pause":
            return lambda g, t: g.pause(actor, now_ms=t)
        simple: dict[str, Callable[[Game, int], Game]] = {
            "offer_draw": lambda g, t: g.offer_draw(side, now_ms=t),
            "accept_draw": lambda g, t: g.accept_draw(side, now_ms=t),
            "decline_draw": lambda g, t: g.decline_draw(side, now_ms=t),
            "resign": lambda g, t: g.resign(side, now_ms=t),
            "sign": lambda g, t: g.sign(side, now_ms=t),
            "file_protest": lambda g, t: g.file_protest(side, now_ms=t),
        }
        return simple[kind]

    def _arbiter_action(self, kind: str, data: Mapping[str, Any]) -> Callable[[Game, int], Game]:
        arbiter = GameActor.ARBITER
        if kind == "start":
            absent = tuple(_SIDES[name] for name in data.get("absent", ()) if name in _SIDES)
            return lambda g, t: g.start(now_ms=t, absent=absent)
        if kind == "pause":
            return lambda g, t: g.pause(arbiter, now_ms=t)
        if kind == "add_time":
            side, delta, reason = _side(data), _int(data, "ms"), _text(data, "reason")
            return lambda g, t: g.add_time(side, delta, now_ms=t, reason=reason)
        if kind == "set_clocks":
            white_ms, black_ms, reason = _int(data, "white_ms"), _int(data, "black_ms"), _text(data, "reason")
            return lambda g, t: g.set_clocks(white_ms, black_ms, now_ms=t, reason=reason)
        if kind == "arrive":
            side = _side(data)
            return lambda g, t: g.arrive(side, now_ms=t)
        if kind == "open_envelope":
            hole, salt = _int(data, "hole"), _text(data, "salt")
            return lambda g, t: g.open_envelope(hole, salt, now_ms=t)
        if kind == "decide":
            try:
                result = GameResult(_text(data, "result"))
            except ValueError:
                raise CommandRefusedError("bad_request", "unknown result") from None
            reason = _text(data, "reason")
            return lambda g, t: g.decide(result, reason, now_ms=t)
        if kind == "claim_flag":
            named = _SIDES.get(str(data.get("side")))
            return lambda g, t: g.claim_flag(arbiter, now_ms=t, side=named)
        if kind == "postpone":
            reason = _text(data, "reason")
            return lambda g, t: g.postpone(reason, now_ms=t)
        simple: dict[str, Callable[[Game, int], Game]] = {
            "resume": lambda g, t: g.resume(now_ms=t),
            "extend_both_flags": lambda g, t: g.extend_both_flags(now_ms=t),
            "declare_default": lambda g, t: g.declare_default(now_ms=t),
        }
        return simple[kind]

    # --- folding and timers ----------------------------------------------------------------------

    def is_finished(self) -> bool:
        """The game has a result: the room is marked finished in the store, so a restart does not resume it.

        Signatures and protests still reach it afterwards: a finished room is loaded again on demand.
        """
        return self.game is not None and self.game.state.is_over

    def apply(self, event: Decided, at_ms: int) -> None:
        if event.type in _ROOM_EVENTS:
            self.adjournment_requested = event.type == ADJOURNMENT_REQUESTED
            return
        try:
            parsed = event_from_dict(dict(event.payload))
        except EventLogError as error:
            raise ValueError(f"cannot read a stored {event.type!r} event: {error}") from None
        self.game = Game.replay([parsed]) if self.game is None else self.game.apply(parsed)
        if self.game.state.status in (GameStatus.ADJOURNED, GameStatus.FINISHED):
            self.adjournment_requested = False

    def deadline_ms(self) -> int | None:
        if self.game is None:
            return None
        state = self.game.state
        if state.status is not GameStatus.LIVE or state.settings.flag_mode is not FlagMode.AUTOMATIC:
            return None
        return state.clock.flag_deadline_ms(grace=state.settings.lag_compensation)

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        if self.game is None:
            return []
        after = self.game.tick(now_ms=now_ms)
        return [Decided(event.kind, event_to_dict(event)) for event in after.events[len(self.game.events) :]]

    # --- what clients see ------------------------------------------------------------------------

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        if self.game is None:
            return {"kind": KIND, "status": "empty"}
        state = self.game.state
        board = state.board
        clock = state.clock
        role = actor.role if actor is not None else "spectator"
        ending = state.ending
        at = state.last_at_ms if clock.running_side is None else now_ms
        view: Payload = {
            "kind": KIND,
            "status": "running" if state.status is GameStatus.LIVE else state.status.value,
            "names": {"white": state.white, "black": state.black},
            "board": {"white": list(board.holes(WHITE)), "black": list(board.holes(BLACK))},
            "kazans": {"white": board.kazans[WHITE], "black": board.kazans[BLACK]},
            "tuzdyks": {"white": board.tuzdyk(WHITE), "black": board.tuzdyk(BLACK)},
            "turn": side_name(board.turn),
            "legal": self._legal(),
            "moves": [
                {"ply": number, "side": side_name(ply.side), "token": ply.token, "draw_offer": ply.draw_offered}
                for number, ply in enumerate(state.plies, start=1)
            ],
            "clock": {
                "white": clock.remaining(WHITE, at),
                "black": clock.remaining(BLACK, at),
                "running": side_name(clock.running_side),
                "at": at,
                "flag": state.settings.flag_mode.value,
            },
            "draw_offer": side_name(state.draw_offer),
            "result": ending.result.value if ending else None,
            "termination": ending.termination.value if ending else None,
            "reason": ending.reason if ending else None,
            "signed": {"white": state.signed_at[WHITE] is not None, "black": state.signed_at[BLACK] is not None},
            "fen": to_fen(board),
            "can": self._can(role, now_ms),
        }
        if state.envelope is not None:
            envelope = state.envelope
            view["envelope"] = {
                "sealer": side_name(envelope.sealer),
                "commitment": envelope.commitment,
                "move_number": envelope.move_number,
                "used": {"white": envelope.white_used_ms, "black": envelope.black_used_ms},
            }
        view["adjournment_requested"] = self.adjournment_requested
        view["sealed_move"] = state.sealed_hole
        return view

    def _legal(self) -> list[int]:
        """The holes the player to move may sow from now: only the sealed move right after the envelope is opened."""
        assert self.game is not None
        state = self.game.state
        if state.status is not GameStatus.LIVE or state.move_pending:
            return []
        legal = state.board.legal_moves()
        if state.sealed_hole is not None:
            return [hole for hole in legal if hole == state.sealed_hole]
        return list(legal)

    def _can(self, role: str, now_ms: int) -> list[str]:
        """The commands ``role`` may send now, found by asking the game (nothing is kept)."""
        if self.game is None or role not in (*PLAYER_ROLES, ARBITER):
            return []
        probes: dict[str, Mapping[str, Any]] = {
            "offer_draw": {},
            "accept_draw": {},
            "decline_draw": {},
            "resign": {},
            "sign": {},
            "press": {},
            "claim_flag": {},
        }
        if role == ARBITER:
            probes = {
                "start": {},
                "pause": {},
                "resume": {},
                "extend_both_flags": {},
                "declare_default": {},
                "request_adjournment": {},
                "cancel_adjournment": {},
            }
        elif self.adjournment_requested and self.game.state.board.legal_moves():
            probes["adjourn"] = {"hole": self.game.state.board.legal_moves()[0], "salt": _PROBE_SALT}
        allowed = []
        side = PLAYER_ROLES.get(role)
        if side is not None and self.view_legal(side):
            allowed.append("move")
        for kind, data in probes.items():
            if not self._worth_probing(kind, side, now_ms):
                continue
            try:
                self.decide(Command(kind, Actor(role), data), max(now_ms, self.game.state.last_at_ms))
            except CommandRefusedError:
                continue
            allowed.append(kind)
        return allowed

    def _worth_probing(self, kind: str, side: Side | None, now_ms: int) -> bool:
        """A cheap necessary condition for ``kind``: when it fails the game would surely refuse, so the (costlier)
        probe through :meth:`decide` is skipped. The game stays the only judge of what is allowed."""
        assert self.game is not None
        state = self.game.state
        over = state.is_over
        if kind == "sign":
            return over
        if over:
            return False
        if kind in ("accept_draw", "decline_draw"):
            return side is not None and state.draw_offer is side.other
        if kind == "press":
            return state.move_pending
        if kind in ("claim_flag", "extend_both_flags"):
            return any(state.clock.remaining(s, max(now_ms, state.last_at_ms)) <= 0 for s in (WHITE, BLACK))
        if kind == "start":
            return state.status is GameStatus.SCHEDULED
        if kind == "resume":
            return state.status in (GameStatus.PAUSED, GameStatus.ADJOURNED)
        if kind in ("pause", "request_adjournment"):
            return state.status is GameStatus.LIVE
        return True

    def view_legal(self, side: Side) -> bool:
        assert self.game is not None
        state = self.game.state
        return state.status is GameStatus.LIVE and state.board.turn is side and not state.move_pending

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        shown = dict(event.payload)
        if event.type == "envelope_opened":
            shown.pop("salt", None)
        if not with_state:
            return {"event": shown}
        return {"event": shown, "state": self.view(None, event.payload.get("at_ms", 0))}
