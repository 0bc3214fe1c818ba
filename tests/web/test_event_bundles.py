"""Issue 29 for the other events: a team tournament's and a «Своя игра» tour's results bundles, one zip each, for
the arbiter (the tour's host) only: the TRF with the team records, standings and crosstable as HTML and as a PDF
that prints Kazakh, every board game's PGN, the standings as spreadsheet-safe CSV, the audit log (corrections with
their reasons; the arbiter as a role, never a login); the tour's standings, each game's protocol and the tour's log.
A Kazakh or Russian bundle never shows English; nothing private is in it."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

from pypdf import PdfReader
from starlette.testclient import TestClient

from .helpers import csrf_in, post
from .quiz_driver import play_game
from .test_quiztour_pages import TEAMS as QUIZ_TEAMS
from .test_quiztour_pages import on_app, tour_with_rooms
from .test_team_pages import CSV, _create
from .test_tournament_pages import sign_in

INJECTION = "=HYPERLINK(1)"


def _pdf_text(data: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def _rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode())))


def _login_in(data: bytes) -> bool:
    """Whether the signed-in arbiter's login ("Chief") is in ``data`` (not the words "Chief arbiter")."""
    return re.search(rb"Chief(?! arbiter)", data) is not None


def _played_teams(web: TestClient) -> str:
    csrf = sign_in(web)
    tid = _create(web, csrf, name="Жетісу кубогы")
    post(web, f"/teams/{tid}/do/import", csrf, text=CSV)
    post(web, f"/teams/{tid}/do/register", csrf, name=INJECTION, players="Тоқтар; 1770\nҰлан; 1720\nФарида\nҺаким")
    post(web, f"/teams/{tid}/do/pair", csrf)
    one = {"round": "1", "match": "1", "boards": "4", "b1": "1-0", "b2": "½-½", "b3": "1-0", "b4": "0-1"}
    post(web, f"/teams/{tid}/do/enter", csrf, **one)
    post(web, f"/teams/{tid}/do/enter", csrf, **{**one, "b4": "1-0", "reason": "Хаттама қатесі"})  # a correction
    post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="2", boards="4", b1="½-½", b2="+ −", b3="½-½",
         b4="½-½")  # fmt: skip
    return tid


def test_a_team_tournaments_bundle_holds_every_file_in_kazakh_and_no_secret(web: TestClient) -> None:
    tid = _played_teams(web)
    assert "/teams/" + tid + "/export.zip" in web.get(f"/teams/{tid}").text  # the arbiter's link on its page
    response = web.get(f"/teams/{tid}/export.zip?lang=kk")
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    suffixes = ("-trf2026.txt", "-trf16.trf", "-standings.html", "-standings.pdf", "-games.pgn", "-standings.csv",
                "-crosstable.csv", "-audit.csv")  # fmt: skip
    assert names == {f"{tid}{suffix}" for suffix in suffixes}
    trf = archive.read(f"{tid}-trf2026.txt").decode()
    assert trf == web.get(f"/teams/{tid}/export/trf").text
    assert any(line.startswith("310   1 Алматы") for line in trf.split("\r"))  # the team records
    assert any(line.startswith(("801", "802")) for line in trf.split("\r"))
    pgn = archive.read(f"{tid}-games.pgn").decode()
    assert pgn.count("[Event ") == 8 and '[WhiteTeam "Алматы"]' in pgn and '[Forfeit "+ −"]' in pgn
    assert '[White "Абай"]' in pgn and "1/2-1/2" in pgn
    standings = _rows(archive.read(f"{tid}-standings.csv"))
    assert standings[0][:3] == ["Орын", "№", "Команда"], standings[0]
    assert "'" + INJECTION in {row[2] for row in standings[1:]}  # the formula is text, never run
    assert not any(cell.startswith(("=", "+", "@")) for row in standings for cell in row)
    cross = _rows(archive.read(f"{tid}-crosstable.csv"))
    assert any("○" in cell for row in cross[1:] for cell in row)
    audit = archive.read(f"{tid}-audit.csv").decode()
    assert "Хаттама қатесі" in audit and "1-0 ½-½ 1-0 0-1 → 1-0 ½-½ 1-0 1-0" in audit  # the override and why
    page = archive.read(f"{tid}-standings.html").decode()
    assert 'lang="kk"' in page and "<style>" in page and "/static/" not in page and "Жетісу кубогы" in page
    for english in ("Team standings", "Rank", "Board 1", "Match points", "Tie-breaks", "Chief arbiter"):
        assert english not in page, english
    text = _pdf_text(archive.read(f"{tid}-standings.pdf"))
    for name in ("Жетісу кубогы", "Алматы", "Шымкент", "Тоқтар", "Ұлан", "Һаким", "Абай"):
        assert name in text, (name, text[:300])
    for name in names:  # the arbiter as a role: the login is in no file
        assert not _login_in(archive.read(name)), name
    russian = zipfile.ZipFile(io.BytesIO(web.get(f"/teams/{tid}/export.zip?lang=ru").content))
    page = russian.read(f"{tid}-standings.html").decode()
    assert 'lang="ru"' in page and "Team standings" not in page and "Rank" not in page


def test_only_the_arbiter_downloads_a_team_or_tour_bundle(web: TestClient) -> None:
    tid = _played_teams(web)
    with TestClient(web.app) as visitor:
        refused = visitor.get(f"/teams/{tid}/export.zip", follow_redirects=False)
        assert refused.status_code == 303 and refused.headers["location"].startswith("/login")
        assert "export.zip" not in visitor.get(f"/teams/{tid}").text  # no link for a visitor
        assert "export.zip" not in visitor.get(f"/teams/{tid}/standings").text
        assert visitor.get("/quiz/tours/no-such/export.zip", follow_redirects=False).status_code == 303
    assert web.get("/teams/tt-000000000000/export.zip").status_code == 404
    assert web.get("/quiz/tours/no-such/export.zip").status_code == 404


def test_a_quiz_tours_bundle_holds_the_standings_each_games_protocol_and_the_log(
    web: TestClient, shared_data: Path
) -> None:
    tour, services = tour_with_rooms(web, shared_data)
    state = on_app(web, services.quiz_tours.state, tour)
    first, second = state.links
    on_app(web, play_game, services.rooms, first.room_id, ["Алтын", "Алтын", "Барыс", "Барыс", "Сұңқар"])
    on_app(web, play_game, services.rooms, second.room_id, ["Жолбарыс", "Қыран", "Қыран", "Қыран", "Арлан"])
    secrets = set()
    for link in (first, second):
        codes = web.get(f"/quiz/{link.room_id}/links").text
        secrets |= set(re.findall(r"token=([A-Za-z0-9_\-]{8,})", codes))
    assert secrets
    page = web.get(f"/quiz/tours/{tour}").text
    assert f"/quiz/tours/{tour}/export.zip" in page
    response = web.get(f"/quiz/tours/{tour}/export.zip?lang=kk")
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    games = {f"games/stage1-game{n}-{link.room_id}.csv" for n, link in ((1, first), (2, second))}
    # A tie for a place that goes on (SI-2.2) adds the shootout's room to the stage: its protocol is there too.
    shootouts = {name for name in names if re.fullmatch(r"games/stage1-shootout-[\w-]+\.csv", name)}
    assert names - shootouts == {f"{tour}-standings.html", f"{tour}-standings.pdf", f"{tour}-standings.csv",
                                 f"{tour}-log.csv", *games}  # fmt: skip
    others = [link for link in on_app(web, services.quiz_tours.state, tour).links if link not in (first, second)]
    assert shootouts <= {f"games/stage1-shootout-{link.room_id}.csv" for link in others}  # played ones only
    protocol = _rows(archive.read(f"games/stage1-game1-{first.room_id}.csv"))
    assert protocol[0][:2] == ["Сұрақ", "Тақырып"] and set(first.teams) <= set(protocol[0])
    assert len(protocol) > 5  # one row per question played
    standings = _rows(archive.read(f"{tour}-standings.csv"))
    assert standings[0][0] == "Кезең" and {row[2] for row in standings[1:]} == set(QUIZ_TEAMS)
    log = archive.read(f"{tour}-log.csv").decode()
    assert "Нәтиже" in log or "нәтиже" in log  # the results recorded, in Kazakh
    assert "Result recorded" not in log
    html_page = archive.read(f"{tour}-standings.html").decode()
    assert 'lang="kk"' in html_page and "Алтын" in html_page
    for english in ("Stage 1", "Team", "Outcome", "Battle points", "Games"):
        assert english not in html_page, english
    text = _pdf_text(archive.read(f"{tour}-standings.pdf"))
    for team in QUIZ_TEAMS:
        assert team in text, (team, text[:300])
    for name in names:
        data = archive.read(name)
        assert not _login_in(data), name
        assert not any(secret.encode() in data for secret in secrets), name
    token = csrf_in(page)
    assert token.encode() not in response.content


LINK = re.compile(r'(?:href|src)="([^"#?]+)"')


def test_a_team_tournaments_public_site_is_served_and_published_alike_with_relative_links(
    web: TestClient, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from toreshi.cli import app

    tid = _played_teams(web)
    with TestClient(web.app, headers={"accept-language": "en"}) as visitor:  # nobody signed in
        served = visitor.get(f"/results/{tid}/kk/standings.html")
        assert served.status_code == 200 and "Алматы" in served.text and 'lang="kk"' in served.text
        assert visitor.get(f"/results/{tid}/").status_code == 200
        assert "<svg" in visitor.get(f"/results/{tid}/ru/index.html").text  # the QR code for the hall
        assert visitor.get(f"/results/{tid}/kk/round-9.html").status_code == 404
    folder = tmp_path / "site"
    result = CliRunner().invoke(app, ["publish", tid, str(folder), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert {"index.html", "style.css", f"{tid}.trf", "games.pgn"} <= set(files)
    for language in ("kk", "ru", "en"):
        for page in ("index", "standings", "round-1"):
            assert f"{language}/{page}.html" in files, (language, page)
    assert files["kk/standings.html"] == web.get(f"/results/{tid}/kk/standings.html").content
    round_page = files["ru/round-1.html"].decode()
    assert "Абай (Алматы)" in round_page and "+ −" in round_page
    for name, data in files.items():
        assert not _login_in(data), name
        assert b"Nurlan" not in data and "Нұрлан".encode() not in data, name  # a representative is not published
        if name.endswith(".html"):
            for target in LINK.findall(data.decode()):
                assert not target.startswith(("/", "http:", "https:")), (name, target)  # opens from the disk
                assert (folder / name).parent.joinpath(target).resolve().is_file(), (name, target)
    for language in ("kk", "ru"):
        for page in ("index", "standings", "round-1"):
            text = files[f"{language}/{page}.html"].decode()
            for english in ("Standings", "Round 1", "Team standings", "Board 1", "White", "Downloads"):
                assert english not in text, (language, page, english)


def test_a_quiz_tours_public_site_is_served_and_published_alike_with_relative_links(
    web: TestClient, shared_data: Path, tmp_path: Path
) -> None:
    from typer.testing import CliRunner

    from toreshi.cli import app

    tour, services = tour_with_rooms(web, shared_data)
    first, second = on_app(web, services.quiz_tours.state, tour).links
    on_app(web, play_game, services.rooms, first.room_id, ["Алтын", "Алтын", "Барыс", "Барыс", "Сұңқар"])
    on_app(web, play_game, services.rooms, second.room_id, ["Жолбарыс", "Қыран", "Қыран", "Қыран", "Арлан"])
    codes = web.get(f"/quiz/{first.room_id}/links").text
    secrets = set(re.findall(r"token=([A-Za-z0-9_\-]{8,})", codes))
    with TestClient(web.app, headers={"accept-language": "en"}) as visitor:
        served = visitor.get(f"/results/{tour}/kk/standings.html")
        assert served.status_code == 200 and "Алтын" in served.text and "Жолбарыс" in served.text
        assert "<svg" in visitor.get(f"/results/{tour}/kk/index.html").text
    folder = tmp_path / "tour-site"
    result = CliRunner().invoke(app, ["publish", tour, str(folder), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert set(files) == {"index.html", "style.css", *(f"{lang}/{page}.html" for lang in ("kk", "ru", "en")
                                                      for page in ("index", "standings"))}  # fmt: skip
    assert files["ru/standings.html"] == web.get(f"/results/{tour}/ru/standings.html").content
    for name, data in files.items():
        assert not _login_in(data) and not any(secret.encode() in data for secret in secrets), name
        assert first.room_id.encode() not in data, name  # no way into a game room
        for target in LINK.findall(data.decode()):
            assert not target.startswith(("/", "http:", "https:")), (name, target)
            assert (folder / name).parent.joinpath(target).resolve().is_file(), (name, target)
    for language in ("kk", "ru"):
        for page in ("index", "standings"):
            text = files[f"{language}/{page}.html"].decode()
            for english in ("Tour standings", "Stage 1", "Games", "Team", "Score", "Outcome"):
                assert english not in text, (language, page, english)
