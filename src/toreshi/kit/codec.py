"""One codec between typed, frozen dataclasses and JSON objects, for every room kind's commands and events.

A :class:`Codec` knows a closed set of classes, each named by its ``type`` class attribute; the JSON object carries
that name under ``"type"`` (or under another ``tag``: the room protocol's frames are named under ``"t"``, beside
their own ``type`` field). Field types are read from the annotations: ``int``, ``float``, ``bool``, ``str``,
``X | None``, ``tuple[X, ...]``, fixed tuples, ``dict[str, X]`` (or ``Mapping[str, X]``), enumerations (by value),
nested dataclasses, and any type given a :class:`Converter` (``Side`` as ``"white"``/``"black"``, a ``TimeControl``
by its own dict). A field typed ``Any`` or ``Mapping[str, Any]`` is JSON that this codec carries as it is, untouched
(a room's state inside an event frame: the room's own codec wrote it, a room's own codec reads a command's ``data``).

Two ways in, because two kinds of input exist:

- :meth:`Codec.decode` reads what this program wrote (a stored log): strict — unknown fields, missing fields without
  a default, a wrong type are a :class:`CodecError` (a corrupt log is a server error, never a polite refusal);
- :meth:`Codec.read` reads what a client sent: the same checks plus the field's limits (:func:`spec`: bounds, text
  length, one-line names) through :mod:`toreshi.kit.payload`, and every problem is a
  :class:`~toreshi.kit.refusal.Refused` naming the field. Unknown fields are ignored there (older and newer pages
  may send more), and an unknown command is ``unknown_command``.

>>> import typing
>>> from dataclasses import dataclass, field
>>> @dataclass(frozen=True)
... class Move:
...     type: typing.ClassVar[str] = "move"
...     hole: int = field(metadata=spec(minimum=1, maximum=9))
...     press: bool = True
>>> codec = Codec(Move)
>>> codec.encode(Move(7))
{'type': 'move', 'hole': 7, 'press': True}
>>> codec.decode({'type': 'move', 'hole': 7, 'press': False})
Move(hole=7, press=False)
>>> codec.read("move", {"hole": 12})
Traceback (most recent call last):
...
toreshi.kit.refusal.Refused: field_too_large (field='hole', maximum=9)
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass
from enum import Enum
from typing import Any, Generic, TypeVar, Union

from toreshi.kit import payload
from toreshi.kit.refusal import Common, Refused
from toreshi.side import Side

T = TypeVar("T")
V = TypeVar("V")

TAG = "type"
"""The field of the JSON object that names its class."""
_PLAIN = frozenset({str, int, float, bool, type(None)})


class CodecError(ValueError):
    """A stored object that cannot be read back: unknown type, unknown or missing field, wrong type (``where``)."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where


@dataclass(frozen=True)
class Converter(Generic[V]):
    """How a type that is not a plain dataclass travels: ``encode`` to JSON, ``decode`` back (raising
    ``ValueError`` or ``TypeError`` on a bad value)."""

    encode: Callable[[V], Any]
    decode: Callable[[Any], V]


def _side_named(raw: Any) -> Side:
    if raw == "white":
        return Side.WHITE
    if raw == "black":
        return Side.BLACK
    raise ValueError("a side is 'white' or 'black'")


SIDE = Converter[Side](encode=lambda side: "white" if side is Side.WHITE else "black", decode=_side_named)
"""A side travels as ``"white"`` or ``"black"`` (never as 0 or 1)."""


def spec(
    *,
    minimum: int | float | None = None,
    maximum: int | float | None = None,
    max_length: int | None = None,
    name: bool = False,
    multiline: bool = False,
    max_items: int | None = None,
    omit_default: bool = False,
    exact: bool = False,
) -> dict[str, Any]:
    """Field metadata for :meth:`Codec.read`: numeric bounds, a text's length, ``name`` for a one-line name
    (stripped, not empty), ``multiline`` for a text that may hold line breaks, ``max_items`` for a tuple;
    ``omit_default``: :meth:`Codec.encode` leaves the field out while it holds its default (a field added later
    keeps what older logs and views wrote, and costs nothing where it is unused); ``exact``: a text is taken as sent,
    neither stripped nor cleaned, only its length checked (an id that is echoed back, a secret that is compared)."""
    return {
        "toreshi.spec": {
            "omit_default": omit_default,
            "minimum": minimum,
            "maximum": maximum,
            "max_length": max_length,
            "name": name,
            "multiline": multiline,
            "max_items": max_items,
            "exact": exact,
        }
    }


_NO_SPEC: dict[str, Any] = spec()["toreshi.spec"]


@dataclass(frozen=True, slots=True)
class _Field:
    name: str
    hint: Any
    spec: Mapping[str, Any]
    has_default: bool
    omitted: tuple[Any, ...] = ()
    """The default value, when the field is left out while it holds it (``spec(omit_default=True)``)."""
    raw: bool = False
    """JSON carried as it is (a field typed ``Any`` or ``Mapping[str, Any]``): neither encoded nor read item by item."""


class Codec(Generic[T]):
    """The codec of one closed family of dataclasses (a kind's commands, or its events)."""

    def __init__(
        self,
        *classes: type[T],
        converters: Mapping[type[Any], Converter[Any]] | None = None,
        tag: str = TAG,
    ) -> None:
        self.tag = tag
        """The field of the JSON object that names its class, and the class attribute that holds the name."""
        self._classes: dict[str, type[T]] = {}
        for cls in classes:
            name = getattr(cls, tag, None)
            if not isinstance(name, str) or not name:
                raise TypeError(f"{cls.__name__} has no {tag!r} name")
            if name in self._classes:
                raise TypeError(f"two classes are named {name!r}")
            self._classes[name] = cls
        self._converters: dict[type[Any], Converter[Any]] = dict(converters or {})
        self._fields: dict[type[Any], tuple[_Field, ...]] = {}

    @property
    def names(self) -> tuple[str, ...]:
        """Every type name, in the order the classes were given."""
        return tuple(self._classes)

    def class_of(self, name: str) -> type[T] | None:
        return self._classes.get(name)

    # --- out -------------------------------------------------------------------------------------------------

    def encode(self, value: T) -> dict[str, Any]:
        """The JSON object of ``value``, with its ``type``."""
        name, fields = self.encode_apart(value)
        return {self.tag: name, **fields}

    def encode_apart(self, value: T) -> tuple[str, dict[str, Any]]:
        """``value``'s ``type`` and its other fields apart, as a log stores an event or a room takes a command."""
        return str(getattr(type(value), self.tag)), self._encode_fields(value)

    def _encode_fields(self, value: Any) -> dict[str, Any]:
        encoded: dict[str, Any] = {}
        for f in self._fields_of(type(value)):
            item = getattr(value, f.name)
            if f.omitted and item == f.omitted[0]:
                continue
            encoded[f.name] = item if f.raw else self._encode(item)
        return encoded

    def _encode(self, value: Any) -> Any:
        if type(value) in _PLAIN:  # most fields: nothing to convert (a StrEnum's type is not str)
            return value
        converter = self._converters.get(type(value))
        if converter is not None:
            return converter.encode(value)
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, tuple | list):
            return [self._encode(item) for item in value]
        if isinstance(value, Mapping):
            return {str(key): self._encode(item) for key, item in value.items()}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            if self._member(type(value)):  # one of the family inside another (events in a frame): named too
                return {self.tag: getattr(type(value), self.tag), **self._encode_fields(value)}
            return self._encode_fields(value)
        return value

    def _member(self, cls: type[Any]) -> bool:
        return self._classes.get(getattr(cls, self.tag, "")) is cls

    # --- in: stored ------------------------------------------------------------------------------------------

    def decode(self, data: Mapping[str, Any], *, name: str | None = None) -> T:
        """Read back what :meth:`encode` wrote (``name`` when the type is stored beside the object, as in a log).

        Strict: raises :class:`CodecError`."""
        tag = self.tag
        kind = name if name is not None else data.get(tag)
        cls = self._classes.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise CodecError(tag, f"unknown type {kind!r}")
        if name is not None and data.get(tag, name) != name:
            raise CodecError(tag, f"{data.get(tag)!r} stored as {name!r}")
        result: T = self._decode_dataclass(cls, data, str(kind), ignore={tag})
        return result

    def _decode_dataclass(self, cls: type[V], data: Any, where: str, ignore: set[str] | None = None) -> V:
        if not isinstance(data, Mapping):
            raise CodecError(where, "must be an object")
        specs = self._fields_of(cls)
        known = {f.name for f in specs} | (ignore or set())
        unknown = sorted(set(data) - known)
        if unknown:
            raise CodecError(where, f"unknown fields {unknown}")
        values: dict[str, Any] = {}
        for f in specs:
            if f.name not in data:
                if f.has_default:
                    continue
                raise CodecError(where, f"missing field {f.name!r}")
            values[f.name] = self._decode(f.hint, data[f.name], f"{where}.{f.name}")
        try:
            return cls(**values)
        except (TypeError, ValueError) as error:
            raise CodecError(where, str(error)) from None

    def _decode(self, hint: Any, raw: Any, where: str) -> Any:
        origin = typing.get_origin(hint)
        if origin in (Union, types.UnionType):
            options = typing.get_args(hint)
            if raw is None and type(None) in options:
                return None
            inner = [option for option in options if option is not type(None)]
            if len(inner) != 1:
                raise TypeError(f"{where}: only 'X | None' unions are supported")
            return self._decode(inner[0], raw, where)
        if origin is tuple:
            if not isinstance(raw, list):
                raise CodecError(where, "must be a list")
            args = typing.get_args(hint)
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(self._decode(args[0], item, f"{where}[{i}]") for i, item in enumerate(raw))
            if len(args) != len(raw):
                raise CodecError(where, f"must have {len(args)} items")
            pairs = enumerate(zip(args, raw, strict=True))
            return tuple(self._decode(arg, item, f"{where}[{i}]") for i, (arg, item) in pairs)
        if origin in (dict, Mapping):
            if not isinstance(raw, Mapping):
                raise CodecError(where, "must be an object")
            _key, value_hint = typing.get_args(hint)
            if value_hint is Any:
                return dict(raw)
            return {str(k): self._decode(value_hint, v, f"{where}.{k}") for k, v in raw.items()}
        if hint is Any:
            return raw
        converter = self._converters.get(hint)
        if converter is not None:
            try:
                return converter.decode(raw)
            except (ValueError, TypeError, KeyError) as error:
                raise CodecError(where, f"cannot be {raw!r} ({error})") from None
        if isinstance(hint, type) and issubclass(hint, Enum):
            try:
                return hint(raw)
            except ValueError:
                raise CodecError(where, f"cannot be {raw!r}") from None
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._decode_dataclass(hint, raw, where, ignore={self.tag} if self._member(hint) else None)
        if hint is bool:
            ok = isinstance(raw, bool)
        elif hint is int:
            ok = isinstance(raw, int) and not isinstance(raw, bool)
        elif hint is float:
            ok = isinstance(raw, int | float) and not isinstance(raw, bool) and math.isfinite(raw)
            raw = float(raw) if ok else raw
        elif hint is str:
            ok = isinstance(raw, str)
        else:
            raise TypeError(f"{where}: the codec cannot read {hint!r}")  # a programming error, not bad data
        if not ok:
            raise CodecError(where, f"must be {getattr(hint, '__name__', hint)}, not {raw!r}")
        return raw

    # --- in: from a client -----------------------------------------------------------------------------------

    def read(self, name: str, data: Mapping[str, Any]) -> T:
        """The command ``name`` from a client's ``data``, every field checked; raises
        :class:`~toreshi.kit.refusal.Refused` naming the field (``unknown_command`` for an unknown ``name``)."""
        cls = self._classes.get(name)
        if cls is None:
            raise Refused(Common.UNKNOWN_COMMAND, command=name[:40])
        if not isinstance(data, Mapping):
            raise Refused(Common.BAD_REQUEST)
        values: dict[str, Any] = {}
        for f in self._fields_of(cls):
            if f.name not in data or data[f.name] is None:
                if f.has_default:
                    continue
                if not _optional(f.hint):
                    raise Refused(Common.FIELD_REQUIRED, field=f.name)
                values[f.name] = None
                continue
            values[f.name] = self._read(f.hint, data, f.name, f.spec)
        try:
            return cls(**values)
        except (TypeError, ValueError):
            # __post_init__ checks of a command class say "not this combination"; the fields were well-formed
            raise Refused(Common.BAD_REQUEST) from None

    def _read(self, hint: Any, data: Mapping[str, Any], key: str, limits: Mapping[str, Any]) -> Any:
        if hint is Any:
            return data[key]  # JSON for a reader of its own (a room reads a command's data with its codec)
        if hint is bool:  # the plain types first: most fields are one
            return payload.read_bool(data, key)
        if hint is int:
            return payload.read_int(data, key, minimum=limits["minimum"], maximum=limits["maximum"])
        if hint is float:
            return payload.read_number(data, key, minimum=limits["minimum"], maximum=limits["maximum"])
        if hint is str:
            if limits["name"]:
                return payload.read_name(data, key, max_length=limits["max_length"] or payload.MAX_NAME)
            max_length = limits["max_length"] or payload.MAX_TEXT
            if limits["exact"]:  # taken as sent (an id echoed back, a secret compared): only its length is checked
                value = data[key]
                if not isinstance(value, str):
                    raise Refused(Common.FIELD_NOT_TEXT, field=key)
                if len(value) > max_length:
                    raise Refused(Common.FIELD_TOO_LONG, field=key, maximum=max_length)
                return value
            return payload.read_text(data, key, max_length=max_length, multiline=limits["multiline"])
        origin = typing.get_origin(hint)
        if origin in (Union, types.UnionType):
            if data.get(key) is None:
                return None
            (inner,) = (option for option in typing.get_args(hint) if option is not type(None))
            return self._read(inner, data, key, limits)
        if origin is tuple:
            args = typing.get_args(hint)
            item_hint = args[0]
            return payload.read_list(
                data,
                key,
                lambda raw, where: self._read(item_hint, {where: raw}, where, limits),
                max_items=limits["max_items"] or 100,
            )
        if origin in (dict, Mapping):
            # A JSON object of names to values (keys of buzzers → teams, notes by cell): its names are clean
            # texts, each value is read by the field's limits, and there are at most ``max_items`` of them.
            _key, value_hint = typing.get_args(hint)
            found = payload.read_object(data, key)
            if value_hint is Any:
                return found
            most = limits["max_items"] or 100
            if len(found) > most:
                raise Refused(Common.FIELD_TOO_LONG, field=key, maximum=most)
            read: dict[str, Any] = {}
            for name, raw in found.items():
                payload.check_text(name, key, max_length=payload.MAX_NAME)
                where = f"{key}.{name}"
                read[name] = self._read(value_hint, {where: raw}, where, limits)
            return read
        converter = self._converters.get(hint)
        if converter is not None:
            try:
                return converter.decode(data[key])
            except (ValueError, TypeError, KeyError, Refused) as error:
                if isinstance(error, Refused):
                    raise
                raise Refused(Common.BAD_REQUEST, field=key) from None
        if isinstance(hint, type) and issubclass(hint, Enum):
            return payload.read_choice(data, key, hint)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            nested = payload.read_object(data, key)
            return self._read_dataclass(hint, nested, key)
        raise TypeError(f"{key}: the codec cannot read {hint!r} from a client")

    def _read_dataclass(self, cls: type[V], data: Mapping[str, Any], where: str) -> V:
        values: dict[str, Any] = {}
        for f in self._fields_of(cls):
            if data.get(f.name) is None:
                if f.has_default:
                    continue
                if not _optional(f.hint):
                    raise Refused(Common.FIELD_REQUIRED, field=f"{where}.{f.name}")
                values[f.name] = None
                continue
            values[f.name] = self._read(f.hint, {f"{where}.{f.name}": data[f.name]}, f"{where}.{f.name}", f.spec)
        try:
            return cls(**values)
        except (TypeError, ValueError):
            raise Refused(Common.BAD_REQUEST, field=where) from None

    # --- fields ----------------------------------------------------------------------------------------------

    def _fields_of(self, cls: type[Any]) -> tuple[_Field, ...]:
        # get_type_hints resolves string annotations on every call; a replay reads thousands of events.
        found = self._fields.get(cls)
        if found is None:
            hints = typing.get_type_hints(cls)
            found = tuple(
                _Field(
                    f.name,
                    hints[f.name],
                    f.metadata.get("toreshi.spec", _NO_SPEC),
                    f.default is not MISSING or f.default_factory is not MISSING,
                    _omitted(f),
                    _raw(hints[f.name]),
                )
                for f in dataclasses.fields(cls)
                if f.init
            )
            self._fields[cls] = found
        return found


def _omitted(f: dataclasses.Field[Any]) -> tuple[Any, ...]:
    if not f.metadata.get("toreshi.spec", _NO_SPEC).get("omit_default"):
        return ()
    if f.default is not MISSING:
        return (f.default,)
    if f.default_factory is not MISSING:
        return (f.default_factory(),)
    raise TypeError(f"field {f.name!r} is omitted at its default but has none")


def _raw(hint: Any) -> bool:
    """Whether a field is JSON carried as it is: ``Any``, or an object of names to ``Any``."""
    if hint is Any:
        return True
    return typing.get_origin(hint) in (dict, Mapping) and typing.get_args(hint)[1] is Any


def _optional(hint: Any) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType) and type(None) in typing.get_args(hint)
