"""The drawing of lots, repeatable from a published seed (issue 29).

Where the rules leave a choice to chance, the choice is derived from a **seed**, a short text the arbiter publishes
on the tournament page before the draw: anyone holding the seed and the list of entries draws the same lots again,
on any machine, with ``toreshi tournament lots SEED FILE.trf``.

What is drawn:

- the **initial colour** (FIDE C.04.3 A.6 / TRF ``XXC white1|black1``, ``152 W|B``): the colour of the top seed
  in round 1 of a Swiss, and of player 1 in the first game of a round robin;
- the **pairing numbers**: in a Swiss, players of the same rating and title are ordered by lot instead of
  alphabetically (FIDE C.04.2 B allows the regulation to replace the alphabetical criterion); in a round robin
  every player's Berger number is drawn (FIDE C.05, the drawing of lots of a round-robin event).

How: every lot is a SHA-256 digest of ``toreshi-lots-1``, the seed, what is drawn and, for an entry, its name
folded to one line and lower case (NFC). A digest depends on nothing else — not on the order the entries were
typed in, nor on the Python version — so that the method can be written down and checked by hand:

- initial colour: White if the first byte of ``H("colour")`` is even, else Black;
- order: entries sorted by (rating down, title, ``H("order", name)``) in a Swiss, by ``H("order", name)`` alone in a
  round robin; two entries of the same name keep their rating order, then the order given.

>>> [e.name for e in draw_order("2026-spring", [Entrant("Абай", 1500), Entrant("Бек", 1500), Entrant("Жан", 1600)],
...  round_robin=False)][0]
'Жан'
>>> initial_colour("2026-spring") in (Colour.WHITE, Colour.BLACK)
True
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from toreshi.tournament.model import Colour

METHOD = "toreshi-lots-1"
"""Named in every digest: a later method gets a new name and never redraws an old tournament differently."""

MAX_SEED_LENGTH = 64


class LotsError(ValueError):
    """A seed that cannot be published (empty, too long, several lines)."""


@dataclass(frozen=True)
class Entrant:
    """What the lots know of an entry: its name, rating and title (as a TRF ``001`` line has them)."""

    name: str
    rating: int | None = None
    title: str = ""


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


def _folded(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def lot(seed: str, what: str, item: str = "") -> bytes:
    """The digest that decides one lot: SHA-256 of the method, the seed, what is drawn and the item, joined by
    the unit separator (U+001F), in UTF-8."""
    text = "\x1f".join((METHOD, check_seed(seed), what, item))
    return hashlib.sha256(text.encode("utf-8")).digest()


def initial_colour(seed: str) -> Colour:
    """The top seed's colour in round 1."""
    return Colour.WHITE if lot(seed, "colour")[0] % 2 == 0 else Colour.BLACK


def _title_key(title: str) -> str:
    return title or "~"  # no title after every title, as the rating order (seeding_order) sorts them


def draw_order(seed: str, entrants: Sequence[Entrant], *, round_robin: bool) -> list[Entrant]:
    """The entries in the order of their new pairing numbers (1, 2, …)."""
    keys = {id(e): lot(seed, "order", _folded(e.name)) for e in entrants}
    indexed = list(enumerate(entrants))
    if round_robin:
        indexed.sort(key=lambda pair: (keys[id(pair[1])], -(pair[1].rating or 0), pair[0]))
    else:
        indexed.sort(key=lambda pair: (-(pair[1].rating or 0), _title_key(pair[1].title), keys[id(pair[1])], pair[0]))
    return [entrant for _, entrant in indexed]


__all__ = ["METHOD", "Entrant", "LotsError", "check_seed", "draw_order", "initial_colour", "lot"]
