"""Why a time control cannot be played: the clock's refusal codes (their messages are in ``toreshi.texts.refusals``)."""

from __future__ import annotations

from toreshi.kit.refusal import RefusalCode


class ClockCode(RefusalCode):
    """A time control refused as it was described (by an organiser's form, a client's ``create``)."""

    NO_PERIOD = "time_control_without_period"
    """A time control needs at least one period."""
    PERIOD_TIME_NOT_POSITIVE = "period_time_not_positive"
    """A period's time is zero or negative."""
    PERIOD_MOVES_NOT_POSITIVE = "period_moves_not_positive"
    """A period's number of moves is zero or negative."""
    PERIOD_NEEDS_MOVES = "period_needs_moves"
    """``period`` (1-based) is not the last one, so it needs a number of moves."""
    FINAL_PERIOD_HAS_MOVES = "final_period_has_moves"
    """The last period covers the rest of the game and takes no number of moves."""
    NEGATIVE_INCREMENT = "increment_negative"
    """An increment or a delay below zero."""
    INCREMENT_AND_DELAY = "increment_and_delay"
    """An increment or a delay, never both (``clause``)."""
    NEGATIVE_ELAPSED = "elapsed_negative"
    """The time played without a clock (TK-C11) cannot be negative."""
