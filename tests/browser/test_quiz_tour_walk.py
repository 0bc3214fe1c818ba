"""A tour of 8 teams walked as a host walks it, in Kazakh and in Russian, with the screens kept (issue 31 §4).

The arbiter registers the 8 teams, creates the tour with two packs, seeds it by hand and makes the rooms through the
pages; the first game is watched on its projector (1920×1080) and on a team's phone (390×844) while its questions
are played over the sockets the host console and the phones use; halfway, the host takes a mistaken question back
with the console's history list («undo to here», the app's own dialog) and every screen follows; the tie the first
game makes creates its shootout room by itself; the final is struck from 11 themes to 5; the tour standings and the
league table close the walk. Each main step is kept in ``docs/screenshots/quiz-walk-<lang>-<step>-<size>.png``.
"""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import ROOT, Server, new_page, screenshot, sign_in_arbiter
from .test_quiz_tour import PACK_DIR, PACKS, TEAMS, Room, Seat, play, room_links

DOCS = ROOT / "docs" / "screenshots"
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LOCALES = {"kk": "kk-KZ", "ru": "ru-RU"}


def keep(page: Page, lang: str, step: str, size: str) -> None:
    """The screenshot of a main step, kept for the docs (and in the CI's artifacts)."""
    name = f"quiz-walk-{lang}-{step}-{size}"
    DOCS.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(screenshot(page, name), DOCS / f"{name}.png")


def question(host: Seat, seat: Seat, theme: int, value: int) -> None:
    """The host chooses, reads, ``seat``'s team presses first and is right."""
    host.must("choose", {"theme": theme, "value": value})
    host.must("finish_reading")
    seat.must("press")
    host.until(lambda state: state["status"] == "answering")
    host.must("right")
    host.until(lambda state: state["status"] != "answering")


def first_game(browser: Browser, server: Server, lang: str, room: Room, teams: list[str], arbiter: Page) -> None:
    """The first game on its screens: a, a, a, b, c by theme — b and c level on 15 for the second place."""
    locale = LOCALES[lang]
    projector = new_page(browser, viewport=PROJECTOR, locale=locale)
    projector.goto(f"{server.url}/quiz/{room.room_id}/board?token={room.projector}&lang={lang}")
    phone = new_page(browser, viewport=PHONE, locale=locale, has_touch=True, is_mobile=True)
    a, b, c, _d = teams
    phone.goto(f"{server.url}/quiz/{room.room_id}/buzzer?token={room.teams[a]}&lang={lang}")
    host = Seat(server, room.room_id, room.host)
    seats = {team: Seat(server, room.room_id, secret) for team, secret in room.teams.items()}
    assistant = Seat(server, room.room_id, room.assistant)
    try:
        host.must("draw", {"team": a})
        host.until(lambda state: state["status"] == "choosing")
        expect(projector.locator(".q-grid .q-cell").first).to_be_visible()
        keep(projector, lang, "01-board", "1920")
        keep(phone, lang, "01-buzzer-waiting", "390")
        # The first question: the phone is told it is its turn, the projector lights the team.
        host.must("choose", {"theme": 0, "value": 1})
        host.must("finish_reading")
        expect(phone.locator("#buzz")).to_be_enabled()
        keep(phone, lang, "02-buzzer-open", "390")
        seats[a].must("press")
        host.until(lambda state: state["status"] == "answering")
        expect(phone.locator(".q-buzzer")).to_have_class(re.compile("state-your_turn"))
        keep(phone, lang, "03-buzzer-your-turn", "390")
        keep(projector, lang, "03-answering", "1920")
        host.must("right")
        host.until(lambda state: state["status"] != "answering")
        # The host's mistake: the 2 of the first theme ruled for the wrong team (c instead of a); the console's
        # history list takes the game back to the moment after the first question.
        question(host, seats[c], 0, 2)
        console = new_page(browser, viewport=DESKTOP, locale=locale)
        console.goto(f"{server.url}/quiz/{room.room_id}/host?token={room.host}&lang={lang}")
        console.locator(".q-history summary").click()
        points = console.locator(".q-history-point")
        expect(points.first.locator(".q-undo-to")).to_be_visible()
        # newest first: the moment after question 1 (question 2's end is now: nothing to undo there)
        target = points.first
        expect(target.locator(".q-history-scores")).to_contain_text(f"{a} 1, {teams[1]} 0, {c} 0")
        keep(console, lang, "04-host-history", "1280")
        target.locator(".q-undo-to").click()
        dialog = console.locator("dialog.q-dialog")
        expect(dialog).to_be_visible()
        keep(console, lang, "05-host-undo-dialog", "1280")
        dialog.locator("button.primary").click()
        host.until(lambda state: {t["name"]: t["score"] for t in state["teams"]}[c] == 0)
        expect(projector.locator(".q-grid .q-row").first.locator(".q-cell").nth(1)).to_have_text("2")  # open again
        keep(projector, lang, "06-after-undo", "1920")
        console.close()
        question(host, seats[a], 0, 2)  # played again, rightly
        plan = [a, a, a, b, c]
        for theme in range(5):
            for value in range(1, 6):
                if (theme, value) in ((0, 1), (0, 2)):
                    continue
                answer = host.send("choose", {"theme": theme, "value": value})
                if answer["t"] == "refused" and "score" in answer["code"]:
                    assistant.must("announce_score")  # before the last question (SI-4.7)
                    answer = host.send("choose", {"theme": theme, "value": value})
                assert answer["t"] == "ack", answer
                host.must("finish_reading")
                seats[plan[theme]].must("press")
                host.until(lambda state: state["status"] == "answering")
                host.must("right")
                host.until(lambda state: state["status"] != "answering")
        assert {t["name"]: t["score"] for t in host.state["teams"]} == {a: 45, b: 15, c: 15, teams[3]: 0}
    finally:
        for seat in (host, assistant, *seats.values()):
            seat.close()
    # The last answer stays up for 8 s, then who advances and who plays a shootout.
    expect(projector.locator(".q-final")).to_be_visible(timeout=15_000)
    expect(projector.locator(f'.q-final-team[data-team="{b}"]')).to_have_attribute("data-outcome", "shootout")
    keep(projector, lang, "07-end-of-game", "1920")
    keep(phone, lang, "07-buzzer-end", "390")
    projector.context.close()
    phone.context.close()
    arbiter.bring_to_front()


@pytest.mark.parametrize("lang", ["kk", "ru"])
def test_a_tour_of_8_teams_walked_in_kazakh_and_russian(browser: Browser, server: Server, lang: str) -> None:
    locale = LOCALES[lang]
    arbiter = new_page(browser, viewport=DESKTOP, locale=locale)
    sign_in_arbiter(arbiter, server)
    arbiter.goto(f"{server.url}/quiz/teams?lang={lang}")
    lines = ["name,players,contact"] + [f"{team},{team} 1;{team} 2,+7 700 000 00 {i:02}" for i, team in
                                         enumerate(TEAMS)]  # fmt: skip
    arbiter.fill("#csv-form textarea[name=csv_text]", "\n".join(lines))
    arbiter.locator("#csv-form button[type=submit]").click()
    expect(arbiter.locator("p.notice")).to_be_visible()
    arbiter.goto(f"{server.url}/quiz/tours/new?lang={lang}")
    arbiter.fill("input[name=name]", f"Тур {lang}")
    arbiter.fill("input[name=date]", "2026-12-01" if lang == "kk" else "2026-12-02")
    arbiter.set_input_files("input[name=pack]", [str(PACK_DIR / p) for p in PACKS])
    for box in arbiter.locator(".tour-teams input[type=checkbox]").all():
        box.check()
    keep(arbiter, lang, "00-new-tour", "1280")
    arbiter.locator("#tour-form button[type=submit]").click()
    arbiter.wait_for_url(re.compile(r"/quiz/tours/qt-[0-9a-f]+$"))
    tour_url = arbiter.url
    first_teams, second_teams = list(TEAMS[:4]), list(TEAMS[4:])
    arbiter.locator("#seed-form input[name=method][value=hand]").check()
    arbiter.fill("#seed-form textarea[name=games]", "\n".join(", ".join(g) for g in (first_teams, second_teams)))
    arbiter.locator("#seed-form button[type=submit]").click()
    arbiter.locator("#make-rooms").click()
    expect(arbiter.locator("li.tour-game a[href$='/host']")).to_have_count(2)
    keep(arbiter, lang, "00-tour-rooms", "1280")
    first_id, second_id = (
        (item.get_attribute("href") or "").split("/")[2]
        for item in arbiter.locator("li.tour-game a[href$='/host']").all()
    )
    first, second = room_links(arbiter, server, first_id), room_links(arbiter, server, second_id)
    first_game(browser, server, lang, first, first_teams, arbiter)
    e, f, g, _h = second_teams
    play(server, second, [e, e, f, f, g])

    # The tie made its shootout by itself; the tour page on a desktop and on a phone.
    arbiter.goto(f"{tour_url}?lang={lang}")
    shootout = arbiter.locator("li.tour-shootout")
    expect(shootout).to_contain_text(f"{first_teams[1]}, {first_teams[2]}")
    keep(arbiter, lang, "08-tour-shootout", "1280")
    small = new_page(browser, viewport=PHONE, locale=locale)
    small.goto(f"{tour_url}?lang={lang}")
    keep(small, lang, "08-tour-shootout", "390")
    shootout_id = (shootout.locator("a").first.get_attribute("href") or "").split("/")[2]
    play(server, room_links(arbiter, server, shootout_id), [first_teams[2]])

    # The final: 11 themes struck to 5 (SI-3.3), on its projector.
    arbiter.goto(f"{tour_url}?lang={lang}")
    arbiter.locator("#seed-form button[type=submit]").click()
    arbiter.locator("#make-rooms").click()
    final_link = arbiter.locator("section.stage").last.locator("li.tour-game a[href$='/host']")
    final_id = (final_link.get_attribute("href") or "").split("/")[2]
    final = room_links(arbiter, server, final_id)
    board = new_page(browser, viewport=PROJECTOR, locale=locale)
    board.goto(f"{server.url}/quiz/{final_id}/board?token={final.projector}&lang={lang}")
    final_teams = list(final.teams)
    winner = final_teams[-1]
    play(server, final, [winner, winner, final_teams[0], final_teams[1], final_teams[2]], strikes=6)
    expect(board.locator(".q-winner")).to_contain_text(winner, timeout=15_000)
    keep(board, lang, "09-final-winner", "1920")

    # The tour standings and the league table.
    arbiter.goto(f"{tour_url}?lang={lang}")
    expect(arbiter.locator("table.tour-places tbody tr").first).to_contain_text(winner)
    keep(arbiter, lang, "10-tour-standings", "1280")
    arbiter.goto(f"{server.url}/quiz/league?lang={lang}")
    expect(arbiter.locator("table.league tbody tr")).to_have_count(8)
    keep(arbiter, lang, "11-league", "1280")
    small.goto(f"{server.url}/quiz/league?lang={lang}")
    keep(small, lang, "11-league", "390")
    # Nothing English on a kk or ru page of the walk.
    for page in (arbiter, small):
        assert "Tour standings" not in page.content() and "League table" not in page.content()
