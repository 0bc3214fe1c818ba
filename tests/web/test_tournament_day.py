"""The tournament side of the arbiter's day (issue 16) and names that try to inject into exports (issue 13 §3):
the round's player links shown again on one printed sheet from any browser; the defects an arbiter hit (a refused
pairing, a protest's first word, the statuses of a round's games, teams from the CSV, a coach filing "as
representative", a meeting of nobody, kazans against the result); the printed crosstable and the TRF header as a
federation files them; clause numbers only on the arbiter's pages; control characters refused at every edge and
formula prefixes neutralised in CSV, with hostile names round-tripped through every export."""

from __future__ import annotations

import csv
import html
import io
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from toreshi.kit.refusal import Common
from toreshi.togyz.pgn import read_game
from toreshi.tournament.codes import ProtestCode, TournamentCode
from toreshi.tournament.trf import parse_trf

from .helpers import csrf_in, csv_rows, post
from .test_tournament_pages import call, create, said, sign_in, tournaments

ALERT = re.compile(r'role="alert"><p>(.*?)</p>', re.S)
NOTICE = re.compile(r'role="status">(.*?)</p>', re.S)


def alert(page: str) -> str:
    found = ALERT.search(page)
    return html.unescape(found.group(1)) if found else ""


def notice(page: str) -> str:
    found = NOTICE.search(page)
    return html.unescape(found.group(1)) if found else ""


def swiss(web: TestClient, csrf: str, players: int = 4, **values: Any) -> str:
    tid = create(web, csrf, system="swiss_dutch", rounds="3", time_control="blitz", **values)
    names = ["Abay", "Bolat", "Dana", "Erlan", "Farida", "Gani"][:players]
    post(web, f"/tournaments/{tid}/do/import", csrf, csv="name,rating\n" + "\n".join(
        f"{name},{1800 - 10 * i}" for i, name in enumerate(names)))  # fmt: skip
    return tid


def publish(web: TestClient, csrf: str, tid: str) -> None:
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)


def with_a_team(web: TestClient, **team: str) -> tuple[str, str]:
    """Signed in: a Swiss of four with the team Almaty (representative Rep A), round 1 published, board 1 won by
    White; returns the form token and the tournament."""
    csrf = sign_in(web)
    tid = swiss(web, csrf)
    post(web, f"/tournaments/{tid}/do/add-team", csrf, name="Almaty", representatives="Rep A", **team)
    publish(web, csrf, tid)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    return csrf, tid


def protest(web: TestClient, csrf: str, tid: str, query: str = "", **fields: str) -> str:
    """A protest on round 1's board 1 filed at the arbiter's desk; the page it leads to."""
    return post(web, f"/tournaments/{tid}/do/file-protest{query}", csrf, round="1", board="1", **fields)


# --- 1. the round's player links ------------------------------------------------------------------------------


def links_on(page: str) -> set[str]:
    return set(re.findall(r'href="(http://testserver/games/g-[0-9a-f]+\?token=[^"]+)"', page))


def test_the_round_sheet_shows_every_players_link_again_from_another_browser(web: TestClient, tmp_path: Path) -> None:
    csrf = sign_in(web)
    tid = swiss(web, csrf)
    publish(web, csrf, tid)
    response = web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    sheet = html.unescape(response.text)
    assert str(response.url).endswith(f"/tournaments/{tid}/rounds/1/links")
    first = links_on(sheet)
    assert len(first) == 4 and sheet.count("<svg") >= 4  # both players of both boards, each with a QR code
    assert "Board 1: " in sheet and "Board 2: " in sheet
    state = call(web, lambda: tournaments(web).state(tid))
    for game in state.t.round(1).games:
        white, black = state.t.participant(game.white).name, state.t.participant(game.black).name
        assert f"Board {game.board}: {white} – {black}" in sheet
    # Nothing of the links is in the session: a second browser, signed in afresh, prints the same sheet.
    assert all(link.split("token=")[1] not in str(web.cookies.get("session", "")) for link in first)
    with TestClient(web.app, headers={"accept-language": "en"}) as second:
        assert second.get(f"/tournaments/{tid}/rounds/1/links", follow_redirects=False).status_code == 303
        sign_in(second)
        again = html.unescape(second.get(f"/tournaments/{tid}/rounds/1/links").text)
        assert links_on(again) == first
        assert second.get(next(iter(first))).status_code == 200  # a link on the sheet opens its game
    # The round's page points the arbiter to the sheet; a round without games says so; no such round is a 404.
    assert f"/tournaments/{tid}/rounds/1/links" in web.get(f"/tournaments/{tid}/rounds/1").text
    assert web.get(f"/tournaments/{tid}/rounds/2/links").status_code == 404


def test_reading_the_sheet_writes_nothing(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = swiss(web, csrf)
    publish(web, csrf, tid)
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    store = web.app.state.services.store  # type: ignore[attr-defined]

    async def versions() -> dict[str, int]:
        return {room.id: room.version for room in await store.rooms()}

    before = call(web, versions)
    for _ in range(2):
        assert web.get(f"/tournaments/{tid}/rounds/1/links").status_code == 200
    assert call(web, versions) == before


# --- 2. defects of issue 16 §1 --------------------------------------------------------------------------------


def test_pairing_round_one_without_players_is_a_translated_refusal_not_a_404(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="5")
    for language in ("en", "kk", "ru"):
        response = web.post(f"/tournaments/{tid}/do/pair?lang={language}", data={"csrf": csrf})
        assert response.status_code == 200 and str(response.url).endswith(f"/tournaments/{tid}")
        assert alert(response.text) == said(TournamentCode.TOO_FEW_TO_PAIR, language)
    rr = create(web, csrf, name="Empty RR")
    response = web.post(f"/tournaments/{rr}/do/pair?lang=en", data={"csrf": csrf})
    assert response.status_code == 200 and alert(response.text) == said(TournamentCode.ROUND_ROBIN_TOO_SMALL)


def test_a_protest_after_the_next_pairing_is_not_accepted_from_its_first_word(web: TestClient) -> None:
    csrf, tid = with_a_team(web)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="1-0")
    page = post(web, f"/tournaments/{tid}/team-link", csrf, team="Almaty")
    token = re.search(r"protest\?token=([^\"&]+)", page)
    assert token is not None
    publish(web, csrf, tid)  # round 2 is paired: round 1's games can no longer be protested (TK-P3)
    page = protest(web, csrf, tid, filed_by="Rep A", role="representative", text="Late.")
    assert notice(page) == ("The protest was received but not accepted: filed after the next round was paired "
                            "(TK-P3).")  # fmt: skip
    assert "Pay the fee" not in page
    # The team's own page says the same, without the clause number.
    web.post("/logout", data={"csrf": csrf})
    team_page = web.get(f"/tournaments/{tid}/protest?token={token.group(1)}&lang=ru").text
    page = post(web, f"/tournaments/{tid}/protest?lang=ru", csrf_in(team_page), token=token.group(1), round="1",
                board="2", filed_by="Rep A", role="representative", text="Поздно.")  # fmt: skip
    assert notice(page).startswith("Протест получен, но не принят") and "TK-" not in page
    assert "Оплатите" not in notice(page)


def test_a_protest_in_time_asks_for_the_fee_or_is_accepted(web: TestClient) -> None:
    csrf, tid = with_a_team(web)
    page = protest(web, csrf, tid, filed_by="Rep A", role="representative", text="Unpaid.")
    assert notice(page) == "The protest was received. Pay the fee to the chief arbiter."
    page = protest(web, csrf, tid, filed_by="Rep A", role="representative", text="Paid.", fee_paid="1000",
                   currency="KZT")  # fmt: skip
    assert notice(page).startswith("The protest was received and accepted")


def test_a_rounds_games_show_their_true_status_on_the_games_list(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = swiss(web, csrf)
    publish(web, csrf, tid)
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    listed = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(web.get("/").text)))
    assert "Live" not in listed.replace("Live ", "", 1)  # the filter's own button is the only "Live"
    assert "1 – 0 Result entered by the arbiter Club Cup · Round 1 · Board 1" in listed
    assert "Not started Club Cup · Round 1 · Board 2" in listed


def test_the_csv_team_column_creates_the_teams_and_their_representatives_file_protests(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    page = post(web, f"/tournaments/{tid}/do/import", csrf,
                csv="name,team\nAbay,Almaty\nBolat,Astana\nDana,Almaty\nErlan,Astana\n")  # fmt: skip
    assert "<strong>Almaty</strong>" in page and "<strong>Astana</strong>" in page
    state = call(web, lambda: tournaments(web).state(tid))
    assert [team.name for team in state.t.teams] == ["Almaty", "Astana"]
    page = post(web, f"/tournaments/{tid}/do/edit-team", csrf, name="Almaty", representatives="Rep A",
                coaches="Coach A")  # fmt: skip
    assert "representatives: Rep A" in page
    publish(web, csrf, tid)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    page = protest(web, csrf, tid, filed_by="Rep A", role="representative", text="Clock.")
    assert alert(page) == "" and "P1: round 1, board 1 — Awaiting the fee" in page


def test_a_coach_files_as_a_coach_not_as_a_representative(web: TestClient) -> None:
    csrf, tid = with_a_team(web, coaches="Coach A")
    for language in ("en", "kk", "ru"):
        page = protest(web, csrf, tid, f"?lang={language}", filed_by="Coach A", role="representative", text="x")
        assert alert(page) == said(ProtestCode.NOT_REPRESENTATIVE, language, person="Coach A")
    page = protest(web, csrf, tid, "?lang=en", filed_by="Rep A", role="coach", text="x")
    assert alert(page) == said(ProtestCode.NOT_COACH, person="Rep A")
    page = protest(web, csrf, tid, "?lang=en", filed_by="Coach A", role="coach", text="As a coach.")
    assert alert(page) == "" and "P1: round 1, board 1" in page


def test_a_meeting_of_nobody_is_refused_in_the_readers_language(web: TestClient) -> None:
    csrf, tid = with_a_team(web)
    protest(web, csrf, tid, filed_by="Rep A", role="representative", text="x", fee_paid="1000", currency="KZT")
    for language in ("en", "kk", "ru"):
        page = post(web, f"/tournaments/{tid}/do/convene?lang={language}", csrf, id="P1", board="", committee="")
        assert alert(page) == said(ProtestCode.MEETING_NO_NAMES, language)
    assert call(web, lambda: tournaments(web).state(tid)).protest("P1").meeting is None


def test_a_result_against_its_kazans_is_refused(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = swiss(web, csrf)
    publish(web, csrf, tid)
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="0-1", kazan_white="90",
                kazan_black="40")  # fmt: skip
    assert alert(page) == said(TournamentCode.KAZANS_CONTRADICT_RESULT, round=1, board=1, white=90, black=40,
                               result="0-1")  # fmt: skip
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="½-½", kazan_white="81",
                kazan_black="81")  # fmt: skip
    assert alert(page) == "" and "81:81" in page
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="1-0", kazan_white="90",
                kazan_black="40")  # fmt: skip
    assert alert(page) == "" and "90:40" in page


# --- 3. the crosstable and the TRF as a federation files them ------------------------------------------------


def filed_event(web: TestClient, csrf: str) -> str:
    tid = swiss(web, csrf, players=5, venue="Almaty, Palace of Schoolchildren", start="2026-12-01",
                end="2026-12-02", chief_arbiter="Aliya Seitova", deputies="Bolat Nurov, Dana Ali",
                tiebreaks="BH/C1, SB")  # fmt: skip
    publish(web, csrf, tid)
    for board in (1, 2):
        post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board=str(board), result="1-0")
    post(web, f"/tournaments/{tid}/do/withdraw", csrf, number="5", after_round="1", reason="ill")
    return tid


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ("Venue", "Chief arbiter", "Deputy chief arbiters", "Buchholz, without the 1 lowest",
                "pairing-allocated bye", "withdrew after round 1: ill", "Time control", "7 min for the game")),
        ("kk", ("Өтетін орны", "Бас төреші", "Бухгольц", "Бас төрешінің орынбасарлары", "1-турдан кейін шықты: ill")),
        ("ru", ("Место проведения", "Главный судья", "Бухгольц", "выбыл после 1-го тура: ill")),
    ],
)  # fmt: skip
def test_the_printed_crosstable_is_the_federations_document(
    web: TestClient, language: str, words: tuple[str, ...]
) -> None:
    csrf = sign_in(web)
    tid = filed_event(web, csrf)
    printed = html.unescape(web.get(f"/tournaments/{tid}/standings?print=1&lang={language}").text)
    assert f'<html lang="{language}">' in printed
    for word in (*words, "Almaty, Palace of Schoolchildren", "Aliya Seitova", "Bolat Nurov", "Dana Ali"):
        assert word in printed, word
    assert printed.count('class="line') >= 4  # the chief arbiter's, the two deputies' and the date's lines
    assert re.search(r"<dt>BH/C1</dt><dd>[^<]+</dd>", printed) and re.search(r"<dt>U</dt><dd>[^<]+</dd>", printed)
    assert re.search(r"<dt>w</dt><dd>[^<]+</dd>", printed) and re.search(r"<dt>b</dt><dd>[^<]+</dd>", printed)
    if language != "en":
        for english in ("Venue", "Chief arbiter", "Crosstable", "pairing-allocated bye", "withdrew"):
            assert english not in printed, english


def test_the_trf_carries_venue_dates_arbiters_and_time_control(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = filed_event(web, csrf)
    text = web.get(f"/tournaments/{tid}/export.trf").text
    lines = text.split("\r\n")
    codes = [line[:3] for line in lines if line]
    assert codes[:2] == ["012", "022"]
    assert "022 Almaty, Palace of Schoolchildren" in lines
    assert "042 2026/12/01" in lines and "052 2026/12/02" in lines
    assert "062 5" in lines and "072 5" in lines
    assert "102 Aliya Seitova" in lines and "112 Bolat Nurov" in lines and "112 Dana Ali" in lines
    assert "122 ойынға 7 мин" in lines  # in the tournament's language: Kazakh unless its settings say otherwise
    parsed = parse_trf(text)
    assert parsed.name == "Club Cup" and len(parsed.players) == 5
    assert "122 ойынға 7 мин" in web.get(f"/tournaments/{tid}/export.trf26").text


def test_the_new_tournament_form_has_the_filing_fields(web: TestClient) -> None:
    csrf = sign_in(web)
    form = web.get("/tournaments/new").text
    for field in ("venue", "start", "end", "chief_arbiter", "deputies"):
        assert f'name="{field}"' in form
    tid = filed_event(web, csrf)
    settings = web.get(f"/tournaments/{tid}/settings").text
    assert 'name="deputies" value="Bolat Nurov, Dana Ali"' in settings


# --- 4. clause numbers are for the arbiter's console ---------------------------------------------------------


def test_players_and_visitors_read_no_clause_numbers(web: TestClient) -> None:
    csrf, tid = with_a_team(web)
    protest(web, csrf, tid, filed_by="Rep A", role="representative", text="x")
    post(web, f"/tournaments/{tid}/do/convene", csrf, id="P1", board="A", committee="C", unpaid_confirmed="yes")
    pages = ["", "/protests", "/standings", "/rounds/1", "/rounds/1/live", "/audit", "/standings?print=1"]
    assert "TK-P" in web.get(f"/tournaments/{tid}/protests").text  # the arbiter sees the clauses
    web.post("/logout", data={"csrf": csrf})
    for language in ("en", "kk", "ru"):
        for page in pages:
            joiner = "&" if "?" in page else "?"
            text = web.get(f"/tournaments/{tid}{page}{joiner}lang={language}").text
            assert "TK-" not in text, (page, language)


# --- 5. issue 13 §3: control characters refused, formulas neutralised ----------------------------------------

CONTROL = ["Abay\r\n001    9 m    Forged", "Tab\tName", "Line\u2028Sep", "Bidi\u202eevil", "Nul\x00x", "Esc\x1b[2J"]
FORMULAS = ['=HYPERLINK("http://evil/","x")', "+7 701 000", "-Abay", "@SUM(A1)"]


@pytest.mark.parametrize("language", ["en", "kk", "ru"])
def test_control_characters_are_refused_at_every_edge(web: TestClient, language: str) -> None:
    csrf = sign_in(web)
    for bad in CONTROL:
        response = web.post(f"/tournaments/new?lang={language}", data={"name": bad, "system": "swiss_dutch",
                                                                       "rounds": "3", "csrf": csrf})  # fmt: skip
        assert said(Common.FIELD_CONTROL_CHARACTERS, language, field="name") in html.unescape(response.text), bad
        form = {"name": "Cup", "system": "swiss_dutch", "rounds": "3", "venue": bad, "csrf": csrf}
        response = web.post(f"/tournaments/new?lang={language}", data=form)
        assert said(Common.FIELD_CONTROL_CHARACTERS, language, field="venue") in html.unescape(response.text), bad
    assert call(web, lambda: tournaments(web).tournaments()) == []
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    for bad in CONTROL:
        for field in ("name", "club", "team"):
            form = {"name": "Abay", field: bad}
            page = post(web, f"/tournaments/{tid}/do/add-participant?lang={language}", csrf, **form)
            assert alert(page) == said(Common.FIELD_CONTROL_CHARACTERS, language, field=field), (field, bad)
        page = post(web, f"/tournaments/{tid}/do/add-team?lang={language}", csrf, name="T", representatives=bad)
        assert alert(page).startswith(said(Common.FIELD_CONTROL_CHARACTERS, language, field="representatives")[:8])
        page = post(web, f"/tournaments/{tid}/do/configure?lang={language}", csrf, chief_arbiter=bad)
        assert alert(page) == said(Common.FIELD_CONTROL_CHARACTERS, language, field="chief_arbiter"), bad
        cell = '"' + bad.replace('"', '""') + '"'
        page = post(web, f"/tournaments/{tid}/do/import?lang={language}", csrf, csv=f"name,club\nAbay,{cell}\n")
        refused = (
            said(TournamentCode.CSV_NOT_IMPORTED, language, problems=1),  # the line's cell
            said(Common.FIELD_CONTROL_CHARACTERS, language, field="csv"),
        )  # or the text itself (bidi)
        assert alert(page) in refused, bad
    assert call(web, lambda: tournaments(web).state(tid)).t.participants == ()
    # The JSON API (a single game's names): the same refusal, in the reader's language.
    token = str(web.get("/api/session").json()["csrf"])
    for bad in CONTROL:
        response = web.post(f"/api/games?lang={language}", json={"white": bad, "black": "Bolat", "control": "blitz"},
                            headers={"x-csrf-token": token})  # fmt: skip
        assert response.status_code == 400 and response.json()["code"] == "field_control_characters", bad
        field = response.json()["params"]["field"]  # "text" for a NUL, refused before the names are read
        assert field in ("white", "text") and response.json()["message"] == said(
            Common.FIELD_CONTROL_CHARACTERS, language, field=field
        )


def test_hostile_names_round_trip_through_every_export(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, name='=cmd|"/c calc"!A1', system="swiss_dutch", rounds="3", time_control="blitz",
                 venue="@venue", chief_arbiter="-chief")  # fmt: skip
    names = [*FORMULAS, "<script>alert(1)</script>", 'Quote "Q" Back\\slash']
    body = io.StringIO()
    csv.writer(body, lineterminator="\n").writerows([["name", "club"], *([name, "+club"] for name in names)])
    page = post(web, f"/tournaments/{tid}/do/import", csrf, csv=body.getvalue())
    assert alert(page) == ""
    publish(web, csrf, tid)
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    for board in (1, 2, 3):
        post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board=str(board), result="1-0")
    # CSV: every cell a spreadsheet would run starts with ', and the name itself follows it unchanged.
    rows = csv_rows(web.get(f"/tournaments/{tid}/export.csv"))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
    exported = {row[2] for row in rows[1:] if len(row) == len(rows[0])}  # the grid's lines (a note may follow)
    assert exported == {("'" + name if name[:1] in "=+-@" else name) for name in names}
    # TRF: one 001 line per player, no forged records, the names as they were (within the 33 columns).
    trf = web.get(f"/tournaments/{tid}/export.trf").text
    records = [line for line in trf.split("\r\n") if line]
    assert [line[:3] for line in records].count("001") == len(names)
    assert {line[14:47].rstrip() for line in records if line.startswith("001")} == {name[:33] for name in names}
    assert "022 @venue" in records and "102 -chief" in records
    assert parse_trf(trf).name == '=cmd|"/c calc"!A1'
    # The printed crosstable: escaped, the names shown as written.
    printed = web.get(f"/tournaments/{tid}/standings?print=1").text
    assert "<script>alert(1)</script>" not in printed and "&lt;script&gt;alert(1)&lt;/script&gt;" in printed
    cells = re.findall(r'<td class="name">([^<]*)</td>', printed)
    assert sorted(html.unescape(cell) for cell in cells) == sorted(names)
    # PGN of a round's game: the names in its tags, read back as they were.
    state = call(web, lambda: tournaments(web).state(tid))
    for game in state.t.round(1).games:
        room = state.room_of(1, game.board)
        assert room is not None
        pgn = web.get(f"/games/{room}/export.pgn").text
        record = read_game(io.StringIO(pgn))
        assert record is not None
        assert record.headers["White"] == state.t.participant(game.white).name
        assert record.headers["Black"] == state.t.participant(game.black).name
        assert pgn.count("\n[White ") + pgn.startswith("[White ") == 1  # no name forged another tag
