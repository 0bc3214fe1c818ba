"""The edge weight: every Dutch criterion packed into one exact integer, most important first.

A maximum-weight matching over these weights optimises the criteria in their order of priority: each field is
wide enough that no combination of the fields below it can outweigh one unit of it. The layout follows the one
bbpPairings uses (C.04.3, 2025 rules), from the most significant field down:

1. completion and the PAB: 1 for the pair, +1 for each player who may not take the bye (C2, C4, C5);
2. pairs in the current bracket (C6), then the scores paired in it, one sub-field per scoregroup (C7);
3. pairs and scores in the next bracket (C8);
4. the bye assignee's played games (C9);
5. colours: topscorers' colour difference (C10), three in a row (C11), preferences (C12), strong ones (C13);
6. floats repeated from one and two rounds before (C14–C17), then their scores (C18–C21);
7. room for the ordering inside a bracket (exchanges, transpositions), filled by the bracket procedure.

Fields 2–6 count only for pairs inside the current bracket, so players further down take part only through
field 1: the current bracket may not leave them unpairable.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from toreshi.tournament.dutch.state import DRAW, WIN, Float, PlayerState


@dataclass(frozen=True)
class Layout:
    """Field widths for one round."""

    group_bits: int
    """Bits for a count of players of one scoregroup (the largest)."""
    groups_shift: int
    """Total width of a score-weighted field (one sub-field per scoregroup)."""
    group_shift: Mapping[int, int]
    """Offset of each score's sub-field; higher scores sit higher."""
    played_rounds: int
    last_round: bool

    @property
    def top_shift(self) -> int:
        """Bits below the completion field (field 1)."""
        return _top_shift(self.group_bits, self.groups_shift, self.played_rounds)

    @property
    def room_bits(self) -> int:
        """The low bits left for the bracket-internal ordering."""
        return 3 * self.group_bits + 1


@lru_cache(maxsize=64)
def _top_shift(b: int, s: int, played_rounds: int) -> int:
    floats = sum(2 * b + 2 * s for k in (1, 2) if played_rounds >= k)
    return b + s + b + s + b + 4 * b + floats + 3 * b + 1


def make_layout(scores_descending: list[int], played_rounds: int, planned_rounds: int) -> Layout:
    shifts: dict[int, int] = {}
    total = 0
    largest = 0
    index = len(scores_descending)
    while index > 0:
        # Walk the scoregroups from the lowest score up.
        score = scores_descending[index - 1]
        start = index
        while index > 0 and scores_descending[index - 1] == score:
            index -= 1
        size = start - index
        shifts[score] = total
        total += size.bit_length()
        largest = max(largest, size)
    return Layout(
        group_bits=largest.bit_length(),
        groups_shift=total,
        group_shift=shifts,
        played_rounds=played_rounds,
        last_round=played_rounds >= planned_rounds - 1,
    )


def compatible(a: PlayerState, b: PlayerState, layout: Layout) -> bool:
    """Absolute criteria C1 (no rematch, no prohibited pair) and C3 (waived in the last round for topscorers)."""
    if b.number in a.barred:
        return False
    if not (a.absolute and b.absolute and a.preference is b.preference):
        return True
    threshold = layout.played_rounds * max(WIN, DRAW) >> 1
    return layout.last_round and (a.score > threshold or b.score > threshold)


def bye_candidate(p: PlayerState, bye_score: int) -> bool:
    return p.bye_eligible and p.score <= bye_score


def _preferences_compatible(a: PlayerState, b: PlayerState) -> bool:
    return a.preference is None or b.preference is None or a.preference is not b.preference


def colour_fields(low: PlayerState, high: PlayerState) -> tuple[bool, bool, bool, bool]:
    """C10–C13 for one pair: True where the pair does not violate the criterion."""
    same = low.preference is high.preference
    c10 = not low.absolute_imbalance or not high.absolute_imbalance or not same
    if low.imbalance == high.imbalance:
        tie = low.repeated is None or low.repeated is not high.repeated
    else:
        bigger = high if low.imbalance > high.imbalance else low
        tie = bigger.repeated is not (low.preference.other if low.preference is not None else None)
    c11 = not low.absolute or not high.absolute or not same or tie
    c12 = _preferences_compatible(low, high)
    c13 = (
        (not low.strong and not low.absolute)
        or (not high.strong and not high.absolute)
        or (low.absolute and high.absolute)
        or not same
    )
    return c10, c11, c12, c13


def edge_weight(
    high: PlayerState,
    low: PlayerState,
    *,
    in_current: bool,
    in_next: bool,
    bye_score: int,
    single_downfloater_is_bye: bool,
    played_rank: Mapping[int, int],
    layout: Layout,
    floats: Mapping[int, tuple[Float, Float]],
) -> int:
    """The weight of pairing ``high`` (ranked above) with ``low``; 0 when they may not meet."""
    if not compatible(high, low, layout):
        return 0
    if not (in_current or in_next or single_downfloater_is_bye):
        # Outside the bracket only completion counts (the common case: make it cheap).
        top = 1 + (not bye_candidate(high, bye_score)) + (not bye_candidate(low, bye_score))
        return top << layout.top_shift
    b = layout.group_bits
    s = layout.groups_shift
    shift = layout.group_shift
    w = 1 + (not bye_candidate(high, bye_score)) + (not bye_candidate(low, bye_score))
    w = (w << b) + in_current
    w <<= s
    if in_current:
        w += 1 << shift[high.score]
    w = (w << b) + in_next
    w <<= s
    if in_next:
        w += 1 << shift[high.score]
    w <<= b
    if single_downfloater_is_bye:
        if high.score == bye_score:
            w += played_rank[high.played_games]
        if low.score == bye_score:
            w += played_rank[low.played_games]
    for ok in colour_fields(low, high):
        w = (w << b) + (in_current and ok)
    rounds_back = [k for k in (1, 2) if layout.played_rounds >= k]
    high_floats, low_floats = floats[high.number], floats[low.number]
    for k in rounds_back:
        w <<= b
        if in_current:
            w += low_floats[k - 1] is Float.DOWN
            w += high.score <= low.score and high_floats[k - 1] is Float.DOWN
        w <<= b
        if in_current:
            w += not (high.score > low.score and low_floats[k - 1] is Float.UP)
    for k in rounds_back:
        w <<= s
        if in_current:
            w += (low_floats[k - 1] is Float.DOWN) << shift[low.score]
            w += (high_floats[k - 1] is Float.DOWN) << shift[high.score]
        w <<= s
        if in_current and not (low_floats[k - 1] is Float.UP and high.score > low.score):
            w += 1 << shift[high.score]
    return w << layout.room_bits
