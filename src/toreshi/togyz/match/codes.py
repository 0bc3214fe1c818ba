"""Why the refereed match refuses a command: its refusal codes (messages in ``toreshi.texts.refusals.togyz``).

A refusal names people, not sides — ``player`` (the one whose command was refused), ``opponent`` or ``to_move``
are the names the game was created with — and cites the regulation's clause as ``clause`` (``TK-R8``) where the
rule comes from one. Durations are whole ``minutes``; holes are numbers 1–9.
"""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode


class TogyzCode(RefusalCode):
    """Every refusal of a togyz game (:mod:`toreshi.togyz.match.state` and :mod:`~toreshi.togyz.match.core`)."""

    # --- the game's phase ----------------------------------------------------------------------------------
    NO_GAME = "no_game"
    """The game has not been created yet (only the arbiter's ``create`` is accepted)."""
    ALREADY_CREATED = "game_already_created"
    GAME_OVER = "game_over"
    """``result``: only signatures and protests are accepted after the end."""
    NOT_STARTED = "game_not_started"
    ALREADY_STARTED = "game_already_started"
    CLOCK_PAUSED = "clock_paused"
    """The clock is stopped: no move or press until the arbiter restarts it."""
    CLOCK_NOT_PAUSED = "clock_not_paused"
    GAME_ADJOURNED = "game_adjourned"
    NOT_ADJOURNED = "game_not_adjourned"
    FLAG_FALLEN = "flag_fallen"
    """``player``'s flag has fallen (automatic mode, TK-B10): the fall is recorded before anything else."""
    START_WHEN_READY = "start_when_ready"
    """``clause``: in this start mode the arbiter starts the clock once both players are there."""

    # --- arrival and default -------------------------------------------------------------------------------
    NOT_ARRIVED = "not_arrived"
    """``player`` has not arrived (``clause``)."""
    ALREADY_PRESENT = "already_present"
    ARRIVED_TOO_LATE = "arrived_too_late"
    """``player`` came ``minutes`` after the round start, more than the ``limit``: lost by default (``clause``)."""
    DEFAULT_TOO_EARLY = "default_too_early"
    """Only ``minutes`` of the ``limit`` have passed since the round start (``clause``)."""
    NOBODY_ABSENT = "nobody_absent"
    SETUP_NOT_CONFIRMED = "setup_not_confirmed"
    """``player`` has not confirmed the set-up yet: the arbiter starts the clock once both have (``clause``)."""
    SETUP_ALREADY_CONFIRMED = "setup_already_confirmed"
    """``player`` has already confirmed the set-up."""
    SETUP_COMPLAINT_TOO_LATE = "setup_complaint_too_late"
    """The game has started: no complaint about the set-up is accepted any more (``clause``)."""

    # --- moves and the clock -------------------------------------------------------------------------------
    NOT_YOUR_TURN = "not_your_turn"
    """``player`` tried to move; it is ``to_move``'s move."""
    OPPONENT_MUST_PRESS = "opponent_must_press"
    """``player`` moves only after ``opponent`` has pressed the clock (``clause``)."""
    NOT_YOUR_CLOCK = "not_your_clock"
    """``player`` cannot press: ``opponent``'s clock is running."""
    PRESS_WITHOUT_MOVE = "press_without_move"
    """``player`` may not start ``opponent``'s clock without having moved (``clause``)."""
    NO_SUCH_HOLE = "no_such_hole"
    """``hole`` is not a number 1–9."""
    HOLE_EMPTY = "hole_empty"
    """``player``'s ``hole`` has no kumalak to sow."""
    MUST_PLAY_SEALED_MOVE = "must_play_sealed_move"
    """After the envelope is opened ``player`` must play the sealed ``hole`` (``clause``)."""

    # --- practice games ---------------------------------------------------------------------------------------
    TAKEBACK_NOT_PRACTICE = "takeback_not_practice"
    """A move is taken back only in a practice game against the engine."""
    NOTHING_TO_TAKE_BACK = "nothing_to_take_back"
    """``player`` has no move of their own (answered by the engine) to take back yet."""

    # --- draws ---------------------------------------------------------------------------------------------
    DRAW_OFFER_TIMING = "draw_offer_timing"
    """A draw is offered after one's own move and before the press (``clause``)."""
    DRAW_ALREADY_OFFERED = "draw_already_offered"
    """One draw offer per player per game (``clause``)."""
    NO_DRAW_OFFER = "no_draw_offer"
    """``player`` has no draw offer to answer."""

    # --- flags ---------------------------------------------------------------------------------------------
    FLAG_NEEDS_CLAIM = "flag_needs_claim"
    """In claim mode a flag counts only when announced (``clause``)."""
    FLAG_NOT_FALLEN = "flag_not_fallen"
    """``player``'s flag has not fallen."""
    BOTH_FLAGS_DOWN = "both_flags_down"
    """Neither fall can be claimed: the arbiter gives more time or decides (``clause``)."""
    NOT_BOTH_FLAGS_DOWN = "not_both_flags_down"
    """Extra time for both players is given only when both flags are down (``clause``)."""
    REQUIRED_MOVES_MADE = "required_moves_made"
    """``player`` made the ``moves`` the period requires (``clause``)."""
    FLAGGED_SIDE_UNKNOWN = "flagged_side_unknown"
    """The arbiter must say whose flag fell (none or both are down)."""
    FLAG_IS_AUTOMATIC = "flag_is_automatic"
    """In automatic mode the clock itself records a flag fall; a player does not claim it (``clause``)."""

    # --- adjournment and the sealed move -------------------------------------------------------------------
    SEAL_WITHOUT_ADJOURNMENT = "seal_without_adjournment"
    """A move is sealed only after the arbiters decide to adjourn (``clause``)."""
    ADJOURNMENT_ALREADY_REQUESTED = "adjournment_already_requested"
    NO_ADJOURNMENT = "no_adjournment"
    """There is no adjournment to cancel."""
    SEAL_ONLY_WHILE_ADJOURNING = "seal_only_while_adjourning"
    """The arbiters have adjourned the game: ``player`` only seals a move, nobody plays openly (``clause``)."""
    SEALER_NOT_TO_MOVE = "sealer_not_to_move"
    """Only the player to move (``to_move``) seals a move, not ``player``."""
    SEAL_AFTER_PRESS = "seal_after_press"
    """``player`` has moved on the board: the clock is pressed first."""
    SEALED_MOVE_ILLEGAL = "sealed_move_illegal"
    """``player``'s ``hole`` cannot be sealed: it is empty (the legality is checked when sealing)."""
    SALT_TOO_SHORT = "salt_too_short"
    """The salt of a sealed move has at least ``minimum`` characters."""
    BAD_COMMITMENT = "bad_commitment"
    """A commitment is 64 lowercase hex digits."""
    ENVELOPE_NOT_INTACT = "envelope_not_intact"
    """The revealed move and salt do not open the seal (``clause``)."""

    # --- the arbiters' decisions ---------------------------------------------------------------------------
    DECISION_NEEDS_REASON = "decision_needs_reason"
    POSTPONEMENT_NEEDS_REASON = "postponement_needs_reason"
    """``clause``: a postponement is for a recognised reason."""
    UNKNOWN_SETTING = "unknown_setting"
    """``field`` is not a game setting."""
    TIME_BELOW_ZERO = "time_below_zero"
    """``player`` has ``remaining`` (m:ss) left: taking ``taken`` (m:ss) would leave less than nothing."""
    TIME_ABOVE_LIMIT = "time_above_limit"
    """Adding to ``player``'s dial would make it ``after`` (h:mm:ss), more than a clock holds (``limit``)."""
    CORRECTION_UNCONFIRMED = "correction_unconfirmed"
    """Changing ``player``'s dial by ``change`` is more than the tournament's ``limit`` (m:ss): a departure from
    the regulation (``clause``, level ``level``); the arbiter confirms it."""
    CORRECTION_NEEDS_REASON = "correction_needs_reason"
    """The same, confirmed: the arbiter writes the reason."""
    SAME_NAMES = "same_names"
    """Both players are called ``name``: a record, the links and the standings could not tell them apart."""

    # --- calling the arbiter to the board -------------------------------------------------------------------
    CALL_ALREADY_OPEN = "call_already_open"
    """``player`` has already called the arbiter; the call stays open until the arbiter answers it."""
    CALL_TOO_SOON = "call_too_soon"
    """``player`` called the arbiter ``seconds`` ago: a new call waits until ``limit`` seconds have passed."""
    NO_ARBITER_IN_PRACTICE = "no_arbiter_in_practice"
    """A practice game against the engine has no arbiter to call."""
    NO_OPEN_CALL = "no_open_call"
    """``player`` has no open call to the arbiter to answer."""

    # --- after the end -------------------------------------------------------------------------------------
    SIGN_BEFORE_END = "sign_before_end"
    NO_SCORE_SHEETS = "no_score_sheets"
    """No score sheets are kept in this game (blitz and rapid, ``clause``): there is nothing to sign."""
    ALREADY_SIGNED = "already_signed"
    """``player`` has already signed."""
    PROTEST_BEFORE_END = "protest_before_end"
    PROTEST_TOO_LATE = "protest_too_late"
    """``minutes`` have passed since the end, more than the ``limit`` (``clause``)."""
    PROTEST_ALREADY_FILED = "protest_already_filed"
    """A protest on behalf of ``player`` is already filed (one per game and side until it is decided)."""
