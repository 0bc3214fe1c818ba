"""Events travel through the kit's one codec: JSON-serialisable, read back exactly, bad dicts refused with the field
named; logs written before the codec (``"kind"`` instead of ``"type"``) replay as they did."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toreshi.clock import CLASSICAL_40_2H_1H
from toreshi.clock.flag import FlagMode
from toreshi.kit.codec import CodecError
from toreshi.live.room import Decided
from toreshi.live.rooms.togyz import TogyzRoom
from toreshi.togyz import BLACK, WHITE
from toreshi.togyz.match.events import (
    EVENTS,
    GAME_EVENTS,
    MATCH_EVENTS,
    Actor,
    AdjournmentRequested,
    ArbiterDecided,
    FlagFell,
    GameCreated,
    GameStarted,
    event_from_dict,
    event_to_dict,
)
from toreshi.togyz.match.game import MatchGame
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.settings import GameSettings, StartMode

from .game_fixtures import SALT, started

ONE_PERIOD = {"periods": [{"moves": None, "time_ms": 1}]}


def _long_game() -> MatchGame:
    settings = GameSettings(flag_mode=FlagMode.CLAIM, start_mode=StartMode.ROUND_START, lag_compensation=True)
    game = MatchGame.create("Абай", "Болат", CLASSICAL_40_2H_1H, settings, now_ms=0).postpone("reason", now_ms=1)
    game = game.start(now_ms=10, absent=[BLACK]).arrive(BLACK, now_ms=20)
    game = game.move(WHITE, 7, now_ms=30, offer_draw=True, lag_ms=15).decline_draw(BLACK, now_ms=40)
    game = game.pause(Actor.BLACK, now_ms=50).add_time(BLACK, -5, now_ms=60, reason="C15").resume(now_ms=70)
    game = game.set_clocks(1000, 2000, now_ms=80).move(BLACK, 9, now_ms=90)
    game = game.adjourn(WHITE, 1, SALT, now_ms=100).open_envelope(1, SALT, now_ms=200)
    game = game.move(WHITE, 1, now_ms=300).resign(BLACK, now_ms=400).sign(WHITE, now_ms=500)
    return game.file_protest(BLACK, now_ms=600)


def test_every_event_of_a_long_game_round_trips_through_json() -> None:
    game = _long_game()
    text = json.dumps(game.to_dicts(), ensure_ascii=False)
    again = MatchGame.from_dicts(json.loads(text))
    assert again.events == game.events and again.state == game.state
    assert len({type(event) for event in game.events}) >= 15
    assert all(data["type"] == event.type for data, event in zip(game.to_dicts(), game.events, strict=True))


def test_optional_and_enum_fields() -> None:
    for event in (FlagFell(5, WHITE), FlagFell(5, BLACK, Actor.ARBITER), ArbiterDecided(7, GameResult.DRAW, "C14")):
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    assert event_to_dict(GameStarted(1, (BLACK,)))["absent"] == ["black"]
    assert event_to_dict(AdjournmentRequested(3, BLACK)) == {
        "type": "adjournment_requested",
        "at_ms": 3,
        "sealer": "black",
    }


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "teleported", "at_ms": 1}, "unknown type 'teleported'"),
        ({"at_ms": 1}, "unknown type None"),
        ({"type": "move_played", "at_ms": 1, "side": "white"}, "missing field 'hole'"),
        ({"type": "move_played", "at_ms": 1, "side": "red", "hole": 1}, r"move_played\.side: cannot be 'red'"),
        ({"type": "move_played", "at_ms": "1", "side": "white", "hole": 1}, r"at_ms: must be int"),
        ({"type": "move_played", "at_ms": True, "side": "white", "hole": 1}, r"at_ms: must be int"),
        ({"type": "move_played", "at_ms": 1, "side": "white", "hole": 1, "x": 2}, r"unknown fields \['x'\]"),
        ({"type": "flag_fell", "at_ms": 1, "side": "white", "by": "spectator"}, "by: cannot be 'spectator'"),
        ({"type": "game_started", "at_ms": 1, "absent": "white"}, "absent: must be a list"),
        (
            {"type": "game_created", "at_ms": 1, "white": "a", "black": "b", "control": {}, "settings": {}},
            "control: missing field 'periods'",
        ),
        (
            {"type": "game_created", "at_ms": 1, "white": "a", "black": "b", "control": [], "settings": {}},
            "control: must be an object",
        ),
        (
            {"type": "game_created", "at_ms": 1, "white": "a", "black": "b", "control": {"periods": []}},
            "refused when read back: time_control_without_period",
        ),
        (
            {
                "type": "game_created",
                "at_ms": 1,
                "white": "a",
                "black": "b",
                "control": {"periods": [{"moves": None, "time_ms": 1}]},
                "settings": {"colour": "red"},
            },
            r"settings: unknown fields \['colour'\]",
        ),
        ({"kind": "move_played", "at_ms": 1, "side": "white", "hole": 1}, None),
    ],
)
def test_bad_event_dicts_are_refused_with_the_field_named(data: dict[str, object], message: str | None) -> None:
    if message is None:  # a legacy payload is fine; stored under another type, it is not
        with pytest.raises(CodecError, match="'move_played' stored as 'clock_pressed'"):
            event_from_dict(data, name="clock_pressed")
        return
    with pytest.raises(CodecError, match=message):
        event_from_dict(data)


def test_every_event_type_is_registered_once() -> None:
    assert len(GAME_EVENTS) == 25 and len(MATCH_EVENTS) == 4
    assert EVENTS.names == tuple(cls.type for cls in (*GAME_EVENTS, *MATCH_EVENTS))
    created = started().events[0]
    assert isinstance(created, GameCreated) and created.type == "game_created"


# A log as the code before the room kit wrote it (the event's type under "kind"; the room's own event without
# one), produced by that code (commit 2cc8803) and kept verbatim: it must replay to the same game, forever.
LEGACY_LOG: list[tuple[str, dict[str, Any]]] = [
    ("game_created", {"kind": "game_created", "at_ms": 0, "white": "Асқар", "black": "Бекзат", "control": {"periods": [{"moves": 40, "time_ms": 7200000}, {"moves": None, "time_ms": 3600000}], "increment_ms": 0, "delay_ms": 0}, "settings": {"start_mode": "round_start", "flag_mode": "claim", "flag_with_81_draws": True, "complete_move_after_flag": True, "late_limit_ms": 1800000, "both_flags_extra_ms": 300000, "groundless_stop_penalty_ms": 120000, "sealed_move_policy": "refuse_illegal", "sign_deadline_ms": 1800000, "protest_window_ms": 1800000, "scoring_optional_below_ms": 300000, "lag_compensation": True}}),  # noqa: E501
    ("game_started", {"kind": "game_started", "at_ms": 10, "absent": ["black"]}),
    ("player_arrived", {"kind": "player_arrived", "at_ms": 20, "side": "black"}),
    ("move_played", {"kind": "move_played", "at_ms": 30, "side": "white", "hole": 7}),
    ("draw_offered", {"kind": "draw_offered", "at_ms": 30, "side": "white"}),
    ("clock_pressed", {"kind": "clock_pressed", "at_ms": 30, "side": "white", "lag_ms": 15}),
    ("draw_declined", {"kind": "draw_declined", "at_ms": 40, "side": "black"}),
    ("clock_paused", {"kind": "clock_paused", "at_ms": 50, "by": "black"}),
    ("time_added", {"kind": "time_added", "at_ms": 60, "side": "black", "delta_ms": -5, "reason": "C15"}),
    ("clock_resumed", {"kind": "clock_resumed", "at_ms": 70}),
    ("clocks_set", {"kind": "clocks_set", "at_ms": 80, "white_ms": 1000, "black_ms": 2000, "reason": "clock replaced"}),
    ("adjournment_requested", {"at_ms": 90, "sealer": "black"}),
    ("game_adjourned", {"kind": "game_adjourned", "at_ms": 100, "sealer": "black", "commitment": "fdcf80e5043527d8829dbb36bd50ed67507bf79cef2ef602feb959ce26dfd414"}),  # noqa: E501
    ("envelope_opened", {"kind": "envelope_opened", "at_ms": 200, "hole": 1, "salt": "5eed5eed5eed5eed5eed5eed5eed5eed"}),  # noqa: E501
    ("move_played", {"kind": "move_played", "at_ms": 300, "side": "black", "hole": 1}),
    ("clock_pressed", {"kind": "clock_pressed", "at_ms": 300, "side": "black", "lag_ms": 0}),
    ("flag_fell", {"kind": "flag_fell", "at_ms": 5000, "side": "white", "by": "black"}),
    ("result_signed", {"kind": "result_signed", "at_ms": 6000, "side": "white"}),
    ("protest_filed", {"kind": "protest_filed", "at_ms": 7000, "side": "black"}),
]  # fmt: skip


ADDED_TO_GAME_CREATED: dict[str, Any] = {"event": "", "round": "", "board": None}
"""The record's heading (competition, round, board), added after the kit: empty for the old single games."""
ADDED_TO_SETTINGS: dict[str, Any] = {
    "practice_level": 0,
    "engine_side": None,
    "practice_listed": False,
    "score_sheets": None,
    "clock_correction_warning_ms": None,
}
"""TK-B2: whether sheets are kept, by the time control unless set; a practice game's engine (none in an old log)
and whether it is listed (an old log's practice game is private)."""


def _same_game_today() -> MatchGame:
    settings = GameSettings(flag_mode=FlagMode.CLAIM, lag_compensation=True)
    game = MatchGame.create("Асқар", "Бекзат", CLASSICAL_40_2H_1H, settings, now_ms=0)
    game = game.start(now_ms=10, absent=[BLACK]).arrive(BLACK, now_ms=20)
    game = game.move(WHITE, 7, now_ms=30, offer_draw=True, lag_ms=15).decline_draw(BLACK, now_ms=40)
    game = game.pause(Actor.BLACK, now_ms=50).add_time(BLACK, -5, now_ms=60, reason="C15").resume(now_ms=70)
    game = game.set_clocks(1000, 2000, now_ms=80, reason="clock replaced")
    game = game.adjourn(BLACK, 1, SALT, now_ms=100).open_envelope(1, SALT, now_ms=200)
    game = game.move(BLACK, 1, now_ms=300).claim_flag(Actor.BLACK, now_ms=5000)
    return game.sign(WHITE, now_ms=6000).file_protest(BLACK, now_ms=7000)


def test_a_log_written_before_the_kit_replays_identically() -> None:
    today = _same_game_today()
    room = TogyzRoom()
    for number, (kind, payload) in enumerate(LEGACY_LOG):
        room.apply(Decided(kind, payload), payload["at_ms"])
        if kind == "adjournment_requested":
            assert room.adjournment_requested and number == 11
    assert room.game is not None
    assert room.game.events == today.events and room.game.state == today.state
    assert room.game.state.result is GameResult.BLACK_WINS and not room.adjournment_requested
    # Read back and written again, the log is in today's form: the same fields, "type" instead of "kind", and the
    # fields added since (each with the default an old log is read with, and nothing else).
    rewritten = [event_to_dict(event) for event in room.game.events]
    legacy = [payload for kind, payload in LEGACY_LOG if kind != "adjournment_requested"]
    today_form = [{"type": old["kind"], **{k: v for k, v in old.items() if k != "kind"}} for old in legacy]
    today_form[0] = {**today_form[0], **ADDED_TO_GAME_CREATED}
    today_form[0]["settings"] = {**today_form[0]["settings"], **ADDED_TO_SETTINGS}
    today_form = [
        {**form, "departure": False, "by": ""} if form["type"] == "time_added" else form for form in today_form
    ]  # fmt: skip  (issue 29: a tournament's clock corrections)
    assert rewritten == today_form
    assert MatchGame.from_dicts(legacy).state == today.state
