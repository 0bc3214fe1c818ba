"""The togyz game as a live room: roles, refusals with codes, the state clients render, flag timers."""

from __future__ import annotations

from typing import Any

import pytest

from toreshi.clock.presets import BLITZ
from toreshi.clock.timecontrol import TimeControl, seconds
from toreshi.live.room import Actor, Command, CommandRefusedError
from toreshi.live.rooms.togyz import TogyzRoom

ARBITER = Actor("arbiter", "chief")
WHITE = Actor("white", "Abay")
BLACK = Actor("black", "Bolat")


def run(room: TogyzRoom, actor: Actor, kind: str, now: int, **data: Any) -> list[str]:
    decided = room.decide(Command(kind, actor, data), now)
    for event in decided:
        room.apply(event, now)
    return [event.type for event in decided]


def created(control: TimeControl = BLITZ) -> TogyzRoom:
    room = TogyzRoom()
    run(room, ARBITER, "create", 0, white="Abay", black="Bolat", control=control.to_dict())
    return room


def test_only_the_arbiter_creates_and_starts() -> None:
    room = TogyzRoom()
    with pytest.raises(CommandRefusedError) as refused:
        room.decide(Command("create", WHITE, {"white": "a", "black": "b", "control": BLITZ.to_dict()}), 0)
    assert refused.value.code == "no_game"
    room = created()
    with pytest.raises(CommandRefusedError, match="a player cannot start"):
        room.decide(Command("start", WHITE), 10)
    assert run(room, ARBITER, "start", 1_000) == ["game_started"]
    assert room.view(None, 1_000)["status"] == "running"


def test_a_move_presses_the_clock_and_the_state_shows_it() -> None:
    room = created()
    run(room, ARBITER, "start", 1_000)
    assert run(room, WHITE, "move", 4_000, hole=7) == ["move_played", "clock_pressed"]
    state = room.view(BLACK, 4_000)
    assert state["moves"] == [{"ply": 1, "side": "white", "token": "76(10)", "draw_offer": False}]
    assert state["kazans"] == {"white": 10, "black": 0}
    assert state["board"]["black"][5] == 0
    assert state["turn"] == "black" and state["clock"]["running"] == "black"
    assert state["clock"]["white"] == BLITZ.initial_ms - 3_000
    assert "move" in state["can"] and "resign" in state["can"]
    assert "move" not in room.view(WHITE, 4_000)["can"]


def test_refusals_carry_stable_codes_and_change_nothing() -> None:
    room = created()
    run(room, ARBITER, "start", 1_000)
    before = room.view(None, 2_000)
    cases: list[tuple[Actor, str, dict[str, Any], str]] = [
        (BLACK, "move", {"hole": 1}, "not_your_turn"),
        (WHITE, "move", {"hole": 12}, "illegal_move"),
        (WHITE, "move", {"hole": "7"}, "bad_request"),
        (Actor("spectator"), "resign", {}, "forbidden"),
        (WHITE, "set_clocks", {"white_ms": 1, "black_ms": 1}, "forbidden"),
    ]
    for actor, kind, data, code in cases:
        with pytest.raises(CommandRefusedError) as refused:
            room.decide(Command(kind, actor, data), 2_000)
        assert refused.value.code == code, (kind, refused.value)
    assert room.view(None, 2_000) == before


def test_draw_offer_then_accept_ends_the_game_and_both_sign() -> None:
    room = created()
    run(room, ARBITER, "start", 0)
    assert run(room, WHITE, "move", 1_000, hole=7, offer_draw=True) == ["move_played", "draw_offered", "clock_pressed"]
    assert room.view(None, 1_000)["draw_offer"] == "white"
    assert "accept_draw" in room.view(BLACK, 1_000)["can"]
    run(room, BLACK, "accept_draw", 2_000)
    state = room.view(None, 2_000)
    assert (state["status"], state["result"]) == ("finished", "1/2-1/2")
    run(room, WHITE, "sign", 3_000)
    run(room, BLACK, "sign", 3_500)
    assert room.view(None, 4_000)["signed"] == {"white": True, "black": True}


def test_the_flag_deadline_drives_the_timer() -> None:
    room = created(TimeControl.sudden_death(seconds(10)))
    run(room, ARBITER, "start", 0)
    assert room.deadline_ms() == 10_000
    assert room.on_deadline(9_999) == []
    fell = room.on_deadline(10_000)
    assert [event.type for event in fell] == ["flag_fell"]
    for event in fell:
        room.apply(event, 10_000)
    state = room.view(None, 10_000)
    assert state["result"] == "0-1" and state["status"] == "finished"
    assert room.deadline_ms() is None


def test_public_events_carry_the_state_after_them() -> None:
    room = created()
    decided = room.decide(Command("start", ARBITER), 500)
    room.apply(decided[0], 500)
    public = room.public(decided[0])
    assert public["event"]["kind"] == "game_started"
    assert public["state"]["status"] == "running"


def test_a_sealed_move_needs_the_arbiters_adjournment_and_only_it_is_played_after() -> None:
    from toreshi.togyz.match.sealed import commit

    room = created()
    run(room, ARBITER, "start", 0)
    run(room, WHITE, "move", 1_000, hole=7)
    salt = "f" * 32
    with pytest.raises(CommandRefusedError, match="only when the arbiter adjourns"):
        room.decide(Command("adjourn", BLACK, {"hole": 1, "salt": salt}), 2_000)
    assert run(room, ARBITER, "request_adjournment", 2_000) == ["adjournment_requested"]
    assert room.view(None, 2_000)["adjournment_requested"] is True
    assert "adjourn" in room.view(BLACK, 2_000)["can"]
    run(room, BLACK, "adjourn", 3_000, hole=1, salt=salt)
    state = room.view(None, 3_000)
    assert state["status"] == "adjourned"
    assert state["envelope"]["commitment"] == commit(1, salt)
    assert "hole" not in state["envelope"] and salt not in str(state)  # only the commitment is shown
    with pytest.raises(CommandRefusedError):
        room.decide(Command("open_envelope", ARBITER, {"hole": 2, "salt": salt}), 60_000)
    run(room, ARBITER, "open_envelope", 60_000, hole=1, salt=salt)
    assert room.view(BLACK, 60_000)["legal"] == [1]
    with pytest.raises(CommandRefusedError):
        room.decide(Command("move", BLACK, {"hole": 2}), 61_000)
    assert run(room, BLACK, "move", 61_000, hole=1)[0] == "move_played"
