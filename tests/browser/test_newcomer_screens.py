"""What a newcomer meets, at a phone's size in Kazakh and Russian (issue 30): the game opened from the home-screen
icon (the manifest's start address) and the guide. Screenshots in ``artifacts/screenshots/`` (copies in
``docs/screenshots/``); the offline page's are made by ``test_installable.py``."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from .conftest import Server, create_game, new_page, screenshot, sign_in_arbiter

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
GUIDE = {"kk": ("Нұсқаулық", "Төрешінің турнир күні"), "ru": ("Руководство", "Турнирный день судьи")}
TO_MOVE = {"kk": "жүреді", "ru": "ходят"}


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_app_from_its_icon_and_the_guide_on_a_phone(browser: Browser, server: Server, language: str) -> None:
    arbiter = new_page(browser)
    sign_in_arbiter(arbiter, server)
    game = create_game(arbiter, server, white="Абай", black="Болат")
    arbiter.goto(f"{server.url}/games/{game['id']}?lang=en")
    arbiter.locator("#console [data-cmd=start]").click()
    arbiter.context.close()
    white = str(game["links"]["white"])
    link = white if "://" in white else server.url + white

    phone = new_page(browser, **PHONE)
    phone.goto(f"{link}&lang={language}")  # the player's link, once: the language is remembered
    phone.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null")
    cdp = phone.context.new_cdp_session(phone)
    start = phone.request.get(cdp.send("Page.getAppManifest")["url"]).json()["start_url"]
    assert "lang=" not in start
    phone.goto(server.url + start)  # as the home-screen icon opens it
    expect(phone.locator("html")).to_have_attribute("lang", language)
    expect(phone.locator("button.hole.side-white.legal").first).to_be_visible()
    phone.wait_for_timeout(300)
    screenshot(phone, f"pwa-app-game-{language}")

    # The guide, from the footer's link of any page, in the reader's language
    phone.locator("footer a.guide-link").click()
    heading, arbiter_day = GUIDE[language]
    expect(phone.get_by_role("heading", level=1)).to_have_text(heading)
    screenshot(phone, f"guide-index-{language}-390")
    phone.get_by_role("link", name=arbiter_day).click()
    expect(phone.get_by_role("heading", level=1)).to_be_visible()
    assert phone.url.endswith(f"/guide/{language}/arbiter")
    screenshot(phone, f"guide-arbiter-{language}-390")
    phone.context.close()
