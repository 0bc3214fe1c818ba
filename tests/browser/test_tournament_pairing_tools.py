"""The pairing tools in a real browser, in Kazakh (issue 17 §1, §3): a Swiss created with its tie-break rules,
players of one club and a family kept apart, the engine's pairing honouring them, and a changed pairing shown
with the Dutch criteria it breaks until the arbiter ticks the confirmation.

Four players (clubs: 1 and 3 of Тараз); 2-4 forbidden by hand. Round 1 can only be 1-4, 3-2 (S1 {1, 2} against
S2 {3, 4} without 1-3 and 2-4). 1 and 3 win; in round 2 the leaders may not meet (one club) and each has met one
of the others: 2-1 and 4-3 (each player's other colour). Swapping the colours of board 1 (1-2) leaves 1 and 2
without their colour (C12).
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .conftest import Server, new_page, no_error, screenshot, sign_in_arbiter

PLAYERS = [("Абенов Нұрлан", "Тараз"), ("Бекова Айгерім", ""), ("Сейітов Ерлан", "Тараз"), ("Жұмабаева Дана", "")]


def pairs_on(page: Page) -> list[tuple[int, int]]:
    pairs = []
    for row in page.locator("table.grid tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        numbers = [re.match(r"(\d+)\.", cell) for cell in cells[1:3]]
        if len(cells) >= 3 and all(numbers):
            pairs.append((int(numbers[0].group(1)), int(numbers[1].group(1))))  # type: ignore[union-attr]
    return pairs


def test_forbidden_pairs_and_a_confirmed_change_in_kazakh(browser: Browser, server: Server) -> None:
    page = new_page(browser, locale="kk-KZ")
    sign_in_arbiter(page, server)
    page.goto(f"{server.url}/language?lang=kk&next=/tournaments/new")
    page.fill("input[name=name]", "Тараз ашық турнирі")
    page.select_option("select[name=system]", "swiss_dutch")
    page.fill("input[name=rounds]", "3")
    page.fill("input[name=start]", "2026-02-10")
    page.select_option("select[name=tiebreak_rules]", "auto")
    page.select_option("select[name=acceleration]", "none")
    page.click("form button[type=submit].primary")
    page.wait_for_url(re.compile(r"/tournaments/t-[0-9a-f]+$"))
    no_error(page)
    tid = page.url.rsplit("/", 1)[-1]
    for name, club in PLAYERS:
        add = page.locator("details.form", has=page.locator("form[action$='/do/add-participant']"))
        if add.get_attribute("open") is None:
            add.locator("summary").click()
        add.locator("input[name=name]").fill(name)
        add.locator("input[name=club]").fill(club)
        add.locator("button[type=submit]").click()
        no_error(page)

    page.goto(f"{server.url}/tournaments/{tid}/forbidden")
    same_club = page.locator("details.form", has=page.locator("form[action$='/do/forbid-club']"))
    same_club.locator("summary").click()
    same_club.locator("button[type=submit]").click()
    no_error(page)
    expect(page.locator("table.forbidden tbody tr")).to_have_count(1)
    hand = page.locator("form[action$='/do/forbid']")
    hand.locator("select[name=first]").select_option("2")
    hand.locator("select[name=second]").select_option("4")
    hand.locator("input[name=reason]").fill("ағайынды")
    hand.locator("button[type=submit]").click()
    no_error(page)
    expect(page.locator("table.forbidden tbody tr")).to_have_count(2)
    expect(page.locator("table.forbidden")).to_contain_text("бір клуб")
    screenshot(page, "tournament-forbidden-pairs-kk")

    page.goto(f"{server.url}/tournaments/{tid}/settings")
    expect(page.locator("p.hint", has_text="ФИДЕ C.07")).to_contain_text("2024-08-01")
    page.goto(f"{server.url}/tournaments/{tid}")
    page.locator("form[action$='/do/pair'] button").first.click()
    page.wait_for_url(re.compile(r"/rounds/1$"))
    assert pairs_on(page) == [(1, 4), (3, 2)]
    page.locator("form[action$='/do/publish'] button").click()
    no_error(page)
    for board in (1, 2):
        page.locator(f"select[name=result_{board}]").select_option("1-0")
        page.locator("#round-results button[type=submit]").click()
        no_error(page)
    page.locator("form[action$='/do/pair'] button").click()
    page.wait_for_url(re.compile(r"/rounds/2$"))
    engine = pairs_on(page)
    assert engine == [(2, 1), (4, 3)]
    swapped = [(1, 2), (4, 3)]
    override = page.locator("details#override")
    override.locator("summary").click()
    override.locator("textarea[name=pairs]").fill("\n".join(f"{w} {b}" for w, b in swapped))
    override.locator("input[name=reason]").fill("теледидар үстелі")
    override.locator("button[type=submit]").click()
    review = page.locator("details#override .review")
    expect(review).to_contain_text("C12")
    expect(review).to_contain_text("қалаған түсін алмаған ойыншылар")
    assert pairs_on(page)[: len(engine)] == engine  # nothing changed before the confirmation
    override.locator("input[name=confirmed]").check()
    screenshot(page, "tournament-pairing-change-review-kk")
    override.locator("button[type=submit]").click()
    no_error(page)
    assert pairs_on(page) == swapped
    page.goto(f"{server.url}/tournaments/{tid}/audit")
    expect(page.locator("main")).to_contain_text("төреші растады")
