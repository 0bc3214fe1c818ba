"""The settings of one game: the regulation's defaults, each one changeable by the organiser.

>>> GameSettings().late_limit_ms // 60_000
30
>>> GameSettings(late_limit_ms=-1)
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_too_small (field='late_limit_ms', minimum=0)

They travel as their own JSON object (the kit's codec reads and writes every field; see
:mod:`toreshi.togyz.match.commands` for a client's, :mod:`toreshi.togyz.match.events` for the log's).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import Enum

from toreshi.clock.flag import FlagMode
from toreshi.clock.timecontrol import TimeControl, minutes
from toreshi.kit.codec import spec
from toreshi.kit.refusal import Common, Refused
from toreshi.side import Side

MAX_SETTING_MS = minutes(24 * 60)
"""No waiting time of a game is longer than a day."""


def _duration(default_ms: int) -> int:
    # A dataclass field of milliseconds that a client may set: not negative, at most a day.
    found: int = field(default=default_ms, metadata=spec(minimum=0, maximum=MAX_SETTING_MS))
    return found


class StartMode(Enum):
    ROUND_START = "round_start"
    """The бастаушы's clock starts when the round is announced; a late player's time runs (TK-C5, TK-C6)."""
    WHEN_READY = "when_ready"
    """The arbiter starts the clock once both players are ready (TK-B4, blitz and rapid)."""


class SealedMovePolicy(Enum):
    REFUSE_ILLEGAL = "refuse_illegal"
    """The device checks the sealed move when it is entered and refuses an illegal one (nothing is revealed)."""
    ILLEGAL_LOSES = "illegal_loses"
    """As on paper: any hole 1–9 can be sealed; an illegal sealed move loses when the envelope is opened."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    start_mode: StartMode = StartMode.ROUND_START
    flag_mode: FlagMode = FlagMode.AUTOMATIC
    """AUTOMATIC at 00:00 (TK-B10) or CLAIM by the arbiter or a player (TK-B9)."""
    flag_with_81_draws: bool = True
    """TK-C12: a flagged player with exactly 81 cannot lose on the board; the project scores it a draw."""
    complete_move_after_flag: bool = True
    """TK-B8: a player whose flag falls while making the move completes it (and wins with 82, TK-R7)."""
    late_limit_ms: int = _duration(minutes(30))
    """TK-R4, TK-C6: arriving later than this after the round start loses by default."""
    both_flags_extra_ms: int = _duration(minutes(5))
    """TK-C14: the time the arbiter may give each player when both flags are down."""
    groundless_stop_penalty_ms: int = _duration(minutes(2))
    """TK-C15: taken from a player who stopped the clock without ground."""
    sealed_move_policy: SealedMovePolicy = SealedMovePolicy.REFUSE_ILLEGAL
    sign_deadline_ms: int = _duration(minutes(30))
    """TK-P9: a player who has not signed within this time after the end (and filed no protest) is warned."""
    protest_window_ms: int = _duration(minutes(30))
    """TK-P1: a protest is filed within this time after the end of the game."""
    scoring_optional_below_ms: int = _duration(minutes(5))
    """TK-C17: with this much time left or less, a player may stop keeping the score sheet."""
    lag_compensation: bool = False
    """Online play: forgive reported network lag within a per-move allowance (docs/realtime.md §3)."""
    practice_level: int = field(default=0, metadata=spec(minimum=0, maximum=6))
    """A practice game against the engine at this level (1-6, :data:`toreshi.togyz.engine.LEVELS`); 0: a game
    between people. Only a practice game allows a takeback."""
    engine_side: Side | None = None
    """The side the engine plays in a practice game."""
    practice_listed: bool = False
    """A practice game shown in the public list of games (its player asked for it); by default it is private."""
    clock_correction_warning_ms: int | None = field(default=None, metadata=spec(minimum=0, maximum=MAX_SETTING_MS))
    """A tournament game: the arbiter's clock correction (``add_time``) by more than this is a departure from the
    regulation, done only confirmed and with a reason, and carried into the tournament (issue 29); ``None``: a
    game of no tournament, no limit."""
    score_sheets: bool | None = None
    """Whether the players keep (and sign) score sheets; ``None``: by the time control, not in blitz and rapid
    (TK-B2, :func:`keeps_score_sheets`)."""

    def __post_init__(self) -> None:
        for name in DURATIONS:
            if getattr(self, name) < 0:
                raise Refused(Common.FIELD_TOO_SMALL, field=name, minimum=0)


FAST_GAME_BELOW_MS = minutes(60)
"""Blitz and rapid (TK-B3: 7 and 20 minutes) are the controls that give each player less than an hour for the
game, 60 moves' increment or delay counted in (FIDE's convention for telling rapid from standard play)."""


def is_fast(control: TimeControl) -> bool:
    """Blitz or rapid (TK-B section): less than :data:`FAST_GAME_BELOW_MS` per player for the game.

    >>> from toreshi.clock.presets import BLITZ, RAPID, CLASSICAL_60
    >>> is_fast(BLITZ), is_fast(RAPID), is_fast(CLASSICAL_60)
    (True, True, False)
    """
    return control.total_ms + 60 * (control.increment_ms + control.delay_ms) < FAST_GAME_BELOW_MS


def keeps_score_sheets(control: TimeControl, settings: GameSettings) -> bool:
    """Whether the players of a game keep and sign score sheets: not in blitz and rapid (TK-B2) unless the
    organiser says otherwise. Without sheets nobody is asked to sign and no unsigned-sheet warning (TK-P9) is
    given; the digital record of every move is kept all the same."""
    if settings.score_sheets is not None:
        return settings.score_sheets
    return not is_fast(control)


SETTING_NAMES = frozenset(f.name for f in fields(GameSettings))
DURATIONS = ("late_limit_ms", "both_flags_extra_ms", "groundless_stop_penalty_ms", "sign_deadline_ms",
             "protest_window_ms", "scoring_optional_below_ms")  # fmt: skip
