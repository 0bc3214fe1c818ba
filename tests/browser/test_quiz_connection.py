"""The room hears the phones (issue 14 §3), in real browsers on a real server: the host's console shows each phone's
connection (live, lost, last seen) and its measured round trip; a phone in Kazakh that loses its link says
«Байланыс жоқ» within 2 s, and a press made while offline is not sent (the phone says so) — never accepted later.

The phone's link is cut without closing its socket, as a dead Wi-Fi does: its WebSocket goes through Playwright's
``route_web_socket``, which stops passing frames either way when told to.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from playwright.sync_api import Browser, Locator, Page, WebSocketRoute, expect

from .conftest import ROOT, Server, new_page, screenshot, sign_in_arbiter
from .test_quiz_game import PHONE, create_game

TEAMS = ("Алтын", "Барыс", "Сұңқар")
SCREENSHOTS = ROOT / "docs" / "screenshots"


class Link:
    """A phone's WebSocket, passed through frame by frame until it is cut."""

    def __init__(self) -> None:
        self.cut = False

    def route(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()

        def to_server(message: str | bytes) -> None:
            if not self.cut:
                server_side.send(message)

        def to_page(message: str | bytes) -> None:
            if not self.cut:
                page_side.send(message)

        page_side.on_message(to_server)
        server_side.on_message(to_page)


def row(host: Page, team: str) -> Locator:
    return host.locator(".q-connections tbody tr").filter(has_text=team)


def test_the_host_sees_each_phones_link_and_a_kazakh_phone_says_when_it_has_none(
    browser: Browser, server: Server, shared_data: Path
) -> None:
    arbiter = new_page(browser, locale="en-GB", viewport={"width": 1366, "height": 900})
    phone = new_page(browser, locale="kk-KZ", **PHONE)
    other = new_page(browser, locale="ru-RU", **PHONE)
    try:
        sign_in_arbiter(arbiter, server)
        game = create_game(arbiter, server, shared_data / "quiz" / "siq" / "1.siq", "qualifying", TEAMS)
        link = Link()
        phone.route_web_socket(re.compile(r"/ws/rooms/"), link.route)
        phone.goto(f"{server.url}/j/{game.codes[TEAMS[0]]}")
        other.goto(f"{server.url}/j/{game.codes[TEAMS[1]]}")
        for page, team in ((phone, TEAMS[0]), (other, TEAMS[1])):
            expect(page.locator(".q-team-name")).to_have_text(team)
            expect(page.locator(".q-connection")).to_have_attribute("data-status", "online")
        host = arbiter
        host.goto(game.links["host"].replace("?token=", "?lang=en&token="))
        panel = host.locator(".q-connections")
        expect(panel.locator("h2")).to_have_text("Connections")
        for team in TEAMS[:2]:
            expect(row(host, team).locator(".q-link-status")).to_have_text("connected")
            expect(row(host, team).locator(".q-link-delay")).to_have_text(re.compile(r"^\d+ ms$"))
        expect(row(host, TEAMS[2]).locator(".q-link-status")).to_have_text("not connected")

        # Open the buttons: the host draws the first chooser and picks a question (reading starts).
        host.keyboard.press("d")
        cell = host.locator('.q-grid button.q-cell[data-key="0:1"]')
        cell.focus()
        host.keyboard.press("Enter")
        expect(host.locator(".q-status")).to_have_text("Reading")
        expect(phone.locator("#quiz")).to_have_class(re.compile(r"\bstate-open\b"))

        # The Wi-Fi dies: nothing passes, the socket stays open.
        link.cut = True
        lost_at = time.monotonic()
        expect(phone.locator(".q-connection")).to_have_text("Байланыс жоқ", timeout=2_000)
        noticed = time.monotonic() - lost_at
        assert noticed < 2.0, noticed
        # A press made now goes nowhere; when the phone gives the dead socket up, it says the press was not sent
        # (in Kazakh) and does not send it again on the new one.
        phone.locator("#buzz").tap()
        expect(phone.locator(".q-buzzer-info")).to_have_text("Байланыс жоқ: басу жіберілмеді", timeout=10_000)
        expect(host.locator(".q-presses")).to_have_text("")
        phone_shot = screenshot(phone, "quiz-phone-no-connection-kk")
        # The host sees the phone lost, and since when.
        lost_row = row(host, TEAMS[0])
        lost = re.compile(r"^connection lost · last seen \d+ s ago$")
        expect(lost_row.locator(".q-link-status")).to_have_text(lost, timeout=6_000)
        expect(row(host, TEAMS[1]).locator(".q-link-status")).to_have_text("connected")
        expect(row(host, TEAMS[1]).locator(".q-link-suspect")).to_have_text("")
        host_shot = screenshot(host, "quiz-host-connections")
        # The link comes back: the phone reconnects on its own and the host sees it live again.
        link.cut = False
        expect(phone.locator(".q-connection")).to_have_attribute("data-status", "online", timeout=15_000)
        expect(lost_row.locator(".q-link-status")).to_have_text("connected", timeout=6_000)
        # The projector's keyboard buzzers (issue 13 §4): off as the form left them; the host switches them on.
        switch = host.locator(".q-projector-keys")
        expect(switch).not_to_be_checked()
        switch.check()
        host.reload()
        expect(host.locator(".q-projector-keys")).to_be_checked()
        report = host.request.get(f"{server.url}/api/quiz/{game.room_id}/report").json()
        assert report["questions"][0]["presses"] == []  # the offline press never reached the room
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        for shot in (phone_shot, host_shot):
            shutil.copy(shot, SCREENSHOTS / shot.name)
    finally:
        for page in (arbiter, phone, other):
            page.context.close()
