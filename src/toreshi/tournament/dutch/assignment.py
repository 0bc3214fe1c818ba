"""Maximum-weight assignment of S1 to S2 (Hungarian method), with the duals that prove it optimal.

Pairing a homogeneous remainder is usually a bipartite problem: S1 against S2, no exchanges. The Hungarian method
solves that in O(k³) for k = |S1|, eight times less work than a general matching on 2k players. Its duals y
(y_a + y_b ≥ w(a, b) on every S1–S2 edge, equality on the pairs chosen) prove the answer optimal among all
pairings of the remainder when they can be shifted (+c on S1, −c on S2) to cover the S1–S1 and S2–S2 edges too:
then no pairing, exchanges included, weighs more (linear-programming duality for perfect matchings). When they
cannot, the caller uses the general matching.

>>> weights = {(0, 2): 5, (0, 3): 4, (1, 2): 4, (1, 3): 1}
>>> sorted(max_weight_assignment([0, 1], [2, 3], lambda a, b: weights.get((a, b)))[0].items())
[(0, 3), (1, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Weight = Callable[[int, int], "int | None"]
"""The weight of pairing two players, None when they may not meet."""


def max_weight_assignment(
    rows: Sequence[int], cols: Sequence[int], weight: Weight
) -> tuple[dict[int, int], dict[int, int]] | None:
    """Assign every row a distinct column with the largest total weight; also the duals.

    None when no assignment uses allowed pairs only. Requires ``len(rows) == len(cols)``.
    """
    k = len(rows)
    if k != len(cols):
        raise ValueError(f"{k} rows but {len(cols)} columns")
    if k == 0:
        return {}, {}
    table = [[weight(r, c) for c in cols] for r in rows]
    top = max((w for row in table for w in row if w is not None), default=0)
    forbidden = 2 * (k + 1) * (top + 1)
    unreached = 4 * (k + 2) ** 2 * (forbidden + top + 1)  # above any path length the search can meet
    # Minimise cost = -weight; a forbidden pair costs more than any assignment of allowed pairs. Each row of
    # weights is let go once negated: with thousands of bits a weight, a large remainder's table is gigabytes.
    cost: list[list[int]] = []
    table.reverse()
    while table:
        cost.append([0, *(forbidden if w is None else -w for w in table.pop())])
    u = [0] * (k + 1)
    v = [0] * (k + 1)
    owner = [0] * (k + 1)  # owner[j]: the row (1-based) assigned to column j; 0 for none
    way = [0] * (k + 1)
    for i in range(1, k + 1):
        # One shortest-path search from row i (Dijkstra on reduced costs). The dual changes are applied lazily:
        # ``shift`` is the sum of the deltas so far; ``reach[j] - shift`` is the true slack of an unreached
        # column, and a column reached when the sum was ``since[j]`` owes ``shift - since[j]`` to the duals.
        # That makes each step one pass over the unreached columns instead of two over all of them.
        owner[0] = i
        j0 = 0
        shift = 0
        reach = [unreached] * (k + 1)
        since = [0] * (k + 1)
        reached = [0]
        free = list(range(1, k + 1))
        while True:
            i0 = owner[j0]
            costs = cost[i0 - 1]
            base = shift - u[i0]
            delta = unreached
            j1 = 0
            for j in free:
                current = costs[j] - v[j] + base
                if current < reach[j]:
                    reach[j] = current
                    way[j] = j0
                    if current < delta:
                        delta = current
                        j1 = j
                elif reach[j] < delta:
                    delta = reach[j]
                    j1 = j
            shift = delta
            j0 = j1
            free.remove(j0)
            reached.append(j0)
            since[j0] = shift
            if owner[j0] == 0:
                break
        for j in reached:
            owed = shift - since[j]
            u[owner[j]] += owed
            v[j] -= owed
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    assignment: dict[int, int] = {}
    for j in range(1, k + 1):
        i = owner[j]
        if cost[i - 1][j] == forbidden:
            return None
        assignment[rows[i - 1]] = cols[j - 1]
    duals = {rows[i - 1]: -u[i] for i in range(1, k + 1)}
    duals.update({cols[j - 1]: -v[j] for j in range(1, k + 1)})
    return assignment, duals


def proves_optimal(rows: Sequence[int], cols: Sequence[int], duals: dict[int, int], weight: Weight) -> bool:
    """Whether the duals, shifted by some c (+c on rows, −c on columns), cover the row–row and column–column edges.

    Row–column edges are covered already. Covering all edges proves the assignment a maximum-weight perfect
    matching of rows and columns together.
    """
    need = None  # the least 2c that covers every row–row edge
    for index, a in enumerate(rows):
        for b in rows[index + 1 :]:
            w = weight(a, b)
            if w is not None:
                gap = w - duals[a] - duals[b]
                need = gap if need is None or gap > need else need
    room = None  # the most 2c that keeps every column–column edge covered
    for index, a in enumerate(cols):
        for b in cols[index + 1 :]:
            w = weight(a, b)
            if w is not None:
                spare = duals[a] + duals[b] - w
                room = spare if room is None or spare < room else room
    return need is None or room is None or need <= room
