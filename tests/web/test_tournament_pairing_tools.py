"""The pairing tools on the tournament pages: the tie-break rules a tournament is ranked by (named on the standings,
the print view and the CSV), forbidden pairings (by hand, same club, from a TRF, in the TRF exports), a changed
pairing shown with the criteria it breaks until the arbiter confirms it, Baku acceleration, re-entries."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from toreshi.tournament.codes import TournamentCode
from toreshi.tournament.journal import CSV_FIELDS
from toreshi.tournament.trf import parse_trf
from toreshi.tournament.trf_pairing import read_accelerations, read_forbidden

from .helpers import csv_rows, post
from .test_tournament_pages import create, said, sign_in


def _swiss(client: TestClient, csrf: str, players: int = 4, **values: str) -> str:
    tid = create(client, csrf, system="swiss_dutch", rounds="3", **values)
    for index in range(players):
        club = "Тараз" if index in (0, 2) else ""
        post(client, f"/tournaments/{tid}/do/add-participant", csrf, name=f"P{index + 1}", rating=str(1800 - index),
             club=club)  # fmt: skip
    return tid


def test_the_standings_name_the_tiebreak_rules_in_force_on_the_start_date(web: TestClient) -> None:
    csrf = sign_in(web)
    before = _swiss(web, csrf, start="2026-02-28")
    after = _swiss(web, csrf, start="2026-03-01")
    chosen = _swiss(web, csrf, start="2026-02-28", tiebreak_rules="c07-2026")
    expected = {
        before: "Tie-breaks: FIDE C.07 in force from 2024-08-01 (in force on the start date, 2026-02-28).",
        after: "Tie-breaks: FIDE C.07 in force from 2026-03-01 (in force on the start date, 2026-03-01).",
        chosen: "Tie-breaks: FIDE C.07 in force from 2026-03-01 (chosen in the settings).",
    }
    for tid, note in expected.items():
        assert note in html.unescape(web.get(f"/tournaments/{tid}/standings").text)
        assert note in html.unescape(web.get(f"/tournaments/{tid}/standings?print=1").text)
        rows = csv_rows(web.get(f"/tournaments/{tid}/export.csv"))
        assert rows[-2:] == [[], [note]]  # after the grid, an empty line and the note
    page = post(web, f"/tournaments/{chosen}/do/configure", csrf, name="Club Cup", tiebreak_rules="auto")
    assert "(in force on the start date, 2026-02-28)" in page
    kazakh = web.get(f"/tournaments/{before}/standings", headers={"accept-language": "kk"}).text
    assert "2024-08-01 бастап күшіндегі ФИДЕ C.07" in html.unescape(kazakh)


def test_forbidden_pairings_by_hand_and_by_club_are_kept_apart_and_exported(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf)
    page = post(web, f"/tournaments/{tid}/do/forbid-club", csrf, reason="one club")
    assert "1. P1 — 3. P3" in page and "same club" in page
    page = post(web, f"/tournaments/{tid}/do/forbid", csrf, first="2", second="2")
    assert said(TournamentCode.FORBID_ITSELF, player="2. P2") in page
    page = post(web, f"/tournaments/{tid}/do/forbid", csrf, first="2", second="4", reason="family")
    assert "2. P2 — 4. P4" in page and "family" in page
    page = post(web, f"/tournaments/{tid}/do/pair", csrf)
    # 1-3 and 2-4 forbidden: S1 {1, 2} against S2 {3, 4} can only be 1-4 and 2-3 (colours alternate by board).
    assert page.index("1. P1") < page.index("4. P4") < page.index("3. P3") < page.index("2. P2")
    trf16 = parse_trf(web.get(f"/tournaments/{tid}/export.trf").text)
    trf26 = parse_trf(web.get(f"/tournaments/{tid}/export.trf26").text)
    assert [f.players for f in read_forbidden(trf16)] == [(1, 3), (2, 4)] == [f.players for f in read_forbidden(trf26)]
    other = _swiss(web, csrf)
    page = post(web, f"/tournaments/{other}/do/import-forbidden", csrf, trf="XXP 1 2\nXXP 3 4 99\n")
    assert "1. P1 — 2. P2" in page and "3. P3 — 4. P4" in page and "from a TRF" in page
    page = post(web, f"/tournaments/{other}/do/allow", csrf, first="1", second="2")
    assert "1. P1 — 2. P2" not in page and "Forbidden pairing lifted" in web.get(f"/tournaments/{other}/audit").text


def test_a_changed_pairing_shows_the_criteria_it_breaks_until_the_arbiter_confirms(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="0-1")
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    response = web.post(f"/tournaments/{tid}/do/override", data={"csrf": csrf, "pairs": "1 2\n3 4", "reason": "TV"})
    page = html.unescape(response.text)
    assert response.status_code == 200
    assert said(TournamentCode.OVERRIDE_BREAKS_CRITERIA, round=2, criteria="C12, C13") in page
    assert "Criterion C12, players without their colour preference: 1. P1, 2. P2" in page
    assert 'name="confirmed"' in page and "1 2\n3 4</textarea>" in page
    draft = html.unescape(web.get(f"/tournaments/{tid}/rounds/2").text)
    assert draft.index("2. P2") < draft.index("1. P1")  # nothing changed yet: the engine's 2-1
    page = post(web, f"/tournaments/{tid}/do/override", csrf, pairs="1 2\n3 4", reason="TV", confirmed="yes")
    assert "Changed by the arbiter" in page
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert "breaks the Dutch criteria C12, C13, confirmed by the arbiter" in audit
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    trf = web.get(f"/tournaments/{tid}/export.trf").text
    assert "### round 2: pairing changed, breaks C12, C13 [warning]: TV\r\n" in trf


def test_baku_acceleration_is_chosen_on_the_form_and_written_to_the_trf(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=8, acceleration="baku")
    assert 'value="baku" selected' in web.get(f"/tournaments/{tid}/settings").text
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    page = post(web, f"/tournaments/{tid}/do/publish", csrf)
    assert page.index("1. P1") < page.index("3. P3") < page.index("4. P4") < page.index("2. P2")
    trf = parse_trf(web.get(f"/tournaments/{tid}/export.trf26").text)
    assert trf.system == "FIDE_DUTCH_2025_BAKU" and len(read_accelerations(trf)) == 2
    page = post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", acceleration="none")
    assert said(TournamentCode.ACCELERATION_FIXED) in page


def test_a_withdrawn_player_is_re_entered_from_the_participants_list(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=5)
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", late_entry_until="3")
    page = post(web, f"/tournaments/{tid}/do/withdraw", csrf, number="5", after_round="0", reason="ill")
    assert page.count(f'action="/tournaments/{tid}/do/withdraw"') == 4 and "Re-enter" in page
    assert "Warning level: serious — a player who left entered again (TK-R10)" in page  # the form says how serious
    # The re-entry form's box: the withdrawal rule set aside (TK-R10), a serious departure.
    page = post(web, f"/tournaments/{tid}/do/readmit", csrf, number="5", round="2", reason="recovered",
                confirmed="yes")  # fmt: skip
    assert "back from round 2" in page
    assert page.count(f'action="/tournaments/{tid}/do/withdraw"') == 5  # back in, may leave again
    assert "Re-entered" in web.get(f"/tournaments/{tid}/audit").text


CODES = re.compile(r"^[A-Z]+$")
"""Latin words a Kazakh or Russian page may show: codes in capitals (file formats and records, tie-breaks), and
the CSV's column names (the import's hint)."""
COLUMNS = {word for name in CSV_FIELDS for word in name.split("_")} | {"Chief"}  # and the arbiter's name


def test_the_new_controls_speak_kazakh_and_russian(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=5, name="Тараз кубогы")
    post(web, f"/tournaments/{tid}/do/forbid", csrf, first="1", second="2", reason="")
    post(web, f"/tournaments/{tid}/do/withdraw", csrf, number="5", after_round="0")
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    for language in ("kk", "ru"):
        for where in ("/forbidden", "/settings", "", "/standings", "/rounds/1", "/audit"):
            page = web.get(f"/tournaments/{tid}{where}?lang={language}").text
            main = html.unescape(page.split("<main", 1)[1].split("</main>", 1)[0])
            text = re.sub(r"<[^>]+>", " ", main)
            english = [w for w in re.findall(r"[A-Za-z][A-Za-z]+", text) if not CODES.match(w) and w not in COLUMNS]
            assert english == [], (language, where, english)
