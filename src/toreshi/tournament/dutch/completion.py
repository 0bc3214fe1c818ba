"""A quick search for a complete pairing: every player paired, or all but one who may take the bye.

Used as a certificate, never as a proof of the opposite: when it finds a complete pairing of the players below
the bracket, the bracket can be optimised on its own (the players below add nothing but completion to the
weight). When it finds none, the caller falls back to one matching over everyone.

The search starts from a hint (the previous completion), pairs the rest greedily, then looks for augmenting
paths without shrinking blossoms, which finds them in the dense graphs of a Swiss round almost always.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

Allowed = Callable[[int, int], bool]


def _augment(start: int, vertices: Sequence[int], mates: dict[int, int], allowed: Allowed) -> bool:
    """Find an augmenting path from the exposed ``start`` (depth-first, no blossoms) and flip it."""
    visited = {start}
    # Iterative depth-first search over alternating paths: start - y = mates[y] - ...
    stack: list[tuple[int, int]] = [(start, 0)]
    parent: dict[int, int] = {}
    while stack:
        x, index = stack.pop()
        while index < len(vertices):
            y = vertices[index]
            index += 1
            if y in visited or not allowed(x, y):
                continue
            visited.add(y)
            z = mates.get(y)
            if z is None:
                # Flip the path: x-y, then back along the parents.
                while True:
                    previous = mates.get(x)
                    mates[x], mates[y] = y, x
                    if x == start:
                        return True
                    assert previous is not None
                    y = previous
                    x = parent[previous]
            if z in visited:
                continue
            visited.add(z)
            parent[y] = x
            stack.append((x, index))
            stack.append((z, 0))
            break
    return False


def complete_matching(
    vertices: Sequence[int],
    allowed: Allowed,
    may_sit_out: Callable[[int], bool],
    hint: Mapping[int, int],
) -> dict[int, int] | None:
    """A matching of ``vertices`` leaving none (even count) or one that ``may_sit_out`` (odd count) unpaired.

    None when the search fails, which does not prove that no such matching exists.
    """
    chosen = set(vertices)
    mates: dict[int, int] = {}
    for v in vertices:
        m = hint.get(v)
        if m is not None and m in chosen and v not in mates and m not in mates and allowed(v, m):
            mates[v], mates[m] = m, v
    order = list(vertices)
    for v in order:
        if v in mates:
            continue
        for u in order:
            if u != v and u not in mates and allowed(v, u):
                mates[v], mates[u] = u, v
                break
    exposed = [v for v in order if v not in mates]
    for v in exposed:
        if v not in mates:
            _augment(v, order, mates, allowed)
    exposed = [v for v in order if v not in mates]
    if len(exposed) > 1:
        return None
    if exposed and not may_sit_out(exposed[0]):
        return _swap_sitter(exposed[0], order, mates, allowed, may_sit_out)
    return mates


def _swap_sitter(
    sitter: int, vertices: Sequence[int], mates: dict[int, int], allowed: Allowed, may_sit_out: Callable[[int], bool]
) -> dict[int, int] | None:
    """Move the unpaired place along an alternating path until it reaches a player who may sit out.

    Depth first: from the sitter x, pair x with some y and unpair y's mate z, who becomes the sitter.
    """
    visited = {sitter}
    path: list[tuple[int, int]] = []
    on_path = {sitter}
    stack: list[tuple[int, int]] = [(sitter, 0)]
    while stack:
        x, index = stack.pop()
        advanced = False
        while index < len(vertices):
            y = vertices[index]
            index += 1
            z = mates.get(y)
            if z is None or y in on_path or z in on_path or z in visited or not allowed(x, y):
                continue
            visited.add(z)
            path.append((x, y))
            if may_sit_out(z):
                del mates[z]
                for a, b in path:
                    mates[a], mates[b] = b, a
                return mates
            on_path.update((y, z))
            stack.append((x, index))
            stack.append((z, 0))
            advanced = True
            break
        if not advanced and path:
            a, b = path.pop()
            on_path.discard(b)
            on_path.discard(mates[b])
    return None
