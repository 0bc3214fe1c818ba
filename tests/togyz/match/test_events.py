"""Events are JSON-serialisable and read back exactly; bad dicts are refused with the field named."""

from __future__ import annotations

import json

import pytest

from toreshi.clock import CLASSICAL_40_2H_1H
from toreshi.clock.flag import FlagMode
from toreshi.togyz import BLACK, WHITE
from toreshi.togyz.match.events import (
    EVENT_TYPES,
    Actor,
    ArbiterDecided,
    EventLogError,
    FlagFell,
    GameCreated,
    GameStarted,
    event_from_dict,
    event_to_dict,
)
from toreshi.togyz.match.game import Game
from toreshi.togyz.match.result import GameResult
from toreshi.togyz.match.settings import GameSettings, SettingsError, StartMode

from .game_fixtures import SALT, started


def test_every_event_of_a_long_game_round_trips_through_json() -> None:
    settings = GameSettings(flag_mode=FlagMode.CLAIM, start_mode=StartMode.ROUND_START, lag_compensation=True)
    game = Game.create("Абай", "Болат", CLASSICAL_40_2H_1H, settings, now_ms=0).postpone("reason", now_ms=1)
    game = game.start(now_ms=10, absent=[BLACK]).arrive(BLACK, now_ms=20)
    game = game.move(WHITE, 7, now_ms=30, offer_draw=True, lag_ms=15).decline_draw(BLACK, now_ms=40)
    game = game.pause(Actor.BLACK, now_ms=50).add_time(BLACK, -5, now_ms=60, reason="C15").resume(now_ms=70)
    game = game.set_clocks(1000, 2000, now_ms=80).move(BLACK, 9, now_ms=90)
    game = game.adjourn(WHITE, 1, SALT, now_ms=100).open_envelope(1, SALT, now_ms=200)
    game = game.move(WHITE, 1, now_ms=300).resign(BLACK, now_ms=400).sign(WHITE, now_ms=500)
    game = game.file_protest(BLACK, now_ms=600)
    text = json.dumps(game.to_dicts(), ensure_ascii=False)
    again = Game.from_dicts(json.loads(text))
    assert again.events == game.events and again.state == game.state
    assert len({type(event) for event in game.events}) >= 15


def test_optional_and_enum_fields() -> None:
    for event in (FlagFell(5, WHITE), FlagFell(5, BLACK, Actor.ARBITER), ArbiterDecided(7, GameResult.DRAW, "C14")):
        assert event_from_dict(json.loads(json.dumps(event_to_dict(event)))) == event
    assert event_to_dict(GameStarted(1, (BLACK,)))["absent"] == ["black"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"kind": "teleported", "at_ms": 1}, "unknown event kind"),
        ({"at_ms": 1}, "unknown event kind"),
        ({"kind": "move_played", "at_ms": 1, "side": "white"}, "missing field 'hole'"),
        ({"kind": "move_played", "at_ms": 1, "side": "red", "hole": 1}, "'white' or 'black'"),
        ({"kind": "move_played", "at_ms": "1", "side": "white", "hole": 1}, "must be int"),
        ({"kind": "move_played", "at_ms": True, "side": "white", "hole": 1}, "must be int"),
        ({"kind": "move_played", "at_ms": 1, "side": "white", "hole": 1, "x": 2}, "unknown fields"),
        ({"kind": "flag_fell", "at_ms": 1, "side": "white", "by": "spectator"}, "cannot be 'spectator'"),
        ({"kind": "game_started", "at_ms": 1, "absent": "white"}, "must be a list"),
        ({"kind": "game_created", "at_ms": 1, "white": "a", "black": "b", "control": {}, "settings": {}}, "periods"),
        (
            {"kind": "game_created", "at_ms": 1, "white": "a", "black": "b", "control": [], "settings": {}},
            "must be an object",
        ),
    ],
)
def test_bad_event_dicts_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(EventLogError, match=message):
        event_from_dict(data)


def test_settings_round_trip_and_refusals() -> None:
    settings = GameSettings(flag_mode=FlagMode.CLAIM, late_limit_ms=1, flag_with_81_draws=False)
    assert GameSettings.from_dict(settings.to_dict()) == settings
    assert GameSettings.from_dict({}) == GameSettings()
    with pytest.raises(SettingsError, match="unknown game settings"):
        GameSettings.from_dict({"colour": "red"})
    with pytest.raises(SettingsError, match="'flag_mode' cannot be 'sometimes'"):
        GameSettings.from_dict({"flag_mode": "sometimes"})
    with pytest.raises(SettingsError, match="'lag_compensation' cannot be 1"):
        GameSettings.from_dict({"lag_compensation": 1})
    with pytest.raises(SettingsError, match="'late_limit_ms' cannot be True"):
        GameSettings.from_dict({"late_limit_ms": True})
    with pytest.raises(SettingsError, match="cannot be negative"):
        GameSettings(late_limit_ms=-1)


def test_every_event_kind_is_registered_once() -> None:
    assert len(EVENT_TYPES) == 22 and all(kind for kind in EVENT_TYPES)
    created = started().events[0]
    assert isinstance(created, GameCreated) and created.kind == "game_created"
