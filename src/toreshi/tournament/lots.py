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

How (:mod:`toreshi.kit.lots`, shared with the quiz's order of choice): every lot is a SHA-256 digest of
``toreshi-lots-1``, the seed, what is drawn and, for an entry, its name folded to one line and lower case (NFC).
A digest depends on nothing else — not on the order the entries were typed in, nor on the Python version — so that
the method can be written down and checked by hand:

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

from collections.abc import Sequence
from dataclasses import dataclass

from toreshi.kit.lots import MAX_SEED_LENGTH, METHOD, LotsError, check_seed, fold_name, lot
from toreshi.tournament.model import Colour


@dataclass(frozen=True)
class Entrant:
    """What the lots know of an entry: its name, rating and title (as a TRF ``001`` line has them)."""

    name: str
    rating: int | None = None
    title: str = ""


def initial_colour(seed: str) -> Colour:
    """The top seed's colour in round 1."""
    return Colour.WHITE if lot(seed, "colour")[0] % 2 == 0 else Colour.BLACK


def _title_key(title: str) -> str:
    return title or "~"  # no title after every title, as the rating order (seeding_order) sorts them


def draw_order(seed: str, entrants: Sequence[Entrant], *, round_robin: bool) -> list[Entrant]:
    """The entries in the order of their new pairing numbers (1, 2, …)."""
    keys = {id(e): lot(seed, "order", fold_name(e.name)) for e in entrants}
    indexed = list(enumerate(entrants))
    if round_robin:
        indexed.sort(key=lambda pair: (keys[id(pair[1])], -(pair[1].rating or 0), pair[0]))
    else:
        indexed.sort(key=lambda pair: (-(pair[1].rating or 0), _title_key(pair[1].title), keys[id(pair[1])], pair[0]))
    return [entrant for _, entrant in indexed]


__all__ = ["MAX_SEED_LENGTH", "METHOD", "Entrant", "LotsError", "check_seed", "draw_order", "initial_colour", "lot"]
