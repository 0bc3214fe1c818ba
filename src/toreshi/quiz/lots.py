"""The order of choice at the start of a «Своя игра» game, drawn by lot from a published seed (SI-3.2, issue 29).

SI-3.2: the team that last answered correctly chooses; *at the start, the order is drawn by lot*. The lot is
:func:`toreshi.kit.lots.order_by_lot` with ``what = "choice"``: each team's lot is SHA-256 of ``toreshi-lots-1``, the
game's seed, ``choice`` and its name folded (NFC, single spaces, lower case); the team of the smallest digest chooses
first, the next one second, and so on. The seed is in the game's setup (``GameSetup.lots_seed``), shown on the
game's screens from its creation, before the draw; ``toreshi quiz lots SEED TEAM...`` draws the same order again.

Documented vectors (tests/quiz/test_lots.py checks them):

>>> choice_order("2026-spring", ["Алау", "Барыс", "Қыран"])
('Алау', 'Қыран', 'Барыс')
>>> choice_order("si-final", ["A", "B", "C", "D"])
('B', 'D', 'C', 'A')
"""

from __future__ import annotations

from collections.abc import Sequence

from toreshi.kit.lots import order_by_lot

WHAT = "choice"
"""What the quiz's lot draws, named in every digest."""


def choice_order(seed: str, teams: Sequence[str]) -> tuple[str, ...]:
    """The teams in the drawn order of choice: the first chooses first (SI-3.2)."""
    return tuple(order_by_lot(seed, WHAT, teams))


__all__ = ["WHAT", "choice_order"]
