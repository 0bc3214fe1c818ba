"""A tournament with a custom time control, set on its form in Kazakh in a real browser (issue 16 §2): the custom
rows appear only when "custom" is chosen, and the tournament's page describes the control in Kazakh."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from .conftest import Server, new_page, screenshot, sign_in_arbiter


def test_a_custom_control_is_typed_on_the_kazakh_tournament_form(browser: Browser, server: Server) -> None:
    page = new_page(browser, locale="kk-KZ")
    sign_in_arbiter(page, server)
    page.goto(f"{server.url}/tournaments/new?lang=kk")
    rows = page.locator(".custom-control")
    expect(rows).to_be_hidden()
    page.fill("input[name=name]", "Классикалық кубок")
    page.check("input[name=control][value=custom]")
    expect(rows).to_be_visible()
    page.fill("input[name=period1_moves]", "40")
    page.fill("input[name=period1_minutes]", "90")
    page.fill("input[name=period2_minutes]", "30")
    page.check("input[name=bonus][value=increment]")
    page.fill("input[name=bonus_seconds]", "30")
    page.locator("fieldset.control-choice").scroll_into_view_if_needed()
    screenshot(page, "tournament-custom-control-kk")
    page.click("form button[type=submit].primary")
    page.wait_for_url(re.compile(r"/tournaments/t-[0-9a-f]+$"))
    summary = page.locator("section h1 + p").inner_text()
    assert "40 жүріс" in summary and "30 мин" in summary and "30 с" in summary, summary
