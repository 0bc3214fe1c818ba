"""A team tournament's published results site (issue 29) opened from files in Chromium: Kazakh and Russian at phone
(390×844) and laptop (1280×800) sizes, its navigation followed by clicks, no page wider than the phone (tables
scroll inside their box); the screenshots go to docs/screenshots/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import Browser, ViewportSize
from starlette.testclient import TestClient

from toreshi.web.app import create_app
from toreshi.web.common.settings import Settings

from ..web.test_event_bundles import _played_teams
from .conftest import new_page

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES: dict[str, ViewportSize] = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
STANDINGS = {"kk": "Турнирлік жағдай", "ru": "Положение участников"}


def _published(tmp_path: Path) -> Path:
    with TestClient(create_app(Settings(data_dir=tmp_path)), headers={"accept-language": "kk"}) as web:
        tid = _played_teams(web)
    folder = tmp_path / "site"
    command = [sys.executable, "-m", "toreshi", "publish", tid, str(folder), "--data-dir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return folder


def test_a_team_tournaments_site_opens_from_files_in_kazakh_and_russian_on_a_phone_and_a_laptop(
    browser: Browser, tmp_path: Path
) -> None:
    folder = _published(tmp_path)
    for language, standings in STANDINGS.items():
        for size, viewport in SIZES.items():
            page = new_page(browser, viewport=viewport)
            page.goto((folder / "index.html").as_uri())
            page.wait_for_url("**/kk/index.html")
            if language != "kk":
                page.get_by_role("link", name=language.upper(), exact=True).click()
            assert page.url.endswith(f"/{language}/index.html")
            assert "Алматы" in page.locator("main").inner_text()
            page.screenshot(path=str(SHOTS / f"team-results-site-index-{language}-{size}.png"), full_page=True)
            page.get_by_role("navigation").get_by_role("link", name=standings).click()
            assert page.url.endswith(f"/{language}/standings.html")
            assert page.locator("h2").first.inner_text() == standings
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            page.screenshot(path=str(SHOTS / f"team-results-site-standings-{language}-{size}.png"), full_page=True)
            page.locator("nav a[href='round-1.html']").click()
            assert "Абай (Алматы)" in page.locator("main").inner_text()
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            page.screenshot(path=str(SHOTS / f"team-results-site-round-{language}-{size}.png"), full_page=True)
            page.context.close()
