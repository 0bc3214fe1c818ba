"""Interface languages: Kazakh, Russian and English, from gettext catalogues (Babel).

The ``.po`` files under ``texts/locale/<lang>/LC_MESSAGES/`` (``messages.po`` for the pages, one file per area
besides) are the source of truth; they are compiled in
memory when the app starts, so there is no build step. English is the source language (msgids are English).

>>> translations = load_translations()
>>> translations["ru"].gettext("Tournaments"), translations["kk"].gettext("Tournaments")
('Турниры', 'Турнирлер')
"""

from __future__ import annotations

import io
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from babel import Locale, negotiate_locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LANGUAGES = ("kk", "ru", "en")
"""Supported interface languages, in the order the language switcher shows them."""
LANGUAGE_NAMES = {"kk": "Қазақша", "ru": "Русский", "en": "English"}
DEFAULT_LANGUAGE = "kk"
LOCALE_DIR = Path(__file__).parent / "locale"

_NO_TRANSLATION = NullTranslations()
_current: ContextVar[NullTranslations | None] = ContextVar("translations", default=None)


def catalogue_files(language: str) -> list[Path]:
    """A language's ``.po`` files: ``messages.po`` (the pages) first, then one per area (``refusals.po``, …)."""
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    return sorted(folder.glob("*.po"), key=lambda path: (path.name != "messages.po", path.name))


def read_catalogue(language: str) -> Catalog:
    """All of a language's ``.po`` files as one catalogue; a msgid translated differently in two files is an
    error (each text has one translation, whichever area shows it)."""
    merged = Catalog(locale=language)
    for path in catalogue_files(language):
        with path.open("rb") as handle:
            part = read_po(handle, locale=language)
        for message in part:
            if not message.id:
                continue
            known = merged.get(message.id)
            if known is not None and known.string and message.string and known.string != message.string:
                raise ValueError(f"{path.name}: {message.id!r} is translated differently in another file")
            if known is None or not known.string:
                merged[message.id] = message
    return merged


@cache
def load_translations() -> dict[str, NullTranslations]:
    """Every language's catalogue, compiled from its ``.po`` files."""
    catalogues: dict[str, NullTranslations] = {}
    for language in LANGUAGES:
        if not catalogue_files(language):
            catalogues[language] = NullTranslations()
            continue
        compiled = io.BytesIO()
        write_mo(compiled, read_catalogue(language))
        compiled.seek(0)
        catalogues[language] = Translations(compiled)
    return catalogues


def choose_language(requested: str | None, cookie: str | None, accept_language: str | None) -> str:
    """A ``?lang=`` choice, then the cookie, then the browser's preferences, then Kazakh.

    >>> choose_language(None, None, "ru-RU,ru;q=0.9,en;q=0.5")
    'ru'
    >>> choose_language("en", "ru", None)
    'en'
    """
    for choice in (requested, cookie):
        if choice in LANGUAGES:
            return choice
    if accept_language:
        preferred = [part.split(";")[0].strip().replace("-", "_") for part in accept_language.split(",")]
        found = negotiate_locale(preferred, list(LANGUAGES))
        if found is None:
            found = negotiate_locale([tag.split("_")[0] for tag in preferred], list(LANGUAGES))
        if found is not None:
            return str(Locale.parse(found).language)
    return DEFAULT_LANGUAGE


def activate(language: str) -> None:
    """Make ``language`` the current one for this request (a context variable, safe across tasks)."""
    _current.set(load_translations().get(language, NullTranslations()))


def current_language() -> str:
    """The language activated for this request (the default one outside a request)."""
    current = _current.get()
    for language, translations in load_translations().items():
        if translations is current:
            return language
    return DEFAULT_LANGUAGE


def N_(message: str) -> str:  # noqa: N802 - gettext's marker for "extract, translate later"
    """Marks a message for extraction; it is translated where it is shown (``gettext(message)``)."""
    return message


def gettext(message: str) -> str:
    return (_current.get() or _NO_TRANSLATION).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    return (_current.get() or _NO_TRANSLATION).ngettext(singular, plural, count)
