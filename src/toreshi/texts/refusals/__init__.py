"""Refusals in the reader's language: a :class:`~toreshi.kit.refusal.Refusal` (a code and its parameters) becomes a
sentence from the catalogues.

Each room kind keeps its own messages in a module of this package (``common``, and one per kind), as a mapping
from its codes to English msgids with ``%(name)s`` placeholders, marked with ``N_`` so that the extraction finds
them. Parameters that are themselves words of the interface (a field's name, a role, a status) are looked up in
the modules' ``TERMS`` and translated too; names of people and numbers are shown as they are.

>>> from toreshi.kit.refusal import Common, Refusal
>>> from toreshi.texts import i18n
>>> i18n.activate("ru")
>>> render(Refusal(Common.FIELD_TOO_LARGE, {"field": "hole", "maximum": 9}))
'Лунка: не больше 9.'
>>> i18n.activate("en")
>>> render(Refusal(Common.FIELD_REQUIRED, {"field": "name"}))
'Name: this field is required.'
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from types import ModuleType

from toreshi.kit.refusal import Common, ParamValue, Refusal, RefusalCode, Refused
from toreshi.texts.formatting import format_number
from toreshi.texts.i18n import current_language, gettext
from toreshi.texts.refusals import common, quiz, quiztour, teams, togyz, tournament

log = logging.getLogger(__name__)

MODULES: tuple[ModuleType, ...] = (common, togyz, tournament, quiz, quiztour, teams)
"""Every module of messages; a room kind's module is added here."""

_INDEX = re.compile(r"\[\d+\]")
CLAUSE = re.compile(r"\s*\(%\(clause\)s\)")
"""How every message cites its clause, in every language: `` (%(clause)s)`` — cut out for players and spectators,
who see what the rule says, not its number (regulation codes are for the arbiter's console)."""
TRANSLATED_PARAMS = frozenset({"field", "role", "command", "status", "term"})
"""Parameters whose values are words of the interface, looked up in ``TERMS``."""


def _merged(attribute: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for module in MODULES:
        for key, msgid in getattr(module, attribute, {}).items():
            name = key.value if isinstance(key, RefusalCode) else str(key)
            if merged.get(name, msgid) != msgid:
                raise RuntimeError(f"{module.__name__}: {attribute}[{name!r}] differs from another module's")
            merged[name] = msgid
    return merged


MESSAGES: Mapping[str, str] = _merged("MESSAGES")
"""Every refusal code's English msgid."""

_AREA_TERMS: dict[str, Mapping[str, str]] = {}
"""Each code's own area's words first: the same field name may mean something else in another area (a togyz
arbiter's "text" is a note, a tournament's "text" the protest's statement)."""
for _module in MODULES:
    for _code in getattr(_module, "MESSAGES", {}):
        _AREA_TERMS.setdefault(_code.value, getattr(_module, "TERMS", {}))
COMMON_TERMS: Mapping[str, str] = getattr(common, "TERMS", {})


def _term(code: str, identifier: str) -> str | None:
    for terms in (_AREA_TERMS.get(code, {}), COMMON_TERMS):
        if identifier in terms:
            return terms[identifier]
    for module in MODULES:  # a field named by a shared code (field_too_large …) in any area's words
        found = getattr(module, "TERMS", {}).get(identifier)
        if found is not None:
            return str(found)
    return None


def _param(code: str, key: str, value: ParamValue) -> str:
    if isinstance(value, int):
        return format_number(value, current_language())  # "60 000" in Kazakh and Russian, "60,000" in English
    if key in TRANSLATED_PARAMS or key.endswith("_term"):
        base = _INDEX.sub("", value).rsplit(".", 1)[-1]  # "players[2].rating" → "rating"
        msgid = _term(code, value) or _term(code, base)
        if msgid is not None:
            return gettext(msgid)
    return value


class _Params(dict[str, str]):
    def __missing__(self, key: str) -> str:
        log.warning("a refusal's message needs the parameter %r, which it lacks", key)
        return "…"


def render(refusal: Refusal, *, clauses: bool = True) -> str:
    """The refusal as a sentence in the current language (:func:`toreshi.texts.i18n.activate`); without the
    regulation's clause number unless ``clauses`` (the arbiter's console shows it, a player's page does not)."""
    msgid = MESSAGES.get(refusal.code.value)
    if msgid is None:
        log.error("refusal code %r has no message", refusal.code.value)
        msgid = MESSAGES[Common.BAD_REQUEST.value]
    first = gettext(msgid)
    if not clauses:
        first = CLAUSE.sub("", first)
    values = _Params({key: _param(refusal.code.value, key, value) for key, value in refusal.params.items()})
    text = first % values if "%(" in first else first
    return text[:1].upper() + text[1:]


def as_message(refusal: Refusal, *, clauses: bool = True) -> dict[str, object]:
    """What a client gets: the code and parameters (for scripts) and the sentence (for people); ``details`` when
    the refusal lists several problems, each rendered too. Without ``clauses`` the clause is left out of both."""
    params = dict(refusal.params)
    if not clauses:
        params.pop("clause", None)
    message: dict[str, object] = {
        "code": refusal.code.value,
        "params": params,
        "message": render(refusal, clauses=clauses),
    }
    if refusal.details:
        message["details"] = [as_message(detail, clauses=clauses) for detail in refusal.details]
    return message


def text_of(refused: Refused, *, clauses: bool = True) -> str:
    """What a page shows for a raised refusal."""
    return render(refused.refusal, clauses=clauses)


def message_of(refused: Refused, *, clauses: bool = True) -> dict[str, object]:
    """:func:`as_message` for a raised refusal."""
    shown = as_message(refused.refusal, clauses=clauses)
    return {**shown, "code": refused.code, "message": text_of(refused, clauses=clauses)}
