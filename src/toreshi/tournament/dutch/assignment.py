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
    # Start from the cheapest edge of each row (feasible duals) and give each row such a column while one is free:
    # with the few distinct weights of a remainder most rows are placed so, and only the rest need a search.
    for i in range(1, k + 1):
        costs = cost[i - 1]
        least = min(costs[1:])
        u[i] = least
        for j in range(1, k + 1):
            if costs[j] == least and owner[j] == 0:
                owner[j] = i
                break
    placed = set(owner)
    for i in range(1, k + 1):
        if i in placed:
            continue
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


def lexicographic_assignment(
    rows: Sequence[int], cols: Sequence[int], weight: Weight, ranked: int
) -> tuple[dict[int, int], dict[int, int]] | None:
    """Among the maximum-weight assignments, the one that gives the first row the earliest column possible, then
    the second row, and so on for the first ``ranked`` rows (the others take what is left); also the duals.

    This is :func:`max_weight_assignment` on the weight ``weight(r, c) · B + Σ (len(cols) − c) · 2^(position of
    r)`` — the handbook's transpositions below the criteria — without its thousands of bits a weight: the
    criteria are solved first on their own small integers, then the order is chosen among the edges their duals
    make tight (exactly the edges some maximum-weight assignment can use), one row at a time by alternating
    paths. The duals are those of the criteria alone. None when no assignment uses allowed pairs only.

    Equal criteria: the first row takes the earliest column.

    >>> equal = {(0, 2): 1, (0, 3): 1, (1, 2): 1, (1, 3): 1}
    >>> sorted(lexicographic_assignment([0, 1], [2, 3], lambda a, b: equal.get((a, b)), 2)[0].items())
    [(0, 2), (1, 3)]

    The criteria come first: when the second row's pair with the last column is worse, the first row gives way.

    >>> worse = {(0, 2): 1, (0, 3): 1, (1, 2): 1, (1, 3): 0}
    >>> sorted(lexicographic_assignment([0, 1], [2, 3], lambda a, b: worse.get((a, b)), 2)[0].items())
    [(0, 3), (1, 2)]
    """
    solved = max_weight_assignment(rows, cols, weight)
    if solved is None:
        return None
    first, duals = solved
    k = len(rows)
    col_index = {c: j for j, c in enumerate(cols)}
    # Tight edges of each row, columns ascending: the maximum-weight assignments are the perfect matchings of
    # these (complementary slackness; the duals are optimal).
    tight: list[list[int]] = []
    for r in rows:
        slack = duals[r]
        tight.append([j for j, c in enumerate(cols) if (w := weight(r, c)) is not None and slack + duals[c] == w])
    mate = [col_index[first[r]] for r in rows]  # row -> column
    owner = [0] * k  # column -> row
    for i, j in enumerate(mate):
        owner[j] = i
    fixed = [False] * k
    for i in range(min(ranked, k)):
        target = mate[i]
        dead = [False] * k  # columns whose owner cannot reach ``target`` (alternating paths, unfixed rows)
        for c in tight[i]:
            if c >= target:
                break
            if fixed[owner[c]] or dead[c]:
                continue
            dead[c] = True  # row i would take it: no path may
            path = _alternating_path(owner[c], target, tight, owner, fixed, dead, i)
            if path is None:
                continue
            # Row i takes c; along the path each row takes the next column; the last takes ``target``.
            mate[i], owner[c] = c, i
            for row, col in path:
                mate[row], owner[col] = col, row
            break
        fixed[i] = True
    return {rows[i]: cols[mate[i]] for i in range(k)}, duals


def _alternating_path(
    start: int,
    target: int,
    tight: list[list[int]],
    owner: list[int],
    fixed: list[bool],
    dead: list[bool],
    skip: int,
) -> list[tuple[int, int]] | None:
    """Rows and the columns they move to, from ``start`` (which gives up its column) to one taking ``target``.

    Depth first over tight edges; rows ``fixed`` and ``skip`` never move. Every column explored without reaching
    ``target`` is marked ``dead`` (it stays so for the same target).
    """
    stack: list[tuple[int, int]] = [(start, 0)]  # (row, next index into its tight list)
    chosen: list[int] = []  # the column each stacked row moves to
    while stack:
        row, at = stack[-1]
        edges = tight[row]
        while at < len(edges):
            col = edges[at]
            at += 1
            if col == target:
                chosen.append(col)
                return [(r, c) for (r, _), c in zip(stack, chosen, strict=True)]
            if dead[col]:
                continue
            nxt = owner[col]
            if fixed[nxt] or nxt == skip:
                continue
            dead[col] = True  # explored from here on; if the search succeeds the marks are dropped
            stack[-1] = (row, at)
            chosen.append(col)
            stack.append((nxt, 0))
            break
        else:
            stack.pop()
            if chosen:
                chosen.pop()
    return None
