"""The public audit logs show the arbiter by the role, never by the login they sign in with (issue 26).

A tournament (with a team's protest whose fee the arbiter took) and a team tournament are run by the arbiter;
then every GET route, filled with them, is read by a visitor: the login appears on none of them. A signed-in
arbiter still reads which arbiter did what.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import ARBITER, post, route_urls, sign_in
from .test_csv_exports import FORMATS
from .test_team_pages import CSV, _create
from .test_tournament_day import protest, publish, swiss

LOGIN = ARBITER[0]


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "ru"}) as client:
        yield client


def test_no_public_page_shows_the_arbiter_s_login(web: TestClient) -> None:
    csrf = sign_in(web)  # the login: a person's name, as clubs choose them
    tid = swiss(web, csrf)
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A")
    publish(web, csrf, tid)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    protest(web, csrf, tid, filed_by="Rep A", role="representative", text="x")
    page = post(web, f"/tournaments/{tid}/do/pay-fee", csrf, id="P1", amount="100000", currency="KZT")
    teams = _create(web, csrf)
    post(web, f"/teams/{teams}/do/import", csrf, text=CSV)
    post(web, f"/teams/{teams}/do/pair", csrf)
    shown = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert f"Судья ({LOGIN})" in shown, shown[shown.find("<table") :][:1500]  # the arbiter reads who
    assert f"Судья ({LOGIN})" in html.unescape(web.get(f"/teams/{teams}/audit").text)
    assert f"Судья ({LOGIN})" in html.unescape(web.get(f"/tournaments/{tid}/protests").text), page  # took the fee
    web.post("/logout", data={"csrf": csrf})
    ids = {"tid": tid, "teams:tid": teams, "number": "1", "room_id": "x", "tour_id": "x", "team_id": "x",
           "code": "x", "role": "black", "action": "x", "cell": "0-1", "part": "q", "index": "0"}  # fmt: skip
    read = 0
    for route in web.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route) and "GET" in (route.methods or ()):
            for url in route_urls(route.path, ids, FORMATS):
                response = web.get(url, follow_redirects=False)
                assert LOGIN not in html.unescape(response.text), url
                read += response.status_code == 200
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert "Судья" in audit
    assert "Судья" in html.unescape(web.get(f"/teams/{teams}/audit").text)
    assert "Судья:" in html.unescape(web.get(f"/tournaments/{tid}/protests").text)  # the fee's step, by the role
    assert read > 20
