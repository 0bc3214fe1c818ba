"""The Dutch system's pairing procedure, bracket by bracket, over one maximum-weight matching.

Players to pair are sorted by score, then pairing number. A first matching over everyone proves that a complete
pairing exists (C1–C4) and fixes the lowest score the pairing-allocated bye can go to (C5). Then the brackets are
walked from the top. For each bracket (its moved-down players, MDPs, plus the resident scoregroup) the weights
of :mod:`.weights` are set for the bracket and the scoregroup below it, and the matching decides:

1. which MDPs are paired and against whom: among equally good pairings, the higher MDPs first, each with the
   highest resident possible;
2. the remainder: fewest exchanges between S1 (the upper half) and S2, then the smallest difference of the
   exchanged bracket sequence numbers, then lower S1 players exchanged first and higher S2 players brought up
   first, then each S1 player, in order, with the highest S2 player possible (the handbook's transpositions).

The handbook orders those choices one after the other; here each becomes a field below the criteria in the edge
weight, most significant first, so that one matching per step makes all of them at once. Players left unpaired
move down to the next bracket. Colours are allocated at the end (:mod:`.colours`).

With ``shortcuts`` (the default) the same optimum is reached with less work, each shortcut backed by a certificate
and falling back to the plain procedure when none is found: the bracket matched alone when the players below
only add completion or C8 (:func:`_pair_bracket_alone`), a remainder solved as an S1–S2 assignment whose duals
prove it optimal (:func:`_match_remainder`), round-1 brackets paired in order (:func:`_pair_in_order`), and the
completion of the rest shown by a quick search instead of a matching (:mod:`.completion`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from toreshi.tournament.dutch.assignment import lexicographic_assignment, proves_optimal
from toreshi.tournament.dutch.colours import choose_colour
from toreshi.tournament.dutch.completion import complete_matching
from toreshi.tournament.dutch.matching import max_weight_matching
from toreshi.tournament.dutch.state import Float, PlayerState, float_of
from toreshi.tournament.dutch.weights import Layout, colour_fields, compatible, edge_weight, make_layout
from toreshi.tournament.model import Colour


class NoValidPairingError(ValueError):
    """No pairing of the round satisfies the absolute criteria (no rematches, colours, at most one bye)."""


@dataclass(frozen=True)
class Pairing:
    """One board: pairing numbers of White and Black."""

    white: int
    black: int


@dataclass(frozen=True)
class RoundPairing:
    """The pairing of a round: boards in publication order and the pairing-allocated bye, if any."""

    pairs: tuple[Pairing, ...]
    bye: int | None = None

    def bbp_lines(self) -> list[str]:
        """bbpPairings' ``-p`` output: the number of pairs, then ``WHITE BLACK`` lines, ``N 0`` for the bye."""
        lines = [f"{p.white} {p.black}" for p in self.pairs]
        if self.bye is not None:
            lines.append(f"{self.bye} 0")
        return [str(len(lines)), *lines]


@dataclass
class MatchingStats:
    """How many matchings the engine ran: a caller that wants to know passes one to :func:`pair_players` (the
    benchmark does); the engine only counts into it, never reads it."""

    bracket_matchings: int = 0
    """Matchings over a bracket and the scoregroup below it."""
    assignments: int = 0
    """Remainders paired as an S1–S2 assignment proved optimal (no general matching needed)."""
    full_matchings: int = 0
    """Matchings over every unpaired player (when the quick completion search found nothing)."""


@dataclass
class _Round:
    players: list[PlayerState]
    """Sorted: score descending, then pairing number."""
    layout: Layout
    floats: dict[int, tuple[Float, Float]]
    weights: dict[tuple[int, int], int]
    """Weights set explicitly (lower vertex index first): those carried from the brackets above among the moved-down
    players, and the zeros a remainder leaves behind (:func:`_finalise_remainder`). Every other edge of the current
    bracket weighs what :meth:`in_bracket` computes when asked."""
    bye_score: int = 0
    single_is_bye: bool = False
    played_rank: Mapping[int, int] | None = None
    completion: dict[int, int] | None = None
    shortcuts: bool = True
    """Use the certified shortcuts (tests switch them off to compare with the plain procedure)."""
    stats: MatchingStats = field(default_factory=MatchingStats)
    kinds: list[int] = field(default_factory=list)
    """For each player, an id shared by the players whose edges weigh the same (:func:`_kinds`)."""
    known: dict[tuple[int, int, bool, bool, bool], int] = field(default_factory=dict)
    """Edge weights by the two players' kinds and the bracket flags; valid while bye_score and played_rank hold."""
    position: dict[int, int] = field(default_factory=dict)
    """Each player of the current bracket (moved-down players, residents, the scoregroup below): their index in it."""
    movers: int = 0
    """How many of the bracket's first players moved down into it (their edges among themselves are carried)."""
    resident_end: int = 0
    """The bracket's index where the scoregroup below starts."""
    bracket_single: bool = False
    """:attr:`single_is_bye` as it stood when the current bracket began (its weights read that value)."""

    def may_sit_out(self, v: int) -> bool:
        p = self.players[v]
        return p.bye_eligible and p.score <= self.bye_score

    def weight(self, u: int, v: int) -> int:
        """The weight of edge ``u``–``v`` (``u < v``): as a bracket set it, else its completion field alone.

        Nothing but the weights set explicitly is stored: the n² edges of a large round would cost gigabytes, and
        even one bracket's (with the scoregroup below) millions of entries, while each is cheap to compute when
        asked for (per pair of kinds, :meth:`base`).
        """
        w = self.weights.get((u, v))
        if w is None:
            w = self.in_bracket(u, v)
            if w is None:
                return self.base(u, v, in_current=False, in_next=False, single=False)
        return w

    def in_bracket(self, u: int, v: int) -> int | None:
        """The weight the current bracket gives edge ``u``–``v`` (``u < v``), None when it is not the bracket's.

        Its edges are those with at least one end past the moved-down players: in the bracket (``in_current``)
        when the lower end is a resident, with the scoregroup below (``in_next``) when it is below. Computed when
        asked instead of stored for the whole bracket at its start (millions of edges at 5,000 players, most
        never read); the values are the same, as every input of them is fixed while the bracket is paired.
        """
        position = self.position
        i, j = position.get(u), position.get(v)
        if i is None or j is None:
            return None
        low = i if i > j else j
        if low < self.movers:
            return None
        below = low >= self.resident_end
        return self.base(u, v, in_current=not below, in_next=below, single=self.bracket_single)

    def stored(self, u: int, v: int) -> int | None:
        """The weight of edge ``u``–``v`` (``u < v``) set by a bracket (explicitly or as its edge), else None."""
        w = self.weights.get((u, v))
        return self.in_bracket(u, v) if w is None else w

    def allowed(self, u: int, v: int) -> bool:
        if u > v:
            u, v = v, u
        w = self.weights.get((u, v))
        if w is None:
            # A bracket's computed weight is positive exactly when the pair is compatible (edge_weight).
            return compatible(self.players[u], self.players[v], self.layout)
        return w > 0

    def edges(self, vertices: Iterable[int], value: Callable[[int, int, int], int]) -> list[tuple[int, int, int]]:
        """The allowed edges among ``vertices`` as (u, v, ``value(u, v, weight)``), u < v.

        Listed by the higher vertex, then the lower: the order the matching has always seen them in (it can
        decide between equally good matchings), so that no pairing changes with the way weights are stored.
        """
        chosen = sorted(set(vertices))
        weight = self.weight
        found = []
        for index, v in enumerate(chosen):
            for u in chosen[:index]:
                w = weight(u, v)
                if w > 0:
                    found.append((u, v, value(u, v, w)))
        return found

    def base(self, high: int, low: int, *, in_current: bool, in_next: bool, single: bool | None = None) -> int:
        """:func:`.weights.edge_weight` of the two players, computed once per pair of kinds (a large bracket asks
        for hundreds of thousands of edges, among a few dozen kinds of players)."""
        high_player, low_player = self.players[high], self.players[low]
        if low_player.number in high_player.barred:
            return 0
        single = self.single_is_bye if single is None else single
        key = (self.kinds[high], self.kinds[low], in_current, in_next, single)
        w = self.known.get(key)
        if w is None:
            w = self.known[key] = edge_weight(
                high_player,
                low_player,
                in_current=in_current,
                in_next=in_next,
                bye_score=self.bye_score,
                single_downfloater_is_bye=single,
                played_rank=self.played_rank or {},
                layout=self.layout,
                floats=self.floats,
            )
        return w


def _kinds(players: Sequence[PlayerState], floats: Mapping[int, tuple[Float, Float]]) -> list[int]:
    """An id per player: equal for two players when :func:`.weights.edge_weight` reads the same from both.

    That is everything it reads but the number, which matters only for the rematch ban (``barred``, checked
    apart): score, bye eligibility, games played, the colour state and the floats.
    """
    ids: dict[tuple[object, ...], int] = {}
    return [
        ids.setdefault(
            (
                p.score,
                p.bye_eligible,
                p.played_games,
                p.preference,
                p.repeated,
                p.imbalance,
                p.absolute_imbalance,
                p.absolute,
                p.strong,
                floats[p.number],
            ),
            len(ids),
        )
        for p in players
    ]


def pair_players(
    players: Sequence[PlayerState],
    everyone: Mapping[int, PlayerState],
    *,
    played_rounds: int,
    planned_rounds: int,
    initial_colour: Colour,
    shortcuts: bool = True,
    stats: MatchingStats | None = None,
) -> RoundPairing:
    """Pair ``players`` (those present) for round ``played_rounds + 1``.

    ``everyone`` holds every player of the tournament (absent ones too): the float of a player depends on the
    score their opponent had then. ``shortcuts=False`` runs the plain procedure (the same pairing, more work);
    ``stats`` counts the matchings run.
    """
    ordered = sorted(players, key=lambda p: (-p.score, p.rank))
    n = len(ordered)
    if n == 0:
        return RoundPairing(())
    layout = make_layout([p.score for p in ordered], played_rounds, planned_rounds)
    floats = {
        p.number: (
            float_of(p, 1, everyone) if played_rounds >= 1 else Float.NONE,
            float_of(p, 2, everyone) if played_rounds >= 2 else Float.NONE,
        )
        for p in ordered
    }
    state = _Round(
        ordered, layout, floats, {}, shortcuts=shortcuts, stats=stats or MatchingStats(), kinds=_kinds(ordered, floats)
    )
    mates = _global_matching(state)
    pairs = _pair_brackets(state, mates)
    by_number = {p.number: p for p in ordered}
    boards: list[tuple[PlayerState, PlayerState]] = []
    paired: set[int] = set()
    for a, b in pairs:
        first, second = sorted((ordered[a], ordered[b]), key=lambda p: p.number)
        colour = choose_colour(first, second, initial_colour)
        boards.append((first, second) if colour is Colour.WHITE else (second, first))
        paired.update((a, b))
    left = [ordered[v].number for v in range(n) if v not in paired]
    if len(left) > 1:
        raise NoValidPairingError(f"players {left} could not all be paired")

    def publication_key(board: tuple[PlayerState, PlayerState]) -> tuple[int, int, int]:
        high, low = sorted(board, key=lambda p: (-p.score, p.rank))
        return (-high.score, -low.score, high.rank)

    boards.sort(key=publication_key)
    return RoundPairing(
        tuple(Pairing(w.number, b.number) for w, b in boards),
        by_number[left[0]].number if left else None,
    )


def _matching(
    state: _Round, vertices: Sequence[int], shift: int = 0, extra: Mapping[tuple[int, int], int] | None = None
) -> dict[int, int]:
    extra_ = {} if extra is None else extra  # not `or`: sizing a lazy mapping walks it
    return max_weight_matching(vertices, state.edges(vertices, lambda u, v, w: (w << shift) + extra_.get((u, v), 0)))


def _solve(
    state: _Round,
    active: set[int],
    upper: Sequence[int],
    shift: int = 0,
    extra: Mapping[tuple[int, int], int] | None = None,
) -> dict[int, int]:
    """An optimal matching of the active players for the current weights plus ``extra``.

    Only the edges among ``upper`` (the bracket and the scoregroup below) weigh more than completion. So the
    matching is first made among ``upper`` alone, on the weights without their completion field; if the players
    it leaves over can be paired with the rest (a quick certificate), together that is optimal for everyone.
    Otherwise one matching over all active players decides.
    """
    if state.shortcuts:
        mask = (1 << state.layout.top_shift) - 1
        extra_ = {} if extra is None else extra  # not `or`: sizing a lazy mapping walks it
        edges = state.edges(upper, lambda u, v, w: ((w & mask) << shift) + extra_.get((u, v), 0))
        state.stats.bracket_matchings += 1
        mates = max_weight_matching(sorted(set(upper)), edges)
        rest = sorted(v for v in active if v not in mates)
        completion = complete_matching(rest, state.allowed, state.may_sit_out, state.completion or {})
        if completion is not None:
            mates.update(completion)
            state.completion = mates
            return mates
    state.stats.full_matchings += 1
    mates = _matching(state, sorted(active), shift, extra)
    state.completion = mates
    return mates


def _global_matching(state: _Round) -> dict[int, int]:
    """C4 and C5: is a complete pairing possible, and what is the lowest score the bye can go to?"""
    ordered, layout = state.players, state.layout
    n = len(ordered)
    top = ordered[0].score
    # No weight is stored yet: every edge weighs its completion field (state.weight), which is what an even
    # round needs here. An odd round weighs the bye's score instead, for the matching only.
    certified = _global_certificate(state) if state.shortcuts else None
    if certified is not None:
        mates = certified
    else:
        state.stats.full_matchings += 1
        if n % 2:

            def bye_score_weight(i: int, j: int, _: int) -> int:
                hi, lo = ordered[i], ordered[j]
                w = 1 + (not lo.bye_eligible) + (not hi.bye_eligible)
                w = (w << layout.groups_shift) + layout.group_shift[lo.score] + layout.group_shift[hi.score]
                return (w << layout.group_bits) + (lo.score >= top)

            mates = max_weight_matching(range(n), state.edges(range(n), bye_score_weight))
        else:
            mates = _matching(state, range(n))
        unmatched = [v for v in range(n) if v not in mates]
        if len(unmatched) > 1:
            raise NoValidPairingError(
                "the players cannot all be paired without a rematch or a clash of absolute colour preferences"
            )
        if n % 2:
            state.bye_score = ordered[unmatched[0]].score
            if state.bye_score >= top:
                state.single_is_bye = all(
                    ordered[mates.get(v, v)].score >= top for v in range(n) if ordered[v].score >= top
                )
    state.completion = mates
    if n % 2:
        counts = sorted((p.played_games for p in ordered if p.score == state.bye_score), reverse=True)
        # Outside the bracket being paired an edge carries completion only (state.weight), C9 included: the bye
        # assignee's played games count only in the bracket that produces the bye.
        state.played_rank = {games: index for index, games in enumerate(counts)}
        state.known.clear()  # weights computed before the bye's score was known
    return mates


def _global_certificate(state: _Round) -> dict[int, int] | None:
    """The first matching's answers without a matching, when a quick complete pairing settles them.

    Even number of players: any complete pairing proves completion. Odd: a complete pairing that leaves out a
    bye-eligible player of the lowest score any eligible player has also proves that this score is the lowest
    the bye can go to. Whether the top scoregroup pairs within itself (asked only when the bye goes to it) is
    settled here only when everyone has the same score.
    """
    ordered = state.players
    n = len(ordered)
    everyone = list(range(n))
    if n % 2 == 0:
        return complete_matching(everyone, state.allowed, lambda v: False, {})
    eligible = [v for v in everyone if ordered[v].bye_eligible]
    if not eligible:
        return None
    lowest = min(ordered[v].score for v in eligible)
    top = ordered[0].score
    if lowest >= top and ordered[-1].score < top:
        return None
    mates = complete_matching(
        everyone, state.allowed, lambda v: ordered[v].bye_eligible and ordered[v].score == lowest, {}
    )
    if mates is None:
        return None
    state.bye_score = lowest
    state.single_is_bye = lowest >= top
    return mates


def _pair_brackets(state: _Round, mates: dict[int, int]) -> list[tuple[int, int]]:
    ordered = state.players
    n = len(ordered)
    top = ordered[0].score
    active = set(range(n))
    bracket = [v for v in range(n) if ordered[v].score >= top]
    cursor = len(bracket)
    movers = 0  # number of moved-down players at the head of ``bracket``
    pairs: list[tuple[int, int]] = []
    while len(bracket) > 1 or cursor < n:
        resident_end = len(bracket)
        group_start = cursor
        if cursor < n:
            score = ordered[cursor].score
            while cursor < n and ordered[cursor].score >= score:
                bracket.append(cursor)
                cursor += 1
        # Of the weights set so far only those among the moved-down players still count (the others involve
        # players already paired, or are the new bracket's own edges, computed when asked: _Round.in_bracket).
        state.weights = {
            pair: w for pair in combinations(bracket[:movers], 2) if (w := state.stored(*pair)) is not None
        }
        state.position = {v: index for index, v in enumerate(bracket)}
        state.movers, state.resident_end, state.bracket_single = movers, resident_end, state.single_is_bye
        mdps = bracket[:movers]
        residents = bracket[movers:resident_end]
        below = bracket[resident_end:]
        if state.shortcuts and not mdps and group_start >= n and _pair_in_order(state, active, residents, pairs):
            state.single_is_bye = False
        elif (
            state.shortcuts and (rule := _pair_bracket_alone(state, active, mdps, residents, below, pairs)) is not None
        ):
            state.single_is_bye = rule
        else:
            mates = _pair_moved_down(state, active, bracket, mdps, residents, pairs, mates)
            mates = _pair_remainder(state, active, bracket, mdps, residents, pairs, mates)
            state.single_is_bye = _bye_comes_from(state, n, group_start, bracket, active, mates)
        before = len(bracket)
        movers = sum(1 for index, v in enumerate(bracket) if index < resident_end and v in active)
        bracket = [v for v in bracket if v in active]
        if group_start >= n and len(bracket) == before and len(bracket) > 1:
            raise NoValidPairingError("the last players could not be paired")
    return pairs


def _bye_comes_from(
    state: _Round, n: int, group_start: int, bracket: list[int], active: set[int], mates: dict[int, int]
) -> bool:
    """Whether the next bracket is the one whose single leftover player gets the bye (then C9 counts there).

    True when the number of players is odd, a scoregroup is still to come, and in the matching just made the
    players carried on to the next bracket (its MDPs and residents) are paired among themselves, one excepted.
    """
    if not (n % 2 and group_start < n):
        return False
    carried = {v for v in bracket if v in active}
    return all(mates.get(v, v) in carried for v in carried)


def _pair_in_order(state: _Round, active: set[int], residents: list[int], pairs: list[tuple[int, int]]) -> bool:
    """The last bracket, homogeneous: pair S1 against S2 in order when that is provably the best pairing.

    It is when every board is allowed and meets every colour criterion, and nobody is left over (or, before
    any round is played, the last player is left over for the bye): then each criterion field holds its
    largest possible total, there are no exchanges, and the order of S2 is the first transposition. This is
    what makes round 1 of a large event cheap: no matching at all.
    """
    size = len(residents)
    half = size // 2
    ordered = state.players
    if size % 2 and not (state.layout.played_rounds == 0 and state.may_sit_out(residents[-1])):
        return False
    boards = list(zip(residents[:half], residents[half : 2 * half], strict=True))
    for high, low in boards:
        if not state.allowed(high, low) or not all(colour_fields(ordered[low], ordered[high])):
            return False
    for high, low in boards:
        _finalise(state, active, pairs, high, low)
    return True


def _finalise(state: _Round, active: set[int], pairs: list[tuple[int, int]], a: int, b: int) -> None:
    pairs.append((min(a, b), max(a, b)))
    active.discard(a)
    active.discard(b)


def _mdp_fields(state: _Round, mdps: list[int], residents: list[int]) -> tuple[int, dict[tuple[int, int], int]]:
    """Fields below the criteria: the higher MDPs paired first, each against the highest resident possible."""
    k, r = len(mdps), len(residents)
    width = (r + 1).bit_length()
    extra: dict[tuple[int, int], int] = {}
    for i, m in enumerate(mdps):
        for j, res in enumerate(residents):
            if state.allowed(m, res):
                extra[m, res] = ((1 << (k - 1 - i)) << (k * width)) + ((r - j) << (width * (k - 1 - i)))
    return k + k * width, extra


def _pair_bracket_alone(
    state: _Round,
    active: set[int],
    mdps: list[int],
    residents: list[int],
    below: list[int],
    pairs: list[tuple[int, int]],
) -> bool | None:
    """Pair a bracket without the scoregroup below it, when that provably gives the same pairing.

    The bracket (MDPs and residents) is matched alone: its MDP step, then its remainder. When that pairs all of
    it but at most one player ``d`` (the fewest C6 allows), the only thing the players below add is C8: the pairs
    of the next bracket. So a certificate is sought: the next scoregroup ``below`` pairs within itself and with
    ``d`` (paired), all but at most one player ``x``, and ``x`` with everyone further down completes the round.
    Then C8 has its largest possible value, this bracket's fields are at their best, and the pairing is optimal
    for everyone. Nothing is changed and None is returned when any step fails; the caller then takes the
    general way.

    Returns the bye rule of the next bracket (:func:`_bye_comes_from`): whether, in every optimal pairing, the
    players carried into it pair among themselves but the bye. By C8 they pair among themselves but ``x``; and
    ``x`` is the bye exactly when the certificate leaves it out (only players at the bye's score may be left
    out, and everyone further down has a lower score).
    """
    members = mdps + residents
    odd = len(members) % 2
    first: dict[int, int] | None = None
    if not mdps:
        # Only the number of pairs matters here (the remainder matching below chooses them): a quick complete
        # pairing proves it is the largest possible.
        first = complete_matching(members, state.allowed, lambda v: True, {})
    if first is None:
        shift, extra = _mdp_fields(state, mdps, residents) if mdps else (0, {})
        first = _match_alone(state, members, shift, extra)
    resident_set = set(residents)
    if len(first) != len(members) - odd or any(first[m] not in resident_set for m in mdps if m in first):
        return None
    remainder, in_pairs = _remainder_of(first, mdps, residents)
    final = dict(first)
    if len(remainder) >= 2:
        total, fields = _remainder_fields(state, remainder, in_pairs)
        for v in remainder:
            final.pop(v, None)
        final.update(_match_remainder(state, remainder, in_pairs, total, fields))
    left = [v for v in members if v not in final]
    if len(left) != odd:
        return None
    down = left[0] if left else None
    carried = [*([down] if down is not None else []), *below]
    chosen = set(members) | set(carried)
    lower = sorted(v for v in active if v not in chosen)
    hint = state.completion or {}
    x: int | None = down
    upper_part: dict[int, int] = {}
    if below:
        found = complete_matching(carried, state.allowed, lambda v: v != down, hint)
        if found is None:
            return None
        upper_part = found
        rest = [v for v in carried if v not in found]
        x = rest[0] if rest else None
    lower_part = complete_matching([*lower, *([x] if x is not None else [])], state.allowed, state.may_sit_out, hint)
    if lower_part is None:
        return None
    state.completion = {**lower_part, **upper_part, **final}
    for m in mdps:
        if m in final:
            _finalise(state, active, pairs, m, final[m])
    _finalise_remainder(state, active, pairs, remainder, final)
    bye_from_below = x is None or x not in lower_part
    return bool(len(state.players) % 2 and below and bye_from_below)


def _pair_moved_down(
    state: _Round,
    active: set[int],
    bracket: list[int],
    mdps: list[int],
    residents: list[int],
    pairs: list[tuple[int, int]],
    mates: dict[int, int],
) -> dict[int, int]:
    """Which MDPs are paired in this bracket, and with which residents (one matching)."""
    if not mdps:
        return _solve(state, active, [v for v in bracket if v in active])
    shift, extra = _mdp_fields(state, mdps, residents)
    mates = _solve(state, active, [v for v in bracket if v in active], shift, extra)
    resident_set = set(residents)
    for m in mdps:
        mate = mates.get(m)
        if mate is not None and mate in resident_set:
            _finalise(state, active, pairs, m, mate)
    return mates


def _remainder_of(mates: Mapping[int, int], mdps: list[int], residents: list[int]) -> tuple[list[int], int]:
    """The residents not paired with MDPs, and how many pairs they form among themselves in ``mates``."""
    mdp_set = set(mdps)
    remainder = [v for v in residents if mates.get(v, v) not in mdp_set]
    inside = set(remainder)
    in_pairs = sum(1 for v in remainder if mates.get(v, v) in inside and mates.get(v, v) < v)
    return remainder, in_pairs


def _remainder_fields(state: _Round, remainder: list[int], in_pairs: int) -> tuple[int, _RemainderFields]:
    """Fields below the criteria for pairs inside the remainder, most significant first.

    S1 is the first ``in_pairs`` players. Fewest exchanges (S1 players not paired as the upper player), then the
    smallest sum of the upper players' positions (smallest difference of exchanged BSNs), then the lowest S1
    players exchanged first, the highest S2 players brought up first, then for each upper player in order the
    highest opponent possible (the transpositions).
    """
    fields = _RemainderFields(state, remainder, in_pairs)
    return fields.total, fields


class _RemainderFields(Mapping[tuple[int, int], int]):
    """The fields of :func:`_remainder_fields` of each allowed pair inside the remainder, computed when asked.

    Stored, they would take gigabytes for a large remainder: thousands of bits for each of millions of pairs.
    """

    def __init__(self, state: _Round, remainder: list[int], in_pairs: int) -> None:
        size = len(remainder)
        half = size // 2 + 1
        self.w_opp = (size + 1).bit_length()
        self.s2_at = size * self.w_opp
        self.s1_at = self.s2_at + size + 1
        self.sum_at = self.s1_at + (half << in_pairs).bit_length()
        self.count_at = self.sum_at + (half * size).bit_length()
        self.total = self.count_at + half.bit_length()
        self.state, self.remainder, self.in_pairs = state, remainder, in_pairs
        self.position = {v: i for i, v in enumerate(remainder)}

    def get(self, key: tuple[int, int], default: int | None = None) -> int | None:  # type: ignore[override]
        s, low = key
        i, j = self.position.get(s), self.position.get(low)
        if i is None or j is None or i >= j or not self.state.allowed(s, low):
            return default
        size, in_pairs = len(self.remainder), self.in_pairs
        value = (i < in_pairs) << self.count_at
        value += (size - i) << self.sum_at
        value += ((1 << in_pairs) - ((1 << i) if i < in_pairs else 0)) << self.s1_at
        if i >= in_pairs:
            value += (1 << (size - 1 - i)) << self.s2_at
        return value + ((size - j) << (self.w_opp * (size - 1 - i)))

    def __getitem__(self, key: tuple[int, int]) -> int:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __iter__(self) -> Iterator[tuple[int, int]]:
        for j, low in enumerate(self.remainder):
            for s in self.remainder[:j]:
                if self.state.allowed(s, low):
                    yield s, low

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _match_alone(
    state: _Round, vertices: list[int], shift: int, extra: Mapping[tuple[int, int], int]
) -> dict[int, int]:
    """A matching among ``vertices`` only, on the weights without their completion field, plus ``extra``."""
    mask = (1 << state.layout.top_shift) - 1
    edges = state.edges(vertices, lambda u, v, w: ((w & mask) << shift) + extra.get((u, v), 0))
    state.stats.bracket_matchings += 1
    return max_weight_matching(vertices, edges)


def _match_remainder(
    state: _Round, remainder: list[int], in_pairs: int, shift: int, fields: Mapping[tuple[int, int], int]
) -> dict[int, int]:
    """The best pairing of a remainder that pairs all its players but at most one.

    First as an S1–S2 assignment, when its duals prove it optimal among all pairings (:mod:`.assignment`);
    with an odd remainder a dummy player (-1) joins S1, weight 0 with everyone, and whoever it gets is the
    player left over. Otherwise a general matching.

    The assignment never builds the full weights (criteria, then ``fields``): on an S1–S2 board the fields add
    the same for every assignment but the transpositions (each S1 player in order with the highest S2 player
    possible), so :func:`.assignment.lexicographic_assignment` solves the criteria on their own and then the
    transpositions among the criteria's optima — the same unique optimum. The proof needs the criteria only:
    a pairing with an exchange (or an S1 player left over) has fewer S1 players as upper players, so with
    criteria no better it weighs less by the exchange count, the most significant field.
    """
    odd = len(remainder) - 2 * in_pairs
    if odd in (0, 1):
        weight = _remainder_weight(state, remainder)
        rows, cols = remainder[:in_pairs] + [-1] * odd, remainder[in_pairs:]
        solved = lexicographic_assignment(rows, cols, weight, in_pairs)
        if solved is not None and proves_optimal(rows, cols, solved[1], weight):
            state.stats.assignments += 1
            pairs = {a: b for a, b in solved[0].items() if a >= 0}
            return {**pairs, **{b: a for a, b in pairs.items()}}
    return _match_alone(state, remainder, shift, fields)


def _remainder_weight(state: _Round, remainder: list[int]) -> Callable[[int, int], int | None]:
    """The criteria weight (no completion field) of two players of ``remainder``, None when they may not meet; 0
    with the dummy player (-1) of an odd remainder.

    The assignment asks for every S1–S2 pair three times (the table, the tight edges, the proof) and for the
    S1–S1 and S2–S2 pairs once: a million or more calls for a remainder of 2,000. The remainder's players are all
    residents of the current bracket, so a pair not set explicitly weighs what :meth:`_Round.in_bracket` gives a
    pair inside the bracket, which depends on the two kinds alone once the rematch ban is checked: it is looked up
    per pair of kinds here, without the layers of :meth:`_Round.weight`.
    """
    mask = (1 << state.layout.top_shift) - 1
    position = state.position
    if not all(state.movers <= position.get(v, -1) < state.resident_end for v in remainder):

        def each(a: int, b: int) -> int | None:
            if a < 0 or b < 0:
                return 0
            w = state.weight(a, b) if a < b else state.weight(b, a)
            return None if w <= 0 else w & mask

        return each
    players, kinds, explicit = state.players, state.kinds, state.weights
    by_kinds: dict[tuple[int, int], int | None] = {}

    def weight(a: int, b: int) -> int | None:
        if a < 0 or b < 0:
            return 0
        if a > b:
            a, b = b, a
        w = explicit.get((a, b))
        if w is None:
            if players[b].number in players[a].barred:
                return None
            key = (kinds[a], kinds[b])
            if key in by_kinds:
                return by_kinds[key]
            w = state.weight(a, b)
            by_kinds[key] = None if w <= 0 else w & mask
        return None if w <= 0 else w & mask

    return weight


def _finalise_remainder(
    state: _Round, active: set[int], pairs: list[tuple[int, int]], remainder: list[int], mates: Mapping[int, int]
) -> None:
    inside = set(remainder)
    upper = {v for v in remainder if mates.get(v, v) in inside and mates.get(v, v) > v}
    for v in remainder:
        if v in upper:
            _finalise(state, active, pairs, v, mates[v])
    # What bbpPairings leaves behind for the next bracket: no edge between two players of this remainder unless
    # the upper one was in the S1 role and the lower one was not.
    # Only pairs of players still unpaired can be read again (carried into the next bracket).
    left = [v for v in remainder if v in active]
    for i, s in enumerate(left):
        for low in left[i + 1 :]:
            if s not in upper or low in upper:
                state.weights[s, low] = 0


def _pair_remainder(
    state: _Round,
    active: set[int],
    bracket: list[int],
    mdps: list[int],
    residents: list[int],
    pairs: list[tuple[int, int]],
    mates: dict[int, int],
) -> dict[int, int]:
    """Pair the residents left after the MDPs: exchanges, then transpositions (one matching)."""
    remainder, in_pairs = _remainder_of(mates, mdps, residents)
    if len(remainder) < 2:
        return mates
    total, extra = _remainder_fields(state, remainder, in_pairs)
    if state.shortcuts and 2 * in_pairs == len(remainder):
        # Everyone in the remainder pairs inside it (fixed by C6 in the matching just made), so the remainder
        # no longer interacts with anyone else: optimise it alone and keep the rest of that matching.
        mates = {**mates, **_match_remainder(state, remainder, in_pairs, total, extra)}
    else:
        mates = _solve(state, active, [v for v in bracket if v in active], total, extra)
    _finalise_remainder(state, active, pairs, remainder, mates)
    return mates
