"""A round-robin tournament of six run entirely through the pages in a real browser (issue 5 §2, §4).

Created and filled in through the forms, paired round by round by the Berger tables, results entered on each
round's page, then the standings and the printable crosstable checked against the results that were entered; at
last the same pages read in Kazakh and Russian, with no English on them (issue 12 §2).
"""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction

import pytest
from playwright.sync_api import Browser, Page, expect

from toreshi.tournament.model import format_points

from .conftest import Server, new_page, no_error, screenshot, sign_in_arbiter

PLAYERS = [("Абенов Нұрлан", 1850), ("Бекова Айгерім", 1790), ("Сейітов Ерлан", 1720),
           ("Жұмабаева Дана", 1655), ("Оспанов Тимур", 1600), ("Қасымова Әсел", 1540)]  # fmt: skip
ROUNDS = 5


def result_for(white: int, black: int) -> str:
    """A fixed rule for the results entered: neighbours in the pairing list draw, otherwise the lower number wins."""
    if abs(white - black) == 1:
        return "½-½"
    return "1-0" if white < black else "0-1"


CODES = {
    "BH",
    "SB",
    "DE",
    "BPTS",
    "WIN",
    "CSV",
    "TRF",
    "TRF16",
    "KZT",
    "TK",
    "name",
    "rating",
    "club",
    "team",
    "federation_id",
    "federation",
    "title",
    "sex",
    "birth_date",
    "elo",
}
"""Latin words a Kazakh or Russian page may show: tie-break and file-format codes, clause IDs, CSV column names."""


def english_words(text: str) -> list[str]:
    return [word for word in re.findall(r"[A-Za-z][A-Za-z_]+", text) if word not in CODES]


SCORES = {"1-0": (Fraction(1), Fraction(0)), "0-1": (Fraction(0), Fraction(1)), "½-½": (Fraction(1, 2),) * 2}
SYMBOLS = {Fraction(1): "1", Fraction(0): "0", Fraction(1, 2): "½"}


@pytest.fixture
def arbiter(browser: Browser, server: Server) -> Page:
    page = new_page(browser, locale="en-GB")
    sign_in_arbiter(page, server)
    page.goto(f"{server.url}/language?lang=en&next=/tournaments")
    return page


def create_tournament(page: Page, server: Server) -> str:
    page.goto(f"{server.url}/tournaments/new")
    page.fill("input[name=name]", "Кубок клуба 2026")
    page.select_option("select[name=system]", "round_robin")
    page.fill("input[name=rounds]", "")
    page.check("input[name=control][value=rapid]")
    page.fill("input[name=venue]", "Алматы")
    page.click("form button[type=submit].primary")
    page.wait_for_url(re.compile(r"/tournaments/[^/]+$"))
    no_error(page)
    tid = page.url.rstrip("/").rsplit("/", 1)[-1]
    for name, rating in PLAYERS:
        add = page.locator("details.form", has=page.locator("summary", has_text="Add a participant"))
        if add.get_attribute("open") is None:
            add.locator("summary").click()
        add.locator("input[name=name]").fill(name)
        add.locator("input[name=rating]").fill(str(rating))
        add.locator("input[name=club]").fill("Тоғыз")
        add.locator("button[type=submit]").click()
        expect(page.locator("p.notice")).to_have_text("Done.")
    no_error(page)
    expect(page.locator("table.grid tbody tr")).to_have_count(len(PLAYERS))
    return tid


def pairs_on(page: Page) -> list[tuple[int, int]]:
    """(White, Black) pairing numbers of each board of the round page's table."""
    pairs = []
    for row in page.locator("table.grid tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        numbers = [re.match(r"(\d+)\.", cell) for cell in cells[1:3]]
        if all(numbers):
            pairs.append((int(numbers[0].group(1)), int(numbers[1].group(1))))  # type: ignore[union-attr]
    return pairs


def test_a_round_robin_of_six_paired_played_and_printed(browser: Browser, server: Server, arbiter: Page) -> None:
    tid = create_tournament(arbiter, server)
    points: dict[int, Fraction] = defaultdict(Fraction)
    results: dict[tuple[int, int], Fraction] = {}
    met: set[frozenset[int]] = set()
    arbiter.goto(f"{server.url}/tournaments/{tid}")
    for number in range(1, ROUNDS + 1):
        arbiter.locator("button", has_text=f"Pair round {number}").click()
        arbiter.wait_for_url(re.compile(rf"/rounds/{number}$"))
        expect(arbiter.locator("h1")).to_have_text(f"Round {number} — not published")
        expect(arbiter.get_by_text("Paired by the Berger tables.")).to_be_visible()
        arbiter.locator("button", has_text="Publish the pairing").click()
        expect(arbiter.locator("h1")).to_have_text(f"Round {number}")
        pairs = pairs_on(arbiter)
        assert len(pairs) == 3 and sorted(n for pair in pairs for n in pair) == [1, 2, 3, 4, 5, 6]
        for board, (white, black) in enumerate(pairs, start=1):
            assert frozenset((white, black)) not in met, "a round robin pairs each two players once"
            met.add(frozenset((white, black)))
            result = result_for(white, black)
            row = arbiter.locator("table.grid tbody tr").nth(board - 1)
            row.locator("select[name^=result_]").select_option(result)
            arbiter.locator("#round-results button[type=submit]").click()
            expect(arbiter.locator("table.grid tbody tr").nth(board - 1).locator("td").nth(3)).to_have_text(result)
            no_error(arbiter)
            white_score, black_score = SCORES[result]
            points[white] += white_score
            points[black] += black_score
            results[white, black], results[black, white] = white_score, black_score
        if number == 3:
            screenshot(arbiter, "tournament-round-results")
    assert len(met) == 15
    expect(arbiter.locator("button", has_text="Pair round 6")).to_have_count(0)

    arbiter.locator("nav.tnav a", has_text="Standings").click()
    expect(arbiter.locator("table.standings tbody tr")).to_have_count(6)
    leader = max(points, key=lambda player: points[player])
    first = arbiter.locator("table.standings tbody tr").first.locator("td").all_inner_texts()
    assert first[0] == "1" and int(first[1]) == leader and first[3] == format_points(points[leader])
    screenshot(arbiter, "tournament-standings")

    # The print view: a self-contained page with the grid.
    arbiter.locator("a", has_text="Print view").click()
    arbiter.wait_for_url(re.compile(r"standings\?print=1$"))
    grid = arbiter.locator("table.crosstable")
    expect(grid.locator("tbody tr")).to_have_count(6)
    headers = grid.locator("thead th").all_inner_texts()
    assert headers[:4] == ["Rank", "No", "Name", "Rating"] and headers[4:10] == ["1", "2", "3", "4", "5", "6"]
    assert headers[10] == "Points"
    order: list[int] = []
    rows = [row.locator("td").all_inner_texts() for row in grid.locator("tbody tr").all()]
    for cells in rows:
        order.append(int(cells[1]))
        assert cells[2] == PLAYERS[int(cells[1]) - 1][0]
    for index, cells in enumerate(rows):
        player = order[index]
        assert cells[10] == format_points(points[player]), (player, cells)
        for column, opponent in enumerate(order):
            expected = "×" if opponent == player else SYMBOLS[results[player, opponent]]
            assert cells[4 + column] == expected, (player, opponent, cells)
    assert [Fraction(cells[10]) for cells in rows] == sorted((Fraction(cells[10]) for cells in rows), reverse=True)
    assert sum(points.values()) == 15
    arbiter.set_viewport_size({"width": 720, "height": 260})
    screenshot(arbiter, "tournament-crosstable-print")

    # The same tournament read in Kazakh and Russian (a refused import too): not one English word.
    arbiter.set_viewport_size({"width": 1280, "height": 860})
    for language in ("kk", "ru"):
        arbiter.goto(f"{server.url}/tournaments/{tid}?lang={language}")
        import_form = arbiter.locator("details.form", has=arbiter.locator("form[action$='/do/import']"))
        import_form.locator("summary").click()
        import_form.locator("textarea[name=csv]").fill("name,rating\nАбай,1500\n,x\nБолат,1,2\n")
        import_form.locator("button[type=submit]").click()
        alert = arbiter.locator(".error[role=alert]")
        expect(alert.locator("li")).to_have_count(3)  # line 3: no name, no number; line 4: too many cells
        assert not english_words(alert.inner_text()), alert.inner_text()
        screenshot(arbiter, f"tournament-import-refused-{language}")
        for page, name in (("standings", "standings"), ("audit", "audit"), ("rounds/1", "round")):
            arbiter.goto(f"{server.url}/tournaments/{tid}/{page}")
            text = arbiter.locator("main").inner_text()
            assert not english_words(text), (language, page, english_words(text))
            screenshot(arbiter, f"tournament-{name}-{language}")
        arbiter.goto(f"{server.url}/tournaments/{tid}/standings?print=1")
        assert arbiter.locator("html").get_attribute("lang") == language
        assert not english_words(arbiter.locator("body").inner_text())
