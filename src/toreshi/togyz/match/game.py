"""One live togyz kumalak game: commands that append events, and the state as a fold of them.

Every command takes ``now_ms`` (read once by the caller from its monotonic time source) and returns a new
:class:`MatchGame` with the events it produced, or raises :class:`~toreshi.kit.refusal.Refused` (a
:class:`~toreshi.togyz.match.codes.TogyzCode` naming the players) and leaves the game as it was.
``MatchGame.replay(game.events)`` rebuilds the same state and clocks. This is the engine of the room's core
(:mod:`toreshi.togyz.match.core`), which turns typed commands from clients into these calls.

>>> from toreshi.clock import BLITZ
>>> game = MatchGame.create("Abay", "Bolat", BLITZ, now_ms=0).start(now_ms=1_000)
>>> game = game.move(WHITE, 7, now_ms=4_000)
>>> game.state.plies[-1].token, game.state.clock.remaining(WHITE, 4_000)
('76(10)', 417000)
>>> game = game.resign(BLACK, now_ms=9_000)
>>> game.state.result
<GameResult.WHITE_WINS: '1-0'>
>>> MatchGame.replay(game.events).state == game.state
True
>>> game.move(WHITE, 1, now_ms=10_000)
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: game_over (result='1–0')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from toreshi.clock.gameclock import ClockState
from toreshi.clock.timecontrol import TimeControl, late_clock_allowance
from toreshi.kit.codec import CodecError
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.togyz.match import events as ev
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.commands import MAX_CLOCK_MS
from toreshi.togyz.match.events import Actor, GameEvent, event_from_dict, event_to_dict
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.sealed import commit
from toreshi.togyz.match.settings import GameSettings, SealedMovePolicy, StartMode
from toreshi.togyz.match.state import GameState
from toreshi.togyz.position import BLACK, WHITE, Side

__all__ = ["BLACK", "WHITE", "MatchGame"]


def _same_name(white: str, black: str) -> bool:
    """The two names are the same when case and runs of white space are ignored (``"Асқар  Б"``, ``"асқар б"``)."""
    return " ".join(white.split()).casefold() == " ".join(black.split()).casefold()


def format_seconds(ms: int) -> str:
    """A duration as the pages' dials show it, to the second above: ``m:ss`` or ``h:mm:ss`` (the same in every
    language, so that a refusal may carry it as a parameter).

    >>> format_seconds(252_100), format_seconds(3_723_000)
    ('4:13', '1:02:03')
    """
    total = -(-max(0, ms) // 1000)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@dataclass(frozen=True)
class MatchGame:
    events: tuple[GameEvent, ...]
    state: GameState

    # --- construction and replay -----------------------------------------------------------------

    @classmethod
    def create(
        cls,
        white: str,
        black: str,
        control: TimeControl,
        settings: GameSettings | None = None,
        *,
        now_ms: int,
        event: str = "",
        round: str = "",
        board: int | None = None,
    ) -> MatchGame:
        """A scheduled game between ``white`` (бастаушы) and ``black`` (қостаушы); ``event``, ``round`` and
        ``board`` head its record when it belongs to a competition."""
        for field, name in (("white", white), ("black", black)):
            if not name.strip():
                raise Refused(Common.FIELD_EMPTY, field=field)
        if _same_name(white, black):
            # Two players of one name could not be told apart on the links, the record or the standings.
            raise Refused(TogyzCode.SAME_NAMES, name=white)
        created = ev.GameCreated(now_ms, white, black, control, settings or GameSettings(), event, round, board)
        return cls((created,), GameState.created(created))

    @classmethod
    def replay(cls, events: Iterable[GameEvent]) -> MatchGame:
        """Rebuild a game from its event log; the log is checked by the same rules as live commands (a log they
        refuse raises :class:`~toreshi.kit.refusal.Refused`)."""
        iterator = iter(events)
        first = next(iterator, None)
        if not isinstance(first, ev.GameCreated):
            raise CodecError("log", "an event log starts with game_created")
        state = GameState.created(first)
        log: list[GameEvent] = [first]
        for event in iterator:
            state = state.apply(event)
            log.append(event)
        return cls(tuple(log), state)

    @classmethod
    def from_dicts(cls, data: Iterable[Mapping[str, object]]) -> MatchGame:
        """Replay stored event dicts (those written before the kit's codec, with ``kind``, too)."""
        return cls.replay(event_from_dict(item) for item in data)

    def to_dicts(self) -> list[dict[str, object]]:
        return [event_to_dict(event) for event in self.events]

    def apply(self, event: GameEvent) -> MatchGame:
        return MatchGame((*self.events, event), self.state.apply(event))

    # --- before the game -------------------------------------------------------------------------

    def postpone(self, reason: str, *, now_ms: int) -> MatchGame:
        """TK-A1: the chief arbiters' board postpones the game for a recognised reason."""
        if not reason.strip():
            raise Refused(TogyzCode.POSTPONEMENT_NEEDS_REASON, clause="TK-A1")
        return self.apply(ev.GamePostponed(now_ms, reason))

    def confirm_setup(self, side: Side, *, now_ms: int) -> MatchGame:
        """TK-B5: ``side`` has checked the starting set-up."""
        return self.apply(ev.SetupConfirmed(now_ms, side))

    def complain_setup(self, side: Side, *, now_ms: int) -> MatchGame:
        """TK-B5: ``side`` reports a fault in the set-up; refused once the game has started."""
        return self.apply(ev.SetupComplained(now_ms, side))

    def start(self, *, now_ms: int, absent: Iterable[Side] = ()) -> MatchGame:
        """Start the бастаушы's clock (TK-C5, TK-B4); ``absent`` players have not come yet (TK-C6).

        When the arbiter starts the clock once both players are ready (TK-B4), both must have confirmed the
        set-up first (TK-B5). Checked here, on the command, not in the fold: logs written before the
        confirmation existed replay as they were."""
        absent = tuple(sorted(set(absent)))
        state = self.state
        if not absent and state.settings.start_mode is StartMode.WHEN_READY and not state.started:
            for side in (WHITE, BLACK):
                if side not in state.setup_confirmed:
                    raise Refused(TogyzCode.SETUP_NOT_CONFIRMED, player=state.player(side), clause="TK-B5")
        return self.apply(ev.GameStarted(now_ms, absent))

    def arrive(self, side: Side, *, now_ms: int) -> MatchGame:
        """A late player arrives; the lateness is taken from their time (TK-C6)."""
        return self.apply(ev.PlayerArrived(now_ms, side))

    def declare_default(self, *, now_ms: int) -> MatchGame:
        """Players still absent more than 30 minutes after the round start lose by default (TK-R4)."""
        return self.apply(ev.DefaultDeclared(now_ms))

    # --- playing ---------------------------------------------------------------------------------

    def move(
        self,
        side: Side,
        hole: int,
        *,
        now_ms: int,
        offer_draw: bool = False,
        press: bool = True,
        lag_ms: int = 0,
    ) -> MatchGame:
        """``side`` sows from ``hole``, optionally offers a draw (TK-R8), and presses the clock (TK-C7).

        A player whose flag falls while making the move completes it (TK-B8): the flag fall is recorded right
        after, unless the move itself ended the game (82 wins, TK-R7).
        """
        game = self.apply(ev.MovePlayed(now_ms, side, hole))
        if game.state.is_over:
            return game
        if game.state.automatic_flag(now_ms) is side:
            return game.apply(ev.FlagFell(now_ms, side))
        if offer_draw:
            game = game.apply(ev.DrawOffered(now_ms, side))
        if press:
            game = game.apply(ev.ClockPressed(now_ms, side, lag_ms))
        return game

    def offer_draw(self, side: Side, *, now_ms: int) -> MatchGame:
        return self.apply(ev.DrawOffered(now_ms, side))

    def press(self, side: Side, *, now_ms: int, lag_ms: int = 0) -> MatchGame:
        return self.apply(ev.ClockPressed(now_ms, side, lag_ms))

    def accept_draw(self, side: Side, *, now_ms: int) -> MatchGame:
        return self.apply(ev.DrawAccepted(now_ms, side))

    def decline_draw(self, side: Side, *, now_ms: int) -> MatchGame:
        return self.apply(ev.DrawDeclined(now_ms, side))

    def resign(self, side: Side, *, now_ms: int) -> MatchGame:
        return self.apply(ev.Resigned(now_ms, side))

    def take_back(self, side: Side, *, now_ms: int) -> MatchGame:
        """In a practice game, on ``side``'s turn: take back its last move and the engine's reply to it."""
        return self.apply(ev.MovesTakenBack(now_ms, side, 2))

    # --- flags -----------------------------------------------------------------------------------

    def tick(self, *, now_ms: int) -> MatchGame:
        """Record an automatic flag fall that is due at ``now_ms`` (TK-B10); otherwise the game unchanged.

        The live room calls this at ``state.clock.flag_deadline_ms(...)``.
        """
        flagged = self.state.automatic_flag(now_ms)
        return self if flagged is None else self.apply(ev.FlagFell(now_ms, flagged))

    def claim_flag(self, by: Actor, *, now_ms: int, side: Side | None = None) -> MatchGame:
        """The arbiter or a player announces a flag fall (TK-B9). A player claims the opponent's flag."""
        if side is None:
            if by.side is not None:
                side = by.side.other
            else:
                out = [s for s in (WHITE, BLACK) if self.state.clock.is_out(s, now_ms)]
                if len(out) != 1:
                    raise Refused(TogyzCode.FLAGGED_SIDE_UNKNOWN)
                side = out[0]
        return self.apply(ev.FlagFell(now_ms, side, by))

    def extend_both_flags(self, *, now_ms: int) -> MatchGame:
        """TK-C14: both flags are down; give each player the configured extra time (5 min)."""
        return self.apply(ev.BothFlagsExtended(now_ms))

    # --- the arbiter's clock controls ------------------------------------------------------------

    def pause(self, by: Actor, *, now_ms: int) -> MatchGame:
        """Stop the clock: a player addressing the arbiter (TK-C15) or the arbiter."""
        return self.apply(ev.ClockPaused(now_ms, by))

    def resume(self, *, now_ms: int) -> MatchGame:
        """The arbiter restarts the clock; the game continues (TK-C18)."""
        return self.apply(ev.ClockResumed(now_ms))

    def set_clocks(self, white_ms: int, black_ms: int, *, now_ms: int, reason: str = "") -> MatchGame:
        """Set both dials (a replaced clock, TK-C10; a clock set late, TK-C11)."""
        return self.apply(ev.ClocksSet(now_ms, white_ms, black_ms, reason))

    def set_late_clock(self, played_without_clock_ms: int, *, now_ms: int) -> MatchGame:
        """TK-C11: split what is left of the control equally, at least 15 minutes each."""
        each = late_clock_allowance(self.state.control, played_without_clock_ms)
        return self.set_clocks(each, each, now_ms=now_ms, reason="clock set late (TK-C11)")

    def add_time(
        self,
        side: Side,
        delta_ms: int,
        *,
        now_ms: int,
        reason: str = "",
        confirmed: bool = False,
        by: str = "",
        by_rule: bool = False,
    ) -> MatchGame:
        """Add (or, negative, take) time on ``side``'s dial (TK-B3, TK-C15). Taking more than is left is refused:
        a typo must not empty a clock (the dial would show 0:00 and the flag fall at once). Checked on the
        command, not in the fold, so that logs written before the check replay as they were.

        In a tournament game a correction by more than ``clock_correction_warning_ms`` is a departure from the
        regulation (issue 29): refused until the arbiter ``confirmed`` it and gave the ``reason``; then marked
        (``departure``, ``by``) for the tournament. A rule's own penalty (``by_rule``, TK-C15) is no departure."""
        state = self.state
        limit = state.settings.clock_correction_warning_ms
        departure = not by_rule and limit is not None and abs(delta_ms) > limit
        if departure:
            assert limit is not None
            sign = "-" if delta_ms < 0 else "+"
            why = Refusal(TogyzCode.CORRECTION_UNCONFIRMED, {
                "player": state.player(side), "change": sign + format_seconds(abs(delta_ms)),
                "limit": format_seconds(limit), "clause": "TK-B3", "level": "warning"})  # fmt: skip
            if not confirmed:
                raise Refused(why)
            if not reason.strip():
                raise Refused(Refusal(TogyzCode.CORRECTION_NEEDS_REASON, why.params))
        if state.clock.state is not ClockState.STOPPED:
            left = state.clock.remaining(side, max(now_ms, state.last_at_ms))
            if left + delta_ms < 0:
                raise Refused(
                    TogyzCode.TIME_BELOW_ZERO,
                    player=state.player(side),
                    remaining=format_seconds(left),
                    taken=format_seconds(-delta_ms),
                )
            if left + delta_ms > MAX_CLOCK_MS:
                raise Refused(
                    TogyzCode.TIME_ABOVE_LIMIT,
                    player=state.player(side),
                    after=format_seconds(left + delta_ms),
                    limit=format_seconds(MAX_CLOCK_MS),
                )
        if departure:
            return self.apply(ev.TimeAdded(now_ms, side, delta_ms, reason.strip(), departure=True, by=by))
        return self.apply(ev.TimeAdded(now_ms, side, delta_ms, reason))

    def penalise_groundless_stop(self, side: Side, *, now_ms: int) -> MatchGame:
        """TK-C15: ``side`` stopped the clock without ground; the configured time is taken from them."""
        penalty = self.state.settings.groundless_stop_penalty_ms
        # The rule's own penalty (TK-C15), not a correction the arbiter chose: no departure however large.
        return self.add_time(side, -penalty, now_ms=now_ms, reason="groundless clock stop (TK-C15)", by_rule=True)

    # --- adjournment -----------------------------------------------------------------------------

    def adjourn(self, side: Side, hole: int, salt: str, *, now_ms: int) -> MatchGame:
        """TK-A2, TK-A3: ``side`` (to move) seals ``hole``; only the commitment over hole and salt is stored.

        The hole and the salt stay with the sealer (or sealed storage) until :meth:`open_envelope`.
        """
        if not 1 <= hole <= 9:
            raise Refused(TogyzCode.NO_SUCH_HOLE, hole=hole)
        state = self.state
        checked = state.settings.sealed_move_policy is SealedMovePolicy.REFUSE_ILLEGAL and side is state.board.turn
        if checked and hole not in state.board.legal_moves():
            raise Refused(TogyzCode.SEALED_MOVE_ILLEGAL, player=state.player(side), hole=hole)
        return self.apply(ev.GameAdjourned(now_ms, side, commit(hole, salt)))

    def open_envelope(self, hole: int, salt: str, *, now_ms: int) -> MatchGame:
        """TK-A4: reveal the sealed move, check it against the commitment, start the sealer's clock."""
        return self.apply(ev.EnvelopeOpened(now_ms, hole, salt))

    # --- after the game --------------------------------------------------------------------------

    def decide(self, result: GameResult, reason: str, *, now_ms: int) -> MatchGame:
        """A result set by the arbiters (disqualification, TK-C14 dispute, …)."""
        return self.apply(ev.ArbiterDecided(now_ms, result, reason))

    def sign(self, side: Side, *, now_ms: int) -> MatchGame:
        """A player signs the result (TK-P2, TK-P9); in blitz and rapid no score sheet is kept (TK-B2), so there
        is nothing to sign (checked on the command: older logs replay as they were)."""
        if self.state.ending is not None and not self.state.keeps_score_sheets:
            raise Refused(TogyzCode.NO_SCORE_SHEETS, clause="TK-B2")
        return self.apply(ev.ResultSigned(now_ms, side))

    def file_protest(self, side: Side, *, now_ms: int) -> MatchGame:
        """A protest on behalf of ``side`` (TK-P1); not considered if ``side`` signed first (TK-P2).

        One per game and side: the room cannot decide a protest (the tournament's desk does), so a repeat is
        refused rather than stored again. Checked on the command, so that older logs replay as they were."""
        if any(protest.side is side for protest in self.state.protests):
            raise Refused(TogyzCode.PROTEST_ALREADY_FILED, player=self.state.player(side))
        return self.apply(ev.ProtestFiled(now_ms, side))
