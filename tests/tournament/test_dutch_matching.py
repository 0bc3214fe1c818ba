"""The blossom matcher against brute force, and the completion search's certificates."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from toreshi.tournament.dutch.assignment import lexicographic_assignment, max_weight_assignment, proves_optimal
from toreshi.tournament.dutch.blossom import max_weight_matching
from toreshi.tournament.dutch.completion import complete_matching
from toreshi.tournament.dutch.matching import max_weight_matching as labelled_matching


def brute_force(n: int, weights: dict[tuple[int, int], int]) -> int:
    """The largest total weight of any matching (exhaustive, for small n)."""

    @cache
    def best(free: frozenset[int]) -> int:
        if not free:
            return 0
        v = min(free)
        rest = free - {v}
        result = best(rest)  # v unmatched
        for u in rest:
            w = weights.get((v, u), 0)
            if w > 0:
                result = max(result, w + best(rest - {u}))
        return result

    return best(frozenset(range(n)))


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, dict[tuple[int, int], int]]:
    n = draw(st.integers(0, 9))
    huge = draw(st.booleans())
    weight = st.integers(1, 2**400) if huge else st.integers(1, 12)
    weights: dict[tuple[int, int], int] = {}
    for v in range(n):
        for u in range(v + 1, n):
            if draw(st.booleans()):
                weights[v, u] = draw(weight)
    return n, weights


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_blossom_matching_is_a_maximum_weight_matching(graph: tuple[int, dict[tuple[int, int], int]]) -> None:
    n, weights = graph
    mates = max_weight_matching(n, [(v, u, w) for (v, u), w in weights.items()])
    assert all(mates[mates[v]] == v and mates[v] != v for v in mates)
    total = sum(weights[min(v, u), max(v, u)] for v, u in mates.items() if v < u)
    assert total == brute_force(n, weights)


def test_odd_cycles_need_blossoms() -> None:
    # Two triangles joined by one edge: the optimum takes the bridge and one edge of each triangle.
    edges = [(0, 1, 6), (1, 2, 6), (0, 2, 6), (3, 4, 6), (4, 5, 6), (3, 5, 6), (2, 3, 10)]
    mates = max_weight_matching(6, edges)
    assert mates[2] == 3
    assert len(mates) == 6


def test_labelled_vertices_and_non_positive_weights() -> None:
    assert labelled_matching([10, 20, 30], [(10, 20, 0), (20, 30, -5)]) == {}
    assert labelled_matching([10, 20, 30], [(10, 30, 7)]) == {10: 30, 30: 10}


@given(graphs(), st.sets(st.integers(0, 8)))
def test_completion_certificates_are_valid(graph: tuple[int, dict[tuple[int, int], int]], sitters: set[int]) -> None:
    n, weights = graph
    vertices = list(range(n))

    def allowed(u: int, v: int) -> bool:
        return weights.get((min(u, v), max(u, v)), 0) > 0

    mates = complete_matching(vertices, allowed, sitters.__contains__, {})
    if mates is None:
        return
    assert all(mates[mates[v]] == v and allowed(v, mates[v]) for v in mates)
    left = [v for v in vertices if v not in mates]
    assert len(left) == n % 2
    assert all(v in sitters for v in left)


def test_completion_follows_hints_and_moves_the_sitter() -> None:
    def allowed(u: int, v: int) -> bool:
        return True

    assert complete_matching([0, 1, 2, 3], allowed, lambda v: False, {0: 3, 3: 0}) == {0: 3, 3: 0, 1: 2, 2: 1}
    mates = complete_matching([0, 1, 2], allowed, lambda v: v == 0, {})
    assert mates is not None and 0 not in mates


@st.composite
def bipartite(draw: st.DrawFn) -> tuple[int, dict[tuple[int, int], int]]:
    k = draw(st.integers(1, 5))
    weights: dict[tuple[int, int], int] = {}
    for a in range(2 * k):
        for b in range(a + 1, 2 * k):
            if draw(st.integers(0, 4)):
                weights[a, b] = draw(st.integers(1, 2**200) if draw(st.booleans()) else st.integers(1, 9))
    return k, weights


@settings(max_examples=300, deadline=None)
@given(bipartite())
def test_assignment_is_optimal_and_its_certificate_is_sound(graph: tuple[int, dict[tuple[int, int], int]]) -> None:
    k, weights = graph
    rows, cols = list(range(k)), list(range(k, 2 * k))

    def weight(a: int, b: int) -> int | None:
        return weights.get((min(a, b), max(a, b)))

    solved = max_weight_assignment(rows, cols, weight)
    cross = {e: w for e, w in weights.items() if (e[0] < k) != (e[1] < k)}
    if solved is None:
        assert best_perfect(2 * k, cross) is None
        return
    assignment, duals = solved
    assert sorted(assignment) == rows and sorted(assignment.values()) == cols
    total = sum(weights[a, b] for a, b in assignment.items())
    assert total == best_perfect(2 * k, cross)
    assert all(duals[a] + duals[b] >= w for (a, b), w in cross.items())
    assert all(duals[a] + duals[b] == weights[a, b] for a, b in assignment.items())
    if proves_optimal(rows, cols, duals, weight):
        # The certificate claims optimality over every perfect pairing, exchanges included.
        assert total == best_perfect(2 * k, weights)


def best_perfect(n: int, weights: dict[tuple[int, int], int]) -> int | None:
    """The largest total weight of a perfect matching (exhaustive), None if there is none."""

    @cache
    def best(free: frozenset[int]) -> int | None:
        if not free:
            return 0
        v = min(free)
        result: int | None = None
        for u in free - {v}:
            w = weights.get((v, u))
            rest = best(free - {v, u}) if w is not None else None
            if w is not None and rest is not None and (result is None or w + rest > result):
                result = w + rest
        return result

    return best(frozenset(range(n)))


@st.composite
def criteria_tables(draw: st.DrawFn) -> tuple[int, int, dict[tuple[int, int], int | None]]:
    """k rows 0..k-1, k columns k..2k-1 (the last ``k - ranked`` rows unranked, like the odd remainder's dummy),
    criteria weights from a few values (many ties, as in a remainder) or forbidden (None)."""
    k = draw(st.integers(1, 7))
    ranked = draw(st.integers(max(0, k - 1), k))
    values = st.one_of(st.none(), st.integers(0, 3), st.sampled_from([2**300, 2**300 + 1]))
    table = {(r, k + c): draw(values) for r in range(k) for c in range(k)}
    return k, ranked, table


@settings(max_examples=400, deadline=None)
@given(criteria_tables())
def test_lexicographic_assignment_is_the_full_weight_optimum(
    case: tuple[int, int, dict[tuple[int, int], int | None]],
) -> None:
    """The two-step assignment equals the Hungarian method on the full weights the engine used to build:
    criteria above, each ranked row's column order below (row 0 most significant, earlier columns better)."""
    k, ranked, table = case
    rows, cols = list(range(k)), list(range(k, 2 * k))
    width = (k + 1).bit_length()
    shift = width * k

    def full(r: int, c: int) -> int | None:
        w = table[r, c]
        if w is None:
            return None
        order = (k - (c - k)) << (width * (k - 1 - r)) if r < ranked else 0
        return (w << shift) + order

    expected = max_weight_assignment(rows, cols, full)
    got = lexicographic_assignment(rows, cols, lambda r, c: table[r, c], ranked)
    if expected is None:
        assert got is None
        return
    assert got is not None
    assert got[0] == expected[0]
    # The duals returned are the criteria's: feasible everywhere and tight on the assignment chosen.
    duals = got[1]
    for (r, c), w in table.items():
        if w is not None:
            assert duals[r] + duals[c] >= w
    for r, c in got[0].items():
        assert duals[r] + duals[c] == table[r, c]
