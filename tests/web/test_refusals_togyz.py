"""Togyz refusals read in the reader's language and name the players (``toreshi.texts.refusals.togyz``)."""

from __future__ import annotations

import pytest

from toreshi.clock.codes import ClockCode
from toreshi.kit.refusal import Common, Refusal
from toreshi.texts import i18n, refusals
from toreshi.texts.refusals import togyz
from toreshi.togyz.match.codes import TogyzCode


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("kk", "Қазір жүріс кезегі — Асқар, Бекзат емес."),
        ("ru", "Сейчас ходит Асқар, а не Бекзат."),
        ("en", "It is Асқар's move, not Бекзат's."),
    ],
)
def test_a_turn_refusal_names_both_players(language: str, expected: str) -> None:
    i18n.activate(language)
    refusal = Refusal(TogyzCode.NOT_YOUR_TURN, {"player": "Бекзат", "to_move": "Асқар"})
    assert refusals.render(refusal) == expected


def test_clauses_minutes_and_setting_names_are_shown() -> None:
    i18n.activate("ru")
    late = Refusal(TogyzCode.ARRIVED_TOO_LATE, {"player": "Асқар", "minutes": 31, "limit": 30, "clause": "TK-R4"})
    assert refusals.render(late) == (
        "Асқар: прибытие через 31 мин после начала тура, больше 30 мин — партия проиграна за неявку (TK-R4)."
    )
    setting = Refusal(Common.FIELD_TOO_SMALL, {"field": "settings.late_limit_ms", "minimum": 0})
    assert refusals.render(setting) == "Крайний срок прибытия: не меньше 0."
    i18n.activate("kk")
    assert refusals.render(Refusal(ClockCode.INCREMENT_AND_DELAY, {"clause": "TK-C4"})) == (
        "Қосымша уақытты немесе кідірісті таңдаңыз, екеуін бірге емес (TK-C4)."
    )
    assert refusals.render(Refusal(Common.FIELD_EMPTY, {"field": "black"})) == "Қостаушы: бос болмауы керек."


def test_every_togyz_and_clock_code_has_a_message_here() -> None:
    assert set(togyz.MESSAGES) >= set(TogyzCode) | set(ClockCode)
