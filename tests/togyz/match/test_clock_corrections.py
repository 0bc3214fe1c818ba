"""A clock corrected by more than a set amount (issue 29): in a tournament's game room the arbiter's ``add_time``
above ``clock_correction_warning_ms`` is a departure from the regulation — refused until confirmed, refused
without a reason, then recorded in the game's log (marked, with who made it) for the tournament to carry in. Below
the amount, outside a tournament and for a rule's own penalty (TK-C15) nothing more is asked."""

from __future__ import annotations

from toreshi.clock import BLITZ, minutes
from toreshi.kit.core import Actor, Context
from toreshi.kit.refusal import Refusal
from toreshi.live.room import Decided
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.togyz.match.codes import TogyzCode
from toreshi.togyz.match.commands import AddTime, Create, Start
from toreshi.togyz.match.core import Match, decide, fold
from toreshi.togyz.match.events import TimeAdded, event_to_dict
from toreshi.togyz.match.settings import GameSettings
from toreshi.togyz.position import BLACK, WHITE

from .game_fixtures import refusal, started

TOURNAMENT = GameSettings(clock_correction_warning_ms=60_000)


def test_a_correction_above_the_amount_needs_the_confirmation_then_the_reason() -> None:
    game = started(BLITZ, TOURNAMENT)
    code, params = refusal(lambda: game.add_time(BLACK, minutes(2), now_ms=5_000, reason="clock fault"))
    assert code is TogyzCode.CORRECTION_UNCONFIRMED
    assert params == {"player": "Bolat", "change": "+2:00", "limit": "1:00", "clause": "TK-B3", "level": "warning"}
    code, params = refusal(lambda: game.add_time(BLACK, -minutes(2), now_ms=5_000, confirmed=True, reason=" "))
    assert code is TogyzCode.CORRECTION_NEEDS_REASON and params["change"] == "-2:00"
    game = game.add_time(BLACK, minutes(2), now_ms=5_000, reason=" clock fault ", confirmed=True, by="deputy")
    assert game.events[-1] == TimeAdded(5_000, BLACK, minutes(2), "clock fault", departure=True, by="deputy")
    assert game.state.clock.remaining(BLACK, 5_000) == minutes(9)


def test_up_to_the_amount_outside_a_tournament_and_a_rules_penalty_are_no_departure() -> None:
    game = started(BLITZ, TOURNAMENT).add_time(WHITE, minutes(1), now_ms=5_000)  # exactly the amount
    assert game.events[-1] == TimeAdded(5_000, WHITE, minutes(1), "")
    game = started(BLITZ).add_time(WHITE, minutes(5), now_ms=5_000)  # a game of no tournament
    assert not game.events[-1].departure  # type: ignore[attr-defined]
    settings = GameSettings(clock_correction_warning_ms=60_000, groundless_stop_penalty_ms=minutes(2))
    game = started(BLITZ, settings).penalise_groundless_stop(WHITE, now_ms=5_000)  # TK-C15's own penalty
    assert not game.events[-1].departure  # type: ignore[attr-defined]


def test_the_room_records_who_made_it_but_never_shows_the_name() -> None:
    arbiter = Context(Actor("arbiter", "deputy"), 0)
    match = fold(Match(), decide(Match(), Create("Асқар", "Бекзат", BLITZ, TOURNAMENT), arbiter))
    match = fold(match, decide(match, Start(), arbiter))
    refused = decide(match, AddTime(side=WHITE, ms=90_000, reason="fault"), Context(Actor("arbiter", "deputy"), 10))
    assert isinstance(refused, Refusal) and refused.code is TogyzCode.CORRECTION_UNCONFIRMED
    events = decide(match, AddTime(side=WHITE, ms=90_000, reason="fault", confirmed=True), Context(arbiter.actor, 10))
    assert not isinstance(events, Refusal)
    (added,) = events
    assert isinstance(added, TimeAdded) and added.departure and added.by == "deputy"
    room = TogyzRoom()
    assert match.game is not None
    for event in match.game.events:
        room.apply(Decided(event.type, event_to_dict(event)), 0)
    shown = room.public(Decided(added.type, event_to_dict(added)), with_state=False)
    assert "by" not in shown["event"] and shown["event"]["departure"] is True
    assert room.view(None, 0)["clock"]["correction_limit"] == 60_000  # the console knows when to warn
