"""What keeps large rounds cheap: edge weights computed per kind of player, and only the brackets' edges stored."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.tournament.dutch import engine, pair_trf
from toreshi.tournament.dutch.simulate import play_round, start
from toreshi.tournament.dutch.weights import edge_weight
from toreshi.tournament.model import Colour
from toreshi.tournament.trf import TrfFile


def _tournament(seed: int, players: int, rounds: int) -> TrfFile:
    rng = random.Random(seed)
    trf = start(players, rounds + 2, rng)
    for number in range(1, rounds + 1):
        trf, _ = play_round(trf, number, rng)
    return trf


@contextmanager
def _captured_rounds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[engine._Round]]:
    """The engine's working state of each round paired inside the block."""
    seen: list[engine._Round] = []
    first_matching = engine._global_matching

    def capture(state: engine._Round) -> dict[int, int]:
        seen.append(state)
        return first_matching(state)

    with monkeypatch.context() as patch:
        patch.setattr(engine, "_global_matching", capture)
        yield seen


def test_a_round_of_300_stores_few_weights_and_computes_fewer(monkeypatch: pytest.MonkeyPatch) -> None:
    trf = _tournament(7, 300, 3)
    computed = 0

    def counted(*args: object, **kwargs: object) -> int:
        nonlocal computed
        computed += 1
        return edge_weight(*args, **kwargs)  # type: ignore[arg-type]

    stored: list[int] = []
    finalise = engine._finalise_remainder

    def measured(state: engine._Round, *args: object) -> None:
        finalise(state, *args)  # type: ignore[arg-type]
        stored.append(len(state.weights))

    monkeypatch.setattr(engine, "edge_weight", counted)
    monkeypatch.setattr(engine, "_finalise_remainder", measured)
    with _captured_rounds(monkeypatch) as seen:
        pair_trf(trf, 4, initial_colour=Colour.WHITE)
    (state,) = seen
    edges = len(state.players) * (len(state.players) - 1) // 2
    # Every edge of the round would be 40,000-odd: only the weights set explicitly are stored (those carried
    # among moved-down players, the zeros a remainder leaves), the brackets' own computed when asked, and
    # computed once per pair of kinds of players.
    assert stored and max(stored) < edges // 100
    assert 0 < computed < edges // 20


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(7, 40), rounds=st.integers(1, 5), flags=st.integers(0, 7))
def test_weights_by_kind_equal_the_weights_of_the_players(seed: int, players: int, rounds: int, flags: int) -> None:
    """The kind of a player holds everything the edge weight reads: the cache never answers for another pair."""
    trf = _tournament(seed, players, rounds)
    with pytest.MonkeyPatch.context() as patch, _captured_rounds(patch) as seen:
        try:
            pair_trf(trf, rounds + 1, initial_colour=Colour.WHITE)
        except engine.NoValidPairingError:
            return
    (state,) = seen
    in_current, in_next = bool(flags & 1), bool(flags & 2)
    # C9's field asks for played_rank, which only an odd round has.
    single = bool(flags & 4) and len(state.players) % 2 == 1
    n = len(state.players)
    for low in range(n):
        for high in range(low):
            direct = edge_weight(
                state.players[high],
                state.players[low],
                in_current=in_current,
                in_next=in_next,
                bye_score=state.bye_score,
                single_downfloater_is_bye=single,
                played_rank=state.played_rank or {},
                layout=state.layout,
                floats=state.floats,
            )
            assert state.base(high, low, in_current=in_current, in_next=in_next, single=single) == direct


def _check_remainder_weights(trf: TrfFile, number: int) -> int:
    """Pair round ``number``, comparing the assignment's weights of every remainder with the round's; how many."""
    checked = 0
    by_kind = engine._remainder_weight

    def compared(state: engine._Round, remainder: list[int]) -> object:
        nonlocal checked
        weight = by_kind(state, remainder)
        mask = (1 << state.layout.top_shift) - 1
        for a in [-1, *remainder]:
            for b in remainder:
                if a == b:
                    continue
                plain = 0 if a < 0 else state.weight(min(a, b), max(a, b))
                expected = 0 if a < 0 else (None if plain <= 0 else plain & mask)
                assert weight(a, b) == expected
                checked += 1
        return weight

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(engine, "_remainder_weight", compared)
        with suppress(engine.NoValidPairingError):
            pair_trf(trf, number, initial_colour=Colour.WHITE)
    return checked


def test_the_remainder_weights_by_kind_equal_the_rounds_weights() -> None:
    """The assignment's weights, looked up per pair of kinds, are the round's own: criteria only, None where the
    pair may not meet, 0 with the dummy player."""
    assert _check_remainder_weights(_tournament(7, 300, 3), 4) > 10_000


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(7, 60), rounds=st.integers(1, 5))
def test_the_remainder_weights_by_kind_hold_in_random_rounds(seed: int, players: int, rounds: int) -> None:
    _check_remainder_weights(_tournament(seed, players, rounds), rounds + 1)
