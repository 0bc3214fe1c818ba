"""Every refusal code of every core has a message, and the message reads in Kazakh and Russian."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import toreshi
from toreshi.kit.refusal import Common, Refusal, RefusalCode
from toreshi.refusal_codes import EVERY_CODE
from toreshi.texts import i18n, refusals
from toreshi.texts.refusals import common

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _import_everything() -> None:
    for module in pkgutil.walk_packages(toreshi.__path__, prefix="toreshi."):
        if module.name.endswith("__main__"):
            continue
        importlib.import_module(module.name)


def _enumerations() -> set[type[RefusalCode]]:
    """Every enumeration of refusal codes the product defines (test modules may define codes for a test room)."""
    _import_everything()
    found: set[type[RefusalCode]] = set()
    pending: list[type[RefusalCode]] = [RefusalCode]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls is not RefusalCode and cls.__module__.startswith("toreshi."):
            found.add(cls)
    return found


def _codes() -> dict[str, RefusalCode]:
    """The codes of the product, as the web reads them back."""
    return EVERY_CODE.codes


def test_the_code_book_names_every_enumeration_of_the_product() -> None:
    # A refusal read back on another process means the same only if its enumeration is in the book.
    missing = sorted(f"{cls.__module__}.{cls.__name__}" for cls in _enumerations() - set(EVERY_CODE.enumerations))
    assert not missing, "add to toreshi.refusal_codes.EVERY_CODE: " + ", ".join(missing)
    assert Common.BAD_REQUEST.value in _codes()


def test_every_code_is_read_back_as_itself() -> None:
    for code in _codes().values():
        refusal = Refusal(code, {"field": "name", "maximum": 9}, (Refusal(Common.FIELD_EMPTY, {"field": "x"}),))
        assert Refusal.from_dict(refusal.to_dict(), EVERY_CODE) == refusal, code


def test_every_refusal_code_has_a_message() -> None:
    lacking = sorted(
        f"{type(code).__module__}.{type(code).__name__}.{code.name}"
        for value, code in _codes().items()
        if value not in refusals.MESSAGES
    )
    assert not lacking, "refusal codes without a message in toreshi.texts.refusals:\n" + "\n".join(lacking)


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_every_message_renders_translated(language: str) -> None:
    i18n.activate(language)
    for value, msgid in refusals.MESSAGES.items():
        code = _codes()[value]
        params = dict.fromkeys(PLACEHOLDER.findall(msgid), "Асқар")
        text = refusals.render(Refusal(code, params))
        assert text and text != msgid % params, (value, text)
        assert re.search("[а-яёәіңғүұқөһ]", text, re.IGNORECASE), (value, text)
        assert "…" not in text, (value, text)


def test_field_names_are_translated_and_numbers_shown() -> None:
    i18n.activate("kk")
    text = refusals.render(Refusal(Common.FIELD_TOO_LARGE, {"field": "hole", "maximum": 9}))
    assert text == "Отау: 9-ден аспауы керек."
    i18n.activate("ru")
    assert refusals.render(Refusal(Common.FIELD_REQUIRED, {"field": "players[3].name"})) == "Имя: это поле обязательно."


def test_an_unknown_field_is_shown_as_it_is_and_a_missing_parameter_does_not_fail() -> None:
    i18n.activate("en")
    assert refusals.render(Refusal(Common.FIELD_EMPTY, {"field": "zzz"})) == "Zzz: must not be empty."
    assert refusals.render(Refusal(Common.FIELD_EMPTY)) == "…: must not be empty."


def test_the_messages_are_found_by_the_extraction() -> None:
    from toreshi.web.common import catalogues

    used = catalogues.used_messages()
    assert all(msgid in used for msgid in common.MESSAGES.values())


@pytest.mark.parametrize("language", ["kk", "ru", "en"])
def test_a_players_refusal_cites_no_clause_number_the_arbiters_does(language: str) -> None:
    # Regulation codes (TK-…) are for the arbiter's console: every message cites its clause as " (%(clause)s)", in
    # every language, so that the players' pages can leave it out.
    i18n.activate(language)
    for value, msgid in refusals.MESSAGES.items():
        if "%(clause)s" not in msgid:
            continue
        code = _codes()[value]
        params = {**dict.fromkeys(PLACEHOLDER.findall(msgid), "Асқар"), "clause": "TK-X9"}
        refusal = Refusal(code, params)
        assert "(TK-X9)" in refusals.render(refusal), (language, value)
        shown = refusals.as_message(refusal, clauses=False)
        message, shown_params = str(shown["message"]), shown["params"]
        assert isinstance(shown_params, dict) and "clause" not in shown_params, (language, value)
        assert "TK-X9" not in message and "()" not in message and " ." not in message, (language, value, message)
