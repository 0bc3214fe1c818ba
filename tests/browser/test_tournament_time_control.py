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
    # The round's games start from the tournament's control: its summary on the round page, the rows filled in.
    tid = page.url.rsplit("/", 1)[1]
    for name in ("Абай", "Болат"):
        add = page.locator("details.form").filter(has=page.locator("form[action$='/do/add-participant']"))
        if add.get_attribute("open") is None:
            add.locator("summary").click()
        add.locator("input[name=name]").fill(name)
        add.locator("button[type=submit]").click()
        page.wait_for_load_state()
    page.locator("form[action$='/do/pair'] button").first.click()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    page.locator("form[action$='/do/publish'] button").first.click()
    page.wait_for_load_state()
    control = page.locator("details.round-control")
    expect(control.locator("summary")).to_contain_text("40 жүріс")
    control.locator("summary").click()
    expect(control.locator("input[name=period1_moves]")).to_have_value("40")
    expect(control.locator("input[name=bonus_seconds]")).to_have_value("30")
    control.scroll_into_view_if_needed()
    screenshot(page, "tournament-round-control-kk")
    page.locator(f"form[action='/tournaments/{tid}/rounds/1/games'] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/rounds/1/links$"))
