"""Time controls in the reader's language: ``7 мин на партию``, ``40 жүріс — 120 мин, қалғаны — 60 мин``.

The clock core describes a control in English only for logs and the command line (``str(control)``); pages use
:func:`describe`, and forms offer :func:`preset_names`.

>>> from toreshi.clock.presets import BLITZ, CLASSICAL_40_2H_1H
>>> from toreshi.texts import i18n
>>> i18n.activate("ru")
>>> describe(BLITZ), describe(CLASSICAL_40_2H_1H)
('7 мин на партию', '40 ходов за 120 мин, затем остаток за 60 мин')
"""

from __future__ import annotations

from babel import units

from toreshi.clock.presets import PRESETS
from toreshi.clock.timecontrol import Period, TimeControl
from toreshi.texts import i18n
from toreshi.texts.i18n import gettext as _

MS_PER_SECOND = 1_000
MS_PER_MINUTE = 60_000


def duration(milliseconds: int) -> str:
    """A whole number of minutes or seconds with its unit (``20 мин``, ``5 с``), else milliseconds."""
    language = i18n.current_language()
    if milliseconds % MS_PER_MINUTE == 0:
        return units.format_unit(milliseconds // MS_PER_MINUTE, "duration-minute", "short", locale=language)
    if milliseconds % MS_PER_SECOND == 0:
        return units.format_unit(milliseconds // MS_PER_SECOND, "duration-second", "short", locale=language)
    return units.format_unit(milliseconds, "duration-millisecond", "short", locale=language)


def _period(period: Period) -> str:
    if period.moves is None:
        return _("the rest in %(time)s") % {"time": duration(period.time_ms)}
    return _("%(moves)s moves in %(time)s") % {"moves": period.moves, "time": duration(period.time_ms)}


def describe(control: TimeControl) -> str:
    """The whole control as one phrase in the current language."""
    if len(control.periods) == 1:
        text = _("%(time)s for the game") % {"time": duration(control.periods[0].time_ms)}
    else:
        text = _(", then ").join(_period(period) for period in control.periods)
    if control.increment_ms:
        text += _(" + %(time)s per move") % {"time": duration(control.increment_ms)}
    if control.delay_ms:
        text += _(", %(time)s delay") % {"time": duration(control.delay_ms)}
    return text


def preset_names() -> dict[str, str]:
    """Every preset's key and its description, for a form's choices."""
    return {name: describe(control) for name, control in PRESETS.items()}
