"""Maximum-weight matching over arbitrary vertex labels (the engine's vertices are sorted positions).

A thin adapter over :mod:`.blossom`, which works on vertices 0..n-1. Weights are exact Python integers: the
solver never rounds, whatever their width.
"""

from __future__ import annotations

from collections.abc import Iterable

from toreshi.tournament.dutch import blossom


def max_weight_matching(vertices: Iterable[int], edges: Iterable[tuple[int, int, int]]) -> dict[int, int]:
    """Each matched vertex mapped to its mate (both ways); unmatched vertices are absent.

    Edges with weight ≤ 0 are left out: a zero weight means the two may not meet.

    >>> sorted(max_weight_matching([0, 1, 2, 3], [(0, 1, 5), (1, 2, 9), (2, 3, 5), (0, 3, 2)]).items())
    [(0, 3), (1, 2), (2, 1), (3, 0)]
    """
    order = sorted(set(vertices))
    index = {v: i for i, v in enumerate(order)}
    mates = blossom.max_weight_matching(len(order), ((index[u], index[v], w) for u, v, w in edges if w > 0))
    return {order[i]: order[j] for i, j in mates.items()}
