"""The players' links kept on the server (issue 16): shown again from any browser, never in the session, revoked and
reissued from the arbiter's pages and API, with the sockets of a revoked link closed at once; a refused creation
leaves no room behind (issue 13)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.kit.refusal import Common, Refused
from toreshi.live.registry import Rooms
from toreshi.store import EventStore, RoomKind
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from .helpers import create_game, csrf_in, receive_until, session_csrf, sign_in


def store_of(client: TestClient) -> EventStore:
    store: EventStore = client.app.state.services.store  # type: ignore[attr-defined]
    return store


def togyz_rooms(client: TestClient) -> list[str]:
    async def listed() -> list[str]:
        return [room.id for room in await store_of(client).rooms(kind=RoomKind.TOGYZ)]

    return client.portal.call(listed)  # type: ignore[union-attr]


def session_rows(client: TestClient) -> list[dict[str, Any]]:
    from sqlalchemy import select

    from toreshi.store.schema import sessions

    async def rows() -> list[dict[str, Any]]:
        async with store_of(client).engine.connect() as connection:
            found = (await connection.execute(select(sessions.c.data))).scalars().all()
        return [dict(row) for row in found]

    return client.portal.call(rows)  # type: ignore[union-attr]


def welcome_of(client: TestClient, room: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/rooms/{room}") as socket:
        socket.send_json({"t": "hello", "v": 0, "token": token})
        welcome: dict[str, Any] = receive_until(socket, "welcome")
        return welcome


def test_links_are_shown_again_from_another_browser_and_never_kept_in_the_session(
    client: TestClient, arbiter: str
) -> None:
    games = [create_game(client, arbiter, white=f"Ақ {n}", black=f"Қара {n}") for n in range(30)]
    # Sessions hold no links: thirty games later the arbiter's session is as small as after one.
    assert all(not any(key.startswith("tokens:") for key in data) for data in session_rows(client))
    assert max(len(json.dumps(data)) for data in session_rows(client)) < 300
    with TestClient(client.app, base_url="http://testserver") as other:
        other.portal = client.portal
        page = other.get(f"/games/{games[0]['id']}/links", follow_redirects=False)
        assert page.status_code == 303  # links are the arbiter's
        sign_in(other)
        for number in (0, len(games) - 1):
            game = games[number]
            shown = other.get(f"/games/{game['id']}/links?lang=en").text
            for role in ("white", "black"):
                assert f'href="{game["links"][role]}"' in shown
            assert shown.count("<svg") == 3 and f"Ақ {number}" in shown and f"Қара {number}" in shown
            api = other.get(f"/api/games/{game['id']}/links").json()
            assert api["white"] == {"name": f"Ақ {number}", "url": game["links"]["white"], "generation": 0}
            assert api["black"]["url"] == game["links"]["black"] and api["board"] is None


def test_the_links_page_names_the_players_and_the_board(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter, white="Асқар", black="Бекзат", event="Кубок", round="2", board=7)
    page = client.get(f"/games/{game['id']}/links?lang=kk").text
    assert "Асқар" in page and "Бекзат" in page and "Тақта 7 · Тур 2" in page and "Кубок" in page
    api = client.get(f"/api/games/{game['id']}/links").json()
    assert api["board"] == 7 and api["white"]["name"] == "Асқар"
    assert client.get("/api/games/g-000000000000/links").status_code == 404


def test_a_reissued_link_stops_working_at_once_even_for_its_open_socket(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    room, old = game["id"], game["tokens"]["white"]
    with client.websocket_connect(f"/ws/rooms/{room}?lang=ru") as player:
        player.send_json({"t": "hello", "v": 0, "token": old})
        assert receive_until(player, "welcome")["role"] == "white"
        answer = client.post(f"/api/games/{room}/links/white", headers={"x-csrf-token": arbiter})
        assert answer.status_code == 200, answer.text
        reissued = answer.json()
        assert reissued["generation"] == 1 and reissued["token"] != old and reissued["name"] == "Абай"
        revoked = receive_until(player, "error")
        assert revoked["code"] == "link_revoked"
        assert revoked["message"] == "Эта ссылка больше не открывает партию: судья выдал новую."
    gone = welcome_of(client, room, old)
    assert gone["role"] != "white" and gone["link"] == "refused"
    assert welcome_of(client, room, reissued["token"])["role"] == "white"
    assert welcome_of(client, room, game["tokens"]["black"])["role"] == "black"  # the other link is untouched
    links = client.get(f"/games/{room}/links").text
    assert reissued["url"] in links and old not in links


def test_the_console_form_reissues_a_link(client: TestClient, arbiter: str) -> None:
    game = create_game(client, arbiter)
    room = game["id"]
    page = client.get(f"/games/{room}?lang=en").text
    assert f'action="/games/{room}/links/black/reissue"' in page and "data-confirm=" in page
    forged = client.post(f"/games/{room}/links/black/reissue", data={"csrf": "forged"}, follow_redirects=False)
    assert forged.status_code == 303 and welcome_of(client, room, game["tokens"]["black"])["role"] == "black"
    done = client.post(f"/games/{room}/links/black/reissue", data={"csrf": arbiter}, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == f"/games/{room}/links?reissued=black#link-black"
    assert welcome_of(client, room, game["tokens"]["black"]).get("link") == "refused"
    shown = client.get(done.headers["location"]).text
    assert "A new link was issued" in shown
    token = re.search(rf'href="http://testserver/games/{room}\?token=([\w-]+)"', shown.split('id="link-black"')[1])
    assert token is not None and welcome_of(client, room, token.group(1))["role"] == "black"
    wrong = client.post(f"/api/games/{room}/links/arbiter", headers={"x-csrf-token": arbiter})
    assert wrong.status_code == 404
    assert client.post(f"/api/games/{room}/links/white").status_code == 403  # no CSRF header


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"white": "Абай", "black": "абай"}, "same_names"),
        ({"white": "A" * 300, "black": "B"}, "field_too_long"),
        ({"white": "A\u0000", "black": "B"}, "field_control_characters"),
        ({"white": "A", "black": "B", "control": {"periods": []}}, "time_control_without_period"),
        ({"white": "A", "black": "B", "settings": {"flag": "claim"}}, "unknown_setting"),
    ],
)
def test_a_refused_game_leaves_no_room_behind(
    client: TestClient, arbiter: str, body: dict[str, Any], code: str
) -> None:
    before = togyz_rooms(client)
    answer = client.post("/api/games", json={"control": "blitz", **body}, headers={"x-csrf-token": arbiter})
    assert answer.status_code == 400 and answer.json()["code"] == code
    assert togyz_rooms(client) == before


def test_a_refused_form_leaves_no_room_behind(client: TestClient, arbiter: str) -> None:
    before = togyz_rooms(client)
    form = {"white": "Абай", "black": "Абай", "control": "blitz", "csrf": session_csrf(client)}
    page = client.post("/games/new?lang=ru", data=form, follow_redirects=False)
    assert page.status_code == 200 and "Оба игрока записаны как Абай" in page.text
    long = client.post("/games/new?lang=en", data={**form, "black": "B" * 300}, follow_redirects=False)
    assert "Black: at most 80 characters." in long.text and "enter both" not in long.text.lower()
    assert togyz_rooms(client) == before


def test_a_creation_that_fails_after_the_room_was_made_removes_it(
    client: TestClient, arbiter: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = togyz_rooms(client)

    async def refusing_get(self: Rooms, room_id: str, kind: str) -> Any:
        raise Refused(Common.MOVED)  # the room's owner could not be reached (or the store refused the event)

    monkeypatch.setattr(Rooms, "get", refusing_get)
    answer = client.post("/api/games", json={"white": "A", "black": "B"}, headers={"x-csrf-token": arbiter})
    assert answer.status_code == 400 and answer.json()["code"] == "moved"
    monkeypatch.undo()
    assert togyz_rooms(client) == before


def test_setup_keeps_the_typed_name_after_a_password_mismatch(tmp_path: Any) -> None:
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "en"}) as web:
        token = csrf_in(web.get("/setup").text)
        form = {"name": "Төреші Асан", "password": "tuzdyk-82!", "confirm": "tuzdyk-83!", "csrf": token}
        page = web.post("/setup", data=form, follow_redirects=False)
        assert page.status_code == 200 and "passwords differ" in page.text
        assert 'value="Төреші Асан"' in page.text
        assert "tuzdyk-82!" not in page.text  # the passwords are typed again, never sent back
