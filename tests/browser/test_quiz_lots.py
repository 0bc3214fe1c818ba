"""SI-3.2 in the browser (issue 29): the game's lots seed is on the host's console, the projector and the teams'
phones before the draw, in Kazakh and Russian; the host's console shows the order it draws; after the host's «draw»
(key D) the first chooser is the lot's first and the seed line leaves the screens."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from toreshi.quiz.lots import choice_order

from .conftest import Server, new_page, screenshot, sign_in_arbiter
from .test_quiz_game import create_game

TEAMS = ("Алтын", "Барыс", "Сұңқар")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SEED = {"kk": "Жеребе тастаудың бастапқы мәні", "ru": "Ключ жеребьёвки"}
ORDER = {"kk": "таңдау кезегі жеребе бойынша", "ru": "очерёдность выбора по жребию"}


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Iterator[Page]:
    page = new_page(browser, locale="en-GB", viewport={"width": 1280, "height": 800})
    sign_in_arbiter(page, server)
    yield page
    page.context.close()


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_seed_is_on_every_screen_before_the_draw_and_the_host_draws_its_first(
    browser: Browser, server: Server, arbiter: Page, shared_data: Path, language: str
) -> None:
    game = create_game(arbiter, server, shared_data / "quiz" / "siq" / "1.siq", "qualifying", TEAMS)
    locale = {"kk": "kk-KZ", "ru": "ru-RU"}[language]
    host = new_page(browser, locale=locale, viewport={"width": 1280, "height": 800})
    projector = new_page(browser, locale=locale, viewport={"width": 1280, "height": 800})
    phone = new_page(browser, locale=locale, **PHONE)  # the team's phone, joined by the QR code's address
    phone.goto(f"{server.url}/j/{game.codes[TEAMS[1]]}")
    expect(phone.locator(".q-team-name")).to_have_text(TEAMS[1])
    try:
        host.goto(game.links["host"].replace("?token=", f"?lang={language}&token="))
        projector.goto(game.links["projector"].replace("?token=", f"?lang={language}&token="))
        line = host.locator(".q-lots")
        expect(line).to_contain_text(SEED[language])
        found = re.match(rf"^{SEED[language]} (\S+) · {ORDER[language]}: (.+)$", line.inner_text())
        assert found is not None, line.inner_text()
        seed, order = found.group(1), found.group(2).split(" → ")
        assert order == list(choice_order(seed, TEAMS))
        for page in (projector, phone):
            expect(page.locator(".q-lots")).to_have_text(f"{SEED[language]}: {seed}")
            assert ORDER[language] not in page.locator("body").inner_text()  # the teams learn the order at the draw
        screenshot(host, f"quiz-lots-seed-host-{language}-1280")
        screenshot(phone, f"quiz-lots-seed-phone-{language}-390")
        host.keyboard.press("d")  # the lot (SI-3.2)
        expect(host.locator(".q-status")).to_contain_text(order[0])
        expect(projector.locator(".q-status")).to_contain_text(order[0])
        expect(phone.locator(".q-lots")).to_have_text("")
        drawn = f"{SEED[language]} {seed} · {ORDER[language]}: {' → '.join(order)}"
        expect(host.locator(".q-lots")).to_have_text(drawn)
    finally:
        for page in (host, projector, phone):
            page.context.close()
