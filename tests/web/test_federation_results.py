"""Issue 29, results published in one click: the drawing of lots from a published seed (and drawn again by the
command line), the TRF's 122 in the tournament's language read back by the checker, the results bundle (TRF, HTML
and PDF crosstable with Kazakh letters, every game's PGN, standings CSV, the audit log), the public results site
(served by the app and written by ``toreshi publish``, links relative, kk/ru/en) and no secret in any of it."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.tournament.lots import Entrant, LotsError, draw_order, initial_colour
from toreshi.tournament.model import Colour, GameResult
from toreshi.tournament.trf import format_trf, parse_trf

from .helpers import post
from .test_tournament_pages import call, create, sign_in, tournaments

NAMES = ["Әлия Қасым", "Бауыржан Өмір", "Гүлнұр Ұлан", "Дәурен Үміт", "Ерғали Һаким", "Жанар Іңкәр"]


def _entries(web: TestClient, csrf: str, *, system: str = "swiss_dutch", rating: int = 1500) -> str:
    tid = create(web, csrf, name="Тараз кубогы", system=system, rounds="3" if system == "swiss_dutch" else "",
                 time_control="blitz")  # fmt: skip
    csv_text = "name,rating\n" + "\n".join(f"{name},{rating}" for name in NAMES)
    post(web, f"/tournaments/{tid}/do/import", csrf, csv=csv_text)
    return tid


def _order(web: TestClient, tid: str) -> list[str]:
    state = call(web, lambda: tournaments(web).state(tid))
    return [p.name for p in sorted(state.t.participants, key=lambda p: p.number)]


# --- the drawing of lots --------------------------------------------------------------------------------------


def test_the_same_seed_draws_the_same_lots_and_another_seed_other_lots() -> None:
    people = [Entrant(name, 1500) for name in NAMES]
    first = draw_order("Тараз-2026", people, round_robin=True)
    assert first == draw_order("Тараз-2026", list(reversed(people)), round_robin=True)  # not the typing order
    assert [e.name for e in first] != NAMES  # the lot moved someone
    others = {tuple(e.name for e in draw_order(f"seed {n}", people, round_robin=True)) for n in range(8)}
    assert len(others) > 1
    assert {initial_colour(f"seed {n}") for n in range(16)} == {Colour.WHITE, Colour.BLACK}
    # A Swiss draws only among equal ratings: the higher rating keeps number 1 whatever the seed.
    mixed = [Entrant("Low", 1400), *people[:3], Entrant("High", 1900)]
    assert all(draw_order(f"s{n}", mixed, round_robin=False)[0].name == "High" for n in range(8))
    assert all(draw_order(f"s{n}", mixed, round_robin=False)[-1].name == "Low" for n in range(8))
    with pytest.raises(LotsError):
        draw_order(" \n ", people, round_robin=True)


@pytest.mark.parametrize("system", ["swiss_dutch", "round_robin"])
def test_the_app_draws_the_lots_from_the_published_seed_and_the_command_line_draws_them_again(
    web: TestClient, tmp_path: Path, system: str
) -> None:
    csrf = sign_in(web)
    tid = _entries(web, csrf, system=system)
    refused = post(web, f"/tournaments/{tid}/do/draw-lots", csrf)
    assert "Publish the seed of the drawing of lots in the settings first." in refused
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Тараз кубогы", lots_seed="  Тараз 2026-12-01  ")
    overview = web.get(f"/tournaments/{tid}").text
    assert "Тараз 2026-12-01" in overview and "the lots have not been drawn yet" in overview  # published first
    post(web, f"/tournaments/{tid}/do/draw-lots", csrf)
    drawn = _order(web, tid)
    state = call(web, lambda: tournaments(web).state(tid))
    assert state.lots_drawn and state.initial_colour is initial_colour("Тараз 2026-12-01")
    assert sorted(drawn) == sorted(NAMES) and drawn != NAMES
    # The seed is fixed now.
    changed = post(web, f"/tournaments/{tid}/do/configure", csrf, name="Тараз кубогы", lots_seed="other")
    assert "The seed cannot change: the lots have been drawn with it." in changed
    # The TRF names the seed; the command line draws the same numbers and colour from it, on the file alone.
    text = web.get(f"/tournaments/{tid}/export.trf").content.decode()
    assert "### lots drawn with seed Тараз 2026-12-01 (toreshi-lots-1)" in text.split("\r\n")
    colour = "XXC white1" if state.initial_colour is Colour.WHITE else "XXC black1"
    assert colour in text.split("\r\n")
    file = tmp_path / f"{tid}.trf"
    file.write_bytes(text.encode())
    result = CliRunner().invoke(app, ["tournament", "lots", "Тараз 2026-12-01", str(file)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1] == colour
    assert [re.sub(r"^\d+\. | \(\d+\)$", "", line) for line in lines[2:]] == drawn
    other = CliRunner().invoke(app, ["tournament", "lots", "another seed", str(file)])
    assert other.exit_code == 0 and other.output.splitlines()[2:] != lines[2:]


def test_a_bad_seed_on_the_command_line_is_one_translated_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    file = tmp_path / "t.trf"
    file.write_text("012 T\r001    1      A                                 1500\r001    2      B\r")
    monkeypatch.setenv("TORESHI_LANGUAGE", "ru")
    result = CliRunner().invoke(app, ["tournament", "lots", "x" * 65, str(file)])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0 and "Traceback" not in result.output
    assert result.output.startswith("error: ") and re.search("[а-я]", result.output), result.output


# --- the TRF's 122 in the tournament's language ---------------------------------------------------------------


def test_the_trf_writes_122_in_the_tournaments_language_and_reads_back_through_the_checker(
    web: TestClient, tmp_path: Path
) -> None:
    csrf = sign_in(web)
    tid = _entries(web, csrf)
    lines = web.get(f"/tournaments/{tid}/export.trf").content.decode().split("\r\n")
    kazakh = next(line for line in lines if line.startswith("122 "))
    assert re.search("[ә-ӯа-я]", kazakh) and "for the game" not in kazakh, kazakh  # Kazakh by default
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Тараз кубогы", language="ru")
    russian = next(line for line in web.get(f"/tournaments/{tid}/export.trf26").text.split("\r\n") if line[:3] == "122")
    assert russian != kazakh and re.search("[а-я]", russian), russian
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Тараз кубогы", language="en")
    assert "122 7 min for the game" in web.get(f"/tournaments/{tid}/export.trf").text.split("\r\n")
    for number in (1, 2):
        post(web, f"/tournaments/{tid}/do/pair", csrf)
        post(web, f"/tournaments/{tid}/do/publish", csrf)
        for board in (1, 2, 3):
            post(web, f"/tournaments/{tid}/do/result", csrf, round=str(number), board=str(board),
                 result=GameResult.WHITE_WINS.value)  # fmt: skip
    text = web.get(f"/tournaments/{tid}/export.trf").content.decode()
    assert format_trf(parse_trf(text), "\r\n") == text
    file = tmp_path / "cup.trf"
    file.write_bytes(text.encode())
    result = CliRunner().invoke(app, ["tournament", "check", str(file)])
    assert result.exit_code == 0 and "2 of 2 rounds agree with the engine" in result.output, result.output


# --- the results bundle and the public site -------------------------------------------------------------------


def _played(web: TestClient, csrf: str) -> str:
    """Six players, the lots drawn, round 1 in game rooms (the players' links issued), results entered."""
    tid = _entries(web, csrf)
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Тараз кубогы", lots_seed="demo", chief_arbiter="Әділет")
    post(web, f"/tournaments/{tid}/do/draw-lots", csrf)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
    for board, result in ((1, GameResult.WHITE_WINS), (2, GameResult.DRAW), (3, GameResult.WHITE_FORFEIT_WIN)):
        post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board=str(board), result=result.value)
    return tid


def _secrets(web: TestClient, tid: str) -> list[str]:
    """What must never be published: the players' link tokens and the arbiter's login."""
    sheet = web.get(f"/tournaments/{tid}/rounds/1/links").text
    tokens = set(re.findall(r"token=([A-Za-z0-9_\-]+)", sheet))
    assert len(tokens) == 6
    return [*tokens, "Chief"]


def _holds(data: bytes, secret: str) -> bool:
    """Whether ``data`` holds ``secret`` (the login "Chief" alone, not the words "Chief arbiter" of an English page)."""
    pattern = re.escape(secret) + (r"(?! arbiter)" if secret == "Chief" else "")
    return re.search(pattern.encode(), data) is not None


def test_the_results_bundle_holds_every_file_and_the_pdf_prints_kazakh(web: TestClient) -> None:
    from pypdf import PdfReader

    csrf = sign_in(web)
    tid = _played(web, csrf)
    response = web.get(f"/tournaments/{tid}/export.zip?lang=kk")
    assert response.status_code == 200 and response.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert names == {f"{tid}{suffix}" for suffix in (".trf", "-trf2026.txt", "-crosstable.html", "-crosstable.pdf",
                                                      "-games.pgn", "-standings.csv", "-audit.csv")}  # fmt: skip
    trf = archive.read(f"{tid}.trf").decode()
    assert trf == web.get(f"/tournaments/{tid}/export.trf").text
    pgn = archive.read(f"{tid}-games.pgn").decode()
    assert pgn.count("[Event ") == 3 and all(f'"{name}"' in pgn for name in NAMES)
    rows = list(csv.reader(io.StringIO(archive.read(f"{tid}-standings.csv").decode())))
    assert {row[2] for row in rows[1:7]} == set(NAMES)
    audit = archive.read(f"{tid}-audit.csv").decode()
    assert "demo" in audit and not _holds(
        audit.encode(), "Chief"
    )  # the lots are in the log; the arbiter as a role, not a login
    page = archive.read(f"{tid}-crosstable.html").decode()
    assert "<style>" in page and "/static/" not in page and "Әлия Қасым" in page and 'lang="kk"' in page
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(archive.read(f"{tid}-crosstable.pdf"))).pages)
    for name in NAMES:  # every Kazakh letter (ә ғ қ ң ө ұ ү һ і) comes back out of the PDF's text
        assert name in text, (name, text[:400])
    assert "Тараз кубогы" in text and "Әділет" in text
    for secret in _secrets(web, tid):
        assert not any(_holds(archive.read(name), secret) for name in names), secret


LINK = re.compile(r'(?:href|src)="([^"#?]+)"')


def test_the_public_site_is_served_and_published_alike_with_relative_links_and_no_secret(
    web: TestClient, tmp_path: Path
) -> None:
    csrf = sign_in(web)
    tid = _played(web, csrf)
    secrets = _secrets(web, tid)
    with TestClient(web.app, headers={"accept-language": "en"}) as visitor:  # nobody signed in
        served = visitor.get(f"/results/{tid}/kk/standings.html")
        assert served.status_code == 200 and "Әлия Қасым" in served.text
        assert visitor.get(f"/results/{tid}", follow_redirects=False).status_code == 303
        assert visitor.get(f"/results/{tid}/").status_code == 200
        assert "<svg" in visitor.get(f"/results/{tid}/ru/index.html").text  # the QR code for the hall
        assert visitor.get(f"/results/{tid}/kk/nothing.html").status_code == 404
        assert visitor.get("/results/no-such/").status_code == 404
    folder = tmp_path / "site"
    result = CliRunner().invoke(app, ["publish", tid, str(folder), "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    for language in ("kk", "ru", "en"):
        for page in ("index", "standings", "crosstable", "round-1", "game-1-1"):
            assert f"{language}/{page}.html" in files, (language, page)
    assert "<svg" not in files["kk/index.html"].decode()  # no address given: no QR code
    with_url = tmp_path / "site-with-url"
    CliRunner().invoke(app, ["publish", tid, str(with_url), "--data-dir", str(tmp_path), "--url", "https://club.kz/r/"])
    assert "<svg" in (with_url / "kk" / "index.html").read_text() and "https://club.kz/r/" in (
        with_url / "kk" / "index.html").read_text()  # fmt: skip
    # The app serves the same bytes the command wrote (the QR code aside: only the app knows its address).
    assert files["kk/standings.html"] == web.get(f"/results/{tid}/kk/standings.html").content
    for name, data in files.items():
        text = data.decode("utf-8")
        for secret in secrets:
            assert not _holds(data, secret), (name, secret)
        if name.endswith(".html"):
            for target in LINK.findall(text):
                assert not target.startswith(("/", "http:", "https:")), (name, target)  # opens from the disk
                resolved = (folder / name).parent.joinpath(target).resolve()
                assert resolved.is_file(), (name, target)
    for language, english in (("kk", "Standings"), ("ru", "Standings"), ("kk", "Round 1"), ("ru", "Crosstable")):
        assert english not in files[f"{language}/index.html"].decode(), (language, english)
    missing = CliRunner().invoke(app, ["publish", "no-such", str(tmp_path / "x"), "--data-dir", str(tmp_path)],
                                 env={"TORESHI_LANGUAGE": "kk"})  # fmt: skip
    assert missing.exit_code == 1 and "Traceback" not in missing.output
    assert missing.output.strip() == "error: Бұл дерекқорда no-such турнирі жоқ.", missing.output
    nowhere = tmp_path / "no-database"
    absent = CliRunner().invoke(app, ["publish", tid, str(tmp_path / "y"), "--data-dir", str(nowhere)],
                                env={"TORESHI_LANGUAGE": "ru"})  # fmt: skip
    assert (
        absent.exit_code == 1 and absent.output.startswith("error: Базы данных ") and "\n" not in absent.output.strip()
    )
    assert not nowhere.exists()  # only read: no empty database is made
