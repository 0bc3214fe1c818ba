"""«Уточните» reaches every screen (issue 31): the phones say what the projector says, while it holds."""

from __future__ import annotations

from tests.live.rooms.quiz.test_room import HOST, SPECTATOR, B, C, chosen, fire, run


def test_clarify_is_in_every_view_until_the_ruling_and_not_for_the_next_team() -> None:
    room = chosen()
    run(room, B, "press", 2_600, meta={"received_ms": 2_600})
    fire(room)
    assert "clarifying" not in room.view(B, 3_000)["current"]
    run(room, HOST, "clarify", 3_000)
    for viewer in (B, C, SPECTATOR, HOST):
        assert room.view(viewer, 3_100)["current"]["clarifying"] is True
    run(room, HOST, "extend", 3_500)
    assert room.view(C, 3_600)["current"]["clarifying"] is True  # more time does not take the call back
    run(room, HOST, "wrong", 4_000)
    assert "clarifying" not in room.view(C, 4_100)["current"]
    run(room, C, "press", 4_500, meta={"received_ms": 4_500})
    fire(room)
    assert room.view(C, 5_000)["current"]["answering"] == C.name
    assert "clarifying" not in room.view(C, 5_000)["current"]
