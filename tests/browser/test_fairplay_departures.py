"""The fair-play report and the departures from the regulation in a real browser (issues 28, 29), in Kazakh and
Russian at a laptop's and a phone's size: the arbiter asks for the report, watches its progress and reads it; a late
entry and an expulsion each ask for the confirmation and a written reason, the level shown (warning, serious), and
the audit log lists both with their levels."""

from __future__ import annotations

import html
import re

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from toreshi.togyz.position import Position

from .conftest import Server, new_page, no_error, screenshot, session_csrf, sign_in_arbiter

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
PLAYERS = ["Асқар Жұмабаев", "Бекзат Нұров", "Гүлнар Әлиева", "Дәурен Сейітов", "Ерлан Омаров", "Жанар Қасымова"]
PLIES = 40
ENGLISH = re.compile(r"\b(the|engine|report|moves?|field|level|reason|confirm|warning|departure)\b", re.I)


def _moves(seed: int) -> list[int]:
    position, moves = Position(), list[int]()
    for ply in range(PLIES):
        legal = position.legal_moves()
        if not legal or position.is_game_over():
            break
        hole = legal[(seed * 7 + ply * 3) % len(legal)]
        position.play(hole)
        moves.append(hole)
    return moves


class Desk:
    def __init__(self, page: Page, server: Server) -> None:
        self.page, self.server = page, server
        self.csrf = session_csrf(page, server)

    def post(self, path: str, **form: str) -> str:
        response = self.page.request.post(f"{self.server.url}{path}", form={**form, "csrf": self.csrf},
                                          headers={"origin": self.server.url})  # fmt: skip
        assert response.ok, response.text()
        return html.unescape(response.text())


def _play(browser: Browser, server: Server, arbiter: Page, white_url: str, black_url: str, moves: list[int]) -> None:
    """Both players open their links; the arbiter starts the clocks; the players' clients play ``moves``, then Black
    resigns."""
    room = white_url.split("/games/")[1].split("?")[0]
    players = {side: new_page(browser, viewport=LAPTOP) for side in ("white", "black")}
    players["white"].goto(white_url)
    players["black"].goto(black_url)
    arbiter.goto(f"{server.url}/games/{room}")
    expect(arbiter.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    arbiter.locator("#console [data-cmd=start]").click()
    for page in players.values():
        expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    script = """async ([role, hole]) => {
        const client = window.toreshiGame.clients.find((c) => c.role === role);
        await client.command(hole === 0 ? "resign" : "move", hole === 0 ? {} : { hole });
    }"""
    for number, hole in enumerate(moves):
        side = "white" if number % 2 == 0 else "black"
        players[side].evaluate(script, [side, hole])
    players["black"].evaluate(script, ["black", 0])
    expect(players["white"].locator("#result")).to_be_visible()
    for page in players.values():
        page.context.close()


@pytest.fixture(scope="module")
def tournament(browser: Browser, server: Server) -> tuple[Page, str]:
    arbiter = new_page(browser, viewport=LAPTOP)
    sign_in_arbiter(arbiter, server)
    desk = Desk(arbiter, server)
    form = {"name": "Тараз кубогы", "system": "swiss_dutch", "rounds": "3", "control": "blitz", "fee": "1000",
            "currency": "KZT"}  # fmt: skip
    response = arbiter.request.post(f"{server.url}/tournaments/new", form={**form, "csrf": desk.csrf},
                                    headers={"origin": server.url}, max_redirects=0)  # fmt: skip
    tid = response.headers["location"].rsplit("/", 1)[-1]
    for index, name in enumerate(PLAYERS):
        desk.post(f"/tournaments/{tid}/do/add-participant", name=name, rating=str(1900 - 20 * index))
    desk.post(f"/tournaments/{tid}/do/configure", name="Тараз кубогы", late_entry_until="3")
    desk.post(f"/tournaments/{tid}/do/pair")
    desk.post(f"/tournaments/{tid}/do/publish")
    sheet = desk.post(f"/tournaments/{tid}/rounds/1/games", control="blitz")
    blocks = sheet.split('<div class="sheet-board" id="board-')[1:]
    assert len(blocks) == len(PLAYERS) // 2, sheet
    for block in blocks:
        board = int(block.split('"', 1)[0])
        links = re.findall(r'href="([^"]*/games/g-[0-9a-f]+\?token=[^"]+)"', block)
        _play(browser, server, arbiter, links[0], links[1], _moves(board))
    desk.post(f"/tournaments/{tid}/collect")
    return arbiter, tid


@pytest.mark.parametrize(("language", "size"), [("kk", "desktop"), ("ru", "phone")])
def test_the_arbiter_asks_for_the_fair_play_report_and_reads_it(
    tournament: tuple[Page, str], server: Server, language: str, size: str
) -> None:
    arbiter, tid = tournament
    arbiter.set_viewport_size(LAPTOP if size == "desktop" else PHONE)
    arbiter.goto(f"{server.url}/tournaments/{tid}/fairplay?lang={language}")
    no_error(arbiter)
    arbiter.locator("form[action$='/fairplay'] button[type=submit]").click()
    progress = arbiter.locator("progress")
    if progress.count():  # the engine is still at work: the page shows how far (it reloads itself until done)
        expect(arbiter.locator("form[action$='/fairplay'] button[type=submit]")).to_be_disabled()
        screenshot(arbiter, f"arbiter-tournament-fairplay-progress-{language}-{size}")
    expect(arbiter.locator("table.fairplay").first).to_be_visible(timeout=120_000)  # reloaded until ready
    no_error(arbiter)
    expect(arbiter.locator("table.fairplay").first.locator("tbody tr")).to_have_count(len(PLAYERS) + 1)
    text = arbiter.locator("main").inner_text()
    assert not ENGLISH.search(text), ENGLISH.search(text)
    assert arbiter.evaluate("document.documentElement.scrollWidth") <= (LAPTOP if size == "desktop" else PHONE)["width"]
    if size == "phone":
        arbiter.locator("#players-heading").scroll_into_view_if_needed()
    screenshot(arbiter, f"arbiter-tournament-fairplay-report-{language}-{size}")
    arbiter.locator("table.fairplay").nth(1).scroll_into_view_if_needed()
    screenshot(arbiter, f"arbiter-tournament-fairplay-games-{language}-{size}")
    # Nobody else sees it: no link in the public menu, the page sends a visitor to sign in.
    visitor = new_page(arbiter.context.browser, viewport=PHONE)  # type: ignore[arg-type]
    visitor.goto(f"{server.url}/tournaments/{tid}/fairplay?lang={language}")
    assert "/login" in visitor.url
    visitor.goto(f"{server.url}/tournaments/{tid}?lang={language}")
    expect(visitor.locator("a[href$='/fairplay']")).to_have_count(0)
    visitor.context.close()


@pytest.mark.parametrize(("language", "size"), [("kk", "desktop"), ("ru", "phone")])
def test_a_late_entry_asks_for_confirmation_and_an_expulsion_for_a_reason(
    tournament: tuple[Page, str], server: Server, language: str, size: str
) -> None:
    arbiter, tid = tournament
    arbiter.set_viewport_size(LAPTOP if size == "desktop" else PHONE)
    arbiter.goto(f"{server.url}/tournaments/{tid}?lang={language}")
    form = arbiter.locator(f"form[action='/tournaments/{tid}/do/add-participant']")
    form.locator("xpath=ancestor::details").locator("summary").click()
    form.locator("input[name=name]").fill(f"Кеш {language}")
    form.locator("button[type=submit]").click()
    warning = arbiter.locator("section.departure")
    expect(warning).to_be_visible()
    assert not ENGLISH.search(arbiter.locator("main").inner_text())
    expect(arbiter.locator("section.departure.level-warning")).to_be_visible()  # the level shown
    screenshot(arbiter, f"arbiter-tournament-departure-confirm-{language}-{size}")
    arbiter.locator("input[name=confirmed]").check()
    arbiter.locator("form.form button[type=submit]").click()
    assert arbiter.locator("textarea[name=reason]").evaluate("(box) => box.validity.valueMissing")  # and a reason
    arbiter.locator("textarea[name=reason]").fill("пойыз кешікті" if language == "kk" else "опоздал поезд")
    arbiter.locator("form.form button[type=submit]").click()
    expect(arbiter.locator("p.notice")).to_be_visible()
    screenshot(arbiter, f"arbiter-tournament-departure-done-{language}-{size}")
    expect(arbiter.locator("main")).to_contain_text(f"Кеш {language}")
    # An expulsion without a reason: the warning asks for one; a wrong (empty) reason is refused by the browser.
    number = 1 if language == "kk" else 2
    arbiter.goto(f"{server.url}/tournaments/{tid}?lang={language}")
    leave = arbiter.locator(f"form[action='/tournaments/{tid}/do/withdraw']").nth(number - 1)
    leave.locator("xpath=ancestor::details").locator("summary").click()
    leave.locator(f"button[formaction='/tournaments/{tid}/do/expel']").click()
    expect(arbiter.locator("section.departure.level-serious")).to_be_visible()
    reason = arbiter.locator("textarea[name=reason]")
    screenshot(arbiter, f"arbiter-tournament-departure-reason-{language}-{size}")
    arbiter.locator("form.form button[type=submit]").click()
    assert reason.evaluate("(box) => box.validity.valueMissing")  # not sent without a reason
    reason.fill("төрешіні қорлады" if language == "kk" else "оскорбил судью")
    arbiter.locator("form.form button[type=submit]").click()
    confirmed = arbiter.locator("input[name=confirmed]")
    assert confirmed.evaluate("(box) => box.validity.valueMissing")  # and the confirmation, both asked
    confirmed.check()
    arbiter.locator("form.form button[type=submit]").click()
    expect(arbiter.locator("p.notice")).to_be_visible()
    arbiter.goto(f"{server.url}/tournaments/{tid}/audit?lang={language}")
    departures = arbiter.locator("section.departures")
    expect(departures).to_contain_text("оскорбил судью" if language == "ru" else "төрешіні қорлады")
    assert not ENGLISH.search(departures.inner_text())
    screenshot(arbiter, f"arbiter-tournament-departures-audit-{language}-{size}")
