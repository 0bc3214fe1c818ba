"""Move tokens: the two-digit form with its annotations, and the one-digit score-sheet form (rules §6.1–6.2).

A token is ``<hole played>[<landing hole>][X|x|Х|х][(<mover's kazan>)]``:

>>> parse_token("91X")
MoveToken(hole=9, landing=1, tuzdyk=True, kazan=None)
>>> parse_token("76(10)")
MoveToken(hole=7, landing=6, tuzdyk=False, kazan=10)
>>> parse_token("5")
MoveToken(hole=5, landing=None, tuzdyk=False, kazan=None)
>>> parse_token("70")
Traceback (most recent call last):
...
toreshi.togyz.notation.InvalidTokenError: move token '70': the landing hole must be a digit 1-9, not '0'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from toreshi.togyz.position import TOTAL_KUMALAKS, Played

TUZDYK_MARKS = frozenset("XxХх")  # Latin X/x and Cyrillic Х/х
_DIGITS = "123456789"


def _shown(text: str) -> str:
    """``text`` for a message, clipped to 40 characters: a hostile record's token can be megabytes long."""
    return text if len(text) <= 40 else text[:40] + "…"


class NotationError(ValueError):
    """Base class of notation errors."""


class InvalidTokenError(NotationError):
    """A move token that does not follow the grammar; the message says which part is wrong."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"move token {_shown(token)!r}: {reason}")
        self.token = token
        self.reason = reason


@dataclass(frozen=True)
class MoveToken:
    """A move as written: the hole played plus the optional annotations a record may carry.

    ``landing`` is ``None`` in the one-digit score-sheet form; ``kazan`` is the ``(n)`` total, written
    after captures only.
    """

    hole: int
    landing: int | None = None
    tuzdyk: bool = False
    kazan: int | None = None

    @classmethod
    def from_played(cls, played: Played) -> MoveToken:
        """The canonical token of a move that has been made (rules §6.1 writer).

        >>> from toreshi.togyz import Position
        >>> MoveToken.from_played(Position().play(7))
        MoveToken(hole=7, landing=6, tuzdyk=False, kazan=10)
        """
        return cls(
            played.hole,
            played.landing,
            played.tuzdyk,
            played.kazan if played.captured else None,
        )

    def __str__(self) -> str:
        return format_token(self)


def parse_token(text: str) -> MoveToken:
    """Parse a move token; raises :class:`InvalidTokenError` naming the faulty part."""
    token = text.strip()
    if not token:
        raise InvalidTokenError(text, "it is empty")
    if token[0] not in _DIGITS:
        raise InvalidTokenError(text, f"the hole played must be a digit 1-9, not {token[0]!r}")
    hole = int(token[0])
    rest = token[1:]
    landing: int | None = None
    if rest and rest[0].isdigit():
        if rest[0] not in _DIGITS:
            raise InvalidTokenError(text, f"the landing hole must be a digit 1-9, not {rest[0]!r}")
        landing = int(rest[0])
        rest = rest[1:]
    tuzdyk = False
    if rest and rest[0] in TUZDYK_MARKS:
        tuzdyk = True
        rest = rest[1:]
    kazan: int | None = None
    if rest.startswith("("):
        if tuzdyk:
            raise InvalidTokenError(text, "a tuzdyk mark and a capture total cannot stand together")
        close = rest.find(")")
        if close < 0:
            raise InvalidTokenError(text, "the capture total has no closing ')'")
        digits = rest[1:close]
        if not digits.isascii() or not digits.isdigit():
            raise InvalidTokenError(text, f"the capture total must be a number, not {_shown(digits)!r}")
        significant = digits.lstrip("0") or "0"
        if len(significant) > len(str(TOTAL_KUMALAKS)):  # before ``int``: it refuses 4300 digits with a ValueError
            raise InvalidTokenError(text, f"the capture total is more than {TOTAL_KUMALAKS}")
        kazan = int(significant)
        if kazan > TOTAL_KUMALAKS:
            raise InvalidTokenError(text, f"the capture total {kazan} is more than {TOTAL_KUMALAKS}")
        rest = rest[close + 1 :]
    if rest:
        if rest[0].isdigit():
            raise InvalidTokenError(text, "a move token has at most two digits before its annotations")
        raise InvalidTokenError(text, f"unexpected {_shown(rest)!r} after the move")
    if landing is None and (tuzdyk or kazan is not None):
        raise InvalidTokenError(text, "annotations need the landing digit (two-digit form)")
    return MoveToken(hole, landing, tuzdyk, kazan)


def format_token(token: MoveToken | Played, form: Literal["full", "sheet"] = "full") -> str:
    """Write a token: ``full`` is the annotated two-digit form, ``sheet`` the one-digit score-sheet form.

    >>> format_token(MoveToken(6, 8, tuzdyk=True))
    '68X'
    >>> format_token(MoveToken(9, 9, kazan=22))
    '99(22)'
    >>> format_token(MoveToken(9, 9, kazan=22), form="sheet")
    '9'
    """
    if isinstance(token, Played):
        token = MoveToken.from_played(token)
    if form == "sheet" or token.landing is None:
        return str(token.hole)
    text = f"{token.hole}{token.landing}"
    if token.tuzdyk:
        return text + "X"
    if token.kazan is not None:
        return f"{text}({token.kazan})"
    return text


def annotation_mismatch(token: MoveToken, played: Played) -> str | None:
    """Compare what a record wrote with what the move did; ``None`` when they agree.

    A missing ``X`` on a move that creates a tuzdyk is a mismatch (tuzdyks are automatic, §4); a ``(n)``
    claims a capture with that kazan total.

    >>> from toreshi.togyz import Position
    >>> annotation_mismatch(parse_token("75"), Position().play(7))
    'the last kumalak lands in hole 6, not 5'
    """
    if token.landing is not None and token.landing != played.landing:
        return f"the last kumalak lands in hole {played.landing}, not {token.landing}"
    if token.tuzdyk and not played.tuzdyk:
        return "'X' is written but the move creates no tuzdyk"
    if played.tuzdyk and token.landing is not None and not token.tuzdyk:
        return f"the move creates a tuzdyk on hole {played.landing} but 'X' is missing"
    if token.kazan is not None:
        if not played.captured:
            return f"'({token.kazan})' claims a capture but the move captures nothing"
        if token.kazan != played.kazan:
            return f"the mover's kazan after the capture is {played.kazan}, not {token.kazan}"
    return None
