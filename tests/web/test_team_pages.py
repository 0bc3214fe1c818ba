"""The team competition pages in the real app: create, register teams by form and by CSV, pair, enter a match's
board results once, standings, crosstable, board tables, CSV and TRF exports; refusals in the reader's language;
reading never writes."""

from __future__ import annotations

import html
import re

import pytest
from starlette.testclient import TestClient

from toreshi.kit.refusal import Refusal
from toreshi.texts import i18n, refusals
from toreshi.tournament.codes import ProtestCode, TournamentCode
from toreshi.tournament.teams.codes import TeamCode

from .helpers import csv_text, post
from .test_tournament_pages import sign_in

TEAMS = re.compile(r"^/teams/(tt-[0-9a-f]+)$")
CSV = (
    "team,player,rating,representative\n"
    "Алматы,Абай,1800,Нұрлан\nАлматы,Бекзат,1750,\nАлматы,Дана,1700,\nАлматы,Ержан,1650,\nАлматы,Жанна,1600,\n"
    "Астана,Қайрат,1790,\nАстана,Луиза,1740,\nАстана,Марат,1690,\nАстана,Нұр,1640,\n"
    "Шымкент,Олжас,1780,\nШымкент,Пернеш,1730,\nШымкент,Рахат,1680,\nШымкент,Сәуле,1630,\n"
)


def _create(client: TestClient, csrf: str, **values: str) -> str:
    form = {"name": "Kazakhstan team cup", "system": "swiss", "boards": "4", "rounds": "3", "csrf": csrf, **values}
    response = client.post("/teams/new", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text
    found = TEAMS.match(response.headers["location"])
    assert found is not None
    return found.group(1)


def _said(code: TeamCode, **params: str | int) -> str:
    i18n.activate("en")
    return refusals.render(Refusal(code, params))


def test_a_team_swiss_from_registration_to_the_trf(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _create(web, csrf)
    page = post(web, f"/teams/{tid}/do/import", csrf, text=CSV)
    assert "Алматы" in page and "Жанна" in page and "Нұрлан" in page  # reserves and representatives listed
    page = post(web, f"/teams/{tid}/do/register", csrf, name="Ақтөбе",
                 players="Тоқтар; 1770\nУлан; 1720\nФарида\nХамит; 1620")  # fmt: skip
    assert "Тоқтар (1770)" in page
    page = post(web, f"/teams/{tid}/do/pair", csrf)
    assert "Round 1" in page
    # Seeds 1–3 and 4–2 (S1 = {1, 2}, S2 = {3, 4}); the first-named team has White on boards 1 and 3.
    assert "1. Алматы — Шымкент" in page and "2. Ақтөбе — Астана" in page
    before = web.get(f"/teams/{tid}/standings").text
    assert web.get(f"/teams/{tid}/standings").text == before  # reading never writes
    one = {"round": "1", "match": "1", "boards": "4", "b1": "1-0", "b2": "½-½", "b3": "1-0", "b4": "0-1"}
    page = post(web, f"/teams/{tid}/do/enter", csrf, **one)
    assert "3.5 : 0.5" in page  # Алматы: 1 + ½ + 1 + 1 (board 4: Black is Алматы's)
    page = post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="1", boards="4", b1="0-1", b2="½-½",
                 b3="1-0", b4="0-1")  # fmt: skip
    assert _said(TeamCode.CORRECTION_NEEDS_REASON, round=1, match=1) in page
    page = post(web, f"/teams/{tid}/do/pair", csrf)
    assert _said(TeamCode.ROUND_INCOMPLETE, round=1) in page
    post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="2", boards="4", b1="½-½", b2="½-½", b3="½-½",
          b4="½-½")  # fmt: skip
    standings = html.unescape(web.get(f"/teams/{tid}/standings").text)
    assert standings.index("Алматы") < standings.index("Ақтөбе") < standings.index("Шымкент")
    assert "MPVGP" in standings and "Board tables" in standings
    standings_csv = csv_text(web.get(f"/teams/{tid}/export/standings.csv"))
    assert standings_csv.splitlines()[1].startswith("1,Алматы,2,3.5")
    trf = web.get(f"/teams/{tid}/export/trf").text.split("\r")
    team_line = next(line for line in trf if line.startswith("310   1 Алматы"))
    assert team_line[54:60] == "   2.0" and team_line[61:67] == "   3.5" and team_line[73:77] == "   1"
    trf16 = web.get(f"/teams/{tid}/export/trf16").text.split("\r")
    assert any(line.startswith("013 Алматы") and line[36:40] == "   1" for line in trf16)
    audit = html.unescape(web.get(f"/teams/{tid}/audit").text)
    assert "Round 1, match 1 corrected" not in audit  # the refused correction left nothing
    assert "Round 1, match 1 entered" in audit and "1-0 ½-½ 1-0 0-1" in audit and "Team registered" in audit
    page = post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="2", boards="4", b1="½-½", b2="½-½",
                 b3="½-½", b4="1-0", reason="score sheet of board 4")  # fmt: skip
    assert "Done." in page
    # Board 4's White is the second-named team's (Астана): it now wins the match 2½ : 1½.
    assert csv_text(web.get(f"/teams/{tid}/export/standings.csv")).splitlines()[2].startswith("2,Астана,2,2.5")
    audit = html.unescape(web.get(f"/teams/{tid}/audit").text)
    assert "Round 1, match 2 corrected" in audit
    assert "½-½ ½-½ ½-½ ½-½ → ½-½ ½-½ ½-½ 1-0 (score sheet of board 4)" in audit
    boards = csv_text(web.get(f"/teams/{tid}/export/boards.csv")).splitlines()
    # Board 1: Абай won his one game (100 %); the prize needs 2 games (half of 3 rounds, rounded up): not yet.
    assert "1,Алматы,Абай,1,1,100.0,0,no" in boards


def test_refusals_are_shown_in_the_readers_language(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _create(web, csrf, boards="2")
    page = post(web, f"/teams/{tid}/do/register", csrf, name="Алматы", players="Абай")
    assert _said(TeamCode.TOO_FEW_PLAYERS, team="Алматы", boards=2, players=1) in page
    web.headers["accept-language"] = "kk"
    page = post(web, f"/teams/{tid}/do/pair", csrf)
    i18n.activate("kk")
    shown = refusals.render(Refusal(TeamCode.TOO_FEW_TEAMS, {"teams": 0}))
    assert shown in page and "At least two teams" not in shown


def test_the_settings_may_name_the_tie_break_rules_and_a_bad_date_is_refused(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _create(web, csrf, start="2026-12-01", tiebreak_rules="c07-2024")
    assert "2024-08-01 (the rules in force" in html.unescape(web.get(f"/teams/{tid}/standings").text)
    response = web.post("/teams/new", data={"name": "X", "system": "swiss", "boards": "4", "rounds": "3",
                                            "start": "2026-13-01", "csrf": csrf}, follow_redirects=True)  # fmt: skip
    i18n.activate("en")
    assert refusals.render(Refusal(TournamentCode.NOT_A_DATE, {"field": "start"})) in html.unescape(response.text)


def test_only_an_arbiter_changes_a_team_tournament(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _create(web, csrf)
    web.cookies.clear()
    response = web.post(f"/teams/{tid}/do/pair", data={"csrf": csrf}, follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    assert web.get("/teams/tt-000000000000").status_code == 404


def _words(page: str) -> list[str]:
    """Latin words of a page's main text (tags and attributes stripped), less codes that stay as they are."""
    main = page[page.index("<main") : page.index("</main>")]
    text = re.sub(r"<[^>]+>", " ", main)
    codes = {"MPVGP", "BH", "SB", "DE", "CSV", "TRF", "FIDE", "C", "Chief", "TK"}  # Chief: the arbiter's name
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_]+", html.unescape(text)) if w not in codes]


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_team_pages_show_no_english_in_kazakh_and_russian(web: TestClient, language: str) -> None:
    csrf = sign_in(web)
    tid = _create(web, csrf, name="Кубок", boards="2", start="2025-05-01")
    teams = "team,player\nА,Абай\nА,Бек\nА,Дана\nБ,Ерлан\nБ,Жанар\nВ,Зере\nВ,Ильяс\n"
    post(web, f"/teams/{tid}/do/import", csrf, text=teams)
    post(web, f"/teams/{tid}/do/pair", csrf)
    post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="1", boards="2", b1="1-0", b2="− +")
    web.headers["accept-language"] = language
    for path in ("", "/standings", "/audit"):
        page = web.get(f"/teams/{tid}{path}").text
        assert _words(page) == [], path
    assert "2024-08-01" in web.get(f"/teams/{tid}/standings").text  # started before 2026-03-01: the 2024 rules
    assert web.get("/teams").status_code == 200 and _words(web.get("/teams").text) == []


def test_a_team_representative_files_a_protest_on_the_match_page(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _create(web, csrf)
    post(web, f"/teams/{tid}/do/import", csrf, text=CSV)
    post(web, f"/teams/{tid}/do/pair", csrf)
    post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="1", boards="4", b1="1-0", b2="½-½", b3="1-0",
          b4="0-1")  # fmt: skip
    form = {"round": "1", "match": "1", "board": "2", "text": "The clock was wrong on board 2."}
    page = post(web, f"/teams/{tid}/do/protest", csrf, team="2", filed_by="Луиза", **form)  # a player of Астана
    i18n.activate("en")
    assert refusals.render(Refusal(ProtestCode.NOT_A_FILER, {"person": "Луиза"})) in page
    page = post(web, f"/teams/{tid}/do/protest", csrf, team="1", filed_by="Нұрлан", fee_paid="1000", **form)
    assert "P1" in page and "Accepted" in page
    assert "Protest P1 filed" in html.unescape(web.get(f"/teams/{tid}/audit").text)
