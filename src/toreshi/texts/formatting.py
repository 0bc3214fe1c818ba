"""Numbers, durations, dates and times in the reader's language and the club's time zone (Babel).

Templates use these as filters (``{{ game.started_at|datetime }}``, ``{{ press.delay_ms|seconds }}``,
``{{ report.elapsed_ms|clock }}``); scripts get the same texts through the page's strings. Stored times are aware
UTC datetimes and integer milliseconds; nothing here changes them, it only shows them.

>>> from datetime import datetime, UTC
>>> when = datetime(2026, 3, 1, 5, 30, tzinfo=UTC)
>>> format_datetime(when, "en", "Asia/Almaty")
'Mar 1, 2026, 10:30'
>>> format_seconds(4_600, "ru"), format_seconds(4_600, "en"), format_seconds(4_600, "kk")
('4,6 с', '4.6s', '4,6 с')
>>> format_clock(79_537)
'1:19.5'
>>> format_number(1234.5, "ru")
'1\\xa0234,5'
"""

from __future__ import annotations

from datetime import date, datetime
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import dates, numbers, units

DEFAULT_TIMEZONE = "Asia/Almaty"
"""Kazakhstan has kept one time zone, UTC+5, since 2024; a club elsewhere sets its own (``--timezone``)."""


@cache
def zone(name: str) -> ZoneInfo:
    """The time zone ``name`` (IANA), or the default when the name is unknown on this machine."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIMEZONE)


def format_datetime(value: datetime, language: str, timezone: str = DEFAULT_TIMEZONE) -> str:
    """Date and time to the minute, in the club's zone (a 24-hour clock in every language)."""
    local = value.astimezone(zone(timezone))
    return f"{dates.format_date(local, 'medium', locale=language)}, {format_time(value, language, timezone)}"


def format_datetime_seconds(value: datetime, language: str, timezone: str = DEFAULT_TIMEZONE) -> str:
    """Date and time to the second (journals, audit logs), in the club's zone."""
    local = value.astimezone(zone(timezone))
    shown = format_time(value, language, timezone, seconds=True)
    return f"{dates.format_date(local, 'medium', locale=language)}, {shown}"


def format_time(value: datetime, language: str, timezone: str = DEFAULT_TIMEZONE, *, seconds: bool = False) -> str:
    local = value.astimezone(zone(timezone))
    return dates.format_time(local, "HH:mm:ss" if seconds else "HH:mm", locale=language)


def format_date(value: date | datetime, language: str, timezone: str = DEFAULT_TIMEZONE) -> str:
    if isinstance(value, datetime):
        value = value.astimezone(zone(timezone)).date()
    return dates.format_date(value, "long", locale=language)


def format_number(value: float | int, language: str) -> str:
    return numbers.format_decimal(value, locale=language)


def format_seconds(milliseconds: int, language: str, *, digits: int = 1) -> str:
    """A short duration in seconds with its unit, e.g. the host's 5-second timer: ``4,6 с``."""
    pattern = "0." + "0" * digits if digits else "0"
    value = round(milliseconds / 1000, digits)
    return units.format_unit(value, "duration-second", "narrow", format=pattern, locale=language)


def format_milliseconds(milliseconds: int, language: str) -> str:
    """A delay measured in milliseconds (a press's arrival, a link's round trip): ``37 мс``."""
    return units.format_unit(milliseconds, "duration-millisecond", "short", locale=language)


def format_clock(milliseconds: int, *, tenths: bool = True) -> str:
    """A time on a clock, as ``m:ss.s`` (``h:mm:ss`` from an hour): the same in every language."""
    sign = "-" if milliseconds < 0 else ""
    total_tenths = abs(milliseconds) // 100
    seconds, tenth = divmod(total_tenths, 10)
    minutes, second = divmod(seconds, 60)
    hours, minute = divmod(minutes, 60)
    if hours:
        return f"{sign}{hours}:{minute:02d}:{second:02d}"
    return f"{sign}{minute}:{second:02d}" + (f".{tenth}" if tenths else "")
