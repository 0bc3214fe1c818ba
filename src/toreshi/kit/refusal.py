"""Refusals: a stable code and its parameters, never a sentence.

A core that cannot accept a command says why with a :class:`Refusal` — ``Refusal(TogyzCode.NOT_ARRIVED,
{"player": "Асқар"})`` — and the web layer renders it in the reader's language (``toreshi.texts.refusals``). Cores
raise :class:`Refused` where a refusal is found deep inside a check; the room catches it at one place.

Every code belongs to a :class:`RefusalCode` enumeration, and every enumeration is named once in a :class:`CodeBook`
(``toreshi.refusal_codes.EVERY_CODE``), so that the set of codes is known whatever was imported first: a test fails
when an enumeration is missing from the book or a code has no message in a catalogue.

>>> refusal = Refusal(Common.FORBIDDEN, {"command": "move"})
>>> refusal.code.value, dict(refusal.params)
('forbidden', {'command': 'move'})
>>> str(Refused(Common.BAD_REQUEST, field="hole"))
"bad_request (field='hole')"
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

ParamValue = str | int
"""What a refusal's parameter may be: a name, a number, a clause ID, a field's name. Never a sentence."""


class RefusalCode(StrEnum):
    """Base of every enumeration of refusal codes (one per core; :class:`Common` for the shared ones)."""


class Common(RefusalCode):
    """Refusals that any room or form can give."""

    BAD_REQUEST = "bad_request"
    """The request is not of the expected shape (``field`` names the part, when known)."""
    UNKNOWN_COMMAND = "unknown_command"
    """No such command in this room (``command``)."""
    FORBIDDEN = "forbidden"
    """This actor may not give this command (``command``, ``role``)."""
    NOT_NOW = "not_now"
    """The command exists and the actor may give it, but not in the room's present state (``command``)."""
    RATE_LIMITED = "rate_limited"
    """Too many commands in too short a time."""
    MOVED = "moved"
    """The room moved to another server before the command was known to be applied: look, then retry."""
    FIELD_REQUIRED = "field_required"
    FIELD_NOT_INTEGER = "field_not_integer"
    FIELD_NOT_NUMBER = "field_not_number"
    FIELD_NOT_BOOLEAN = "field_not_boolean"
    FIELD_NOT_TEXT = "field_not_text"
    FIELD_NOT_LIST = "field_not_list"
    FIELD_TOO_SMALL = "field_too_small"
    """``field``, ``minimum``."""
    FIELD_TOO_LARGE = "field_too_large"
    """``field``, ``maximum``."""
    FIELD_TOO_LONG = "field_too_long"
    """``field``, ``maximum`` characters (or items, for a list)."""
    FIELD_EMPTY = "field_empty"
    FIELD_CONTROL_CHARACTERS = "field_control_characters"
    """A text holds a control character (a line break in a name, a NUL): refused at the edge, never stored."""
    FIELD_NOT_CHOICE = "field_not_choice"
    """``field``, ``value``: not one of the values the field takes."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a command or a form was not accepted; nothing was changed."""

    code: RefusalCode
    params: Mapping[str, ParamValue] = field(default_factory=dict)
    details: tuple[Refusal, ...] = ()
    """Several problems found at once (every bad line of an imported CSV), each a refusal of its own."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def with_params(self, **params: ParamValue) -> Refusal:
        """The same refusal with more parameters (a room adds the player's name to what the rules said)."""
        return Refusal(self.code, {**self.params, **params}, self.details)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"code": self.code.value, "params": dict(self.params)}
        if self.details:
            data["details"] = [detail.to_dict() for detail in self.details]
        return data

    @staticmethod
    def from_dict(data: Mapping[str, object], book: CodeBook) -> Refusal:
        """Read :meth:`to_dict` back (a refusal forwarded by another instance, or kept for the next page) with the
        codes of ``book``. A code the book does not hold (a newer instance's) becomes ``bad_request``; parameters
        that are not names or numbers are dropped.

        >>> book = CodeBook(Common)
        >>> Refusal.from_dict(Refusal(Common.FIELD_EMPTY, {"field": "name"}).to_dict(), book)
        Refusal(code=<Common.FIELD_EMPTY: 'field_empty'>, params=mappingproxy({'field': 'name'}), details=())
        >>> Refusal.from_dict({"code": "from_the_future", "params": {"n": 1.5, "field": "x"}}, book).to_dict()
        {'code': 'bad_request', 'params': {'field': 'x'}}
        """
        code = book.get(str(data.get("code")))
        raw = data.get("params")
        params = raw if isinstance(raw, Mapping) else {}
        kept = {
            str(key): value
            for key, value in params.items()
            if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
        }
        details = data.get("details")
        listed = details if isinstance(details, list) else []
        found = tuple(Refusal.from_dict(detail, book) for detail in listed if isinstance(detail, Mapping))
        return Refusal(code, kept, found)

    def __str__(self) -> str:
        if not self.params:
            return self.code.value
        shown = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"{self.code.value} ({shown})"


class Refused(Exception):  # noqa: N818 - "a command was refused" reads better than RefusedError at every raise
    """Raised inside a core (or a reader) to refuse; carries the :class:`Refusal`.

    It is not a ``ValueError`` on purpose: a room answers a refusal politely and must not mistake a programming
    error (a ``ValueError`` from a bug) for one.
    """

    def __init__(
        self, code: RefusalCode | Refusal, /, *, details: tuple[Refusal, ...] = (), **params: ParamValue
    ) -> None:
        if isinstance(code, Refusal):
            self.refusal = code.with_params(**params)
        else:
            self.refusal = Refusal(code, params, details)
        # No text yet: ``str()`` writes it when asked (a room's "what may I do" list has every probe the rules
        # refuse raise one, after every event, and nobody reads those).
        super().__init__()

    def __str__(self) -> str:
        return str(self.refusal)

    def __repr__(self) -> str:
        return f"Refused({str(self.refusal)!r})"

    @property
    def code(self) -> str:
        return self.refusal.code.value

    @property
    def params(self) -> Mapping[str, ParamValue]:
        return self.refusal.params


class CodeBook:
    """The refusal codes a program knows, from the enumerations named when the book is made — never from whatever
    happened to be imported before (a code read back from another instance or a session means the same on every
    process).

    Two enumerations may share a value only when they mean the same (one message serves both): the first named wins.

    >>> book = CodeBook(Common)
    >>> book.get("forbidden") is Common.FORBIDDEN, book.get("no_such_code") is Common.BAD_REQUEST
    (True, True)
    """

    def __init__(self, *enumerations: type[RefusalCode]) -> None:
        self.enumerations = enumerations
        self.codes: dict[str, RefusalCode] = {}
        for enumeration in enumerations:
            for member in enumeration:
                self.codes.setdefault(member.value, member)

    def __contains__(self, value: object) -> bool:
        return value in self.codes

    def get(self, value: str) -> RefusalCode:
        """The code of ``value``; ``bad_request`` for one this book does not hold."""
        return self.codes.get(value, Common.BAD_REQUEST)

    def including(self, *enumerations: type[RefusalCode]) -> CodeBook:
        """This book with more enumerations (the web's own codes beside the cores')."""
        return CodeBook(*self.enumerations, *enumerations)
