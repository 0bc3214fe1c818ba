"""The seeded drawing of lots shared by every game the platform runs (issue 29).

A lot is a SHA-256 digest of the method's name (:data:`METHOD`), a **seed** published before the draw, what is drawn
and the item it is drawn for, joined by the unit separator (U+001F) in UTF-8. A digest depends on nothing else — not
on the order the items were typed in, nor on the Python version — so anyone holding the seed draws the same lots
again on any machine (``toreshi tournament lots``, ``toreshi quiz lots``). The togyz tournament
(:mod:`toreshi.tournament.lots`) and the «Своя игра» game (:mod:`toreshi.quiz.lots`) say *what* they draw; how is
here, once.

>>> order_by_lot("2026-spring", "choice", ["Алау", "Барыс", "Қыран"])
['Алау', 'Қыран', 'Барыс']
"""

from __future__ import annotations

import hashlib
import random
import unicodedata
from collections.abc import Sequence

METHOD = "toreshi-lots-1"
"""Named in every digest: a later method gets a new name and never redraws an old draw differently."""

MAX_SEED_LENGTH = 64

SEED_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
"""Letters and digits that cannot be misread for one another when a seed is read aloud or copied by hand."""


class LotsError(ValueError):
    """A seed that cannot be published (empty, too long, several lines)."""


def check_seed(seed: str) -> str:
    """The seed as it is published: stripped; refused when empty, over :data:`MAX_SEED_LENGTH` characters or with
    a control character (a seed is read aloud and typed again on another machine).

    >>> check_seed("  Almaty 2026  ")
    'Almaty 2026'
    """
    text = seed.strip()
    if not text:
        raise LotsError("the seed is empty")
    if len(text) > MAX_SEED_LENGTH:
        raise LotsError(f"the seed has {len(text)} characters (at most {MAX_SEED_LENGTH})")
    if any(unicodedata.category(char)[0] == "C" for char in text):
        raise LotsError("the seed has a control character")
    return text


def fold_name(name: str) -> str:
    """A name as the lots read it: NFC, one line, single spaces, case folded (``"  Алау  Team"`` = ``"алау team"``)."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def lot(seed: str, what: str, item: str = "") -> bytes:
    """The digest that decides one lot: SHA-256 of the method, the seed, what is drawn and the item, joined by
    the unit separator (U+001F), in UTF-8."""
    text = "\x1f".join((METHOD, check_seed(seed), what, item))
    return hashlib.sha256(text.encode("utf-8")).digest()


def order_by_lot(seed: str, what: str, names: Sequence[str]) -> list[str]:
    """The names in the order of their lots ``lot(seed, what, fold_name(name))``, smallest digest first; two names
    that fold alike keep the order given."""
    indexed = sorted(enumerate(names), key=lambda pair: (lot(seed, what, fold_name(pair[1])), pair[0]))
    return [name for _, name in indexed]


def new_seed(rng: random.Random, length: int = 10) -> str:
    """A seed for a draw nobody named one for: ``length`` characters of :data:`SEED_ALPHABET` from ``rng`` (the
    caller's generator, seeded outside the core), in groups of five (``"k3mzq-7hwae"``).

    >>> new_seed(random.Random(1))
    'ev643-cjds3'
    """
    chars = "".join(rng.choice(SEED_ALPHABET) for _ in range(length))
    return "-".join(chars[i : i + 5] for i in range(0, length, 5))


__all__ = [
    "MAX_SEED_LENGTH",
    "METHOD",
    "SEED_ALPHABET",
    "LotsError",
    "check_seed",
    "fold_name",
    "lot",
    "new_seed",
    "order_by_lot",
]
