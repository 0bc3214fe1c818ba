"""Custom time controls on the new-game form (TK-C4): periods of moves and minutes, an increment or a delay, every
mistake refused naming the field in the page's language."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.clock.presets import RAPID
from toreshi.clock.timecontrol import Period, TimeControl, minutes, seconds
from toreshi.kit.refusal import Refused
from toreshi.texts import i18n, refusals
from toreshi.web.togyz.control_form import control_from_form

from .helpers import session_csrf


def refused(form: dict[str, str]) -> tuple[str, dict[str, Any]]:
    with pytest.raises(Refused) as caught:
        control_from_form(form)
    return caught.value.code, dict(caught.value.params)


def test_presets_and_custom_controls_are_read() -> None:
    assert control_from_form({"control": "rapid"}) == RAPID
    form = {"control": "custom", "period1_moves": "40", "period1_minutes": "120", "period2_moves": "20",
            "period2_minutes": "60", "period3_minutes": "30", "bonus": "delay", "bonus_seconds": "5"}  # fmt: skip
    assert control_from_form(form) == TimeControl(
        (Period(40, minutes(120)), Period(20, minutes(60)), Period(None, minutes(30))), 0, seconds(5)
    )
    sudden = control_from_form({"control": "custom", "period1_minutes": "15", "bonus": "increment",
                                "bonus_seconds": "10"})  # fmt: skip
    assert sudden == TimeControl.sudden_death(minutes(15), increment_ms=seconds(10))


@pytest.mark.parametrize(
    ("form", "code", "params"),
    [
        ({"control": "bullet"}, "field_not_choice", {"field": "control", "value": "bullet"}),
        ({"control": "custom"}, "field_required", {"field": "time_ms"}),
        ({"control": "custom", "period1_minutes": "0"}, "field_too_small", {"field": "time_ms", "minimum": 1}),
        ({"control": "custom", "period1_minutes": "2000"}, "field_too_large", {"field": "time_ms", "maximum": 1440}),
        ({"control": "custom", "period1_minutes": "ten"}, "field_not_integer", {"field": "time_ms"}),
        ({"control": "custom", "period1_minutes": "60", "period1_moves": "40"}, "final_period_has_moves", {}),
        ({"control": "custom", "period1_minutes": "60", "period2_minutes": "30"}, "period_needs_moves", {"period": 1}),
        ({"control": "custom", "period1_minutes": "5", "bonus": "increment"}, "field_required",
         {"field": "increment_ms"}),
        ({"control": "custom", "period1_minutes": "5", "bonus": "delay", "bonus_seconds": "-1"}, "field_too_small",
         {"field": "delay_ms", "minimum": 1}),
        ({"control": "custom", "period1_minutes": "5", "bonus": "both"}, "field_not_choice",
         {"field": "bonus", "value": "both"}),
    ],
)  # fmt: skip
def test_a_control_that_cannot_be_played_is_refused_naming_the_field(
    form: dict[str, str], code: str, params: dict[str, Any]
) -> None:
    assert refused(form) == (code, params)


def test_the_refusals_read_in_kazakh_and_russian() -> None:
    with pytest.raises(Refused) as caught:
        control_from_form({"control": "custom", "period1_minutes": "60", "period2_minutes": "30"})
    i18n.activate("kk")
    assert refusals.text_of(caught.value) == "1-кезең соңғысы емес, сондықтан оған жүріс саны керек."
    i18n.activate("ru")
    assert refusals.text_of(caught.value) == "Период 1 не последний, поэтому для него нужно число ходов."


def test_the_form_creates_a_game_with_a_custom_control_and_keeps_what_was_typed(
    client: TestClient, arbiter: str
) -> None:
    page = client.get("/games/new?lang=en").text
    assert 'value="custom"' in page and 'name="period3_minutes"' in page and 'name="bonus"' in page
    assert 'value="when_ready"' in page
    form = {"white": "Абай", "black": "Болат", "control": "custom", "period1_moves": "40", "period1_minutes": "90",
            "period2_minutes": "30", "bonus": "increment", "bonus_seconds": "30", "flag": "claim",
            "start": "when_ready", "csrf": session_csrf(client)}  # fmt: skip
    made = client.post("/games/new", data=form, follow_redirects=False)
    assert made.status_code == 303, made.text
    room = re.fullmatch(r"/games/(g-[0-9a-f]+)/links", made.headers["location"])
    assert room is not None
    state = client.get(f"/api/rooms/{room.group(1)}").json()["data"]
    assert state["setup"]["required"] is True and state["clock"]["flag"] == "claim"
    assert state["clock"]["white"] == minutes(90)
    bad = client.post("/games/new?lang=ru", data={**form, "period1_moves": ""}, follow_redirects=False)
    text = html.unescape(bad.text)
    assert bad.status_code == 200 and "Период 1 не последний" in text
    assert 'name="period2_minutes" value="30"' in text and 'name="bonus_seconds" value="30"' in text
