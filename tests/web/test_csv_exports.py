"""Every CSV the app serves is safe to open in a spreadsheet (issue 26) and reads well in Excel (issue 31).

The walk takes every GET route of the app (Starlette's routing, not a list kept by hand), fills its path with the
competitions made here — a tournament, a team tournament, a «Своя игра» tour played to its end — whose teams and
players are named like formulas (``=1+2``, ``+SUM(1)``, ``-3+4``, ``@A1``, ``-=Барыс=-``), fetches it as the
arbiter (who may read them all), and checks every answer that is ``text/csv``: the UTF-8 byte-order mark first, no
cell a spreadsheet would run, and the hostile names there (neutralised), so no CSV route is walked empty.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.routing import Route
from starlette.testclient import TestClient

from toreshi.kit.spreadsheet import csv_text, neutralised
from toreshi.live.room import Actor, Command
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings
from toreshi.web.quiz.pages import REPORT_COLUMNS, report_rows
from toreshi.web.teams import pages as team_pages
from toreshi.web.tournaments.results import speaking

from .helpers import csrf_in, csv_rows, post, route_urls, sign_in
from .quiz_driver import play_game
from .test_quiztour_pages import on_app
from .test_tournament_pages import create

FORMULAS = ("=1+2", "+SUM(1)", "-3+4", "@A1", "-=Барыс=-")
"""Names a spreadsheet would run as formulas (the last a real club's style); the forms take them all."""

LIVE_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[+-]?\d+(?:[.,]\d+)?")

CSV_ROUTES = {
    "/tournaments/{tid}/export.{format}",
    "/teams/{tid}/export/{what}",
    "/quiz/{room_id}/report.csv",
    "/quiz/tours/{tour_id}/standings.csv",
    "/quiz/league.{fmt}",
    "/quiz/ratings.csv",
}
"""The routes known to answer CSV: the walk must find each (it also checks any other that answers CSV)."""

FORMATS = ("csv", *team_pages.CSV_EXPORTS, *team_pages.TRF_EXPORTS, "trf", "trf26", "html", "json")
"""What a path parameter that is not an id is tried with (an export's format or file name)."""


def is_live(cell: str) -> bool:
    """A cell Excel or LibreOffice would take as a formula: it starts (after spaces) with a formula character and
    is not a plain number."""
    return cell.lstrip(" ").startswith(LIVE_START) and not NUMBER.fullmatch(cell)


# --- the one writer ----------------------------------------------------------------------------------------------


@given(st.lists(st.lists(st.text(max_size=12) | st.integers() | st.none(), max_size=5), max_size=5))
@settings(max_examples=100)
def test_no_cell_the_writer_writes_is_live_and_every_name_reads_back(rows: list[list[object]]) -> None:
    back = list(csv.reader(io.StringIO(csv_text(rows), newline="")))
    written = [row for row in rows if row]  # an empty row reads back as no row
    expected = [["" if v is None else neutralised(str(v)) for v in row] for row in written]
    assert [read for read in back if read] == expected
    assert not [cell for row in back for cell in row if is_live(cell)]
    for row, read in zip(written, [read for read in back if read], strict=True):
        for value, cell in zip(row, read, strict=True):
            text = "" if value is None else str(value)
            assert cell in (text, "'" + text)  # the name itself, after the quote when it was neutralised


@pytest.mark.parametrize("cell", ["=1+2", "+SUM(1)", "-3+4", "@A1", "\tTab", "\r=1", " =1", "-=Барыс=-", "-", "+"])
def test_a_formula_cell_is_neutralised(cell: str) -> None:
    assert neutralised(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-3", "+2", "-1.5", "0,5", "12", "Абай", "12b½", "a=b", ""])
def test_a_number_or_a_name_stays_as_it_is(cell: str) -> None:
    assert neutralised(cell) == cell


def test_the_quiz_report_puts_the_audience_under_the_header_s_columns() -> None:
    data: dict[str, Any] = {
        "teams": ["=1+2", "Барыс"],
        "questions": [{"number": 1, "theme_name": "Т", "value": 10, "chooser": "=1+2", "outcome": "right",
                       "presses": [], "rulings": [], "host": [], "running": {"=1+2": -10, "Барыс": 0}}],
        "audience": [{"type": "audience_warned", "person": "@Зритель", "scope": None, "question": 1, "at_ms": 5}],
    }  # fmt: skip
    with speaking("en"):
        rows = list(csv.reader(io.StringIO(csv_text(report_rows(data)))))
    assert rows[0] == ["Question", "Theme", "Value", "Chose", "Outcome", "Presses", "Rulings", "Host", "'=1+2", "Барыс"]
    assert len(REPORT_COLUMNS) == 8
    assert rows[1][4] == "Right answer"
    assert rows[1][-2:] == ["-10", "0"]  # a score below zero stays a number
    warned = dict(zip(rows[0], rows[2], strict=True))
    assert warned["Question"] == "1" and warned["Host"] == "'@Зритель: warned"
    assert warned["Outcome"] == warned["Presses"] == warned["Rulings"] == warned["Барыс"] == ""


@pytest.mark.parametrize(
    ("language", "header", "words"),
    [
        ("kk", ["Сұрақ", "Тақырып", "Құны", "Таңдаған", "Нәтиже"], ("Дұрыс жауап", "Барыс дұрыс; Алтын қате")),
        ("ru", ["Вопрос", "Тема"], ("Верный ответ", "Барыс верно; Алтын неверно")),
    ],
)
def test_the_quiz_report_speaks_the_reader_s_language(language: str, header: list[str], words: tuple[str, str]) -> None:
    data: dict[str, Any] = {
        "teams": ["Барыс", "Алтын"],
        "questions": [{"number": 1, "theme_name": "Т", "value": 10, "chooser": "Барыс", "outcome": "right",
                       "presses": [], "host": [], "running": {"Барыс": 10, "Алтын": -10},
                       "rulings": [{"team": "Барыс", "correct": True, "timed_out": False},
                                   {"team": "Алтын", "correct": False, "timed_out": False}]}],
        "audience": [],
    }  # fmt: skip
    with speaking(language):
        rows = report_rows(data)
    assert rows[0][: len(header)] == header
    assert (rows[1][4], rows[1][6]) == words
    assert not any(word in str(cell) for cell in rows[0] + rows[1] for word in ("right", "wrong", "question"))


# --- the walk ----------------------------------------------------------------------------------------------------


def _tournament(web: TestClient, csrf: str) -> str:
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    body = io.StringIO()
    csv.writer(body).writerows([["name", "club"], *([name, name] for name in FORMULAS)])
    page = post(web, f"/tournaments/{tid}/do/import", csrf, csv=body.getvalue())
    assert all(name in page for name in ("=1+2", "+SUM(1)", "@A1")), page
    return tid


def _team_tournament(web: TestClient, csrf: str) -> str:
    form = {"name": "Cup", "system": "swiss", "boards": "2", "rounds": "1", "csrf": csrf}
    tid = str(web.post("/teams/new", data=form, follow_redirects=False).headers["location"]).rsplit("/", 1)[-1]
    players = [("=1+2", "@A1"), ("=1+2", "+SUM(1)"), ("-3+4", "-=Барыс=-"), ("-3+4", "=HYPERLINK(1)")]
    lines = "team,player\n" + "\n".join(f"{team},{player}" for team, player in players)
    post(web, f"/teams/{tid}/do/import", csrf, text=lines)
    post(web, f"/teams/{tid}/do/pair", csrf)
    post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="1", boards="2", b1="1-0", b2="½-½")
    return tid


async def _warn(rooms: Any, room_id: str) -> None:
    owner = await rooms.get(room_id, "quiz")
    await owner.handle(Command("warn", Actor("host", "Ж"), {"person": "=HYPERLINK(1)"}))


async def _correct(rooms: Any, room_id: str, team: str) -> None:
    """A correction below zero: the report's running score shows -7, a number."""
    owner = await rooms.get(room_id, "quiz")
    await owner.handle(Command("correct", Actor("host", "Ж"), {"team": team, "delta": -7, "reason": "@prompt"}))


def _quiz_tour(web: TestClient, shared_data: Path) -> tuple[str, str]:
    """A «Своя игра» tour of one stage, two games of three teams named like formulas, played to its end (the
    league and the ratings have rows); the tour's id and the first game's room."""
    teams = [*FORMULAS, "Қыран"]
    lines = "name,players\n" + "\n".join(f"{team},{team} 1" for team in teams)
    web.post("/quiz/teams", data={"csrf": csrf_in(web.get("/quiz/teams").text), "csv_text": lines})
    pack = [("pack", ("1.siq", (shared_data / "quiz" / "siq" / "1.siq").read_bytes()))]
    form: dict[str, Any] = {"csrf": csrf_in(web.get("/quiz/tours/new").text), "name": "@Tour", "date": "2026-12-01",
                            "stages": "1", "advance1": "1", "best1": "0", "team": teams}  # fmt: skip
    made = web.post("/quiz/tours/new", data=form, files=pack, follow_redirects=False)
    assert made.status_code == 303, made.text
    tour = str(made.headers["location"]).rsplit("/", 1)[-1]
    games = ", ".join(teams[:3]) + "\n" + ", ".join(teams[3:])
    for action in ("seed", "rooms"):
        token = csrf_in(web.get(f"/quiz/tours/{tour}").text)
        web.post(f"/quiz/tours/{tour}/{action}", data={"csrf": token, "method": "hand", "games": games})
    services = web.app.state.services  # type: ignore[attr-defined]
    first, second = on_app(web, services.quiz_tours.state, tour).links
    on_app(web, _warn, services.rooms, first.room_id)
    on_app(web, play_game, services.rooms, first.room_id, [teams[0]] * 5)
    on_app(web, _correct, services.rooms, first.room_id, teams[2])
    on_app(web, play_game, services.rooms, second.room_id, [teams[3]] * 5)
    on_app(web, services.quiz_tours.settled)
    assert on_app(web, services.quiz_tours.state, tour).finished
    return tour, first.room_id


@pytest.fixture
def web(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(data_dir=tmp_path))) as client:
        yield client


def test_every_route_that_answers_csv_neutralises_formulas_and_starts_with_a_bom(
    web: TestClient, shared_data: Path
) -> None:
    csrf = sign_in(web)
    tid, teams_tid = _tournament(web, csrf), _team_tournament(web, csrf)
    tour, room = _quiz_tour(web, shared_data)
    team_id = web.get("/quiz/teams").text.split('href="/quiz/teams/')[1].split('"')[0]
    ids = {"tid": tid, "teams:tid": teams_tid, "tour_id": tour, "quiz:room_id": room, "room_id": "x",
           "team_id": team_id, "code": "x", "number": "1", "role": "black", "action": "x", "cell": "0-1",
           "part": "q", "index": "0"}  # fmt: skip
    answered: dict[str, list[str]] = {}
    for route in web.app.routes:  # type: ignore[attr-defined]
        if not isinstance(route, Route) or "GET" not in (route.methods or ()):
            continue
        for url in route_urls(route.path, ids, FORMATS):
            response = web.get(url, follow_redirects=False)
            if not response.headers.get("content-type", "").startswith("text/csv"):
                continue
            answered.setdefault(route.path, []).append(url)
            rows = csv_rows(response)  # the byte-order mark checked there
            cells = [cell for row in rows for cell in row]
            assert not [cell for cell in cells if is_live(cell)], url
            assert [cell for cell in cells if cell[:1] == "'" and cell[1:2] in "=+-@"], f"{url}: no hostile name"
    assert set(answered) >= CSV_ROUTES, sorted(answered)
    assert {url.rsplit("/", 1)[-1] for url in answered["/teams/{tid}/export/{what}"]} == set(team_pages.CSV_EXPORTS)
    report = csv_rows(web.get(f"/quiz/{room}/report.csv"))
    assert "-7" in [cell for row in report for cell in row]  # a score below zero is still a number
