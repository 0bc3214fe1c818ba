"""The published results site (issue 29) opened from files in Chromium, as a club's web host or a USB stick would
serve it: Kazakh and Russian at phone (390×844) and laptop (1280×800) sizes, every navigation link followed by a
click, no page wider than the phone (tables scroll inside their box); the screenshots go to docs/screenshots/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, ViewportSize
from starlette.testclient import TestClient

from toreshi.tournament.model import GameResult
from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from ..web.helpers import post
from ..web.test_tournament_pages import create, sign_in
from .conftest import new_page

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
NAMES = ["Әлия Қасым", "Бауыржан Өмір", "Гүлнұр Ұлан", "Дәурен Үміт", "Ерғали Һаким", "Жанар Іңкәр"]
SIZES: dict[str, ViewportSize] = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
HEADINGS = {"kk": ("Турнирлік жағдай", "Турнир кестесі"), "ru": ("Положение участников", "Турнирная таблица")}


def _published(tmp_path: Path) -> Path:
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "kk"}) as web:
        csrf = sign_in(web)
        tid = create(web, csrf, name="Тараз кубогы", system="swiss_dutch", rounds="3", time_control="blitz",
                     venue="Тараз")  # fmt: skip
        rows = "\n".join(f"{name},{1500 + 10 * (i % 3)}" for i, name in enumerate(NAMES))
        post(web, f"/tournaments/{tid}/do/import", csrf, csv="name,rating\n" + rows)
        post(web, f"/tournaments/{tid}/do/configure", csrf, name="Тараз кубогы", lots_seed="Тараз-2026",
             chief_arbiter="Әділет Сейітов")  # fmt: skip
        post(web, f"/tournaments/{tid}/do/draw-lots", csrf)
        for number in (1, 2):
            post(web, f"/tournaments/{tid}/do/pair", csrf)
            post(web, f"/tournaments/{tid}/do/publish", csrf)
            if number == 1:
                web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"})
            for board, result in ((1, GameResult.WHITE_WINS), (2, GameResult.DRAW), (3, GameResult.BLACK_WINS)):
                post(web, f"/tournaments/{tid}/do/result", csrf, round=str(number), board=str(board),
                     result=result.value)  # fmt: skip
    folder = tmp_path / "site"
    # A process of its own, as a club runs it (this one's event loop belongs to Playwright).
    command = [sys.executable, "-m", "toreshi", "publish", tid, str(folder), "--data-dir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return folder


def test_the_published_site_opens_from_files_in_kazakh_and_russian_on_a_phone_and_a_laptop(
    browser: Browser, tmp_path: Path
) -> None:
    folder = _published(tmp_path)
    for language, (standings, crosstable) in HEADINGS.items():
        for size, viewport in SIZES.items():
            page = new_page(browser, viewport=viewport)
            page.goto((folder / "index.html").as_uri())  # the root sends the reader to the Kazakh pages
            page.wait_for_url("**/kk/index.html")
            if language != "kk":
                page.get_by_role("link", name=language.upper(), exact=True).click()
            assert page.url.endswith(f"/{language}/index.html")
            assert "Әлия Қасым" in page.locator("main").inner_text()
            page.screenshot(path=str(SHOTS / f"results-site-index-{language}-{size}.png"), full_page=True)
            for name, heading in (("standings", standings), ("crosstable", crosstable)):
                page.get_by_role("navigation").get_by_role("link", name=heading).click()
                assert page.url.endswith(f"/{language}/{name}.html")
                assert page.locator("h2").first.inner_text() == heading
                page.screenshot(path=str(SHOTS / f"results-site-{name}-{language}-{size}.png"), full_page=True)
            page.locator("nav a[href='round-1.html']").click()
            page.locator("main a[href^='game-1-']").first.click()
            assert "/game-1-" in page.url and page.locator("h2").inner_text().startswith(("1-тур", "Тур 1"))
            # Nothing is wider than the screen: a wide table scrolls inside its own box.
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            page.context.close()
