"""A togyz kumalak game as a live room: the thin adapter between the socket and the core.

Untrusted JSON is read once at the edge into a typed command (:data:`~toreshi.togyz.match.commands.COMMANDS`),
the core decides (:func:`toreshi.togyz.match.core.decide`: events or a refusal with a code and the players'
names), and the events are encoded with the one codec of the log (:mod:`toreshi.togyz.match.events`). Nothing
here judges a command; a programming error (any exception but a refusal) goes up to the socket, which answers it
as ``failed``. The room also shapes the state that clients render (docs/protocol.md, "Room kind togyz"); its
``can`` list is asked of the same ``decide``.

Roles: ``white`` and ``black`` (each player, by their per-game link), ``arbiter``, and everyone else a spectator.
"""

from __future__ import annotations

from collections.abc import Sequence

from toreshi.clock.flag import FlagMode
from toreshi.kit.codec import CodecError
from toreshi.kit.core import Context
from toreshi.kit.refusal import Refusal, Refused
from toreshi.live.room import Actor, Command, Decided, Payload
from toreshi.togyz.fen import to_fen
from toreshi.togyz.match import core
from toreshi.togyz.match.commands import COMMANDS
from toreshi.togyz.match.core import Match
from toreshi.togyz.match.events import EnvelopeOpened, GameEvent, event_from_dict, event_to_dict
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.settings import StartMode
from toreshi.togyz.match.state import EndNote, GameState, GameStatus
from toreshi.togyz.position import BLACK, WHITE, Position, Side

KIND = "togyz"
PLAYER_ROLES = core.PLAYERS
ARBITER = core.ARBITER


def side_name(side: Side | None) -> str | None:
    return None if side is None else ("white" if side is WHITE else "black")


def _preview(board: Position, hole: int) -> Payload:
    """Where the last kumalak of ``hole`` lands and what it takes: a capture, a tuzdyk, the mover's kazan after."""
    played = board.copy().play(hole)
    return {
        "landing": played.landing,
        "side": side_name(played.landing_side),
        "captured": played.captured,
        "tuzdyk": played.tuzdyk,
        "kazan": played.kazan,
    }


def _decided(event: GameEvent) -> Decided:
    return Decided(event.type, event_to_dict(event))


class TogyzRoom:
    """The :class:`~toreshi.live.room.RoomLogic` of a togyz game."""

    kind = KIND

    def __init__(self) -> None:
        self.match = Match()
        self._previews: tuple[object, dict[str, Payload]] = (None, {})
        """The previews of the last state viewed (every connection's view of one state shares them)."""
        self._foreseen: list[tuple[Decided, Match]] = []
        """The matches :meth:`finishes` folded, each with its event: applying those events folds nothing twice."""

    @property
    def game(self) -> MatchGame | None:
        """The game once created (its state is what pages and the tournament read)."""
        return self.match.game

    @property
    def adjournment_requested(self) -> bool:
        return self.match.adjournment_requested

    # --- deciding --------------------------------------------------------------------------------

    def decide(self, command: Command, now_ms: int) -> Sequence[Decided]:
        refusal = core.admit(self.match, command.actor.role, command.type)
        if refusal is not None:
            raise Refused(refusal)
        typed = COMMANDS.read(command.type, command.data)
        outcome = core.decide(self.match, typed, Context(command.actor, now_ms, meta=command.meta))
        if isinstance(outcome, Refusal):
            raise Refused(outcome)
        return [_decided(event) for event in outcome]

    # --- folding and timers ----------------------------------------------------------------------

    def is_finished(self) -> bool:
        """The game has a result: the room is marked finished in the store, so a restart does not resume it.

        Signatures and protests still reach it afterwards: a finished room is loaded again on demand.
        """
        state = self.match.state
        return state is not None and state.is_over

    def finishes(self, events: Sequence[Decided]) -> bool:
        """Whether the game is over once ``events`` (decided, not yet applied) are applied: the owner then stores
        the final event and the room's "finished" in one transaction. The state is not changed."""
        match, folded = self.match, []
        for event in events:
            match = core.evolve(match, event_from_dict(event.payload, name=event.type))
            folded.append((event, match))
        self._foreseen = folded
        return match.state is not None and match.state.is_over

    def apply(self, event: Decided, at_ms: int) -> None:
        if self._foreseen and self._foreseen[0][0] is event:  # folded already by `finishes`
            self.match = self._foreseen.pop(0)[1]
            return
        self._foreseen = []
        typed = event_from_dict(event.payload, name=event.type)
        try:
            self.match = core.evolve(self.match, typed)
        except Refused as refused:
            raise CodecError(event.type, f"the stored event breaks the rules: {refused}") from None

    def deadline_ms(self) -> int | None:
        state = self.match.state
        if state is None or state.status is not GameStatus.LIVE or state.settings.flag_mode is not FlagMode.AUTOMATIC:
            return None
        return state.clock.flag_deadline_ms(grace=state.settings.lag_compensation)

    def on_deadline(self, now_ms: int) -> Sequence[Decided]:
        return [_decided(event) for event in core.due(self.match, now_ms)]

    # --- what clients see ------------------------------------------------------------------------

    def view(self, actor: Actor | None, now_ms: int) -> Payload:
        state = self.match.state
        if state is None:
            return {"kind": KIND, "status": "empty"}
        board = state.board
        clock = state.clock
        ending = state.ending
        at = state.last_at_ms if clock.running_side is None else now_ms
        legal = core.playable_holes(state)
        view: Payload = {
            "kind": KIND,
            "status": "running" if state.status is GameStatus.LIVE else state.status.value,
            "names": {"white": state.white, "black": state.black},
            "board": {"white": list(board.holes(WHITE)), "black": list(board.holes(BLACK))},
            "kazans": {"white": board.kazans[WHITE], "black": board.kazans[BLACK]},
            "tuzdyks": {"white": board.tuzdyk(WHITE), "black": board.tuzdyk(BLACK)},
            "turn": side_name(board.turn),
            "legal": legal,
            # What each playable hole would do (TK-B6: a tap selects and previews, a second tap plays): computed
            # by the rules here, so that the page never sows kumalaks by a second implementation of them.
            "previews": self._previews_of(state, legal),
            "absent": [side_name(side) for side in (WHITE, BLACK) if side in state.absent],
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
                # A tournament game: a correction above this is a departure (confirmed, with a reason; issue 29).
                "correction_limit": state.settings.clock_correction_warning_ms,
            },
            "draw_offer": side_name(state.draw_offer),
            "result": ending.result.value if ending else None,
            "termination": ending.termination.value if ending else None,
            # How it ended, for the page to say in its language with the player's name: a note and the side it
            # is about; the arbiters' own reason as they typed it. The engine's English record note stays out.
            "note": ending.note.value if ending else None,
            "note_side": side_name(ending.side) if ending else None,
            "reason": ending.reason if ending and ending.note is EndNote.ARBITER else None,
            "signed": {"white": state.signed_at[WHITE] is not None, "black": state.signed_at[BLACK] is not None},
            "fen": to_fen(board),
            "can": list(core.can(self.match, actor, now_ms)) if actor is not None else [],
        }
        if state.envelope is not None:
            envelope = state.envelope
            view["envelope"] = {
                "sealer": side_name(envelope.sealer),
                "commitment": envelope.commitment,
                "move_number": envelope.move_number,
                "used": {"white": envelope.white_used_ms, "black": envelope.black_used_ms},
            }
        view["adjournment_requested"] = self.match.adjournment_requested
        view["sealed_move"] = state.sealed_hole
        view["setup"] = {
            "confirmed": {side_name(side): side in state.setup_confirmed for side in (WHITE, BLACK)},
            "complaints": [side_name(side) for side, _at in state.setup_complaints],
            "required": state.settings.start_mode is StartMode.WHEN_READY,
        }
        view["score_sheets"] = state.keeps_score_sheets
        view["label"] = {"event": state.event, "round": state.round, "board": state.board_number}
        # The calls to the arbiter, with the server's time of this view: a page turns "called at" into its own
        # wall clock (the log's times are the server's monotonic ones).
        view["calls"] = {
            "enabled": not state.settings.practice_level,  # a practice game has no arbiter to call
            "now": now_ms,
            "interval": core.CALL_INTERVAL_MS,
            "open": [side_name(side) for side in (WHITE, BLACK) if self.match.open_call(side) is not None],
            "log": [
                {"side": side_name(call.side), "at": call.called_at_ms, "answered_at": call.answered_at_ms}
                for call in self.match.calls
            ],
        }
        return view

    def _previews_of(self, state: GameState, legal: list[int]) -> dict[str, Payload]:
        cached_state, previews = self._previews
        if cached_state is not state:
            previews = {str(hole): _preview(state.board, hole) for hole in legal}
            self._previews = (state, previews)
        return previews

    def public(self, event: Decided, *, with_state: bool = True) -> Payload:
        shown = dict(event.payload)
        if event.type == EnvelopeOpened.type:
            shown.pop("salt", None)
        shown.pop("by", None)  # an arbiter's name stays in the log (for the tournament's audit), off the wire
        if not with_state:
            return {"event": shown}
        return {"event": shown, "state": self.view(None, event.payload.get("at_ms", 0))}
