"""A time control typed into a form: a preset, or periods (moves + minutes) with an increment or a delay (TK-C4).

The form sends ``control`` (a preset's name, or ``custom``) and, for a custom control, up to :data:`MAX_PERIODS`
rows ``period<N>_moves`` / ``period<N>_minutes`` (the last filled row has no moves: the rest of the game), then
``bonus`` (``none``, ``increment`` or ``delay``) and ``bonus_seconds``. Every problem is a
:class:`~toreshi.kit.refusal.Refused` naming the field (the clock's own checks then refuse what cannot be played:
a period without moves before the last, an increment with a delay…), which the page shows in its language.

>>> control = control_from_form({"control": "custom", "period1_moves": "40", "period1_minutes": "90",
...                              "period2_minutes": "30", "bonus": "increment", "bonus_seconds": "30"})
>>> str(control)
'40 moves in 90 min, then the rest in 30 min + 30 s per move'
>>> control_from_form({"control": "custom", "period1_minutes": "0"})
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_too_small (field='time_ms', minimum=1)
"""

from __future__ import annotations

from collections.abc import Mapping

from toreshi.clock.presets import PRESETS
from toreshi.clock.timecontrol import MAX_MOVES, MS_PER_MINUTE, MS_PER_SECOND, Period, TimeControl
from toreshi.kit.payload import int_from_text
from toreshi.kit.refusal import Common, Refused

CUSTOM = "custom"
MAX_PERIODS = 3
MAX_MINUTES = 24 * 60
MAX_BONUS_SECONDS = 3_600
BONUSES = ("none", "increment", "delay")


def period_fields(index: int) -> tuple[str, str]:
    """The form's field names of period ``index`` (1-based): its moves and its minutes."""
    return f"period{index}_moves", f"period{index}_minutes"


FIELDS = (
    "control",
    *(name for index in range(1, MAX_PERIODS + 1) for name in period_fields(index)),
    "bonus",
    "bonus_seconds",
)
"""Every field of the time-control part of a form (kept as typed when the form is shown again)."""


def control_from_form(form: Mapping[str, str]) -> TimeControl:
    """The control the form describes; raises :class:`~toreshi.kit.refusal.Refused`."""
    name = form.get("control", "").strip()
    if name != CUSTOM:
        preset = PRESETS.get(name)
        if preset is None:
            raise Refused(Common.FIELD_NOT_CHOICE, field="control", value=name[:40])
        return preset
    rows: list[tuple[str, str]] = []
    for index in range(1, MAX_PERIODS + 1):
        moves_field, minutes_field = period_fields(index)
        rows.append((form.get(moves_field, "").strip(), form.get(minutes_field, "").strip()))
    while rows and rows[-1] == ("", ""):
        rows.pop()  # the rows left empty at the end are not periods
    if not rows:
        raise Refused(Common.FIELD_REQUIRED, field="time_ms")
    periods = []
    for moves_text, minutes_text in rows:
        if not minutes_text:
            raise Refused(Common.FIELD_REQUIRED, field="time_ms")
        minutes = int_from_text(minutes_text, "time_ms", minimum=1, maximum=MAX_MINUTES)
        moves = int_from_text(moves_text, "moves", minimum=1, maximum=MAX_MOVES) if moves_text else None
        periods.append(Period(moves, minutes * MS_PER_MINUTE))
    bonus = form.get("bonus", "none").strip() or "none"
    if bonus not in BONUSES:
        raise Refused(Common.FIELD_NOT_CHOICE, field="bonus", value=bonus[:40])
    seconds_field = "increment_ms" if bonus == "increment" else "delay_ms"
    seconds_text = form.get("bonus_seconds", "").strip()
    seconds = 0
    if bonus != "none":
        if not seconds_text:
            raise Refused(Common.FIELD_REQUIRED, field=seconds_field)
        seconds = int_from_text(seconds_text, seconds_field, minimum=1, maximum=MAX_BONUS_SECONDS)
    increment = seconds * MS_PER_SECOND if bonus == "increment" else 0
    delay = seconds * MS_PER_SECOND if bonus == "delay" else 0
    return TimeControl(tuple(periods), increment, delay)


def values_of(key: str | None, control: TimeControl | None) -> dict[str, str]:
    """The form's fields showing a stored control again: a preset's key, or the rows of a custom control.

    >>> values_of(None, control_from_form({"control": "custom", "period1_moves": "40", "period1_minutes": "90",
    ...                                    "period2_minutes": "30", "bonus": "delay", "bonus_seconds": "5"}))["bonus"]
    'delay'
    """
    values = dict.fromkeys(FIELDS, "")
    values["bonus"] = "none"
    if key in PRESETS or control is None:
        values["control"] = key if key is not None and key in PRESETS else ""
        return values
    values["control"] = CUSTOM
    for index, period in enumerate(control.periods[:MAX_PERIODS], start=1):
        moves_field, minutes_field = period_fields(index)
        values[moves_field] = "" if period.moves is None else str(period.moves)
        minutes, rest = divmod(period.time_ms, MS_PER_MINUTE)
        values[minutes_field] = str(minutes if not rest else period.time_ms / MS_PER_MINUTE)
    if control.increment_ms or control.delay_ms:
        values["bonus"] = "increment" if control.increment_ms else "delay"
        values["bonus_seconds"] = str((control.increment_ms or control.delay_ms) // MS_PER_SECOND)
    return values
