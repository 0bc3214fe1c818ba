"""The tournament pages in the real app: create, participants and CSV import, pair/override/publish, results,
standings with a print view, exports, protests, the audit log; who may do what; reading never writes; the results
of live games pushed to the tournament; the pages in Kazakh and Russian."""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest
from starlette.testclient import TestClient

from toreshi.kit.refusal import Common, ParamValue, Refusal, RefusalCode
from toreshi.live.room import Actor, Command
from toreshi.services.tournament import TournamentService
from toreshi.texts import i18n, refusals
from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import ResultOrigin, ResultSource
from toreshi.tournament.model import GameResult
from toreshi.tournament.trf import parse_trf

from . import helpers
from .helpers import csrf_in, post

TOURNAMENT = re.compile(r"^/tournaments/(t-[0-9a-f]+)$")
T = TypeVar("T")


def said(code: RefusalCode, language: str = "en", /, **params: ParamValue) -> str:
    """What a page shows for the refusal ``code`` with ``params``, in ``language``."""
    i18n.activate(language)
    return refusals.render(Refusal(code, params))


def on_line(line: int, code: RefusalCode, /, **params: ParamValue) -> str:
    return f"Line {line}: {said(code, **params)}"


def call(client: TestClient, function: Callable[[], Awaitable[T]]) -> T:
    assert client.portal is not None
    return client.portal.call(function)


def tournaments(client: TestClient) -> TournamentService:
    service: TournamentService = client.app.state.services.tournaments  # type: ignore[attr-defined]
    return service


def sign_in(client: TestClient) -> str:
    """The chief arbiter signs in (their password set the first time); returns the session's token."""
    return helpers.sign_in(client, "Chief", "tuzdyk-82!")


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
    assert response.status_code == 200 and said(TournamentCode.SWISS_NEEDS_ROUNDS) in html.unescape(response.text)
    response = web.post("/tournaments/new", data={"name": "Swiss", "system": "swiss_dutch", "rounds": "5",
                                                  "tiebreaks": "BH, NOPE", "csrf": csrf})  # fmt: skip
    assert said(TournamentCode.UNKNOWN_TIEBREAK, tiebreak="NOPE") in html.unescape(response.text)
    response = web.post("/tournaments/new", data={"name": "Swiss", "system": "swiss_dutch", "rounds": "five",
                                                  "csrf": csrf})  # fmt: skip
    assert said(Common.FIELD_NOT_INTEGER, field="rounds") in html.unescape(response.text)
    assert call(web, lambda: tournaments(web).tournaments()) == []  # nothing was created


def test_a_round_robin_from_import_to_crosstable_and_exports(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, tiebreaks="DE, SB", venue="Almaty")
    page = post(web, f"/tournaments/{tid}/do/import", csrf, csv="name,rating,club\nAbay,1500,A\nBolat,x,B\n,1,C\n")
    assert said(TournamentCode.CSV_NOT_IMPORTED, problems=2) in page
    assert on_line(3, Common.FIELD_NOT_INTEGER, field="rating") in page
    assert on_line(4, Common.FIELD_REQUIRED, field="name") in page
    files = {"file": ("players.csv", b"name,rating,club\r\nAbay,1500,A\r\nBolat,1400,B\r\nDana,1300,C\r\n")}
    response = web.post(f"/tournaments/{tid}/do/import", data={"csrf": csrf}, files=files)
    assert response.status_code == 200
    page = post(web, f"/tournaments/{tid}/do/import", csrf, file="")
    assert said(TournamentCode.CSV_NOT_IMPORTED) in page  # no CSV at all: a refusal, not a server error
    page = post(web, f"/tournaments/{tid}/do/add-participant", csrf, name="Erlan", rating="1200")
    assert all(name in page for name in ("Abay", "Bolat", "Dana", "Erlan"))
    page = post(web, f"/tournaments/{tid}/do/edit-participant", csrf, number="4", name="Erlan Uly", rating="1250")
    assert "Erlan Uly" in page
    # Pair, try a wrong override, override with a reason, publish.
    page = post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert "Round 1 — not published" in page and "Paired by the Berger tables." in page
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="1 4\n", reason="test")
    assert said(TournamentCode.NOT_PAIRED, round=1, players="2. Bolat, 3. Dana") in page
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="4 1\nx y\n", reason="test")
    assert said(TournamentCode.PAIRS_LINE, line=2) in page
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="4-1\n3 2\n", reason="colours swapped")
    assert "Warning level: warning" in page  # a departure: confirmed, with the reason (issue 29)
    override_form = re.sub(r"<[^>]+>", "", html.unescape(web.get(f"/tournaments/{tid}/rounds/1").text))
    assert ("Warning level: warning — the system's pairing changed by hand; serious — the bye given to another player "
            "than the system's pairing") in override_form  # the override form says how serious  # fmt: skip
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="4-1\n3 2\n", reason="colours swapped",
                confirmed="yes")  # fmt: skip
    assert "Changed by the arbiter" in page
    page = post(web, f"/tournaments/{tid}/do/publish", csrf)
    assert "Published" in page and "4. Erlan Uly" in page
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="0-1", kazan_white="40",
         kazan_black="90")  # fmt: skip
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="½-½")
    assert "40:90" in page
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    assert said(TournamentCode.DEPARTURE_UNCONFIRMED, term="departure.result_corrected") in page  # and its reason
    assert 'textarea name="reason"' in page  # the warning page asks for it, the form's fields kept
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0", kazan_white="3")
    assert said(Common.FIELD_REQUIRED, field="kazan_black") in page
    for number in (2, 3):
        post(web, f"/tournaments/{tid}/do/pair", csrf)
        page = post(web, f"/tournaments/{tid}/do/publish", csrf)
        for board in (1, 2):
            page = post(web, f"/tournaments/{tid}/do/result", csrf, round=str(number), board=str(board), result="1-0")
    standings = html.unescape(web.get(f"/tournaments/{tid}/standings").text)
    assert "Crosstable" in standings and "×" in standings
    assert "<dt>DE</dt><dd>Direct encounter</dd>" in standings and "<dt>SB</dt><dd>Sonneborn–Berger</dd>" in standings
    printed = web.get(f"/tournaments/{tid}/standings?print=1")
    assert printed.headers["content-type"].startswith("text/html") and "crosstable-print.css" in printed.text
    assert '<html lang="en">' in printed.text and "Direct encounter" in printed.text
    trf = web.get(f"/tournaments/{tid}/export.trf")
    assert trf.headers["content-disposition"].endswith('.trf"')
    parsed = parse_trf(trf.text)
    assert parsed.name == "Club Cup" and len(parsed.players) == 4 and parsed.played_rounds == 3
    exported = web.get(f"/tournaments/{tid}/export.csv")
    assert helpers.csv_text(exported).startswith("Rank,No,Name")
    assert web.get(f"/tournaments/{tid}/export.pdf").status_code == 404
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert "Pairing overridden" in audit and "reason: colours swapped" in audit and "Chief" in audit
    assert "Round 1, board 1: 1-0" not in audit  # the refused correction left no line


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
    assert "Game rooms created: 2." in page and len(set(re.findall(r'href="([^"]+\?token=[^"]+)"', page))) == 4
    room = re.search(r'href="/games/(g-[0-9a-f]+)/links"', page)
    assert room is not None and web.get(f"/games/{room.group(1)}").status_code == 200
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="+ −",
                confirmed="yes", reason="did not come")  # fmt: skip
    page = post(web, f"/tournaments/{tid}/do/file-protest", csrf, round="1", board="2", filed_by="Rep A",
                role="representative", text="The opponent was present.", fee_paid="1000", currency="KZT")  # fmt: skip
    assert "P1: round 1, board 2 — Accepted" in page
    assert "By the regulation: Accepted: the fee of 1,000 KZT is paid" in page
    page = post(web, f"/tournaments/{tid}/do/convene", csrf, id="P1", board="A", committee="C")
    assert "Under consideration" in page
    page = post(web, f"/tournaments/{tid}/do/decide", csrf, id="P1", upheld="yes", members="A", reasons="Present.",
                corrected_result="½-½")  # fmt: skip
    assert "Upheld" in page and "result corrected to ½-½" in page
    page = post(web, f"/tournaments/{tid}/do/notify", csrf, id="P1", recipient="Rep A")
    assert "Decision notified" in page and "Chief arbiters' board: The decision was told to Rep A" in page
    round_page = html.unescape(web.get(f"/tournaments/{tid}/rounds/1").text)
    assert "(protest P1)" in round_page
    page = post(web, f"/tournaments/{tid}/do/warn", csrf, number="1", round="1", reason="phone rang")
    assert "Warning or penalty" in page and "phone rang" in page
    page = post(web, f"/tournaments/{tid}/do/bye", csrf, number="2", round="2", code="H")
    assert "Done." in page
    page = post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert "Round 2 — not published" in page
    settings = web.get(f"/tournaments/{tid}/settings").text
    page = post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup 2026", fee="2000",
                tiebreaks="BH/C1, BH")  # fmt: skip
    assert "Club Cup 2026" in page and "BH/C1" in page and "Settings" in settings
    assert "Club Cup 2026" in web.get("/tournaments").text
    page = post(web, f"/tournaments/{tid}/do/configure", csrf, tiebreaks="BH, XYZ")
    assert said(TournamentCode.UNKNOWN_TIEBREAK, tiebreak="XYZ") in page


def test_the_pages_speak_kazakh_and_russian_too(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, tiebreaks="DE, SB")
    for language in ("kk", "ru"):
        page = web.get(f"/tournaments/{tid}?lang={language}")
        assert page.status_code == 200 and f'lang="{language}"' in page.text
    # The reader's language: a refused import, line by line; the print view's lang; the CSV export's headers.
    refused = post(web, f"/tournaments/{tid}/do/import?lang=ru", csrf, csv="name,rating\nAbay,strong\n")
    assert said(TournamentCode.CSV_NOT_IMPORTED, "ru", problems=1) in refused
    assert f"Строка 2: {said(Common.FIELD_NOT_INTEGER, 'ru', field='rating')}" in refused
    assert "Рейтинг: введите целое число." in refused
    for name in ("Абай", "Болат"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name)
    printed = web.get(f"/tournaments/{tid}/standings?print=1&lang=kk").text
    assert '<html lang="kk">' in printed and "Орын" in printed and "Rank" not in printed
    exported = web.get(f"/tournaments/{tid}/export.csv?lang=ru")
    assert helpers.csv_rows(exported)[0][:3] == ["Место", "№", "Имя"]


def test_a_team_files_its_protest_through_its_secret_link(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A")
    page = post(web, f"/tournaments/{tid}/do/import", csrf, csv="name,team\nAbay,Almaty\nBolat,Astana\n")
    assert "<strong>Astana</strong>" in page  # the CSV's team column created the team it named
    assert 'aria-current="page">Club Cup</a>' in page  # the tournament's own menu marks where we are
    for name in ("Abay", "Bolat"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name, team="Almaty")
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    page = post(web, f"/tournaments/{tid}/team-link", csrf, team="Nowhere")
    assert said(TournamentCode.UNKNOWN_TEAM, team="Nowhere") in page
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
    assert said(Common.FORBIDDEN, command="file_protest", role="team") in page
    assert said(TournamentCode.NOT_TEAM_PERSON, person="Somebody", team="Almaty") in page
    assert "The clock was set wrongly." in web.get(f"/tournaments/{tid}/protests").text


def live_round(web: TestClient, csrf: str) -> tuple[str, list[str]]:
    """A Swiss of four with round 1 published and its two game rooms made; the rooms' ids by board."""
    tid = create(web, csrf, system="swiss_dutch", rounds="3", time_control="blitz")
    for name in ("Abay", "Bolat", "Dana", "Erlan"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    state = call(web, lambda: tournaments(web).state(tid))
    rooms = [state.room_of(1, board) for board in (1, 2)]
    assert all(rooms)
    return tid, [room for room in rooms if room is not None]


def resign_white(web: TestClient, room_id: str) -> None:
    """White resigns in the game room, as the players' pages would do it over the socket."""

    async def play() -> None:
        owner = await web.app.state.services.rooms.get(room_id, "togyz")  # type: ignore[attr-defined]
        await owner.handle(Command("start", Actor("arbiter", "Chief")))
        await owner.handle(Command("resign", Actor("white", "")))

    call(web, play)


def test_a_finished_game_reaches_the_standings_without_any_page_visit(web: TestClient) -> None:
    csrf = sign_in(web)
    tid, rooms = live_round(web, csrf)
    service = tournaments(web)
    version = call(web, lambda: web.app.state.services.store.room(tid)).version  # type: ignore[attr-defined]
    resign_white(web, rooms[0])
    call(web, service.settled)  # the push runs in the background, started by the game room's owner
    state = call(web, lambda: service.state(tid))
    game = state.t.round(1).game(1)
    assert game.result is GameResult.BLACK_WINS and game.ended_at is not None
    assert state.origin(1, 1) == ResultOrigin(ResultSource.LIVE)
    assert call(web, lambda: web.app.state.services.store.room(tid)).version == version + 1  # type: ignore[attr-defined]
    standings = html.unescape(web.get(f"/tournaments/{tid}/standings").text)
    assert f"<td>{game.white}b1</td>" in standings  # Black's round 1 in the crosstable: a win against White
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert "live game" in audit and "from the game room" in audit


def test_no_page_writes_when_it_is_read(web: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """GET every tournament page while a finished game's result has not reached the tournament (its push failed):
    nothing in the store changes; the arbiter's button, or the background reconciliation, brings the result."""
    csrf = sign_in(web)
    tid, rooms = live_round(web, csrf)
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A")
    page = html.unescape(web.post(f"/tournaments/{tid}/team-link", data={"csrf": csrf, "team": "Almaty"}).text)
    link = re.search(r'href="http://testserver(/tournaments/t-[0-9a-f]+/protest\?token=[^"]+)"', page)
    assert link is not None
    service = tournaments(web)

    async def lost(room_id: str) -> bool:
        return False  # the instance that owned the game died before the push

    monkeypatch.setattr(service, "push_result", lost)
    resign_white(web, rooms[0])
    call(web, service.settled)
    store = web.app.state.services.store  # type: ignore[attr-defined]

    async def versions() -> dict[str, int]:
        return {room.id: room.version for room in await store.rooms()}

    before = call(web, versions)
    pages = ["/tournaments", f"/tournaments/{tid}", f"/tournaments/{tid}/settings", f"/tournaments/{tid}/rounds/1",
             f"/tournaments/{tid}/standings", f"/tournaments/{tid}/standings?print=1", f"/tournaments/{tid}/protests",
             f"/tournaments/{tid}/audit", f"/tournaments/{tid}/export.csv", f"/tournaments/{tid}/export.trf",
             f"/tournaments/{tid}/export.trf26", f"/tournaments/{tid}/rounds/1/live", link.group(1)]  # fmt: skip
    for url in pages:
        assert web.get(url).status_code == 200, url
    web.post("/logout", data={"csrf": csrf})
    for url in pages:
        assert web.get(url).status_code == 200, url
    assert call(web, versions) == before
    assert call(web, lambda: service.state(tid)).t.round(1).game(1).result is None
    csrf = sign_in(web)
    page = post(web, f"/tournaments/{tid}/collect", csrf, back=f"/tournaments/{tid}/rounds/1")
    assert "Results collected from live games: 1." in page
    assert call(web, lambda: service.state(tid)).t.round(1).game(1).result is GameResult.BLACK_WINS
