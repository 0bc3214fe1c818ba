"""A field the browser refuses before sending is explained in the page's language (static/js/validity.js), not in
the browser's: this Chromium runs in English, as a club laptop's may, and a Kazakh or Russian page never shows
English. Kazakh and Russian, on the sign-in page and the new-tournament form."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from .conftest import Server, new_page, sign_in_arbiter

WORDS = {
    "kk": {"missing": "Бұл өрісті толтырыңыз.", "min": "Кемінде 0.", "whole": "Бүтін сан енгізіңіз."},
    "ru": {"missing": "Заполните это поле.", "min": "Не меньше 0.", "whole": "Введите целое число."},
}


def message(page: Page, selector: str) -> str:
    """What the browser would say of the field, once the form was tried (the invalid event has run)."""
    return str(
        page.eval_on_selector(selector, "field => { field.form.checkValidity(); return field.validationMessage; }")
    )


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_browsers_refusals_are_worded_in_the_pages_language(
    browser: Browser, server: Server, language: str
) -> None:
    words = WORDS[language]
    page = new_page(browser, locale="en-US")
    sign_in_arbiter(page, server)
    page.context.clear_cookies()

    page.goto(f"{server.url}/login?lang={language}")
    assert message(page, "input[name=name]") == words["missing"]
    page.fill("input[name=name]", "Судья")
    # Typing clears our words: the browser judges the new value itself (a filled field is valid).
    assert page.eval_on_selector("input[name=name]", "field => field.validationMessage") == ""
    assert message(page, "input[name=password]") == words["missing"]

    sign_in_arbiter(page, server)
    page.goto(f"{server.url}/tournaments/new?lang={language}")
    rounds = "input[name=rounds]"
    page.fill(rounds, "-2")
    assert message(page, rounds) == words["min"]
    page.fill(rounds, "2.5")
    assert message(page, rounds) == words["whole"]
    page.fill(rounds, "7")
    assert page.eval_on_selector(rounds, "field => field.validity.valid") is True
    page.context.close()
