"""Custom time controls on the tournament forms (issue 16 §2): periods with an increment or a delay, set when the
tournament is created or in its settings, given to the round's game rooms, described in the page's language on the
overview, the round and the printed crosstable (the TRF's 122 in the clock's words); every mistake refused in the
page's language; a log that named a preset still reads as that preset. And a team's reissued protest link replaces
the old one (issue 13 §4)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.clock.codes import ClockCode
from toreshi.clock.presets import BLITZ
from toreshi.clock.timecontrol import Period, TimeControl, minutes, seconds
from toreshi.kit.refusal import Common, ParamValue, Refusal, RefusalCode
from toreshi.texts import i18n, refusals
from toreshi.tournament.journal.commands import Configure, Create
from toreshi.tournament.model import TournamentSystem
from toreshi.web.togyz import timecontrols
from toreshi.web.tournaments.results import speaking

from .helpers import post
from .test_tournament_pages import TOURNAMENT, call, sign_in, tournaments

CLASSICAL = TimeControl((Period(40, minutes(90)), Period(None, minutes(30))), increment_ms=seconds(30))
CUSTOM_FORM = {"control": "custom", "period1_moves": "40", "period1_minutes": "90", "period2_minutes": "30",
               "bonus": "increment", "bonus_seconds": "30"}  # fmt: skip


def said(code: RefusalCode, language: str, /, **params: ParamValue) -> str:
    i18n.activate(language)
    return refusals.render(Refusal(code, params))


def new_tournament(web: TestClient, csrf: str, **control: str) -> Any:
    form = {"name": "Classical Cup", "system": "swiss_dutch", "rounds": "3", "fee": "0", "currency": "KZT",
            **control, "csrf": csrf}  # fmt: skip
    return web.post("/tournaments/new", data=form, follow_redirects=False)


def paired(web: TestClient, csrf: str, **control: str) -> str:
    response = new_tournament(web, csrf, **control)
    assert response.status_code == 303, response.text
    found = TOURNAMENT.match(response.headers["location"])
    assert found is not None
    tid = found.group(1)
    for name in ("Abay", "Bolat", "Dana", "Erlan"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    return tid


def room_controls(web: TestClient, tid: str) -> list[TimeControl]:
    state = call(web, lambda: tournaments(web).state(tid))
    rooms = [state.room_of(1, board) for board in (1, 2)]
    assert all(rooms)

    async def controls() -> list[TimeControl]:
        found = []
        for room_id in rooms:
            owner = await web.app.state.services.rooms.get(room_id, "togyz")  # type: ignore[attr-defined]
            found.append(owner.logic.game.state.control)
        return found

    return call(web, controls)


def test_a_tournament_of_40_moves_in_90_min_then_30_min_with_30_s_gives_its_rooms_that_control(
    web: TestClient,
) -> None:
    csrf = sign_in(web)
    tid = paired(web, csrf, **CUSTOM_FORM)
    state = call(web, lambda: tournaments(web).state(tid))
    assert (state.t.control, state.t.time_control) == (CLASSICAL, None)
    described = "40 moves in 90 min, then the rest in 30 min + 30 sec per move"
    assert described in html.unescape(web.get(f"/tournaments/{tid}").text)
    round_page = html.unescape(web.get(f"/tournaments/{tid}/rounds/1").text)
    assert described in round_page  # the round's form starts from the tournament's control, the custom rows filled
    assert 'value="custom" checked' in round_page and 'name="period1_moves" value="40"' in round_page
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf})  # the tournament's own control
    assert room_controls(web, tid) == [CLASSICAL, CLASSICAL]
    with speaking("kk"):  # the TRF speaks the tournament's language, Kazakh by default
        allotted = "122 " + timecontrols.describe(CLASSICAL)
    assert allotted in web.get(f"/tournaments/{tid}/export.trf").text and "мин" in allotted
    web.headers["accept-language"] = "ru"
    printed = html.unescape(web.get(f"/tournaments/{tid}/standings?print=1").text)
    assert "40 ходов за 90 мин, затем остаток за 30 мин + 30 с за ход" in printed


def test_the_round_form_and_the_settings_change_the_control(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = paired(web, csrf, control="rapid")
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, **CUSTOM_FORM})
    assert room_controls(web, tid) == [CLASSICAL, CLASSICAL]
    delay = {"control": "custom", "period1_minutes": "25", "bonus": "delay", "bonus_seconds": "5"}
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Classical Cup", **delay)
    state = call(web, lambda: tournaments(web).state(tid))
    assert state.t.control == TimeControl.sudden_death(minutes(25), delay_ms=seconds(5))
    settings = html.unescape(web.get(f"/tournaments/{tid}/settings").text)
    assert 'name="period1_minutes" value="25"' in settings and 'value="delay" checked' in settings
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Classical Cup", control="blitz")
    state = call(web, lambda: tournaments(web).state(tid))
    assert (state.t.control, state.t.time_control) == (BLITZ, "blitz")


@pytest.mark.parametrize("language", ["kk", "ru"])
@pytest.mark.parametrize(
    ("form", "code", "params"),
    [
        ({"period1_moves": "40", "period1_minutes": "90"}, ClockCode.FINAL_PERIOD_HAS_MOVES, {}),
        ({"period1_minutes": "90", "period2_minutes": "30"}, ClockCode.PERIOD_NEEDS_MOVES, {"period": 1}),
        ({"period1_minutes": "0"}, Common.FIELD_TOO_SMALL, {"field": "time_ms", "minimum": 1}),
        ({"period1_minutes": "5", "bonus": "increment"}, Common.FIELD_REQUIRED, {"field": "increment_ms"}),
    ],
)  # fmt: skip
def test_a_control_that_cannot_be_played_is_refused_in_the_pages_language(
    web: TestClient, language: str, form: dict[str, str], code: RefusalCode, params: dict[str, ParamValue]
) -> None:
    csrf = sign_in(web)
    web.headers["accept-language"] = language
    response = new_tournament(web, csrf, control="custom", **form)
    assert response.status_code == 200  # the form again, as typed, with the reason
    page = html.unescape(response.text)
    expected = said(code, language, **params)
    assert expected in page and re.search("[а-яә]", expected)
    assert 'value="custom" checked' in page
    tid = paired(web, csrf, control="rapid")
    page = post(web, f"/tournaments/{tid}/rounds/1/games", csrf, control="custom", **form)
    assert expected in page
    assert not call(web, lambda: tournaments(web).state(tid)).game_rooms  # nothing was made


def test_a_log_that_named_a_preset_still_reads_as_that_preset(web: TestClient) -> None:
    """Logs written before custom controls carry only ``time_control``: a preset's key, which reads as the preset's
    control (the rooms get it), and the overview describes it."""
    csrf = sign_in(web)
    service = tournaments(web)
    tid = call(web, lambda: service.create("chief", Create(name="Old Cup", system=TournamentSystem.SWISS, rounds=3,
                                                            time_control="blitz")))  # fmt: skip
    state = call(web, lambda: service.state(tid))
    assert (state.t.time_control, state.t.control) == ("blitz", BLITZ)
    assert "7 min for the game" in html.unescape(web.get(f"/tournaments/{tid}").text)
    call(web, lambda: service.command(tid, Configure(venue="Almaty"), "chief"))
    assert call(web, lambda: service.state(tid)).t.control == BLITZ  # other settings leave it as it was
    for name in ("Abay", "Bolat"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf})
    state = call(web, lambda: service.state(tid))
    room = state.room_of(1, 1)
    assert room is not None

    async def control() -> TimeControl:
        owner = await web.app.state.services.rooms.get(room, "togyz")  # type: ignore[attr-defined]
        found: TimeControl = owner.logic.game.state.control
        return found

    assert call(web, control) == BLITZ
