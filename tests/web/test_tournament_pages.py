"""The tournament pages in the real app: create, participants and CSV import, pair/override/publish, results,
standings with a print view, exports, protests, the audit log; and who may do what."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.tournament.trf import parse_trf
from toreshi.web.app import create_app
from toreshi.web.settings import Settings

from .helpers import csrf_in

TOURNAMENT = re.compile(r"^/tournaments/(t-[0-9a-f]+)$")


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "en"}) as client:
        yield client


def sign_in(client: TestClient) -> str:
    token = csrf_in(client.get("/setup").text)
    form = {"name": "Chief", "password": "tuzdyk-82!", "confirm": "tuzdyk-82!", "csrf": token}
    assert client.post("/setup", data=form, follow_redirects=False).status_code == 303
    return csrf_in(client.get("/tournaments/new").text)


def post(client: TestClient, url: str, csrf: str, **form: Any) -> str:
    """Post a form and follow the redirect; returns the page it lands on."""
    response = client.post(url, data={**form, "csrf": csrf}, follow_redirects=True)
    assert response.status_code == 200, response.text
    return html.unescape(response.text)


def create(client: TestClient, csrf: str, **values: Any) -> str:
    form = {"name": "Club Cup", "system": "round_robin", "rounds": "", "time_control": "rapid", "fee": "1000",
            "currency": "KZT", **values, "csrf": csrf}  # fmt: skip
    response = client.post("/tournaments/new", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    found = TOURNAMENT.match(response.headers["location"])
    assert found is not None
    return found.group(1)


def test_visitors_read_but_only_a_signed_in_arbiter_changes(web: TestClient) -> None:
    assert "No tournaments yet." in web.get("/tournaments").text
    response = web.get("/tournaments/new", follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    csrf = sign_in(web)
    tid = create(web, csrf)
    web.post("/logout", data={"csrf": csrf})
    page = web.get(f"/tournaments/{tid}").text
    assert "Club Cup" in page and "Add a participant" not in page
    response = web.post(f"/tournaments/{tid}/do/add-participant", data={"name": "Intruder"}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    assert web.get("/tournaments/t-000000000000").status_code == 404
    assert web.get(f"/tournaments/{tid}/rounds/1").status_code == 404


def test_a_bad_form_token_changes_nothing(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf)
    page = post(web, f"/tournaments/{tid}/do/add-participant", "wrong", name="Abay")
    assert "The form has expired" in page
    assert "Abay" not in web.get(f"/tournaments/{tid}").text


def test_creation_refuses_bad_settings_with_the_reason(web: TestClient) -> None:
    csrf = sign_in(web)
    response = web.post("/tournaments/new", data={"name": "Swiss", "system": "swiss_dutch", "rounds": "0",
                                                  "csrf": csrf})  # fmt: skip
    assert response.status_code == 200 and "a Swiss needs its number of rounds" in html.unescape(response.text)
    response = web.post("/tournaments/new", data={"name": "Swiss", "system": "swiss_dutch", "rounds": "5",
                                                  "tiebreaks": "BH, NOPE", "csrf": csrf})  # fmt: skip
    assert "unknown tie-break" in html.unescape(response.text).lower()


def test_a_round_robin_from_import_to_crosstable_and_exports(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, tiebreaks="DE, SB", venue="Almaty")
    page = post(web, f"/tournaments/{tid}/do/import", csrf, csv="name,rating,club\nAbay,1500,A\nBolat,x,B\n,1,C\n")
    assert "The CSV was not imported; nothing changed." in page
    assert "line 3: 'rating' must be a whole number" in page and "line 4: 'name' is required" in page
    files = {"file": ("players.csv", b"name,rating,club\nAbay,1500,A\nBolat,1400,B\nDana,1300,C\n")}
    response = web.post(f"/tournaments/{tid}/do/import", data={"csrf": csrf}, files=files)
    assert response.status_code == 200
    page = post(web, f"/tournaments/{tid}/do/add-participant", csrf, name="Erlan", rating="1200")
    assert all(name in page for name in ("Abay", "Bolat", "Dana", "Erlan"))
    page = post(web, f"/tournaments/{tid}/do/edit-participant", csrf, number="4", name="Erlan Uly", rating="1250")
    assert "Erlan Uly" in page
    # Pair, try a wrong override, override with a reason, publish.
    page = post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert "Round 1 — not published" in page and "Paired by the Berger tables." in page
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="1 4\n", reason="test")
    assert "not paired [2, 3]" in page
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="4 1\nx y\n", reason="test")
    assert "Line 2: write two pairing numbers" in page
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="4-1\n3 2\n", reason="colours swapped")
    assert "Changed by the arbiter" in page
    page = post(web, f"/tournaments/{tid}/do/publish", csrf)
    assert "Published" in page and "4. Erlan Uly" in page
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="0-1", kazan_white="40",
         kazan_black="90")  # fmt: skip
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="½-½")
    assert "40:90" in page
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    assert "'reason' is required" in page  # a correction needs its reason
    for number in (2, 3):
        post(web, f"/tournaments/{tid}/do/pair", csrf)
        page = post(web, f"/tournaments/{tid}/do/publish", csrf)
        for board in (1, 2):
            page = post(web, f"/tournaments/{tid}/do/result", csrf, round=str(number), board=str(board), result="1-0")
    standings = html.unescape(web.get(f"/tournaments/{tid}/standings").text)
    assert "Crosstable" in standings and "×" in standings
    printed = web.get(f"/tournaments/{tid}/standings?print=1")
    assert printed.headers["content-type"].startswith("text/html") and "@media print" in printed.text
    trf = web.get(f"/tournaments/{tid}/export.trf")
    assert trf.headers["content-disposition"].endswith('.trf"')
    parsed = parse_trf(trf.text)
    assert parsed.name == "Club Cup" and len(parsed.players) == 4 and parsed.played_rounds == 3
    csv = web.get(f"/tournaments/{tid}/export.csv")
    assert csv.headers["content-type"].startswith("text/csv") and csv.text.startswith("Rank,No,Name")
    assert web.get(f"/tournaments/{tid}/export.pdf").status_code == 404
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert "pairing_overridden" in audit and "colours swapped" in audit and "Chief" in audit


def test_a_swiss_with_live_games_protests_and_warnings(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3", time_control="blitz")
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A", coaches="Coach A")
    for name, rating in (("Abay", "1500"), ("Bolat", "1700"), ("Dana", "1600"), ("Erlan", "1400")):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name, rating=rating, team="Almaty")
    page = post(web, f"/tournaments/{tid}/do/seed", csrf)
    assert page.index("Bolat") < page.index("Dana") < page.index("Abay")
    page = post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert "Paired by the FIDE Dutch system." in page
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    response = web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    page = html.unescape(response.text)
    assert "Game rooms created: 2." in page and page.count("?token=") == 4
    room = re.search(r'href="/games/(g-[0-9a-f]+)"', page)
    assert room is not None and web.get(f"/games/{room.group(1)}").status_code == 200
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="+ −")
    page = post(web, f"/tournaments/{tid}/do/file-protest", csrf, round="1", board="2", filed_by="Rep A",
                role="representative", text="The opponent was present.", fee_paid="1000", currency="KZT")  # fmt: skip
    assert "P1: round 1, board 2 — Accepted" in page
    page = post(web, f"/tournaments/{tid}/do/convene", csrf, id="P1", board="A", committee="C")
    assert "Under consideration" in page
    page = post(web, f"/tournaments/{tid}/do/decide", csrf, id="P1", upheld="yes", members="A", reasons="Present.",
                corrected_result="½-½")  # fmt: skip
    assert "Upheld" in page and "result corrected to ½-½" in page
    page = post(web, f"/tournaments/{tid}/do/notify", csrf, id="P1", recipient="Rep A")
    assert "Decision notified" in page
    round_page = html.unescape(web.get(f"/tournaments/{tid}/rounds/1").text)
    assert "(protest P1)" in round_page
    page = post(web, f"/tournaments/{tid}/do/warn", csrf, number="1", round="1", reason="phone rang")
    assert "warning_issued" in page and "phone rang" in page
    page = post(web, f"/tournaments/{tid}/do/bye", csrf, number="2", round="2", code="H")
    assert "Done." in page
    page = post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert "Round 2 — not published" in page
    settings = web.get(f"/tournaments/{tid}/settings").text
    page = post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup 2026", fee="2000",
                tiebreaks="BH/C1, BH")  # fmt: skip
    assert "Club Cup 2026" in page and "BH/C1" in page and "Settings" in settings
    assert "Club Cup 2026" in web.get("/tournaments").text


def test_the_pages_speak_kazakh_and_russian_too(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf)
    for language in ("kk", "ru"):
        page = web.get(f"/tournaments/{tid}?lang={language}")
        assert page.status_code == 200 and f'lang="{language}"' in page.text


def test_a_team_files_its_protest_through_its_secret_link(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A")
    page = post(web, f"/tournaments/{tid}/do/import", csrf, csv="name,team\nAbay,Almaty\nBolat,Nowhere\n")
    assert "line 3: Bolat: unknown team 'Nowhere'" in page
    assert 'aria-current="page">Club Cup</a>' in page  # the tournament's own menu marks where we are
    for name in ("Abay", "Bolat"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name, team="Almaty")
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    page = html.unescape(web.post(f"/tournaments/{tid}/team-link", data={"csrf": csrf, "team": "Almaty"}).text)
    found = re.search(r'href="http://testserver(/tournaments/t-[0-9a-f]+/protest\?token=[^"]+)"', page)
    assert found is not None and "<svg" in page
    link = found.group(1)
    web.post("/logout", data={"csrf": csrf})
    assert web.get(f"/tournaments/{tid}/protest?token=forged").status_code == 404
    team_page = web.get(link).text
    assert "File a protest" in team_page and "Rep A" in team_page
    token = link.split("token=")[1]
    page = post(web, f"/tournaments/{tid}/protest", csrf_in(team_page), token=token, round="1", board="1",
                filed_by="Rep A", role="representative", text="The clock was set wrongly.")  # fmt: skip
    assert "The protest was received." in page and "P1: round 1, board 1 — Awaiting the fee" in page
    page = post(web, f"/tournaments/{tid}/protest", csrf_in(page), token=token, round="1", board="1",
                filed_by="Somebody", role="representative", text="x")  # fmt: skip
    assert "only a representative or coach of Almaty" in page
    assert "The clock was set wrongly." in web.get(f"/tournaments/{tid}/protests").text
