"""Calling the arbiter to the board: a player calls, the arbiter answers; one open call per player, and a new call
no sooner than :data:`~toreshi.togyz.match.core.CALL_INTERVAL_MS` after the last. Every call and answer is an
event of the game's log, so a replay gives the same calls."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toreshi.clock import BLITZ
from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.togyz.match import core
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.commands import (
    COMMANDS,
    AcknowledgeCall,
    CallArbiter,
    Create,
    Move,
    Resign,
    Start,
    TogyzCommand,
)
from toreshi.togyz.match.core import CALL_INTERVAL_MS, ArbiterCall, Match, decide, evolve, fold
from toreshi.togyz.match.events import ArbiterCalled, CallAcknowledged, GameEvent, event_from_dict, event_to_dict
from toreshi.togyz.match.settings import GameSettings
from toreshi.togyz.position import BLACK, WHITE

ARBITER, WHITE_PLAYER, BLACK_PLAYER, SPECTATOR = Actor("arbiter"), Actor("white"), Actor("black"), Actor("anyone")


def at(actor: Actor, now_ms: int) -> Context:
    return Context(actor, now_ms)


def started() -> Match:
    match = fold(Match(), decide(Match(), Create("Асқар", "Бекзат", BLITZ), at(ARBITER, 0)))
    return fold(match, decide(match, Start(), at(ARBITER, 0)))


def test_a_player_calls_and_the_arbiter_answers() -> None:
    match = started()
    assert "call_arbiter" in core.can(match, WHITE_PLAYER, 1_000)
    assert "acknowledge_call" not in core.can(match, ARBITER, 1_000)
    called = decide(match, CallArbiter(), at(WHITE_PLAYER, 1_000))
    assert called == [ArbiterCalled(1_000, WHITE)]
    match = fold(match, called)
    assert match.open_call(WHITE) == ArbiterCall(WHITE, 1_000)
    assert match.open_call(BLACK) is None
    assert "acknowledge_call" in core.can(match, ARBITER, 2_000)
    answered = decide(match, AcknowledgeCall(WHITE), at(ARBITER, 5_000))
    assert answered == [CallAcknowledged(5_000, WHITE)]
    match = fold(match, answered)
    assert match.calls == (ArbiterCall(WHITE, 1_000, 5_000),)
    assert match.open_call(WHITE) is None
    # The game itself is untouched by the call.
    assert match.state is not None and match.state.plies == ()


def test_one_open_call_per_player_and_no_answer_without_a_call() -> None:
    match = fold(started(), decide(started(), CallArbiter(), at(BLACK_PLAYER, 1_000)))
    assert decide(match, CallArbiter(), at(BLACK_PLAYER, 60_000)) == Refusal(
        TogyzCode.CALL_ALREADY_OPEN, {"player": "Бекзат"}
    )
    assert "call_arbiter" not in core.can(match, BLACK_PLAYER, 60_000)
    # The other player's call is their own.
    assert not isinstance(decide(match, CallArbiter(), at(WHITE_PLAYER, 1_500)), Refusal)
    assert decide(match, AcknowledgeCall(WHITE), at(ARBITER, 2_000)) == Refusal(
        TogyzCode.NO_OPEN_CALL, {"player": "Асқар"}
    )


def test_a_new_call_waits_for_the_interval_after_the_last() -> None:
    match = fold(started(), decide(started(), CallArbiter(), at(WHITE_PLAYER, 1_000)))
    match = fold(match, decide(match, AcknowledgeCall(WHITE), at(ARBITER, 2_000)))
    too_soon = decide(match, CallArbiter(), at(WHITE_PLAYER, 1_000 + CALL_INTERVAL_MS - 1))
    assert too_soon == Refusal(
        TogyzCode.CALL_TOO_SOON, {"player": "Асқар", "seconds": 29, "limit": CALL_INTERVAL_MS // 1000}
    )
    assert "call_arbiter" not in core.can(match, WHITE_PLAYER, 1_000 + CALL_INTERVAL_MS - 1)
    assert "call_arbiter" in core.can(match, WHITE_PLAYER, 1_000 + CALL_INTERVAL_MS)
    again = decide(match, CallArbiter(), at(WHITE_PLAYER, 1_000 + CALL_INTERVAL_MS))
    assert again == [ArbiterCalled(1_000 + CALL_INTERVAL_MS, WHITE)]


def test_only_players_call_and_only_the_arbiter_answers() -> None:
    match = started()
    for actor in (ARBITER, SPECTATOR):
        refusal = decide(match, CallArbiter(), at(actor, 1_000))
        assert isinstance(refusal, Refusal) and refusal.code is Common.FORBIDDEN
    match = fold(match, decide(match, CallArbiter(), at(WHITE_PLAYER, 1_000)))
    for actor in (WHITE_PLAYER, BLACK_PLAYER, SPECTATOR):
        refusal = decide(match, AcknowledgeCall(WHITE), at(actor, 2_000))
        assert isinstance(refusal, Refusal) and refusal.code is Common.FORBIDDEN


def test_a_call_before_the_start_and_after_the_end() -> None:
    """A dispute may come before the clock starts (the set-up) or after the result (the score sheet)."""
    created = fold(Match(), decide(Match(), Create("Асқар", "Бекзат", BLITZ), at(ARBITER, 0)))
    assert not isinstance(decide(created, CallArbiter(), at(WHITE_PLAYER, 100)), Refusal)
    over = fold(started(), decide(started(), Resign(), at(BLACK_PLAYER, 1_000)))
    assert over.state is not None and over.state.is_over
    assert "call_arbiter" in core.can(over, WHITE_PLAYER, 2_000)
    over = fold(over, decide(over, CallArbiter(), at(WHITE_PLAYER, 2_000)))
    assert "acknowledge_call" in core.can(over, ARBITER, 3_000)


def test_a_practice_game_has_no_arbiter_to_call() -> None:
    practice = GameSettings(practice_level=3, engine_side=BLACK)
    match = fold(Match(), decide(Match(), Create("Асқар", "Бекзат", BLITZ, practice), at(ARBITER, 0)))
    assert decide(match, CallArbiter(), at(WHITE_PLAYER, 100)) == Refusal(TogyzCode.NO_ARBITER_IN_PRACTICE)
    assert "call_arbiter" not in core.can(match, WHITE_PLAYER, 100)


def test_a_stored_log_with_a_second_open_call_is_refused() -> None:
    match = fold(started(), [ArbiterCalled(1_000, WHITE)])
    with pytest.raises(Refused) as second:
        evolve(match, ArbiterCalled(40_000, WHITE))
    assert second.value.refusal.code is TogyzCode.CALL_ALREADY_OPEN
    with pytest.raises(Refused) as unanswerable:
        evolve(match, CallAcknowledged(2_000, BLACK))
    assert unanswerable.value.refusal.code is TogyzCode.NO_OPEN_CALL


def test_the_commands_and_events_are_read_and_written() -> None:
    assert COMMANDS.read("call_arbiter", {}) == CallArbiter()
    assert COMMANDS.read("acknowledge_call", {"side": "black"}) == AcknowledgeCall(BLACK)
    for event in (ArbiterCalled(1, WHITE), CallAcknowledged(2, BLACK)):
        assert event_from_dict(event_to_dict(event), name=event.type) == event


CALL_ACTIONS: list[tuple[TogyzCommand, Actor]] = [
    (CallArbiter(), WHITE_PLAYER),
    (CallArbiter(), BLACK_PLAYER),
    (AcknowledgeCall(WHITE), ARBITER),
    (AcknowledgeCall(BLACK), ARBITER),
    (Move(7), WHITE_PLAYER),
    (Move(3), BLACK_PLAYER),
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    actions=st.lists(
        st.tuples(st.sampled_from(CALL_ACTIONS), st.integers(0, 20_000)),
        max_size=40,
    )
)
def test_calls_are_bounded_listed_and_replayed(actions: list[tuple[tuple[TogyzCommand, Actor], int]]) -> None:
    """Whatever is sent: at most one open call per player, calls of one player at least the interval apart,
    ``can`` lists calling and answering exactly when ``decide`` accepts them, and the log replays to the same
    calls."""
    match, now = started(), 0
    log: list[GameEvent] = []
    for (command, actor), advance in actions:
        now += advance
        for player in (WHITE_PLAYER, BLACK_PLAYER):
            accepted = not isinstance(decide(match, CallArbiter(), at(player, now)), Refusal)
            assert accepted == ("call_arbiter" in core.can(match, player, now))
        answerable = any(
            not isinstance(decide(match, AcknowledgeCall(side), at(ARBITER, now)), Refusal) for side in (WHITE, BLACK)
        )
        assert answerable == ("acknowledge_call" in core.can(match, ARBITER, now))
        decided = decide(match, command, at(actor, now))
        if isinstance(decided, Refusal):
            continue
        log.extend(decided)
        match = fold(match, decided)
    for side in (WHITE, BLACK):
        mine = [call for call in match.calls if call.side is side]
        assert all(not call.open for call in mine[:-1])  # only the latest call may still be open
        assert all(
            later.called_at_ms - earlier.called_at_ms >= CALL_INTERVAL_MS for earlier, later in itertools.pairwise(mine)
        )
        assert all(call.answered_at_ms is None or call.answered_at_ms >= call.called_at_ms for call in mine)
    replayed: Match = fold(started(), [event_from_dict(event_to_dict(e), name=e.type) for e in log])
    assert replayed.calls == match.calls
