"""The pages work under their Content-Security-Policy: scripts load and run, and the browser reports no violation."""

from __future__ import annotations

from playwright.sync_api import Browser, Page

from .conftest import Server, create_game, new_page, sign_in_arbiter

WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});
"""


def strict_page(browser: Browser) -> Page:
    page = new_page(browser, bypass_csp=False, locale="kk-KZ")
    page.add_init_script(WATCH_VIOLATIONS)
    return page


def violations(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


def test_the_pages_run_under_the_policy(browser: Browser, server: Server) -> None:
    page = strict_page(browser)
    sign_in_arbiter(page, server)
    game = create_game(page, server)
    for path in ("/", "/tournaments", "/tournaments/new", "/quiz", "/quiz/new", f"/games/{game['id']}/links"):
        response = page.goto(f"{server.url}{path}")
        assert response is not None and response.ok, path
        assert violations(page) == [], path
    page.goto(f"{server.url}/games/{game['id']}")
    page.locator("#game .hole").first.wait_for()  # the board is drawn by the page's module script
    assert page.locator("#game .hole").count() == 18
    assert violations(page) == []
    player = strict_page(browser)
    player.goto(game["links"]["white"])
    player.locator("#game .hole").first.wait_for()
    assert violations(player) == []
