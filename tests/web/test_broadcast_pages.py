"""The broadcast view of a round (issue 5 §2): every board of a published round, its live room or its result."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from starlette.testclient import TestClient

from toreshi.togyz.position import Termination

from .helpers import post

PLAYERS = ["Abay", "Bolat", "Dana", "Erlan", "Aigerim", "Timur"]
ARTICLE = re.compile(r'<article class="live-board[^"]*" data-board="(\d+)"(?: data-room="(g-[0-9a-f]+)")?')


def paired_round_with_live_games(client: TestClient, csrf: str) -> tuple[str, dict[int, str]]:
    """A round robin of six, round 1 published, board 3's result entered, live rooms for boards 1 and 2."""
    client.headers["accept-language"] = "en"
    form = {"name": "Club Cup", "system": "round_robin", "rounds": "", "time_control": "blitz", "fee": "0",
            "currency": "KZT", "csrf": csrf}  # fmt: skip
    response = client.post("/tournaments/new", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    tid = response.headers["location"].rsplit("/", 1)[-1]
    for name in PLAYERS:
        post(client, f"/tournaments/{tid}/do/add-participant", csrf, name=name)
    post(client, f"/tournaments/{tid}/do/pair", csrf)
    post(client, f"/tournaments/{tid}/do/publish", csrf)
    post(client, f"/tournaments/{tid}/do/result", csrf, round="1", board="3", result="1-0",
         kazan_white="82", kazan_black="41")  # fmt: skip
    page = post(client, f"/tournaments/{tid}/rounds/1/games", csrf, control="blitz")
    assert "Game rooms created: 2." in page
    page = html.unescape(client.get(f"/tournaments/{tid}/rounds/1").text)
    rows = re.findall(r'<tr[^>]*><td class="num"[^>]*>(\d+)</td>(.*?)</tr>', page, re.S)
    rooms = {
        int(board): link.group(1) for board, row in rows if (link := re.search(r'href="/games/(g-[0-9a-f]+)"', row))
    }
    return tid, rooms


def test_every_board_of_the_round_with_its_room_or_its_result(client: TestClient, arbiter: str) -> None:
    tid, rooms = paired_round_with_live_games(client, arbiter)
    assert sorted(rooms) == [1, 2]
    client.post("/logout", data={"csrf": arbiter})  # a spectator's view: anyone may read it
    response = client.get(f"/tournaments/{tid}/rounds/1/live")
    assert response.status_code == 200
    page = html.unescape(response.text)
    boards = {int(board): room for board, room in ARTICLE.findall(page)}
    assert boards == {1: rooms[1], 2: rooms[2], 3: ""}
    for board, room in rooms.items():
        assert f'<a class="lb-link" href="/games/{room}">Open the game</a>' in page, board
    assert page.count('<script type="module" src="/static/js/broadcast.js">') == 1
    # Board 3 has no live room: its pairing and the result that was entered, with the kazans.
    board3 = page[page.index('data-board="3"') :]
    assert "No live game" not in board3  # it has a result, which is shown instead
    assert '<p class="lb-result">1-0 <small>(82:41)</small></p>' in board3
    # Round robin of six, round 1 (Berger): 1–6, 2–5, 3–4; every player's name is on the page.
    for number, name in enumerate(PLAYERS, start=1):
        assert f"{number}. {name}" in page
    assert page.index("1. Abay") < page.index('data-board="2"') < page.index("2. Bolat")
    assert '"last_move": "Last move"' in page and '"to_move": "to move"' in page


def test_the_broadcast_script_has_a_text_for_every_key_it_shows(client: TestClient, arbiter: str) -> None:
    """The broadcast and the board renderer it draws with find every text among the page's strings, in Kazakh."""
    tid, _rooms = paired_round_with_live_games(client, arbiter)
    static = Path(__file__).resolve().parents[2] / "src" / "toreshi" / "web" / "static" / "js"
    script = (static / "broadcast.js").read_text() + (static / "togyz-board.js").read_text()
    used = set(re.findall(r'(?<![\w.$])t\("(\w+)"', script)) | {"white", "black"}
    used |= {f"term_{termination.value}" for termination in Termination}
    page = client.get(f"/tournaments/{tid}/rounds/1/live?lang=kk").text
    found = re.search(r'<script type="application/json" id="broadcast-texts">(.*?)</script>', page, re.S)
    assert found is not None
    strings = json.loads(found.group(1))
    assert {"kazan", "tuzdyk", "no_moves", "to_move"} <= used
    assert sorted(used - strings.keys()) == []
    assert strings["kazan"] == "қазан" and strings["term_time_forfeit"] != "Flag fall"


def test_the_round_page_links_to_it_and_it_speaks_kazakh(client: TestClient, arbiter: str) -> None:
    tid, _rooms = paired_round_with_live_games(client, arbiter)
    round_page = client.get(f"/tournaments/{tid}/rounds/1").text
    assert f'href="/tournaments/{tid}/rounds/1/live">All boards live (broadcast view)</a>' in round_page
    page = client.get(f"/tournaments/{tid}/rounds/1/live?lang=kk").text
    assert "1-тур тікелей эфирде" in page and "Ойынды ашу" in page


def test_an_unknown_round_or_tournament_is_not_found(client: TestClient, arbiter: str) -> None:
    tid, _rooms = paired_round_with_live_games(client, arbiter)
    for url in (
        f"/tournaments/{tid}/rounds/2/live",
        f"/tournaments/{tid}/rounds/0/live",
        f"/tournaments/{tid}/rounds/one/live",
        "/tournaments/t-000000000000/rounds/1/live",
    ):
        assert client.get(url).status_code == 404, url
    post(client, f"/tournaments/{tid}/do/pair", arbiter)  # round 2 paired but not published: still not shown
    assert client.get(f"/tournaments/{tid}/rounds/2/live").status_code == 404
