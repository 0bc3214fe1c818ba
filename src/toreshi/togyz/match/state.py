"""The state of one live game as a fold of its events, and the rules every event must obey.

:meth:`GameState.apply` is the single place where the regulation is enforced: it checks an event against the
state and returns the next state, or raises :class:`~toreshi.kit.refusal.Refused` with a
:class:`~toreshi.togyz.match.codes.TogyzCode` and leaves everything as it was (states are immutable). A refusal names
the players by the names the game was created with, never by their side. Commands
(:mod:`toreshi.togyz.match.game`, :mod:`toreshi.togyz.match.core`) only build events and apply them; a replay of a
stored log goes through the same checks, so a corrupted log is refused rather than silently accepted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, TypeVar

from toreshi.clock.flag import FlagCheck, FlagMode, check_required_moves
from toreshi.clock.gameclock import ClockState, GameClock
from toreshi.clock.lag import LagCompensation
from toreshi.clock.timecontrol import TimeControl
from toreshi.kit.refusal import ParamValue, Refusal, Refused
from toreshi.togyz.fen import to_fen
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.events import (
    Actor,
    ArbiterDecided,
    BothFlagsExtended,
    ClockPaused,
    ClockPressed,
    ClockResumed,
    ClocksSet,
    DefaultDeclared,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    EnvelopeOpened,
    FlagFell,
    GameAdjourned,
    GameCreated,
    GameEvent,
    GamePostponed,
    GameStarted,
    MovePlayed,
    MovesTakenBack,
    PlayerArrived,
    ProtestFiled,
    Resigned,
    ResultSigned,
    SetupComplained,
    SetupConfirmed,
    TimeAdded,
)
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.sealed import Envelope, verify
from toreshi.togyz.match.settings import GameSettings, StartMode, keeps_score_sheets
from toreshi.togyz.notation import format_token
from toreshi.togyz.position import DRAW_KAZAN, WHITE, Position, Side, Termination


class GameStatus(Enum):
    SCHEDULED = "scheduled"
    POSTPONED = "postponed"
    LIVE = "live"
    PAUSED = "paused"
    ADJOURNED = "adjourned"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class PlyRecord:
    """One half-move as the record keeps it."""

    side: Side
    hole: int
    token: str
    """The annotated two-digit token (``76(10)``, ``68X``)."""
    at_ms: int
    draw_offered: bool = False
    """Written ``=`` (TK-R8)."""
    clock_after_ms: int | None = None
    """The mover's time left after pressing; ``None`` until pressed (and for a move that ended the game)."""
    compensation_ms: int = 0


class EndNote(Enum):
    """What a page says about how the game ended, beside the termination (with :attr:`Ending.side`'s name)."""

    BOARD = "board"
    """Decided on the board (82 or more, atsyz): the kazans tell the score."""
    AGREED = "agreed"
    RESIGNED = "resigned"
    FLAG = "flag"
    """``side``'s flag fell with fewer than 81 in the kazan (TK-C12)."""
    FLAG_81 = "flag_81"
    """``side``'s flag fell with exactly 81: a draw (TK-C12)."""
    ABSENT = "absent"
    """``side`` did not come; ``None``: neither did (TK-R4)."""
    SEALED_MOVE_ILLEGAL = "sealed_move_illegal"
    """``side``'s sealed move was illegal (TK-A4)."""
    ARBITER = "arbiter"
    """The arbiters' decision; :attr:`Ending.reason` holds their own words."""


@dataclass(frozen=True, slots=True)
class Ending:
    result: GameResult
    termination: Termination
    at_ms: int
    reason: str
    """An English note for the record and the exports (``82:40``, ``white resigned``), or the arbiters' reason."""
    note: EndNote = EndNote.BOARD
    side: Side | None = None
    """The player the note is about (who resigned, whose flag fell, who did not come, who sealed)."""


@dataclass(frozen=True, slots=True)
class MatchProtest:
    side: Side
    at_ms: int
    considered: bool
    """False when the side had already signed the result (TK-P2: accepted but not considered)."""


_S = TypeVar("_S", bound=GameEvent)
_PLAYING = (GameStatus.LIVE, GameStatus.PAUSED)
_AFTER_END = (ResultSigned, ProtestFiled)


def _name(side: Side) -> str:
    return side.name.lower()


def _minutes(ms: int) -> int:
    """Whole minutes, rounded down (what has passed of a limit)."""
    return ms // 60_000


def _minutes_up(ms: int) -> int:
    """Whole minutes, rounded up (how far beyond a limit: 30 min 1 s is 31)."""
    return -(-ms // 60_000)


def _refuse(code: TogyzCode, **params: ParamValue) -> Refused:
    return Refused(Refusal(code, params))


@dataclass(frozen=True)
class GameState:
    white: str
    black: str
    control: TimeControl
    settings: GameSettings
    clock: GameClock
    board: Position = field(repr=False)
    """Never mutated: every transition works on a copy. Read it through :attr:`position`."""
    status: GameStatus = GameStatus.SCHEDULED
    last_at_ms: int = 0
    plies: tuple[PlyRecord, ...] = ()
    round_start_ms: int | None = None
    absent: frozenset[Side] = frozenset()
    first_run_ms: tuple[int | None, int | None] = (None, None)
    """When each dial first ran: the base of the late-arrival deduction (TK-C6)."""
    draw_offers_made: frozenset[Side] = frozenset()
    draw_offer: Side | None = None
    """The side whose draw offer stands, awaiting an answer."""
    paused_by: Actor | None = None
    envelope: Envelope | None = None
    sealed_hole: int | None = None
    """After the envelope is opened: the move the sealer must play (TK-A4)."""
    flag_check: FlagCheck | None = None
    ending: Ending | None = None
    signed_at: tuple[int | None, int | None] = (None, None)
    protests: tuple[MatchProtest, ...] = ()
    event: str = ""
    round: str = ""
    board_number: int | None = None
    """The record's heading: the competition, the round and the board (empty for a single game)."""
    setup_confirmed: frozenset[Side] = frozenset()
    """The players who have checked the starting set-up (TK-B5); a complaint clears it."""
    setup_complaints: tuple[tuple[Side, int], ...] = ()
    """Each complaint about the set-up before the start: who, and when (TK-B5)."""

    @classmethod
    def created(cls, event: GameCreated) -> GameState:
        lag = LagCompensation.for_control(event.control) if event.settings.lag_compensation else None
        return cls(
            white=event.white,
            black=event.black,
            control=event.control,
            settings=event.settings,
            clock=GameClock.new(event.control, lag),
            board=Position(),
            last_at_ms=event.at_ms,
            event=event.event,
            round=event.round,
            board_number=event.board,
        )

    # --- queries ---------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """A copy of the board position."""
        return self.board.copy()

    @property
    def is_over(self) -> bool:
        return self.status is GameStatus.FINISHED

    @property
    def result(self) -> GameResult | None:
        return self.ending.result if self.ending else None

    @property
    def move_pending(self) -> bool:
        """The player on the clock has made a move on the board and not yet pressed."""
        return self.status in _PLAYING and self.board.turn is not self.clock.active

    @property
    def player_to_move(self) -> Side:
        return self.board.turn

    def names(self) -> tuple[str, str]:
        return self.white, self.black

    def player(self, side: Side) -> str:
        """The name of the player of ``side`` (what refusals and notes say, never "white")."""
        return self.white if side is WHITE else self.black

    @property
    def keeps_score_sheets(self) -> bool:
        """Whether score sheets are kept (and signed) in this game: not in blitz and rapid (TK-B2)."""
        return keeps_score_sheets(self.control, self.settings)

    @property
    def started(self) -> bool:
        """The clock has been started (the set-up can no longer be complained about, TK-B5)."""
        return self.round_start_ms is not None

    def score_sheet_optional(self, side: Side, now_ms: int) -> bool:
        """TK-C17: with 5 minutes or less left, ``side`` may stop keeping the score sheet (the arbiter follows the
        moves; the digital record is kept all the same)."""
        if self.clock.state is ClockState.NOT_STARTED:
            return False
        return self.clock.remaining(side, now_ms) <= self.settings.scoring_optional_below_ms

    def _out(self, side: Side, now_ms: int) -> bool:
        """``side``'s time has run out at ``now_ms`` (with the lag grace on a running dial, if enabled)."""
        if self.clock.running_side is side:
            return self.clock.flagged(now_ms, grace=self.settings.lag_compensation) is side
        return self.clock.state is not ClockState.NOT_STARTED and self.clock.remaining(side, now_ms) == 0

    def automatic_flag(self, now_ms: int) -> Side | None:
        """The side whose flag has fallen by ``now_ms`` in automatic mode and is not yet recorded."""
        if self.status is not GameStatus.LIVE or self.settings.flag_mode is not FlagMode.AUTOMATIC:
            return None
        return self.clock.flagged(now_ms, grace=self.settings.lag_compensation)

    def unsigned_warnings(self, now_ms: int) -> list[Side]:
        """Players who get a warning at ``now_ms`` (TK-P9): not signed within the deadline after the end, and no
        protest filed on their behalf by then. Never in a game without score sheets (TK-B2)."""
        if self.ending is None or not self.keeps_score_sheets:
            return []
        deadline = self.ending.at_ms + self.settings.sign_deadline_ms
        if now_ms < deadline:
            return []
        warned = []
        for side in (WHITE, WHITE.other):
            signed = self.signed_at[side]
            protested = any(p.side is side and p.at_ms <= deadline for p in self.protests)
            if (signed is None or signed > deadline) and not protested:
                warned.append(side)
        return warned

    # --- the fold --------------------------------------------------------------------------------

    def apply(self, event: GameEvent) -> GameState:
        """The state after ``event``; raises :class:`~toreshi.kit.refusal.Refused` (state unchanged) if the
        regulation forbids it. An event from before the last one is a programming error (``ValueError``)."""
        if isinstance(event, GameCreated):
            raise _refuse(TogyzCode.ALREADY_CREATED)
        if event.at_ms < self.last_at_ms:
            raise ValueError(f"time went backwards: {event.at_ms} ms is before the last event at {self.last_at_ms} ms")
        if self.ending is not None and not isinstance(event, _AFTER_END):
            raise _refuse(TogyzCode.GAME_OVER, result=self.ending.result.symbol)
        flagged = self.automatic_flag(event.at_ms)
        if flagged is not None and not isinstance(event, FlagFell) and not self._completes_move(event, flagged):
            raise _refuse(TogyzCode.FLAG_FALLEN, player=self.player(flagged))
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise TypeError(f"{type(event).__name__} is not an event of the game")
        state = handler(self, event)
        return replace(state, last_at_ms=event.at_ms)

    def _completes_move(self, event: GameEvent, flagged: Side) -> bool:
        # TK-B8: a player whose flag falls while making the move completes the move.
        return (
            isinstance(event, MovePlayed)
            and event.side is flagged
            and self.settings.complete_move_after_flag
            and not self.move_pending
        )

    def require(self, *statuses: GameStatus) -> None:
        """Refuse unless the game is in one of ``statuses``, saying what stands in the way."""
        if self.status in statuses:
            return
        before_start = (GameStatus.SCHEDULED, GameStatus.POSTPONED)
        if self.ending is not None:
            raise _refuse(TogyzCode.GAME_OVER, result=self.ending.result.symbol)
        if GameStatus.SCHEDULED in statuses:
            code = TogyzCode.ALREADY_STARTED
        elif statuses == (GameStatus.ADJOURNED,):
            code = TogyzCode.NOT_ADJOURNED
        elif self.status in before_start:
            code = TogyzCode.NOT_STARTED
        elif self.status is GameStatus.ADJOURNED:
            code = TogyzCode.GAME_ADJOURNED
        elif self.status is GameStatus.PAUSED:
            code = TogyzCode.CLOCK_PAUSED
        else:
            code = TogyzCode.CLOCK_NOT_PAUSED  # live, where only a stopped clock would do
        raise _refuse(code)

    def _end(
        self,
        at_ms: int,
        result: GameResult,
        termination: Termination,
        reason: str,
        note: EndNote = EndNote.BOARD,
        side: Side | None = None,
    ) -> GameState:
        clock = self.clock
        if clock.state in (ClockState.RUNNING, ClockState.PAUSED):
            clock = clock.stop(at_ms)
        return replace(
            self,
            clock=clock,
            status=GameStatus.FINISHED,
            ending=Ending(result, termination, at_ms, reason, note, side),
            draw_offer=None,
        )

    def _on_postponed(self, event: GamePostponed) -> GameState:
        self.require(GameStatus.SCHEDULED, GameStatus.POSTPONED)
        return replace(self, status=GameStatus.POSTPONED)

    def _on_setup_confirmed(self, event: SetupConfirmed) -> GameState:
        self._before_start_for_setup()
        if event.side in self.setup_confirmed:
            raise _refuse(TogyzCode.SETUP_ALREADY_CONFIRMED, player=self.player(event.side))
        return replace(self, setup_confirmed=self.setup_confirmed | {event.side})

    def _on_setup_complained(self, event: SetupComplained) -> GameState:
        self._before_start_for_setup()
        # The set-up is put right and checked again by both players.
        complaints = (*self.setup_complaints, (event.side, event.at_ms))
        return replace(self, setup_confirmed=frozenset(), setup_complaints=complaints)

    def _before_start_for_setup(self) -> None:
        """TK-B5: the set-up is checked before the game; after the start no complaint about it is accepted."""
        if self.started:
            raise _refuse(TogyzCode.SETUP_COMPLAINT_TOO_LATE, clause="TK-B5")

    def _on_started(self, event: GameStarted) -> GameState:
        self.require(GameStatus.SCHEDULED, GameStatus.POSTPONED)
        absent = frozenset(event.absent)
        if absent and self.settings.start_mode is StartMode.WHEN_READY:
            raise _refuse(TogyzCode.START_WHEN_READY, clause="TK-B4")
        clock = self.clock.start(event.at_ms, WHITE)
        return replace(
            self,
            clock=clock,
            status=GameStatus.LIVE,
            round_start_ms=event.at_ms,
            absent=absent,
            first_run_ms=(event.at_ms, None),
        )

    def _on_arrived(self, event: PlayerArrived) -> GameState:
        self.require(*_PLAYING)
        side = event.side
        if side not in self.absent:
            raise _refuse(TogyzCode.ALREADY_PRESENT, player=self.player(side))
        assert self.round_start_ms is not None
        late = event.at_ms - self.round_start_ms
        if late > self.settings.late_limit_ms:
            raise _refuse(
                TogyzCode.ARRIVED_TOO_LATE,
                player=self.player(side),
                minutes=_minutes_up(late),
                limit=_minutes(self.settings.late_limit_ms),
                clause="TK-R4",
            )
        # The lateness is taken from the player's time (TK-C6); whatever part of it the player's own dial has
        # already run is not taken twice.
        first_run = self.first_run_ms[side]
        dial_start = event.at_ms if first_run is None else min(first_run, event.at_ms)
        deduction = max(0, dial_start - self.round_start_ms)
        clock = self.clock.add_time(side, -deduction, event.at_ms)
        return replace(self, clock=clock, absent=self.absent - {side})

    def _on_move(self, event: MovePlayed) -> GameState:
        self.require(GameStatus.LIVE)
        side = event.side
        if side in self.absent:
            raise _refuse(TogyzCode.NOT_ARRIVED, player=self.player(side), clause="TK-C6")
        if side is not self.board.turn:
            raise _refuse(TogyzCode.NOT_YOUR_TURN, player=self.player(side), to_move=self.player(self.board.turn))
        if self.move_pending:
            raise _refuse(
                TogyzCode.OPPONENT_MUST_PRESS,
                player=self.player(side),
                opponent=self.player(side.other),
                clause="TK-C17",
            )
        if self.sealed_hole is not None and event.hole != self.sealed_hole:
            raise _refuse(
                TogyzCode.MUST_PLAY_SEALED_MOVE, player=self.player(side), hole=self.sealed_hole, clause="TK-A4"
            )
        self._check_hole(side, event.hole)
        board = self.board.copy()
        played = board.play(event.hole)
        ply = PlyRecord(side, event.hole, format_token(played), event.at_ms)
        # Making a move answers a standing draw offer with "no".
        state = replace(self, board=board, plies=(*self.plies, ply), draw_offer=None, sealed_hole=None)
        outcome = board.outcome()
        if outcome is None:
            return state
        result = GameResult.DRAW if outcome.winner is None else GameResult.win_for(outcome.winner)
        return state._end(event.at_ms, result, outcome.termination, f"{outcome.score[0]}:{outcome.score[1]}")

    def _check_hole(self, side: Side, hole: int) -> None:
        """Refuse a hole that ``side`` cannot sow from (the board's own check would raise a library error)."""
        if not 1 <= hole <= 9:
            raise _refuse(TogyzCode.NO_SUCH_HOLE, hole=hole)
        if hole not in self.board.legal_moves():
            raise _refuse(TogyzCode.HOLE_EMPTY, player=self.player(side), hole=hole)

    def _on_draw_offered(self, event: DrawOffered) -> GameState:
        self.require(GameStatus.LIVE)
        side = event.side
        if not (self.move_pending and self.clock.active is side):
            raise _refuse(TogyzCode.DRAW_OFFER_TIMING, player=self.player(side), clause="TK-R8")
        if side in self.draw_offers_made:
            raise _refuse(TogyzCode.DRAW_ALREADY_OFFERED, player=self.player(side), clause="TK-R9")
        last = replace(self.plies[-1], draw_offered=True)
        return replace(
            self,
            draw_offer=side,
            draw_offers_made=self.draw_offers_made | {side},
            plies=(*self.plies[:-1], last),
        )

    def _on_pressed(self, event: ClockPressed) -> GameState:
        self.require(GameStatus.LIVE)
        side = event.side
        if self.clock.active is not side:
            raise _refuse(TogyzCode.NOT_YOUR_CLOCK, player=self.player(side), opponent=self.player(side.other))
        if not self.move_pending:
            raise _refuse(
                TogyzCode.PRESS_WITHOUT_MOVE,
                player=self.player(side),
                opponent=self.player(side.other),
                clause="TK-C9",
            )
        press = self.clock.press(side, event.at_ms, lag_ms=event.lag_ms)
        last = replace(
            self.plies[-1],
            clock_after_ms=press.clock.remaining(side, event.at_ms),
            compensation_ms=press.compensation_ms,
        )
        first_run = list(self.first_run_ms)
        if first_run[side.other] is None:
            first_run[side.other] = event.at_ms
        return replace(
            self,
            clock=press.clock,
            plies=(*self.plies[:-1], last),
            first_run_ms=(first_run[0], first_run[1]),
        )

    def _answer_draw(self, side: Side) -> None:
        self.require(*_PLAYING)
        if self.draw_offer is not side.other:
            raise _refuse(TogyzCode.NO_DRAW_OFFER, player=self.player(side))

    def _on_draw_accepted(self, event: DrawAccepted) -> GameState:
        self._answer_draw(event.side)
        return self._end(event.at_ms, GameResult.DRAW, Termination.AGREEMENT, "draw agreed (TK-R6)", EndNote.AGREED)

    def _on_draw_declined(self, event: DrawDeclined) -> GameState:
        self._answer_draw(event.side)
        return replace(self, draw_offer=None)

    def _on_resigned(self, event: Resigned) -> GameState:
        self.require(*_PLAYING, GameStatus.ADJOURNED)
        return self._end(
            event.at_ms,
            GameResult.win_for(event.side.other),
            Termination.RESIGNATION,
            f"{_name(event.side)} resigned",
            EndNote.RESIGNED,
            event.side,
        )

    def _on_taken_back(self, event: MovesTakenBack) -> GameState:
        """A practice game only: the board as before ``side``'s last move; the clocks go on as they are (the
        player is on the clock before and after)."""
        self.require(GameStatus.LIVE)
        side = event.side
        if not self.settings.practice_level:
            raise _refuse(TogyzCode.TAKEBACK_NOT_PRACTICE)
        if side is not self.board.turn or self.move_pending:
            raise _refuse(TogyzCode.NOT_YOUR_TURN, player=self.player(side), to_move=self.player(self.board.turn))
        kept = len(self.plies) - event.plies
        if event.plies != 2 or kept < 0 or self.plies[kept].side is not side:
            raise _refuse(TogyzCode.NOTHING_TO_TAKE_BACK, player=self.player(side))
        board = Position()
        for ply in self.plies[:kept]:
            board.play(ply.hole)
        return replace(self, board=board, plies=self.plies[:kept], draw_offer=None)

    def _on_flag(self, event: FlagFell) -> GameState:
        self.require(*_PLAYING)
        side = event.side
        if event.by is None and self.settings.flag_mode is FlagMode.CLAIM:
            raise _refuse(TogyzCode.FLAG_NEEDS_CLAIM, clause="TK-B9")
        if not self._out(side, event.at_ms):
            raise _refuse(TogyzCode.FLAG_NOT_FALLEN, player=self.player(side))
        if self._out(side.other, event.at_ms):
            raise _refuse(TogyzCode.BOTH_FLAGS_DOWN, clause="TK-C14")
        check = check_required_moves(self.clock, side)
        if check.required_moves_made:
            raise _refuse(
                TogyzCode.REQUIRED_MOVES_MADE,
                player=self.player(side),
                moves=check.moves_required or 0,
                clause="TK-C13",
            )
        kazan = self.board.kazans[side]
        if kazan == DRAW_KAZAN and self.settings.flag_with_81_draws:
            result, note = GameResult.DRAW, EndNote.FLAG_81
            reason = f"{_name(side)}'s flag fell with 81 kumalaks (TK-C12)"
        else:
            result, note = GameResult.win_for(side.other), EndNote.FLAG
            reason = f"{_name(side)}'s flag fell with {kazan} (TK-C12)"
        state = replace(self, flag_check=check)
        return state._end(event.at_ms, result, Termination.TIME_FORFEIT, reason, note, side)

    def _on_paused(self, event: ClockPaused) -> GameState:
        self.require(GameStatus.LIVE)
        return replace(self, clock=self.clock.pause(event.at_ms), status=GameStatus.PAUSED, paused_by=event.by)

    def _on_resumed(self, event: ClockResumed) -> GameState:
        self.require(GameStatus.PAUSED)
        return replace(self, clock=self.clock.resume(event.at_ms), status=GameStatus.LIVE, paused_by=None)

    def _on_clocks_set(self, event: ClocksSet) -> GameState:
        self.require(*_PLAYING)
        return replace(self, clock=self.clock.set_times(event.white_ms, event.black_ms, event.at_ms))

    def _on_time_added(self, event: TimeAdded) -> GameState:
        self.require(*_PLAYING)
        return replace(self, clock=self.clock.add_time(event.side, event.delta_ms, event.at_ms))

    def _on_both_flags(self, event: BothFlagsExtended) -> GameState:
        self.require(*_PLAYING)
        if not all(self.clock.is_out(side, event.at_ms) for side in (WHITE, WHITE.other)):
            raise _refuse(TogyzCode.NOT_BOTH_FLAGS_DOWN, clause="TK-C14")
        extra = self.settings.both_flags_extra_ms
        clock = self.clock.add_time(WHITE, extra, event.at_ms).add_time(WHITE.other, extra, event.at_ms)
        return replace(self, clock=clock)

    def _on_adjourned(self, event: GameAdjourned) -> GameState:
        self.require(GameStatus.LIVE)
        sealer = self.board.turn
        if event.sealer is not sealer:
            raise _refuse(TogyzCode.SEALER_NOT_TO_MOVE, player=self.player(event.sealer), to_move=self.player(sealer))
        if self.move_pending:
            raise _refuse(TogyzCode.SEAL_AFTER_PRESS, player=self.player(self.clock.active))
        commitment = event.commitment
        if len(commitment) != 64 or any(c not in "0123456789abcdef" for c in commitment):
            raise _refuse(TogyzCode.BAD_COMMITMENT)
        clock = self.clock.pause(event.at_ms)
        envelope = Envelope(
            white=self.white,
            black=self.black,
            sealer=sealer,
            fen=to_fen(self.board),
            move_number=self.board.ply // 2 + 1,
            white_used_ms=clock.used(WHITE, event.at_ms),
            black_used_ms=clock.used(WHITE.other, event.at_ms),
            commitment=commitment,
        )
        return replace(self, clock=clock, status=GameStatus.ADJOURNED, envelope=envelope)

    def _on_envelope_opened(self, event: EnvelopeOpened) -> GameState:
        self.require(GameStatus.ADJOURNED)
        envelope = self.envelope
        assert envelope is not None
        if not verify(envelope.commitment, event.hole, event.salt):
            raise _refuse(TogyzCode.ENVELOPE_NOT_INTACT, clause="TK-A4")
        state = replace(
            self,
            clock=self.clock.resume(event.at_ms, envelope.sealer),
            status=GameStatus.LIVE,
            sealed_hole=event.hole,
        )
        if event.hole not in self.board.legal_moves():
            return state._end(
                event.at_ms,
                GameResult.win_for(envelope.sealer.other),
                Termination.ARBITER,
                f"{_name(envelope.sealer)}'s sealed move {event.hole} is illegal",
                EndNote.SEALED_MOVE_ILLEGAL,
                envelope.sealer,
            )
        return state

    def _on_default(self, event: DefaultDeclared) -> GameState:
        self.require(*_PLAYING)
        if not self.absent:
            raise _refuse(TogyzCode.NOBODY_ABSENT)
        assert self.round_start_ms is not None
        waited = event.at_ms - self.round_start_ms
        if waited <= self.settings.late_limit_ms:
            raise _refuse(
                TogyzCode.DEFAULT_TOO_EARLY,
                minutes=_minutes(waited),
                limit=_minutes(self.settings.late_limit_ms),
                clause="TK-R4",
            )
        absent: Side | None = None
        if len(self.absent) == 2:
            result = GameResult.DOUBLE_FORFEIT
        else:
            (absent,) = self.absent
            result = GameResult.forfeit_win_for(absent.other)
        names = " and ".join(_name(side) for side in sorted(self.absent))
        reason = f"{names} did not come (TK-R4)"
        return self._end(event.at_ms, result, Termination.FORFEIT, reason, EndNote.ABSENT, absent)

    def _on_decided(self, event: ArbiterDecided) -> GameState:
        if not event.reason.strip():
            raise _refuse(TogyzCode.DECISION_NEEDS_REASON)
        return self._end(event.at_ms, event.result, Termination.ARBITER, event.reason, EndNote.ARBITER)

    def _on_signed(self, event: ResultSigned) -> GameState:
        if self.ending is None:
            raise _refuse(TogyzCode.SIGN_BEFORE_END)
        if self.signed_at[event.side] is not None:
            raise _refuse(TogyzCode.ALREADY_SIGNED, player=self.player(event.side))
        signed = list(self.signed_at)
        signed[event.side] = event.at_ms
        return replace(self, signed_at=(signed[0], signed[1]))

    def _on_protest(self, event: ProtestFiled) -> GameState:
        if self.ending is None:
            raise _refuse(TogyzCode.PROTEST_BEFORE_END)
        late = event.at_ms - self.ending.at_ms
        if late > self.settings.protest_window_ms:
            raise _refuse(
                TogyzCode.PROTEST_TOO_LATE,
                minutes=_minutes_up(late),
                limit=_minutes(self.settings.protest_window_ms),
                clause="TK-P1",
            )
        considered = self.signed_at[event.side] is None
        return replace(self, protests=(*self.protests, MatchProtest(event.side, event.at_ms, considered)))


def _handler(method: Callable[[GameState, _S], GameState]) -> Callable[[GameState, Any], GameState]:
    return method


_HANDLERS: dict[type[GameEvent], Callable[[GameState, Any], GameState]] = {
    GamePostponed: _handler(GameState._on_postponed),
    SetupConfirmed: _handler(GameState._on_setup_confirmed),
    SetupComplained: _handler(GameState._on_setup_complained),
    GameStarted: _handler(GameState._on_started),
    PlayerArrived: _handler(GameState._on_arrived),
    MovePlayed: _handler(GameState._on_move),
    DrawOffered: _handler(GameState._on_draw_offered),
    ClockPressed: _handler(GameState._on_pressed),
    DrawAccepted: _handler(GameState._on_draw_accepted),
    DrawDeclined: _handler(GameState._on_draw_declined),
    Resigned: _handler(GameState._on_resigned),
    MovesTakenBack: _handler(GameState._on_taken_back),
    FlagFell: _handler(GameState._on_flag),
    ClockPaused: _handler(GameState._on_paused),
    ClockResumed: _handler(GameState._on_resumed),
    ClocksSet: _handler(GameState._on_clocks_set),
    TimeAdded: _handler(GameState._on_time_added),
    BothFlagsExtended: _handler(GameState._on_both_flags),
    GameAdjourned: _handler(GameState._on_adjourned),
    EnvelopeOpened: _handler(GameState._on_envelope_opened),
    DefaultDeclared: _handler(GameState._on_default),
    ArbiterDecided: _handler(GameState._on_decided),
    ResultSigned: _handler(GameState._on_signed),
    ProtestFiled: _handler(GameState._on_protest),
}
