"""Calling the arbiter through the togyz room: the socket commands, and what every client's view shows of the
calls (who, when in the server's time, answered or open)."""

from __future__ import annotations

import pytest

from toreshi.clock.presets import BLITZ
from toreshi.kit.refusal import Refused
from toreshi.live.room import Actor, Command, Decided
from toreshi.live.rooms.togyz import TogyzRoom

ARBITER = Actor("arbiter", "chief")
WHITE = Actor("white", "Abay")
BLACK = Actor("black", "Bolat")


def run(room: TogyzRoom, actor: Actor, kind: str, now: int, **data: object) -> list[Decided]:
    decided = room.decide(Command(kind, actor, dict(data)), now)
    for event in decided:
        room.apply(event, now)
    return list(decided)


def test_the_view_shows_open_calls_and_the_log_of_calls() -> None:
    room = TogyzRoom()
    run(room, ARBITER, "create", 0, white="Абай", black="Болат", control=BLITZ.to_dict())
    run(room, ARBITER, "start", 0)
    assert room.view(None, 0)["calls"] == {"enabled": True, "now": 0, "interval": 30_000, "open": [], "log": []}
    called = run(room, BLACK, "call_arbiter", 4_000)
    assert [event.payload for event in called] == [{"type": "arbiter_called", "at_ms": 4_000, "side": "black"}]
    view = room.view(ARBITER, 9_000)
    assert view["calls"] == {
        "enabled": True,
        "now": 9_000,
        "interval": 30_000,
        "open": ["black"],
        "log": [{"side": "black", "at": 4_000, "answered_at": None}],
    }
    assert "acknowledge_call" in view["can"]
    # The public message of the call (what every page receives) carries the open call.
    assert room.public(called[0])["state"]["calls"]["open"] == ["black"]
    with pytest.raises(Refused) as second:
        run(room, BLACK, "call_arbiter", 5_000)
    assert second.value.refusal.code.value == "call_already_open"
    run(room, ARBITER, "acknowledge_call", 12_000, side="black")
    assert room.view(None, 13_000)["calls"]["open"] == []
    assert room.view(None, 13_000)["calls"]["log"] == [{"side": "black", "at": 4_000, "answered_at": 12_000}]
    # Replayed from its log, a room shows the same calls.
    again = TogyzRoom()
    run(again, ARBITER, "create", 0, white="Абай", black="Болат", control=BLITZ.to_dict())
    run(again, ARBITER, "start", 0)
    for event in called:
        again.apply(Decided(event.type, event.payload), 4_000)
    assert again.view(None, 9_000)["calls"]["open"] == ["black"]
