"""Every text the interface shows has a Kazakh and a Russian translation (msgids extracted as Babel does)."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.catalog import Catalog

from toreshi.texts import i18n
from toreshi.web.common import catalogues
from toreshi.web.togyz import pages

PLACEHOLDER = re.compile(r"\{\w+\}|%\(\w+\)s")
used_messages = catalogues.used_messages


@cache
def catalogue(language: str) -> Catalog:
    return i18n.read_catalogue(language)


def test_the_extraction_finds_the_interface_texts() -> None:
    used = used_messages()
    assert len(used) > 100
    for text in (
        "Arbiter sign-in",
        "Offer a draw with my move",
        "Wrong name or password.",
        "Connection lost — reconnecting…",
    ):
        assert text in used
    assert used["Wrong name or password."].startswith("web/accounts/pages.py")


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_every_used_text_has_a_translation(language: str) -> None:
    missing = [f"{where}: {text!r}" for text, where in catalogues.missing(language).items()]
    assert not missing, f"{len(missing)} texts without a {language} translation:\n" + "\n".join(missing)


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_translations_keep_their_placeholders(language: str) -> None:
    for message in catalogue(language):
        if message.id and isinstance(message.id, str) and isinstance(message.string, str) and message.string:
            assert sorted(PLACEHOLDER.findall(message.id)) == sorted(PLACEHOLDER.findall(message.string)), message.id


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_translations_are_written_in_cyrillic(language: str) -> None:
    for message in catalogue(language):
        if message.id and isinstance(message.string, str) and len(message.string) > 3:
            assert re.search("[а-яё]", message.string, re.IGNORECASE), (message.id, message.string)


def test_the_kazakh_catalogue_uses_the_togyz_terms() -> None:
    kk = catalogue("kk")
    assert kk["White"].string == "Бастаушы" and kk["Black"].string == "Қостаушы"
    assert kk["kazan"].string == "қазан" and kk["tuzdyk"].string == "тұздық" and kk["Arbiter"].string == "Төреші"
    ru = catalogue("ru")
    assert ru["kazan"].string == "казан" and ru["tuzdyk"].string == "туздык" and ru["Arbiter"].string == "Судья"


def test_the_running_app_translates_the_client_strings() -> None:
    i18n.activate("kk")
    assert pages.client_strings()["kazan"] == "қазан"
    i18n.activate("ru")
    assert pages.client_strings()["offline"] == "Связь потеряна — переподключение…"
    i18n.activate("en")
    assert pages.client_strings()["white"] == "White"
