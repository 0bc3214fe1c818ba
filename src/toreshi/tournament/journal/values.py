"""How the journal's values travel (converters of the codecs) and how texts become them (with refusals).

Times are aware ISO datetimes (``2026-11-30T09:00:00+00:00``), days ISO dates, points fractions written as
``1``, ``1/2`` or ``0.5``; a result is the model's value (``1-0``, ``½-½``, ``+ −``) or a togyz record token.

>>> game_result("1/2-1/2", "result").value, points_of("0,5", "bye_points")
('½-½', Fraction(1, 2))
>>> date_of("2026/11/30", "start")
datetime.date(2026, 11, 30)
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from enum import Enum
from fractions import Fraction
from typing import Any

from toreshi.kit.codec import Converter
from toreshi.kit.refusal import Common, Refused
from toreshi.tournament.codes import TournamentCode as Code
from toreshi.tournament.model import GameResult
from toreshi.tournament.tiebreaks import TieBreak, TieBreakCode, TieBreakError


def _aware(raw: object) -> datetime:
    if not isinstance(raw, str):
        raise TypeError("a time is an ISO text")
    moment = datetime.fromisoformat(raw)
    if moment.tzinfo is None:
        raise ValueError("a time carries its time zone")
    return moment


def _day(raw: object) -> date:
    if not isinstance(raw, str):
        raise TypeError("a date is an ISO text")
    return date.fromisoformat(raw)


def _fraction(raw: object) -> Fraction:
    if not isinstance(raw, str):
        raise TypeError("points are a text such as 1/2")
    return Fraction(raw)


AT = Converter[datetime](encode=lambda moment: moment.isoformat(), decode=_aware)
DAY = Converter[date](encode=lambda day: day.isoformat(), decode=_day)
POINTS = Converter[Fraction](encode=str, decode=_fraction)
CONVERTERS: dict[type[Any], Converter[Any]] = {datetime: AT, date: DAY, Fraction: POINTS}
"""The converters of the commands' and the events' codecs."""


class FileLanguage(Enum):
    """The language of the texts a tournament's files carry for people (the TRF's ``122`` allotted time)."""

    KK = "kk"
    RU = "ru"
    EN = "en"


class FirstColour(Enum):
    """The top seed's colour in round 1 (``XXC`` of a TRF)."""

    WHITE = "white"
    BLACK = "black"


_RESULT_ALIASES = {
    "1/2-1/2": GameResult.DRAW,
    "=": GameResult.DRAW,
    "+-": GameResult.WHITE_FORFEIT_WIN,
    "-+": GameResult.BLACK_FORFEIT_WIN,
    "--": GameResult.DOUBLE_FORFEIT,
}


def game_result(text: str, field: str) -> GameResult:
    """A result by its model value (``1-0``, ``½-½``, ``+ −`` …), its name, or the togyz record token."""
    if text in _RESULT_ALIASES:
        return _RESULT_ALIASES[text]
    for result in GameResult:
        if text in (result.value, result.name, result.name.lower()):
            return result
    raise Refused(Common.FIELD_NOT_CHOICE, field=field, value=text[:40])


def date_of(text: str, field: str) -> date:
    """A date typed as YYYY-MM-DD (``/`` and ``.`` are taken for ``-``)."""
    try:
        return date.fromisoformat(text.strip().replace("/", "-").replace(".", "-"))
    except ValueError:
        raise Refused(Code.NOT_A_DATE, field=field) from None


def points_of(text: str, field: str) -> Fraction:
    """Points such as ``1``, ``0.5``, ``0,5`` (as Kazakh and Russian write it) or ``1/2``, not negative."""
    try:
        points = Fraction(text.strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise Refused(Common.FIELD_NOT_NUMBER, field=field) from None
    if points < 0:
        raise Refused(Common.FIELD_TOO_SMALL, field=field, minimum=0)
    return points


def tiebreak_order(codes: Iterable[str]) -> tuple[str, ...]:
    """Tie-break codes as FIDE writes them (``bh/c1`` → ``BH/C1``); refuses the first that is unknown or takes no
    such modifier (``tiebreak`` names it)."""
    order = []
    for text in codes:
        try:
            order.append(str(TieBreak.parse(text)))
        except TieBreakError:
            written = text.strip().upper()
            known = {code.value for code in TieBreakCode}
            problem = Code.TIEBREAK_MODIFIER if written.split("/")[0] in known else Code.UNKNOWN_TIEBREAK
            raise Refused(problem, tiebreak=written[:16]) from None
    return tuple(order)
