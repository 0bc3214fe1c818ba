"""The app's own error pages in a real browser: Kazakh and Russian, on a phone and on a laptop, no English."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from toreshi.texts import i18n

from .conftest import Server, new_page, screenshot

SIZES = {"phone": ViewportSize(width=390, height=844), "laptop": ViewportSize(width=1280, height=800)}


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_error_pages_speak_the_readers_language(browser: Browser, server: Server, language: str) -> None:
    translations = i18n.load_translations()[language]
    page = new_page(browser, locale={"kk": "kk-KZ", "ru": "ru-RU"}[language])
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        for path, heading, name in (
            ("/tournaments/t-000000000000", "Not found", "missing-tournament"),
            ("/logout", "Not allowed here", "wrong-method"),
        ):
            response = page.goto(f"{server.url}{path}")
            assert response is not None and response.status in (404, 405)
            expect(page.locator("main h1")).to_have_text(translations.gettext(heading))
            text = page.locator("main").inner_text()
            assert re.findall(r"[A-Za-z]{2,}", text) == []
            expect(page.locator("main a.button")).to_have_attribute("href", "/")
            screenshot(page, f"error-{name}-{language}-{size_name}")
