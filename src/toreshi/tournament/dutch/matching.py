"""Maximum-weight matching on a general graph, with exact integer weights.

The Dutch engine asks one question many times: of all the ways to pair these players, which has the largest
total weight? Weights are Python integers hundreds of bits wide, so the solver must never round. networkx's
``max_weight_matching`` (Edmonds' blossom algorithm, O(n³)) uses integer arithmetic throughout when the
weights are integers.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx  # type: ignore[import-untyped]


def max_weight_matching(vertices: Iterable[int], edges: Iterable[tuple[int, int, int]]) -> dict[int, int]:
    """Each matched vertex mapped to its mate (both ways); unmatched vertices are absent.

    Edges with weight ≤ 0 are left out: a zero weight means the two may not meet.

    >>> sorted(max_weight_matching([0, 1, 2, 3], [(0, 1, 5), (1, 2, 9), (2, 3, 5), (0, 3, 2)]).items())
    [(0, 3), (1, 2), (2, 1), (3, 0)]
    """
    graph = nx.Graph()
    graph.add_nodes_from(vertices)
    graph.add_weighted_edges_from((u, v, w) for u, v, w in edges if w > 0)
    mates: dict[int, int] = {}
    for u, v in nx.max_weight_matching(graph, maxcardinality=False):
        mates[u] = v
        mates[v] = u
    return mates
