"""Pages that carry a form token or a player's link are answered ``Cache-Control: no-store`` (issue 26).

The walk takes every GET route of the app, filled with a togyz game, a tournament and a «Своя игра» game, and
fetches it as the signed-in arbiter, as a player with their link and as an anonymous visitor; every HTML or JSON
answer that holds a form token (``name="csrf"``, the session's token) or a player's link (``token=…``, ``/j/…``)
must say ``no-store``. A public page without either stays cacheable.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.common.private_pages import NoStoreSecretsMiddleware
from toreshi.web.common.settings import Settings

from .helpers import route_urls, session_csrf, sign_in
from .test_csv_exports import FORMATS
from .test_quiz_pages import created_game
from .test_tournament_pages import create

SECRET = re.compile(r'name="csrf"|token=|/j/[A-Z0-9-]{4,}')


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path))) as client:
        yield client


def _carries_a_secret(client: TestClient, text: str) -> bool:
    token = client.cookies.get("toreshi_session") and session_csrf(client)
    return SECRET.search(text) is not None or bool(token and token in text)


def test_every_page_with_a_form_token_or_a_player_link_is_not_stored(web: TestClient, shared_data: Path) -> None:
    room, codes, _tokens = created_game(web, shared_data / "quiz" / "siq" / "1.siq")  # signs the arbiter in
    csrf = session_csrf(web)
    made = web.post("/api/games", json={"white": "Ақ", "black": "Қара", "control": "blitz"},
                    headers={"x-csrf-token": csrf}).json()  # fmt: skip
    game, white = str(made["id"]), str(made["tokens"]["white"])
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    ids = {"tid": tid, "quiz:room_id": room, "room_id": game, "code": next(iter(codes.values())).replace("-", ""),
           "number": "1", "role": "black", "action": "x", "cell": "0-1", "part": "q", "index": "0", "tour_id": "x",
           "team_id": "x"}  # fmt: skip
    anonymous = TestClient(web.app, base_url="http://testserver")
    anonymous.portal = web.portal  # the same running app
    visitors = {"arbiter": ("", web), "player": (f"?token={white}", anonymous), "anonymous": ("", anonymous)}
    secrets, cacheable = [], []
    for route in web.app.routes:  # type: ignore[attr-defined]
        if not isinstance(route, Route) or "GET" not in (route.methods or ()) or route.path == "/language":
            continue
        for url in route_urls(route.path, ids, FORMATS):
            for who, (query, client) in visitors.items():
                response = client.get(url + query, follow_redirects=False)
                media = response.headers.get("content-type", "")
                if not media.startswith(("text/html", "application/json")):
                    continue
                stored = response.headers.get("cache-control") != "no-store"
                if _carries_a_secret(client, response.text) or query:
                    assert not stored, (who, url + query)
                    secrets.append((who, route.path))
                elif response.status_code == 200:
                    cacheable.append((who, route.path))
    assert {("arbiter", "/games/{room_id}/links"), ("arbiter", "/api/session"), ("player", "/games/{room_id}"),
            ("anonymous", "/login"), ("arbiter", "/quiz/{room_id}/links")} <= set(secrets)  # fmt: skip
    assert ("anonymous", "/tournaments/{tid}/standings") in cacheable  # not every page: only those with a secret


def test_a_player_s_download_and_a_join_link_are_not_stored(web: TestClient, shared_data: Path) -> None:
    room, codes, _tokens = created_game(web, shared_data / "quiz" / "siq" / "1.siq")
    code = next(iter(codes.values())).replace("-", "")
    joined = web.get(f"/j/{code}", follow_redirects=False)
    assert joined.headers["cache-control"] == "no-store"
    report = web.get(f"/quiz/{room}/report.csv?token=x", follow_redirects=False)
    assert report.headers["cache-control"] == "no-store"


def test_the_middleware_sits_inside_the_session(web: TestClient) -> None:
    stack = [m.cls.__name__ for m in web.app.user_middleware]  # type: ignore[attr-defined]
    assert stack.index("ServerSessionMiddleware") < stack.index(NoStoreSecretsMiddleware.__name__)
    sign_in(web)
    page = web.get("/games/new")
    assert 'name="csrf"' in page.text and page.headers["cache-control"] == "no-store"
