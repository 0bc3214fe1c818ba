"""A club's «Своя игра» tour of 8 teams in a real browser on a real server (issue 15 §4).

The arbiter types the 8 team names once (the register's CSV box), creates the tour with two packs, seeds it by
rating and creates the rooms from the tour page. The bulk of the questions is played over each room's socket with
the links the tour made (host, teams, assistant) — the same commands the host console and the phones send — while
the key screens are the browser's: the projector at the end of the first game (who advances, who plays a shootout),
the tour page with the shootout the tie made by itself, the final with its struck themes, the tour standings and the
league table with the ratings. Screenshots go to ``artifacts/screenshots/``.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import ClientConnection, connect

from .conftest import Server, new_page, screenshot, sign_in_arbiter

PACK_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "quiz" / "siq"
TEAMS = ("Алтын", "Арлан", "Барыс", "Бүркіт", "Жолбарыс", "Қыран", "Сұңқар", "Тұлпар")
PACKS = ("1.siq", "2.1.siq")
_ids = itertools.count(1)
MIN_GAP_S = 0.055


class Seat:
    """One socket into a room, as a screen of the game holds it: commands answered ack or refused."""

    def __init__(self, server: Server, room: str, token: str) -> None:
        self._held = ExitStack()
        self.ws: ClientConnection = self._held.enter_context(
            connect(f"ws://127.0.0.1:{server.port}/ws/rooms/{room}", close_timeout=1)
        )
        self._sent = 0.0
        self.ws.send(json.dumps({"t": "hello", "v": 0, "token": token}))
        self.state: dict[str, Any] = {}
        self._wait(lambda m: m["t"] == "snapshot")

    def _wait(self, done: Any) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
            if message["t"] == "ping":
                self.ws.send(json.dumps({"t": "pong", "id": message["id"], "tc": time.time() * 1000}))
            elif message["t"] == "snapshot":
                self.state = message["data"]
            elif message["t"] in ("event", "events"):
                for event in message.get("events", [message]):
                    if "state" in event["data"]:
                        self.state = event["data"]["state"]
            if done(message):
                return message

    def send(self, kind: str, data: dict[str, Any] | None = None) -> dict[str, Any]:
        # A person's commands are rate-limited (20 a second, docs/protocol.md): keep under it, as a host's hands do.
        time.sleep(max(0.0, self._sent + MIN_GAP_S - time.monotonic()))
        self._sent = time.monotonic()
        command_id = f"c{next(_ids)}"
        self.ws.send(json.dumps({"t": "cmd", "id": command_id, "type": kind, "data": data or {}}))
        return self._wait(lambda m: m.get("id") == command_id and m["t"] in ("ack", "refused", "failed"))

    def until(self, wanted: Any) -> None:
        """Read the room's messages until its state is as ``wanted``."""
        if not wanted(self.state):
            self._wait(lambda _message: wanted(self.state))

    def must(self, kind: str, data: dict[str, Any] | None = None) -> None:
        answer = self.send(kind, data)
        assert answer["t"] == "ack", (kind, data, answer)

    def close(self) -> None:
        self._held.close()


@dataclass
class Room:
    room_id: str
    host: str
    projector: str
    assistant: str
    teams: dict[str, str]
    """Team → its secret (the join code's second part)."""


def room_links(page: Page, server: Server, room_id: str) -> Room:
    """The links page the tour's rooms were made with (shown to the arbiter who made them)."""
    page.goto(f"{server.url}/quiz/{room_id}/links")
    codes = {
        card.locator("h2").inner_text(): card.locator(".join-code").inner_text()
        for card in page.locator(".team-card").all()
    }
    hrefs = page.locator("ul.plain li a").evaluate_all("links => links.map(link => link.href)")
    tokens = [parse_qs(urlparse(href).query).get("token", [""])[0] for href in hrefs[:3]]
    host, projector, assistant = tokens
    return Room(room_id, host, projector, assistant, {team: code.split("-")[1] for team, code in codes.items()})


def play(server: Server, room: Room, answers: list[str], strikes: int = 0) -> dict[str, int]:
    """The game through its sockets: the lot, the final's strikes, then every cell answered right by the planned
    team (``answers`` by the theme's position among those in play); stops when the room says the game is over."""
    host = Seat(server, room.room_id, room.host)
    seats = {team: Seat(server, room.room_id, secret) for team, secret in room.teams.items()}
    assistant = Seat(server, room.room_id, room.assistant)
    try:
        host.must("draw", {"team": host.state["teams"][0]["name"]})
        for theme in range(strikes):
            host.must("strike", {"theme": theme})
        host.until(lambda state: state["status"] == "choosing")
        in_play = [row["index"] for row in host.state["board"] if not row["struck"]]
        for position, theme in enumerate(in_play):
            for value in range(1, 6):
                if host.state["status"] == "finished":
                    break
                answer = host.send("choose", {"theme": theme, "value": value})
                if answer["t"] == "refused" and "score" in answer["code"]:
                    assistant.must("announce_score")
                    answer = host.send("choose", {"theme": theme, "value": value})
                assert answer["t"] == "ack", answer
                host.must("finish_reading")
                seats[answers[position]].must("press")
                host.until(lambda state: state["status"] == "answering")  # the arbitration's window closed
                host.must("right")
                host.until(lambda state: state["status"] != "answering")  # the ruling's events reached us
        assert host.state["status"] == "finished", host.state["status"]
        return {team["name"]: team["score"] for team in host.state["teams"]}
    finally:
        for seat in (host, assistant, *seats.values()):
            seat.close()


def tour_games(page: Page) -> list[tuple[str, list[str]]]:
    """The current stage's games on the tour page: room id and teams."""
    found = []
    for item in page.locator("section.stage").last.locator("li.tour-game").all():
        href = item.locator('a[href$="/host"]').get_attribute("href") or ""
        teams = item.inner_text().split(":", 1)[1].split("·", 1)[0]
        found.append((href.split("/")[2], [t.strip() for t in teams.split(",")]))
    return found


def test_a_tour_of_8_teams_from_the_register_to_the_league_table(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser, viewport={"width": 1280, "height": 900}, locale="ru-RU")
    sign_in_arbiter(arbiter, server)
    # The register: the 8 names are typed once, here.
    arbiter.goto(f"{server.url}/quiz/teams?lang=ru")
    lines = ["name,players,contact"] + [f"{team},{team} 1;{team} 2,+7 700 000 00 {i:02}" for i, team in
                                         enumerate(TEAMS)]  # fmt: skip
    arbiter.fill("#csv-form textarea[name=csv_text]", "\n".join(lines))
    arbiter.locator("#csv-form button[type=submit]").click()
    expect(arbiter.locator("p.notice")).to_contain_text("новых 8")
    # The tour: two packs, every team ticked, the default formula (2 from each game, a final).
    arbiter.goto(f"{server.url}/quiz/tours/new?lang=ru")
    arbiter.fill("input[name=name]", "Тур 1")
    arbiter.fill("input[name=date]", "2026-12-01")
    arbiter.set_input_files("input[name=pack]", [str(PACK_DIR / p) for p in PACKS])
    for box in arbiter.locator(".tour-teams input[type=checkbox]").all():
        box.check()
    arbiter.locator("#tour-form button[type=submit]").click()
    arbiter.wait_for_url(re.compile(r"/quiz/tours/qt-[0-9a-f]+$"))
    tour_url = arbiter.url
    arbiter.locator("#seed-form button[type=submit]").click()  # by rating (the default)
    arbiter.locator("#make-rooms").click()
    expect(arbiter.locator("p.notice")).to_contain_text("2")
    (first_id, first_teams), (second_id, second_teams) = tour_games(arbiter)
    assert sorted(first_teams + second_teams) == sorted(TEAMS)
    first, second = room_links(arbiter, server, first_id), room_links(arbiter, server, second_id)

    # The projector of the first game, open on its own screen.
    projector = new_page(browser, viewport={"width": 1920, "height": 1080}, locale="ru-RU")
    projector.goto(f"{server.url}/quiz/{first_id}/board?token={first.projector}&lang=ru")
    a, b, c, d = first_teams
    scores = play(server, first, [a, a, a, b, c])  # b and c level on 15 for the second place
    assert scores == {a: 45, b: 15, c: 15, d: 0}
    # The last question's answer stays up for 8 s (issue 31), then the end of the game.
    expect(projector.locator(".q-final")).to_be_visible(timeout=15_000)
    expect(projector.locator(f'.q-final-team[data-team="{b}"]')).to_have_attribute("data-outcome", "shootout")
    expect(projector.locator(f'.q-final-team[data-team="{a}"]')).to_have_attribute("data-outcome", "advances")
    screenshot(projector, "quiz-tour-projector-end-of-game")
    e, f, g, _h = second_teams
    play(server, second, [e, e, f, f, g])

    # The tie made its shootout room by itself, with exactly the tied teams.
    arbiter.goto(tour_url + "?lang=ru")
    shootout = arbiter.locator("li.tour-shootout")
    expect(shootout).to_contain_text(f"{b}, {c}")
    screenshot(arbiter, "quiz-tour-page-shootout")
    shootout_id = (shootout.locator("a").first.get_attribute("href") or "").split("/")[2]
    play(server, room_links(arbiter, server, shootout_id), [c])
    arbiter.goto(tour_url + "?lang=ru")
    expect(arbiter.locator("tr.outcome-shootout")).to_contain_text(c)
    expect(arbiter.locator("tr.outcome-out").filter(has_text=b)).to_have_count(1)

    # The final: seeded by rating, 11 themes struck to 5 (SI-3.3).
    arbiter.locator("#seed-form button[type=submit]").click()
    arbiter.locator("#make-rooms").click()
    ((final_id, final_teams),) = tour_games(arbiter)
    assert sorted(final_teams) == sorted([a, c, e, f])
    final = room_links(arbiter, server, final_id)
    # Audience warnings and removals on the host console (SI-4.5): warned first, then removed for the round.
    arbiter.goto(f"{server.url}/quiz/{final_id}/host?lang=ru")
    arbiter.locator(".q-audience summary").click()
    arbiter.fill(".q-audience-form input[name=person]", "Зритель в 3 ряду")
    arbiter.locator("[data-audience=warn]").click()
    expect(arbiter.locator(".q-audience-list li.q-warned")).to_have_text("Зритель в 3 ряду — предупреждён")
    arbiter.fill(".q-audience-form input[name=person]", "Зритель в 3 ряду")
    arbiter.locator("[data-audience=round]").click()
    expect(arbiter.locator(".q-audience-list li.q-removed")).to_contain_text("удалён до конца тура игр")
    board = new_page(browser, viewport={"width": 1920, "height": 1080}, locale="ru-RU")
    board.goto(f"{server.url}/quiz/{final_id}/board?token={final.projector}&lang=ru")
    winner = final_teams[-1]
    play(server, final, [winner, winner, final_teams[0], final_teams[1], final_teams[2]], strikes=6)
    expect(board.locator(".q-winner")).to_contain_text(winner, timeout=15_000)  # after the last answer (8 s)
    screenshot(board, "quiz-tour-final-projector")
    arbiter.goto(f"{server.url}/quiz/{final_id}/report?lang=ru")
    expect(arbiter.locator(".q-report-audience li")).to_have_count(2)

    # Tour standings, the league table and the ratings, updated.
    arbiter.goto(tour_url + "?lang=ru")
    expect(arbiter.locator("table.tour-places tbody tr").first).to_contain_text(winner)
    screenshot(arbiter, "quiz-tour-page")
    arbiter.goto(f"{server.url}/quiz/league?lang=ru")
    rows = arbiter.locator("table.league tbody tr")
    expect(rows).to_have_count(8)
    expect(rows.first).to_contain_text(winner)
    expect(rows.first.locator("td").nth(2)).to_have_text("8")
    expect(arbiter.locator("table.ratings tbody tr").first).to_contain_text(winner)
    screenshot(arbiter, "quiz-league-table")
