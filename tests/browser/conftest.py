"""Browser tests: Playwright for Python driving Debian's Chromium (no browser download) against a real server.

The server is ``toreshi serve`` in a subprocess on a free loopback port with its own data folder (the ``server``
fixture of ``tests/conftest.py``). Screenshots go to ``artifacts/screenshots/`` (kept by CI as artifacts; the README
shows copies from ``docs/screenshots/``).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from ..served import Server as Server
from ..served import free_port as free_port

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARBITER = ("Төреші", "kumalak-82!")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # Module scope, not session: Playwright's sync API keeps an event loop running in this thread while it is open,
    # and the async tests that follow in the same session need the thread's loop to be free.
    if not Path(CHROMIUM).exists():
        message = f"Debian's chromium is not installed at {CHROMIUM} (scripts/test.sh installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    opened = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-GB", bypass_csp=True)
    yield opened
    opened.close()


def new_page(browser: Browser, **options: Any) -> Page:
    """A page in a context of its own. The pages' Content-Security-Policy forbids eval, which Playwright's
    ``wait_for_function`` needs, so the tests bypass it; ``test_content_security.py`` runs the pages under it."""
    context = browser.new_context(**{"viewport": {"width": 1280, "height": 860}, "bypass_csp": True, **options})
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def sign_in_arbiter(page: Page, server: Server) -> None:
    """Through the real pages: /setup the first time, /login afterwards."""
    page.goto(f"{server.url}/setup")
    name, password = ARBITER
    if "/setup" in page.url:
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", password)
        page.fill("input[name=confirm]", password)
        page.click("form button[type=submit], form input[type=submit]")
    else:
        page.goto(f"{server.url}/login")
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", password)
        page.click("form button[type=submit], form input[type=submit]")
    page.wait_for_url(lambda url: "/setup" not in url and "/login" not in url)


def no_error(page: Page) -> None:
    """The page shows no error alert (a form that was refused says why in one)."""
    errors = page.locator(".error[role=alert]")
    assert errors.count() == 0, errors.all_inner_texts()


def session_csrf(page: Page, server: Server) -> str:
    """The token of the page's session (for forms and the ``X-CSRF-Token`` header), from ``/api/session``."""
    return str(page.request.get(f"{server.url}/api/session").json()["csrf"])


def create_game(page: Page, server: Server, **body: Any) -> dict[str, Any]:
    """Create a game through the JSON API with the arbiter page's session (cookie + CSRF header)."""
    response = page.request.post(
        f"{server.url}/api/games",
        data={"white": "Абай", "black": "Болат", "control": "blitz", **body},
        headers={"x-csrf-token": session_csrf(page, server), "origin": server.url},
    )
    assert response.status == 201, response.text()
    created: dict[str, Any] = response.json()
    return created


def hole_of(page: Page, side: str, hole: int) -> Any:
    """The playable hole ``hole`` of ``side`` on a game page's board."""
    return page.locator(f"button.hole.side-{side}.legal").filter(
        has=page.locator(".hole-num", has_text=re.compile(rf"^{hole}$"))
    )


def play_hole(page: Page, side: str, hole: int) -> None:
    """Play ``hole`` as a player does: a tap selects it and previews the move, a second tap plays it (TK-B6)."""
    hole_of(page, side, hole).click()
    selected = page.locator(f"button.hole.side-{side}.selected")
    selected.wait_for()
    selected.click()
