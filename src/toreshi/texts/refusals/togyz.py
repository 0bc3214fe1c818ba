"""Messages of the togyz game's refusals (:class:`~toreshi.togyz.match.codes.TogyzCode`), of time controls
(:class:`~toreshi.clock.codes.ClockCode`) and of the JSON API that creates games
(:class:`~toreshi.refusal_codes.ApiCode`).

A message names the players by the names the game was created with (``%(player)s``), never by their side, and
cites its clause (``%(clause)s``). The translations avoid putting a case ending on a name (Kazakh and Russian
decline names; a name from a form cannot be declined by a program): they say "Асқар: …", not "Асқардың …".
"""

from __future__ import annotations

from toreshi.clock.codes import ClockCode
from toreshi.kit.refusal import RefusalCode
from toreshi.refusal_codes import ApiCode
from toreshi.texts.i18n import N_
from toreshi.togyz.match.codes import TogyzCode

MESSAGES: dict[RefusalCode, str] = {
    TogyzCode.NO_GAME: N_("The game has not been created yet."),
    TogyzCode.ALREADY_CREATED: N_("This game has already been created."),
    TogyzCode.GAME_OVER: N_("The game is over (%(result)s)."),
    TogyzCode.NOT_STARTED: N_("The game has not started yet."),
    TogyzCode.ALREADY_STARTED: N_("The game has already started."),
    TogyzCode.CLOCK_PAUSED: N_("The clock is stopped: the arbiter restarts it first."),
    TogyzCode.CLOCK_NOT_PAUSED: N_("The clock is running: there is nothing to restart."),
    TogyzCode.GAME_ADJOURNED: N_("The game is adjourned until the envelope is opened."),
    TogyzCode.NOT_ADJOURNED: N_("The game is not adjourned: there is no envelope to open."),
    TogyzCode.FLAG_FALLEN: N_("%(player)s's flag has fallen: the flag fall is recorded first."),
    TogyzCode.START_WHEN_READY: N_(
        "In this game the arbiter starts the clock once both players are ready (%(clause)s)."
    ),
    TogyzCode.NOT_ARRIVED: N_("%(player)s has not arrived yet (%(clause)s)."),
    TogyzCode.ALREADY_PRESENT: N_("%(player)s is already here."),
    TogyzCode.ARRIVED_TOO_LATE: N_(
        "%(player)s came %(minutes)s min after the round start, more than %(limit)s min: the game is lost by "
        "default (%(clause)s)."
    ),
    TogyzCode.DEFAULT_TOO_EARLY: N_(
        "A default is declared more than %(limit)s min after the round start; %(minutes)s min have passed (%(clause)s)."
    ),
    TogyzCode.NOBODY_ABSENT: N_("Both players are here: nobody can lose by default."),
    TogyzCode.SETUP_NOT_CONFIRMED: N_(
        "%(player)s has not confirmed the set-up yet: the clock starts once both players have (%(clause)s)."
    ),
    TogyzCode.SETUP_ALREADY_CONFIRMED: N_("%(player)s has already confirmed the set-up."),
    TogyzCode.SETUP_COMPLAINT_TOO_LATE: N_(
        "The game has started: the set-up is checked before the start, and no complaint about it is accepted after "
        "(%(clause)s)."
    ),
    TogyzCode.NOT_YOUR_TURN: N_("It is %(to_move)s's move, not %(player)s's."),
    TogyzCode.OPPONENT_MUST_PRESS: N_("%(player)s moves only after %(opponent)s has pressed the clock (%(clause)s)."),
    TogyzCode.NOT_YOUR_CLOCK: N_("%(player)s cannot press the clock: %(opponent)s's clock is running."),
    TogyzCode.PRESS_WITHOUT_MOVE: N_(
        "%(player)s may not start %(opponent)s's clock without having made a move (%(clause)s)."
    ),
    TogyzCode.NO_SUCH_HOLE: N_("There is no hole %(hole)s: the holes are numbered 1 to 9."),
    TogyzCode.TAKEBACK_NOT_PRACTICE: N_("A move can be taken back only in a practice game against the computer."),
    TogyzCode.NOTHING_TO_TAKE_BACK: N_("%(player)s has no move answered by the computer to take back yet."),
    TogyzCode.HOLE_EMPTY: N_("%(player)s's hole %(hole)s is empty."),
    TogyzCode.MUST_PLAY_SEALED_MOVE: N_("%(player)s must play the sealed move, hole %(hole)s (%(clause)s)."),
    TogyzCode.DRAW_OFFER_TIMING: N_(
        "%(player)s may offer a draw only after making a move and before pressing the clock (%(clause)s)."
    ),
    TogyzCode.DRAW_ALREADY_OFFERED: N_("%(player)s has already offered a draw in this game (%(clause)s)."),
    TogyzCode.NO_DRAW_OFFER: N_("%(player)s has no draw offer to answer."),
    TogyzCode.FLAG_NEEDS_CLAIM: N_(
        "In this game a flag fall counts only when the arbiter or a player announces it (%(clause)s)."
    ),
    TogyzCode.FLAG_NOT_FALLEN: N_("%(player)s's flag has not fallen."),
    TogyzCode.BOTH_FLAGS_DOWN: N_(
        "Both flags are down: the arbiter may give both players more time or decide the result (%(clause)s)."
    ),
    TogyzCode.NOT_BOTH_FLAGS_DOWN: N_(
        "Extra time for both players is given only when both flags are down (%(clause)s)."
    ),
    TogyzCode.REQUIRED_MOVES_MADE: N_("%(player)s has made the %(moves)s moves the period requires (%(clause)s)."),
    TogyzCode.FLAGGED_SIDE_UNKNOWN: N_("Choose the player whose flag has fallen."),
    TogyzCode.FLAG_IS_AUTOMATIC: N_(
        "In this game the clock itself records a flag fall: nobody claims it (%(clause)s)."
    ),
    TogyzCode.SEAL_WITHOUT_ADJOURNMENT: N_("A move is sealed only when the arbiter adjourns the game (%(clause)s)."),
    TogyzCode.ADJOURNMENT_ALREADY_REQUESTED: N_("The adjournment has already been announced."),
    TogyzCode.NO_ADJOURNMENT: N_("No adjournment has been announced."),
    TogyzCode.SEAL_ONLY_WHILE_ADJOURNING: N_(
        "The arbiter has adjourned the game: %(player)s seals the move, nobody plays openly (%(clause)s)."
    ),
    TogyzCode.SEALER_NOT_TO_MOVE: N_("The player to move seals the move: %(to_move)s, not %(player)s."),
    TogyzCode.SEAL_AFTER_PRESS: N_("%(player)s has moved on the board: press the clock first."),
    TogyzCode.SEALED_MOVE_ILLEGAL: N_("%(player)s's hole %(hole)s is empty: it cannot be sealed."),
    TogyzCode.SALT_TOO_SHORT: N_("The envelope's secret part needs at least %(minimum)s characters."),
    TogyzCode.BAD_COMMITMENT: N_("The envelope's seal is not valid."),
    TogyzCode.ENVELOPE_NOT_INTACT: N_("This code does not open the envelope: the envelope is not intact (%(clause)s)."),
    TogyzCode.DECISION_NEEDS_REASON: N_("An arbiters' decision needs a reason."),
    TogyzCode.POSTPONEMENT_NEEDS_REASON: N_("A postponement needs a recognised reason (%(clause)s)."),
    TogyzCode.UNKNOWN_SETTING: N_("%(field)s: there is no such game setting."),
    TogyzCode.TIME_BELOW_ZERO: N_(
        "%(player)s has %(remaining)s left: %(taken)s cannot be taken away, the clock would go below zero."
    ),
    TogyzCode.TIME_ABOVE_LIMIT: N_("%(player)s would have %(after)s: a clock holds at most %(limit)s."),
    TogyzCode.CORRECTION_UNCONFIRMED: N_(
        "%(player)s: %(change)s is more than %(limit)s, a departure from the regulation (%(clause)s): confirm it "
        "and write the reason."
    ),
    TogyzCode.CORRECTION_NEEDS_REASON: N_(
        "%(player)s: %(change)s is more than %(limit)s, a departure from the regulation (%(clause)s): write the reason."
    ),
    TogyzCode.SAME_NAMES: N_(
        "Both players are called %(name)s: write the names so that they can be told apart (add an initial, a city)."
    ),
    TogyzCode.SIGN_BEFORE_END: N_("The result is signed after the end of the game."),
    TogyzCode.NO_SCORE_SHEETS: N_(
        "No score sheets are kept in blitz and rapid: there is nothing to sign; the record is kept (%(clause)s)."
    ),
    TogyzCode.ALREADY_SIGNED: N_("%(player)s has already signed the result."),
    TogyzCode.PROTEST_BEFORE_END: N_("A protest is filed after the end of the game."),
    TogyzCode.PROTEST_TOO_LATE: N_(
        "A protest is filed within %(limit)s min of the end of the game; %(minutes)s min have passed (%(clause)s)."
    ),
    TogyzCode.PROTEST_ALREADY_FILED: N_(
        "A protest on behalf of %(player)s is already filed for this game; the arbiters decide it."
    ),
    TogyzCode.CALL_ALREADY_OPEN: N_("%(player)s has already called the arbiter: the arbiter is on the way."),
    TogyzCode.CALL_TOO_SOON: N_("%(player)s called the arbiter %(seconds)s s ago: call again after %(limit)s s."),
    TogyzCode.NO_ARBITER_IN_PRACTICE: N_("A practice game has no arbiter to call."),
    TogyzCode.NO_OPEN_CALL: N_("%(player)s has not called the arbiter: there is no call to answer."),
    ClockCode.NO_PERIOD: N_("A time control needs at least one period."),
    ClockCode.PERIOD_TIME_NOT_POSITIVE: N_("Each period needs a time longer than zero."),
    ClockCode.PERIOD_MOVES_NOT_POSITIVE: N_("A period's number of moves must be at least 1."),
    ClockCode.PERIOD_NEEDS_MOVES: N_("Period %(period)s is not the last one, so it needs a number of moves."),
    ClockCode.FINAL_PERIOD_HAS_MOVES: N_("The last period covers the rest of the game: give it no number of moves."),
    ClockCode.NEGATIVE_INCREMENT: N_("The increment and the delay cannot be negative."),
    ClockCode.INCREMENT_AND_DELAY: N_("Choose an increment or a delay, not both (%(clause)s)."),
    ClockCode.NEGATIVE_ELAPSED: N_("The time played without a clock cannot be negative."),
    ApiCode.SIGN_IN_REQUIRED: N_("Sign in as an arbiter first."),
    ApiCode.CSRF_FAILED: N_("The request's form token is missing or wrong; reload the page and try again."),
    ApiCode.BODY_NOT_JSON: N_("The request must be a JSON object."),
    ApiCode.UNKNOWN_TIME_CONTROL: N_("%(control)s is not a time control; choose one of: %(presets)s."),
    ApiCode.NO_SUCH_ROOM: N_("There is no such room."),
}

TERMS: dict[str, str] = {
    # the fields of the togyz commands
    "salt": N_("Envelope code"),
    "side": N_("Player"),
    "ms": N_("Time"),
    "white_ms": N_("White"),
    "black_ms": N_("Black"),
    "reason": N_("Reason"),
    "result": N_("Result"),
    "absent": N_("Absent at the start"),
    "lag_ms": N_("Network delay"),
    "press": N_("Press the clock"),
    "offer_draw": N_("Offer a draw"),
    "white": N_("White"),
    "black": N_("Black"),
    "text": N_("Text"),
    # a time control
    "control": N_("Time control"),
    "periods": N_("Periods"),
    "time_ms": N_("Period time"),
    "moves": N_("Number of moves"),
    "increment_ms": N_("Increment"),
    "delay_ms": N_("Delay"),
    # the game settings
    "settings": N_("Game settings"),
    "start_mode": N_("Start of the clock"),
    "flag_mode": N_("Flag fall"),
    "flag_with_81_draws": N_("Flag fall with 81 kumalaks"),
    "complete_move_after_flag": N_("Completing the move after a flag fall"),
    "late_limit_ms": N_("Latest arrival"),
    "both_flags_extra_ms": N_("Extra time when both flags are down"),
    "groundless_stop_penalty_ms": N_("Penalty for a groundless clock stop"),
    "sealed_move_policy": N_("Sealed move check"),
    "sign_deadline_ms": N_("Time to sign the result"),
    "protest_window_ms": N_("Time to file a protest"),
    "scoring_optional_below_ms": N_("Score sheet optional below"),
    "lag_compensation": N_("Network delay compensation"),
    "score_sheets": N_("Score sheets"),
    "bonus": N_("Increment or delay"),
    "event": N_("Competition"),
    "round": N_("Round"),
    "board": N_("Board"),
    # the roles of a togyz room
    "arbiter": N_("Arbiter"),
    "spectator": N_("Spectator"),
}
