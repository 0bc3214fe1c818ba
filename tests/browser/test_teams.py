"""A team Swiss of four teams run through the pages in a real browser, in Kazakh (issue 17 §2).

Created on the form, three teams imported from a CSV file and the fourth registered on the form (board order and
a reserve), round 1 paired by the Dutch engine on match points, both matches entered board by board once, then
the team standings, crosstable and board tables checked against what was entered — with no English on the pages.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, new_page, no_error, screenshot, sign_in_arbiter

CSV = (
    "team,player,rating,representative\n"
    "Алматы,Абенов Нұрлан,1850,Сейітов Ерлан\nАлматы,Бекова Айгерім,1790,\nАлматы,Жұмабаева Дана,1655,\n"
    "Алматы,Оспанов Тимур,1600,\nАлматы,Қасымова Әсел,1540,\n"
    "Астана,Төлеуов Марат,1830,\nАстана,Иманова Луиза,1760,\nАстана,Нұрланов Бекзат,1700,\nАстана,Әлиева Сәуле,1610,\n"
    "Шымкент,Омаров Олжас,1800,\nШымкент,Рахимов Рахат,1720,\n"
    "Шымкент,Пернебек Пернеш,1680,\nШымкент,Садықова Жанна,1590,\n"
)
AKTOBE = "Тоқтаров Тоқтар; 1780\nУланов Улан; 1710\nФаридова Фарида; 1660\nХамитов Хамит; 1580\nЕржанов Ержан; 1500"
CODES = {"MPVGP", "BH", "SB", "DE", "CSV", "TRF", "TRF16", "MPTS", "GPTS", "FIDE", "TK"}


def english_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[A-Za-z][A-Za-z_]+", text) if w not in CODES]


def enter(page: Page, match: int, results: list[str]) -> None:
    form = page.locator(f'article[data-match="1-{match}"] form[action$="/do/enter"]')
    for board, result in enumerate(results, start=1):
        form.locator(f"select[name=b{board}]").select_option(result)
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    no_error(page)


def test_a_four_team_swiss_in_kazakh(
    browser: Browser, server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    page = new_page(browser, locale="kk-KZ")
    sign_in_arbiter(page, server)
    page.goto(f"{server.url}/language?lang=kk&next=/teams")
    page.fill("input[name=name]", "Қазақстан кубогы")
    page.select_option("select[name=system]", "swiss")
    page.fill("input[name=boards]", "4")
    page.fill("input[name=rounds]", "3")
    page.click("form[action='/teams/new'] button[type=submit]")
    page.wait_for_url(re.compile(r"/teams/tt-[0-9a-f]+$"))
    no_error(page)
    csv = tmp_path_factory.mktemp("teams") / "teams.csv"
    csv.write_text(CSV, encoding="utf-8")
    page.set_input_files("input[name=file]", str(csv))
    page.click("form[action$='/do/import'] button[type=submit]")
    page.wait_for_load_state()
    no_error(page)
    page.fill("#register-team input[name=name]", "Ақтөбе")
    page.fill("#register-team textarea[name=players]", AKTOBE)
    page.click("#register-team button[type=submit]")
    page.wait_for_load_state()
    no_error(page)
    teams = page.locator("table.teams tbody tr")
    expect(teams).to_have_count(4)
    expect(teams.nth(0)).to_contain_text("Қасымова Әсел")  # Алматы's reserve
    expect(teams.nth(3)).to_contain_text("Ержанов Ержан")
    page.click("form[action$='/do/pair'] button[type=submit]")
    page.wait_for_load_state()
    no_error(page)
    # Seeds by registration: S1 = {Алматы, Астана}, S2 = {Шымкент, Ақтөбе}: 1–3 and 4–2.
    expect(page.locator('article[data-match="1-1"] h4')).to_contain_text("Алматы — Шымкент")
    expect(page.locator('article[data-match="1-2"] h4')).to_contain_text("Ақтөбе — Астана")
    screenshot(page, "teams-round-kk")
    # Алматы 3½ : ½ (board 4's White is Шымкент's, so "0-1" is Алматы's win); Ақтөбе 2 : 2.
    enter(page, 1, ["1-0", "½-½", "1-0", "0-1"])
    enter(page, 2, ["1-0", "1-0", "0-1", "0-1"])
    expect(page.locator('article[data-match="1-1"] .score')).to_have_text("3,5 : 0,5")
    expect(page.locator('article[data-match="1-2"] .score')).to_have_text("2 : 2")
    assert english_words(page.locator("main").inner_text()) == []
    page.locator('article[data-match="1-1"]').scroll_into_view_if_needed()
    screenshot(page, "teams-match-entered-kk")
    page.click("nav.subnav a[href$='/standings']")
    page.wait_for_load_state()
    rows = page.locator("table.team-standings tbody tr")
    expect(rows).to_have_count(4)
    # Алматы 2 MP; Ақтөбе and Астана 1 MP each, 2 GP each — BH ties (1 each), SB ties, DE: their match was drawn;
    # they stay in starting order (Астана 2 before Ақтөбе 4). Шымкент 0 MP.
    names = [rows.nth(i).locator("td").nth(2).inner_text() for i in range(4)]
    assert names == ["Алматы", "Астана", "Ақтөбе", "Шымкент"]
    expect(rows.nth(0).locator("td").nth(3)).to_have_text("2")
    expect(rows.nth(0).locator("td").nth(4)).to_have_text("3,5")
    expect(page.locator("table.board-table[data-board='1'] tbody tr")).to_have_count(4)
    assert english_words(page.locator("main").inner_text()) == []
    expect(page.locator("p.rules")).to_contain_text("2026-03-01")  # no start date: the rules in force now
    screenshot(page, "teams-standings-kk")
    page.goto(page.url + "?print=1")
    expect(page.locator("nav.subnav")).to_have_count(0)
    screenshot(page, "teams-standings-print-kk")
