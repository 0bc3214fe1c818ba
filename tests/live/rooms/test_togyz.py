"""The togyz game as a live room: roles, refusals with codes and the players' names, the state clients render,
flag timers, and a thin adapter that lets programming errors through."""

from __future__ import annotations

from typing import Any

import pytest

from toreshi.clock.presets import BLITZ, CLASSICAL_60
from toreshi.clock.timecontrol import TimeControl, seconds
from toreshi.kit.codec import CodecError
from toreshi.kit.refusal import Common, Refused
from toreshi.live.room import Actor, Command, Decided
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.togyz.match import core
from toreshi.togyz.match.codes import TogyzCode

ARBITER = Actor("arbiter", "chief")
WHITE = Actor("white", "Abay")
BLACK = Actor("black", "Bolat")


def run(room: TogyzRoom, actor: Actor, kind: str, now: int, **data: Any) -> list[str]:
    decided = room.decide(Command(kind, actor, data), now)
    for event in decided:
        room.apply(event, now)
    return [event.type for event in decided]


def refused(room: TogyzRoom, actor: Actor, kind: str, now: int, **data: Any) -> Refused:
    with pytest.raises(Refused) as caught:
        room.decide(Command(kind, actor, data), now)
    return caught.value


def created(control: TimeControl = BLITZ) -> TogyzRoom:
    room = TogyzRoom()
    run(room, ARBITER, "create", 0, white="Абай", black="Болат", control=control.to_dict())
    return room


def test_only_the_arbiter_creates_and_starts() -> None:
    room = TogyzRoom()
    assert refused(room, WHITE, "create", 0, white="a", black="b", control=BLITZ.to_dict()).code == "no_game"
    assert refused(room, ARBITER, "start", 0).code == "no_game"
    room = created()
    again = refused(room, ARBITER, "create", 1, white="a", black="b", control=BLITZ.to_dict())
    assert again.refusal.code is TogyzCode.ALREADY_CREATED
    forbidden = refused(room, WHITE, "start", 10)
    assert (forbidden.refusal.code, dict(forbidden.params)) == (Common.FORBIDDEN, {"command": "start", "role": "white"})
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


def test_refusals_carry_codes_and_the_players_names_and_change_nothing() -> None:
    room = created()
    run(room, ARBITER, "start", 1_000)
    before = room.view(None, 2_000)
    cases: list[tuple[Actor, str, dict[str, Any], str, dict[str, Any]]] = [
        (BLACK, "move", {"hole": 1}, "not_your_turn", {"player": "Болат", "to_move": "Абай"}),
        (WHITE, "move", {"hole": 12}, "field_too_large", {"field": "hole", "maximum": 9}),
        (WHITE, "move", {"hole": "7"}, "field_not_integer", {"field": "hole"}),
        (WHITE, "press", {}, "press_without_move", {"player": "Абай", "opponent": "Болат", "clause": "TK-C9"}),
        (WHITE, "offer_draw", {}, "draw_offer_timing", {"player": "Абай", "clause": "TK-R8"}),
        (BLACK, "accept_draw", {}, "no_draw_offer", {"player": "Болат"}),
        (WHITE, "sign", {}, "sign_before_end", {}),
        (Actor("spectator"), "resign", {}, "forbidden", {"command": "resign", "role": "spectator"}),
        (WHITE, "set_clocks", {"white_ms": 1, "black_ms": 1}, "forbidden", {"command": "set_clocks", "role": "white"}),
        (
            ARBITER,
            "set_clocks",
            {"white_ms": -1, "black_ms": 1},
            "field_too_small",
            {"field": "white_ms", "minimum": 0},
        ),
        (ARBITER, "add_time", {"side": "red", "ms": 1}, "bad_request", {"field": "side"}),
        (ARBITER, "decide", {"result": "2-0", "reason": "x"}, "field_not_choice", {"field": "result", "value": "2-0"}),
        (ARBITER, "decide", {"result": "1-0", "reason": " "}, "decision_needs_reason", {}),
        (ARBITER, "arrive", {"side": "white"}, "already_present", {"player": "Абай"}),
        (ARBITER, "resume", {}, "clock_not_paused", {}),
        (ARBITER, "open_envelope", {"hole": 1, "salt": "0" * 32}, "game_not_adjourned", {}),
        (ARBITER, "teleport", {}, "unknown_command", {"command": "teleport"}),
    ]
    for actor, kind, data, code, params in cases:
        answer = refused(room, actor, kind, 2_000, **data)
        assert (answer.code, dict(answer.params)) == (code, params), (kind, answer)
    assert room.view(None, 2_000) == before


def test_a_refusal_names_the_player_never_the_side() -> None:
    room = TogyzRoom()
    control = BLITZ.to_dict()
    run(room, ARBITER, "create", 0, white="Асқар", black="Бекзат", control=control, settings={"flag_mode": "claim"})
    run(room, ARBITER, "start", 0, absent=["white"])
    absent = refused(room, WHITE, "move", 1_000, hole=7)
    assert (absent.refusal.code, dict(absent.params)) == (
        TogyzCode.NOT_ARRIVED,
        {"player": "Асқар", "clause": "TK-C6"},
    )
    assert "white" not in str(absent.params.values())
    late = refused(room, ARBITER, "arrive", 31 * 60_000, side="white")
    assert dict(late.params) == {"player": "Асқар", "minutes": 31, "limit": 30, "clause": "TK-R4"}


def test_the_role_is_checked_before_the_data() -> None:
    """A spectator's (or a player's arbiter-only) command is forbidden whatever it carries: the data is not read."""
    room = created()
    run(room, ARBITER, "start", 0)
    assert refused(room, Actor("spectator"), "move", 10, hole=99).code == "forbidden"
    assert refused(room, BLACK, "add_time", 10, side="nobody", ms="x").code == "forbidden"


def test_a_programming_error_is_not_turned_into_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    room = created()

    def broken(*_: Any) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(core, "decide", broken)
    with pytest.raises(KeyError):
        room.decide(Command("start", ARBITER), 10)


def test_a_corrupt_stored_event_is_an_error_not_a_refusal() -> None:
    room = created()
    with pytest.raises(CodecError):
        room.apply(Decided("move_played", {"type": "move_played", "at_ms": 5, "side": "red", "hole": 1}), 5)
    with pytest.raises(CodecError, match="breaks the rules"):
        room.apply(Decided("move_played", {"type": "move_played", "at_ms": 5, "side": "white", "hole": 1}), 5)


def test_draw_offer_then_accept_ends_the_game_and_both_sign() -> None:
    room = created(CLASSICAL_60)  # score sheets are signed in classical games (not in blitz, TK-B2)
    run(room, ARBITER, "start", 0)
    assert run(room, WHITE, "move", 1_000, hole=7, offer_draw=True) == ["move_played", "draw_offered", "clock_pressed"]
    assert room.view(None, 1_000)["draw_offer"] == "white"
    assert "accept_draw" in room.view(BLACK, 1_000)["can"]
    run(room, BLACK, "accept_draw", 2_000)
    state = room.view(None, 2_000)
    assert (state["status"], state["result"], state["note"]) == ("finished", "1/2-1/2", "agreed")
    assert state["reason"] is None  # the engine's English note is not shown
    run(room, WHITE, "sign", 3_000)
    assert dict(refused(room, WHITE, "sign", 3_200).params) == {"player": "Абай"}
    run(room, BLACK, "sign", 3_500)
    assert room.view(None, 4_000)["signed"] == {"white": True, "black": True}


def test_in_blitz_nobody_is_asked_to_sign() -> None:
    # TK-B2: no score sheets in blitz and rapid: "sign" is never offered, and refused citing the clause.
    room = created()
    run(room, ARBITER, "start", 0)
    run(room, WHITE, "resign", 500)
    assert room.view(None, 600)["score_sheets"] is False
    assert "sign" not in room.view(WHITE, 600)["can"] and "sign" not in room.view(BLACK, 600)["can"]
    assert refused(room, BLACK, "sign", 700).refusal.code is TogyzCode.NO_SCORE_SHEETS
    classical = created(CLASSICAL_60)
    run(classical, ARBITER, "start", 0)
    run(classical, WHITE, "resign", 500)
    assert classical.view(None, 600)["score_sheets"] is True and "sign" in classical.view(BLACK, 600)["can"]


def test_an_absent_players_board_is_not_playable_until_the_arbiter_records_the_arrival() -> None:
    room = created()
    run(room, ARBITER, "start", 0, absent=["white"])
    state = room.view(WHITE, 1_000)
    assert state["absent"] == ["white"] and state["legal"] == [] and state["previews"] == {}
    assert "move" not in state["can"]
    late = refused(room, WHITE, "move", 1_000, hole=7)
    assert (late.refusal.code, dict(late.params)) == (TogyzCode.NOT_ARRIVED, {"player": "Абай", "clause": "TK-C6"})
    run(room, ARBITER, "arrive", 2_000, side="white")
    state = room.view(WHITE, 2_000)
    assert state["absent"] == [] and state["legal"] == list(range(1, 10)) and "move" in state["can"]


def test_each_playable_hole_is_previewed_by_the_rules() -> None:
    # TK-B6: the page previews a selected hole before it is played; the server says what the hole would do.
    room = created()
    run(room, ARBITER, "start", 0)
    previews = room.view(None, 10)["previews"]
    assert set(previews) == {str(hole) for hole in range(1, 10)}
    assert previews["7"] == {"landing": 6, "side": "black", "captured": 10, "tuzdyk": False, "kazan": 10}
    assert previews["1"] == {"landing": 9, "side": "white", "captured": 0, "tuzdyk": False, "kazan": 0}
    run(room, WHITE, "move", 1_000, hole=7)
    assert room.view(None, 1_000)["kazans"]["white"] == previews["7"]["kazan"]


def test_in_automatic_flag_mode_a_player_never_claims_the_flag() -> None:
    room = TogyzRoom()
    control = TimeControl.sudden_death(seconds(10)).to_dict()
    run(room, ARBITER, "create", 0, white="Абай", black="Болат", control=control, settings={"flag_mode": "automatic"})
    run(room, ARBITER, "start", 0)
    # Past White's deadline, before the timer has recorded the fall: Black is not offered a race against it.
    assert "claim_flag" not in room.view(BLACK, 10_500)["can"]
    refusal = refused(room, BLACK, "claim_flag", 10_500)
    assert (refusal.refusal.code, dict(refusal.params)) == (TogyzCode.FLAG_IS_AUTOMATIC, {"clause": "TK-B10"})
    assert run(room, ARBITER, "claim_flag", 10_500) == ["flag_fell"]  # the arbiter announces it (TK-B10)


def test_the_setup_is_confirmed_by_both_players_before_the_arbiter_starts() -> None:
    # TK-B4, TK-B5: when the arbiter starts the clock once both are ready, both first confirm the set-up.
    room = TogyzRoom()
    run(room, ARBITER, "create", 0, white="Абай", black="Болат", control=BLITZ.to_dict(),
        settings={"start_mode": "when_ready"})  # fmt: skip
    assert room.view(None, 0)["setup"] == {"confirmed": {"white": False, "black": False}, "complaints": [],
                                            "required": True}  # fmt: skip
    assert "confirm_setup" in room.view(WHITE, 0)["can"] and "complain_setup" in room.view(WHITE, 0)["can"]
    assert "start" not in room.view(ARBITER, 0)["can"]
    run(room, WHITE, "confirm_setup", 1)
    run(room, BLACK, "complain_setup", 2)
    assert room.view(None, 2)["setup"]["confirmed"] == {"white": False, "black": False}
    run(room, WHITE, "confirm_setup", 3)
    run(room, BLACK, "confirm_setup", 4)
    assert "start" in room.view(ARBITER, 5)["can"] and "confirm_setup" not in room.view(WHITE, 5)["can"]
    run(room, ARBITER, "start", 5)
    late = refused(room, BLACK, "complain_setup", 6)
    assert (late.refusal.code, dict(late.params)) == (TogyzCode.SETUP_COMPLAINT_TOO_LATE, {"clause": "TK-B5"})
    assert "complain_setup" not in room.view(BLACK, 6)["can"]


def test_the_ending_is_told_by_a_note_and_the_player_it_names() -> None:
    room = created()
    run(room, ARBITER, "start", 0)
    run(room, BLACK, "resign", 500)
    state = room.view(None, 500)
    assert (state["termination"], state["note"], state["note_side"]) == ("resignation", "resigned", "black")
    decided = created()
    run(decided, ARBITER, "start", 0)
    run(decided, ARBITER, "decide", 600, result="0-1", reason="Ережені бұзды")
    state = decided.view(None, 600)
    assert (state["note"], state["note_side"], state["reason"]) == ("arbiter", None, "Ережені бұзды")


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
    assert (state["note"], state["note_side"]) == ("flag", "white")
    assert room.deadline_ms() is None


def test_public_events_carry_the_state_after_them() -> None:
    room = created()
    decided = room.decide(Command("start", ARBITER), 500)
    room.apply(decided[0], 500)
    public = room.public(decided[0])
    assert public["event"]["type"] == "game_started"
    assert public["state"]["status"] == "running"


def test_can_lists_what_decide_accepts() -> None:
    """Every command in a role's ``can`` list is accepted by the room at that moment, and every probe left out is
    refused: the list and the rules cannot disagree."""
    room = created()
    assert room.view(ARBITER, 0)["can"] == ["start"]
    run(room, ARBITER, "start", 0)
    run(room, WHITE, "move", 1_000, hole=7, press=False)
    assert room.view(WHITE, 1_000)["can"] == ["offer_draw", "resign", "press", "call_arbiter"]
    assert room.view(BLACK, 1_000)["can"] == ["resign", "call_arbiter"]
    assert room.view(ARBITER, 1_000)["can"] == ["pause", "request_adjournment"]
    assert room.view(Actor("spectator"), 1_000)["can"] == []
    for actor in (WHITE, BLACK, ARBITER):
        for name in room.view(actor, 1_000)["can"]:
            if name != "move":
                room.decide(Command(name, actor, {}), 1_000)  # accepted: no refusal raised


def test_a_sealed_move_needs_the_arbiters_adjournment_and_only_it_is_played_after() -> None:
    from toreshi.togyz.match.sealed import commit

    room = created()
    run(room, ARBITER, "start", 0)
    run(room, WHITE, "move", 1_000, hole=7)
    salt = "f" * 32
    early = refused(room, BLACK, "adjourn", 2_000, hole=1, salt=salt)
    assert (early.code, dict(early.params)) == ("seal_without_adjournment", {"clause": "TK-A2"})
    assert refused(room, ARBITER, "cancel_adjournment", 2_000).code == "no_adjournment"
    assert run(room, ARBITER, "request_adjournment", 2_000) == ["adjournment_requested"]
    assert refused(room, ARBITER, "request_adjournment", 2_000).code == "adjournment_already_requested"
    assert room.view(None, 2_000)["adjournment_requested"] is True
    assert "adjourn" in room.view(BLACK, 2_000)["can"]
    wrong = refused(room, WHITE, "adjourn", 2_500, hole=1, salt=salt)
    assert (wrong.code, dict(wrong.params)) == ("sealer_not_to_move", {"player": "Абай", "to_move": "Болат"})
    short = refused(room, BLACK, "adjourn", 2_500, hole=1, salt="abc")
    assert (short.code, dict(short.params)) == ("salt_too_short", {"minimum": 32})
    run(room, BLACK, "adjourn", 3_000, hole=1, salt=salt)
    state = room.view(None, 3_000)
    assert state["status"] == "adjourned" and state["adjournment_requested"] is False
    assert state["envelope"]["commitment"] == commit(1, salt)
    assert "hole" not in state["envelope"] and salt not in str(state)  # only the commitment is shown
    broken = refused(room, ARBITER, "open_envelope", 60_000, hole=2, salt=salt)
    assert (broken.code, dict(broken.params)) == ("envelope_not_intact", {"clause": "TK-A4"})
    run(room, ARBITER, "open_envelope", 60_000, hole=1, salt=salt)
    assert room.view(BLACK, 60_000)["legal"] == [1]
    other = refused(room, BLACK, "move", 61_000, hole=2)
    assert (other.code, dict(other.params)) == (
        "must_play_sealed_move",
        {"player": "Болат", "hole": 1, "clause": "TK-A4"},
    )
    assert run(room, BLACK, "move", 61_000, hole=1)[0] == "move_played"


def test_the_adjournment_is_a_typed_room_event_in_the_log() -> None:
    room = created()
    run(room, ARBITER, "start", 0)
    (requested,) = room.decide(Command("request_adjournment", ARBITER), 100)
    assert requested == Decided(
        "adjournment_requested", {"type": "adjournment_requested", "at_ms": 100, "sealer": "white"}
    )
    room.apply(requested, 100)
    (cancelled,) = room.decide(Command("cancel_adjournment", ARBITER), 200)
    assert cancelled == Decided("adjournment_cancelled", {"type": "adjournment_cancelled", "at_ms": 200})
    room.apply(cancelled, 200)
    assert room.view(None, 200)["adjournment_requested"] is False
