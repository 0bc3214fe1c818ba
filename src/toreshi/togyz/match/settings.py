"""The settings of one game: the regulation's defaults, each one changeable by the organiser.

>>> GameSettings().late_limit_ms // 60_000
30
>>> GameSettings.from_dict(GameSettings(flag_mode=FlagMode.CLAIM).to_dict()).flag_mode
<FlagMode.CLAIM: 'claim'>
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from enum import Enum

from toreshi.clock.flag import FlagMode
from toreshi.clock.timecontrol import minutes


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


class SettingsError(ValueError):
    """Settings that cannot be read or make no sense."""


@dataclass(frozen=True, slots=True)
class GameSettings:
    start_mode: StartMode = StartMode.ROUND_START
    flag_mode: FlagMode = FlagMode.AUTOMATIC
    """AUTOMATIC at 00:00 (TK-B10) or CLAIM by the arbiter or a player (TK-B9)."""
    flag_with_81_draws: bool = True
    """TK-C12: a flagged player with exactly 81 cannot lose on the board; the project scores it a draw."""
    complete_move_after_flag: bool = True
    """TK-B8: a player whose flag falls while making the move completes it (and wins with 82, TK-R7)."""
    late_limit_ms: int = minutes(30)
    """TK-R4, TK-C6: arriving later than this after the round start loses by default."""
    both_flags_extra_ms: int = minutes(5)
    """TK-C14: the time the arbiter may give each player when both flags are down."""
    groundless_stop_penalty_ms: int = minutes(2)
    """TK-C15: taken from a player who stopped the clock without ground."""
    sealed_move_policy: SealedMovePolicy = SealedMovePolicy.REFUSE_ILLEGAL
    sign_deadline_ms: int = minutes(30)
    """TK-P9: a player who has not signed within this time after the end (and filed no protest) is warned."""
    protest_window_ms: int = minutes(30)
    """TK-P1: a protest is filed within this time after the end of the game."""
    scoring_optional_below_ms: int = minutes(5)
    """TK-C17: with this much time left or less, a player may stop keeping the score sheet."""
    lag_compensation: bool = False
    """Online play: forgive reported network lag within a per-move allowance (docs/realtime.md §3)."""

    def __post_init__(self) -> None:
        for name in ("late_limit_ms", "both_flags_extra_ms", "groundless_stop_penalty_ms", "sign_deadline_ms",
                     "protest_window_ms", "scoring_optional_below_ms"):
            if getattr(self, name) < 0:
                raise SettingsError(f"{name} cannot be negative")

    def to_dict(self) -> dict[str, object]:
        return {key: value.value if isinstance(value, Enum) else value for key, value in asdict(self).items()}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> GameSettings:
        """Read :meth:`to_dict` output; unknown keys and wrong types are refused, missing keys take defaults."""
        known = {field.name: field for field in fields(cls)}
        unknown = set(data) - set(known)
        if unknown:
            raise SettingsError(f"unknown game settings: {sorted(unknown)}")
        default = cls()
        values: dict[str, object] = {}
        for name, raw in data.items():
            current = getattr(default, name)
            try:
                if isinstance(current, Enum):
                    values[name] = type(current)(raw)
                elif isinstance(current, bool):
                    if not isinstance(raw, bool):
                        raise TypeError
                    values[name] = raw
                else:
                    if not isinstance(raw, int) or isinstance(raw, bool):
                        raise TypeError
                    values[name] = raw
            except (TypeError, ValueError):
                raise SettingsError(f"setting {name!r} cannot be {raw!r}") from None
        return cls(**values)  # type: ignore[arg-type]
