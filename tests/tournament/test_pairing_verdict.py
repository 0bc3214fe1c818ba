"""The pairing checker's verdict on a round paired in the app (issue 29): the engine's own rounds agree, whatever
the results, requested byes and forbidden pairs; a changed round breaks the criteria the journal recorded."""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from toreshi.kit.refusal import Refusal
from toreshi.tournament.journal import decide
from toreshi.tournament.journal.commands import (
    EnterResult,
    ForbidPair,
    OverridePairing,
    PairRound,
    PublishRound,
    RequestBye,
)
from toreshi.tournament.journal.verdict import round_check
from toreshi.tournament.model import GameResult

from .test_journal import swiss

RESULTS = st.sampled_from([r.value for r in GameResult])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(6, 10), data=st.data())
def test_every_round_the_engine_pairs_agrees_with_the_checker(players: int, data: st.DataObject) -> None:
    rounds = 3
    desk = swiss(players=players, rounds=rounds)
    first, second = data.draw(st.lists(st.integers(1, players), min_size=2, max_size=2, unique=True))
    desk.do(ForbidPair(first=first, second=second))
    for number in range(1, rounds + 1):
        if data.draw(st.booleans()):
            desk.do(RequestBye(number=data.draw(st.integers(1, players)), round=number))
        if isinstance(decide(desk.state, PairRound(), desk.context()), Refusal):
            event("no pairing found")
            return  # no pairing satisfies C1-C4 (a small field, a forbidden pair): nothing paired to check
        state = desk.do(PairRound())
        check = round_check(state, number)
        assert check is not None and check.agrees, (number, check)
        state = desk.do(PublishRound())
        for game in state.t.round(number).games:
            state = desk.do(EnterResult(round=number, board=game.board, result=data.draw(RESULTS), confirmed=True,
                                       reason="did not come"))  # fmt: skip
        check = round_check(state, number)
        assert check is not None and check.agrees and check.violations == ()
    assert round_check(desk.state, rounds + 1) is None  # not paired yet


def test_a_changed_round_breaks_what_the_arbiter_confirmed() -> None:
    desk = swiss(players=4, rounds=3)
    desk.do(PairRound())
    state = desk.do(PublishRound())
    for game in state.t.round(1).games:
        desk.do(EnterResult(round=1, board=game.board, result="1-0" if game.board == 1 else "0-1"))
    desk.do(PairRound())
    state = desk.do(OverridePairing(pairs=((1, 2), (3, 4)), reason="TV", confirmed=True))
    state = desk.do(PublishRound())
    check = round_check(state, 2)
    assert check is not None and not check.agrees and check.engine is not None
    recorded = state.pairing_changes[-1].criteria
    assert recorded and tuple(v.criterion.value for v in check.violations) == recorded
    assert (1, 2) in check.only_in_file()
