"""The tournament's words: every event of the audit log, every step of a protest, every tie-break and column has
its words in Kazakh and Russian, and the particulars a core gives are all worded."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from fractions import Fraction

import pytest

from toreshi.texts import i18n
from toreshi.tournament.journal import EVENT_TYPES, AuditLine, ResultOrigin, ResultSource
from toreshi.tournament.model import Departure, Leaving, ResultCode
from toreshi.tournament.protests import AuditEntry, FeeStatus, ProtestAction, ProtestStatus
from toreshi.tournament.tiebreaks import TieBreakCode
from toreshi.web.tournaments import texts

AT = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
CYRILLIC = re.compile("[а-яёәіңғүұқөһ]", re.IGNORECASE)
LATIN_WORD = re.compile(r"\b(?!CSV\b|KZT\b|FIDE\b)[A-Za-z]{3,}\b")
"""An English word (CSV, KZT and FIDE are codes and a name)."""
PARAMS: dict[str, str | int] = {
          "round": 2, "board": 3, "player": "12. Абай", "reason": "телефон", "pairs": "1–2", "bye": 5,
          "result": "1-0", "previous": "0-1", "source_term": "result.live", "method_term": "pairing.dutch",
          "count": 4, "team": "Алматы", "room": "g-1", "code": "H", "protest": "P1", "person": "Өкіл",
          "amount": 1000, "verdict_term": "protest.upheld", "penalty": "2 минут", "kazans": "82:40",
          "name": "Кубок", "evaluation_term": "evaluation.shown", "minutes": 15, "presence_term": "check_in.present",
          "boards": "1, 3", "absent": "5. Ерлан",
          "departure_term": "departure.result_after_next_pairing", "level_term": "level.serious",
          "seed": "4821", "colour_term": "colour.white", "change": "+2:00",
}  # fmt: skip


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_every_audit_line_is_worded_in_the_readers_language(language: str) -> None:
    i18n.activate(language)
    for action in sorted(EVENT_TYPES):
        line = AuditLine(AT, "Бас төреші", action, PARAMS)
        worded = f"{texts.audit_action(line)} {texts.audit_detail(line)}"
        assert CYRILLIC.search(texts.audit_action(line)), action
        assert not LATIN_WORD.search(worded), (action, worded)
    assert CYRILLIC.search(texts.audit_by(AuditLine(AT, "", "result_entered", PARAMS)))  # the game room


def test_an_audit_line_adds_the_particulars_it_has() -> None:
    i18n.activate("en")
    line = AuditLine(AT, "Chief", "round_paired", {"round": 1, "pairs": "1–4, 3–2", "bye": 5,
                                                   "method_term": "pairing.dutch"})  # fmt: skip
    assert texts.audit_detail(line) == "Round 1: 1–4, 3–2; pairing by FIDE Dutch system; bye: 5"
    corrected = AuditLine(AT, "Chief", "result_corrected", {"round": 1, "board": 2, "result": "0-1",
                                                            "previous": "1-0", "reason": "misread"})  # fmt: skip
    assert texts.audit_detail(corrected) == "Round 1, board 2: 0-1 (was 1-0); reason: misread"


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_every_protest_step_status_and_fee_is_worded(language: str) -> None:
    i18n.activate(language)
    params: dict[str, str | int] = {
              "round": 1, "board": 2, "role_term": "protest.coach", "clause": "TK-P1", "minutes": 31, "limit": 30,
              "amount": 1000, "currency": "KZT", "board_members": "А", "committee": "Б", "members": "А, Б",
              "fee_term": "protest.fee.refunded", "recipient": "Өкіл", "result": "½-½",
    }  # fmt: skip
    for action in ProtestAction:
        entry = AuditEntry(AT, action, "", params)
        step = texts.protest_step(entry)
        assert CYRILLIC.search(step) and not LATIN_WORD.search(step), (action, step)
        assert CYRILLIC.search(texts.protest_actor(entry))
    assert texts.protest_actor(AuditEntry(AT, ProtestAction.FILED, "Өкіл")) == "Өкіл"
    assert set(texts.status_names()) == {s.value for s in ProtestStatus}
    assert set(texts.fee_names()) == {f.value for f in FeeStatus}
    assert all(CYRILLIC.search(name) for name in (*texts.status_names().values(), *texts.fee_names().values()))


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_tie_breaks_columns_byes_and_sources_are_worded(language: str) -> None:
    i18n.activate(language)
    for code in TieBreakCode:
        assert CYRILLIC.search(texts.tiebreak_name(code.value)), code
    assert texts.tiebreak_name("BH/C1") != texts.tiebreak_name("BH") != texts.tiebreak_name("BH/M1")
    assert texts.tiebreak_name("NEW2026") == "NEW2026"  # a code this page does not know is shown as it is
    columns = texts.columns()
    assert all(CYRILLIC.search(text) for text in (columns.rank, columns.name, columns.points))
    assert columns.round.format(n=3).endswith("3") and CYRILLIC.search(columns.round)
    for bye in (ResultCode.PAIRING_BYE, ResultCode.HALF_BYE, ResultCode.FULL_BYE, ResultCode.ZERO_BYE):
        assert CYRILLIC.search(texts.bye_name(bye)) and texts.bye_name(bye).endswith(f"({bye.value})")
    assert CYRILLIC.search(texts.result_origin(ResultOrigin(ResultSource.LIVE)))
    assert "P7" in texts.result_origin(ResultOrigin(ResultSource.PROTEST, "P7"))
    assert texts.result_origin(ResultOrigin(ResultSource.ARBITER)) == ""
    expelled = Leaving(3, 2, Departure.EXPELLED, forfeit_losses=3)
    assert "3" in texts.leaving_reason(expelled) and CYRILLIC.search(texts.leaving_reason(expelled))
    assert texts.leaving_reason(Leaving(3, 2, Departure.WITHDRAWN, "ауырды")) == "ауырды"
    assert texts.points(Fraction(9, 2)) == "4,5" and texts.points(Fraction(3)) == "3"


def test_every_term_a_core_names_has_words() -> None:
    """The ``*_term`` parameters the journal and the protest desk give are all in the words of this module."""
    given = {"result.arbiter", "result.live", "result.protest", "pairing.berger", "pairing.dutch", "protest.upheld",
             "protest.rejected", "protest.representative", "protest.coach", "protest.fee.refunded",
             "protest.fee.transferred"}  # fmt: skip
    assert given <= set(texts._TERMS)
