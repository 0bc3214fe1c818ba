"""The arbiter's console refuses impossible times naming the field, says a change of a dial as it was typed, and
clears its errors once the next action goes through — in Kazakh and Russian, on a phone and on a laptop."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from toreshi.texts import i18n

from .conftest import Server, create_game, new_page, screenshot, sign_in_arbiter

SIZES = {"phone": ViewportSize(width=390, height=844), "laptop": ViewportSize(width=1280, height=800)}
CODES = {"TK"}


def english_words(text: str) -> list[str]:
    return [word for word in re.findall(r"[A-Za-z][A-Za-z_]+", text) if word not in CODES]


def translated(language: str, msgid: str) -> str:
    return i18n.load_translations()[language].gettext(msgid)


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Page:
    page = new_page(browser, locale="kk-KZ")
    sign_in_arbiter(page, server)
    return page


def open_console(page: Page, server: Server, language: str) -> None:
    game = create_game(page, server)
    page.goto(f"{server.url}/games/{game['id']}?lang={language}")
    expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    # Started and paused: the dials stand still while the console is used.
    page.locator("#console [data-cmd=start]").click()
    page.locator("#console [data-cmd=pause]").click()
    expect(page.locator("#console [data-cmd=resume]")).to_be_visible()
    expect(page.locator("#set-clocks")).to_be_visible()


def dial(page: Page, side: str) -> str:
    return page.locator(f".player-bar[data-side={side}] [data-clock]").inner_text()


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_console_names_a_wrong_field_and_clears_the_error_after_a_good_action(
    arbiter: Page, server: Server, language: str
) -> None:
    page = arbiter
    for size_name, size in SIZES.items():
        page.set_viewport_size(size)
        open_console(page, server, language)
        notice = page.locator("#notice")
        dialog = page.locator("#confirm-dialog")
        clocks = page.locator("#set-clocks")
        white = clocks.locator("input[name=white]")

        # 999:99 is not a time: refused on the page, the field named and marked, nothing sent.
        white.fill("999:99")
        clocks.locator("input[name=black]").fill("5:00")
        clocks.locator("button[type=submit]").click()
        expect(notice).to_be_visible()
        expect(notice).to_have_class(re.compile(r"\berror\b"))
        expect(notice).to_contain_text(translated(language, "White"))
        expect(notice).to_contain_text("999:99")
        expect(white).to_have_attribute("aria-invalid", "true")
        expect(dialog).to_be_hidden()
        assert english_words(notice.inner_text()) == []
        page.locator("#console").scroll_into_view_if_needed()
        screenshot(page, f"togyz-console-bad-time-{language}-{size_name}")

        # The next action goes through: the error is gone, the field no longer marked.
        white.fill("4:30")
        clocks.locator("button[type=submit]").click()
        expect(dialog).to_be_visible()
        assert english_words(page.locator("#confirm-text").inner_text()) == []
        dialog.locator("#confirm-yes").click()
        expect(page.locator(".player-bar[data-side=white] [data-clock]")).to_have_text("4:30")
        expect(notice).to_be_hidden()
        expect(white).not_to_have_attribute("aria-invalid", "true")

        # Added time: zero is refused naming the field; the question says the change exactly as typed.
        add = page.locator("#add-time")
        seconds = add.locator("input[name=seconds]")
        seconds.fill("0")
        add.locator("button[type=submit]").click()
        expect(notice).to_be_visible()
        expect(notice).to_contain_text(translated(language, "Seconds"))
        expect(seconds).to_have_attribute("aria-invalid", "true")
        assert english_words(notice.inner_text()) == []
        add.locator("select[name=side]").select_option("black")
        seconds.fill("90")
        add.locator("button[type=submit]").click()
        before = dial(page, "black")
        expect(page.locator("#confirm-text")).to_contain_text(f"+1:30 ({before} → ")
        dialog.locator("#confirm-yes").click()
        minutes, secs = (int(part) for part in before.split(":"))
        after = minutes * 60 + secs + 90
        expect(page.locator(".player-bar[data-side=black] [data-clock]")).to_have_text(
            f"{after // 60}:{after % 60:02d}"
        )
        expect(notice).to_be_hidden()
        expect(seconds).not_to_have_attribute("aria-invalid", "true")

        # Taking more than is left says how much was typed.
        seconds.fill("-3000")
        add.locator("button[type=submit]").click()
        expect(notice).to_contain_text("−50:00")
        assert english_words(notice.inner_text()) == []
