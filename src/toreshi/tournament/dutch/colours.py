"""Colour allocation for a pair, once the pairing is made (C.04.3 5.2, bbpPairings' order of rules).

1. Grant both preferences if they agree (different colours, or one side has none).
2. Grant the stronger preference (absolute, then strong); two absolutes: the larger colour difference.
3. Alternate from the most recent round in which the two had different colours (played games only).
4. Grant the preference of the higher-ranked player.
5. Otherwise the higher-ranked player gets the initial colour if their pairing number is odd, else the other.
"""

from __future__ import annotations

from toreshi.tournament.dutch.state import PlayerState
from toreshi.tournament.model import Colour


def _played_colours(p: PlayerState) -> list[Colour]:
    return [r.colour for r in p.rounds if r.played and r.colour is not None]


def _first_difference(p: PlayerState, o: PlayerState) -> tuple[Colour | None, Colour | None]:
    mine, theirs = _played_colours(p)[::-1], _played_colours(o)[::-1]
    for a, b in zip(mine, theirs, strict=False):
        if a is not b:
            return a, b
    return None, None


def _neutral(p: PlayerState, o: PlayerState) -> Colour | None:
    """The colour for ``p`` decided by rules 1–3, or None."""
    if p.preference is None or o.preference is None or p.preference is not o.preference:
        if p.preference is not None:
            return p.preference
        if o.preference is not None:
            return o.preference.other
        return None
    if p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return p.preference
    if o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return o.preference.other
    if p.strong and not o.strong:
        return p.preference
    if o.strong and not p.strong:
        return o.preference.other
    mine, theirs = _first_difference(p, o)
    if mine is not None and theirs is not None:
        return theirs
    return None


def ranks_below(p: PlayerState, o: PlayerState) -> bool:
    """Whether ``p`` is ranked below ``o`` (lower score, or equal score and larger pairing number)."""
    return (p.score, o.rank) < (o.score, p.rank)


def choose_colour(p: PlayerState, o: PlayerState, initial: Colour) -> Colour:
    """The colour ``p`` gets against ``o``."""
    neutral = _neutral(p, o)
    if neutral is not None:
        return neutral
    lower = ranks_below(p, o)
    if p.preference is None:
        if lower:
            return initial if o.rank & 1 else initial.other
        return initial.other if p.rank & 1 else initial
    if lower:
        assert o.preference is not None
        return o.preference.other
    return p.preference
