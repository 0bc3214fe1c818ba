"""axe-core over every page of the page walk, in Kazakh and Russian: no critical and no serious violation (issue 30).

The pages are those of ``test_page_walk.py`` (built by its helpers on a server of this module), plus the screens a
phone opens (a team's buzzer after joining, a player's own game link) and the live togyz game page. Each distinct page
is checked once per language at one size, so the check stays a fraction of the walk's time. axe-core's script ships
inside the ``axe-playwright-python`` wheel: no network at run time.

A violation is a rule of axe's ``impact`` "critical", "serious" or "moderate" on a page, unless that rule is in
``ACCEPTED`` for that page kind, with its reason (no critical or serious one is). Every finding is counted by rule and
page and printed (``-s``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, create_game, new_page, play_hole
from .test_page_walk import LANGUAGES, _create_quiz, _create_team_event, _create_tour, _create_tournament

DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
FAILING = ("critical", "serious")
"""What issue 30 forbids on every page; moderate findings fail too (a page kind can accept them below)."""

ACCEPTED: dict[str, dict[str, str]] = {
    # No critical or serious finding is accepted anywhere.
    "/tournaments/{tid}/standings?print=1": {
        "landmark-one-main": "moderate: the crosstable as filed with the federation, a document of its own for paper "
        "(no site menu, header or footer to skip); its structure is its headings and its one table",
        "region": "moderate: the same document; with no landmarks at all, axe counts each of its parts as outside one",
    },
}
"""Page kind → {axe rule id → why the finding is accepted}. A page kind is its path with the ids taken out."""

AXE_OPTIONS = {
    "resultTypes": ["violations"],
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
}


def page_kind(path: str, secrets: dict[str, str]) -> str:
    """``/tournaments/t-x1y2/rounds/1`` → ``/tournaments/{tid}/rounds/1``: the exceptions are per kind of page."""
    kind = path
    for name, secret in secrets.items():
        kind = kind.replace(secret, "{" + name + "}")
    kind = re.sub(r"token=[\w-]+", "token={token}", kind)
    return re.sub(r"[?&]lang=\w+", "", kind)


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Iterator[Page]:
    from .conftest import sign_in_arbiter

    page = new_page(browser, locale="en-GB")
    sign_in_arbiter(page, server)
    yield page
    page.context.close()


def _check(axe: Axe, page: Page, url: str, language: str, ready: str = "") -> list[dict[str, Any]]:
    separator = "&" if "?" in url else "?"
    page.goto(f"{url}{separator}lang={language}")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(150)  # the room scripts draw once their socket has its first state
    if ready:
        page.locator(ready).filter(has_text=re.compile(".")).first.wait_for()
    violations: list[dict[str, Any]] = axe.run(page, options=AXE_OPTIONS).response["violations"]
    return violations


def test_no_serious_accessibility_violation(browser: Browser, server: Server, arbiter: Page) -> None:
    axe = Axe()
    game = create_game(arbiter, server, white="Абай Құнанбаев", black="Болат Серікұлы")
    room = str(game["id"])
    tid = _create_tournament(arbiter, server)
    quiz, codes, (host, projector, assistant, spectator) = _create_quiz(arbiter, server)
    teams = _create_team_event(arbiter, server)
    tour = _create_tour(arbiter, server)
    code = next(iter(codes.values()))
    secrets = {"room": room, "tid": tid, "quiz": quiz, "teams": teams, "tour": tour, "code": code}
    white = str(game["links"]["white"])
    white_url = white if "://" in white else server.url + white
    secrets["token"] = white_url.rsplit("/", 1)[-1].split("?")[0]

    # The walk's pages (its not-found page is left to the error pages' own tests).
    arbiter_pages = [
        "/", "/games/new", f"/games/{room}/links", f"/games/{room}", f"/games/{room}/replay", f"/games/{room}/sheet",
        "/tournaments", "/tournaments/new", f"/tournaments/{tid}", f"/tournaments/{tid}/settings",
        f"/tournaments/{tid}/rounds/1", f"/tournaments/{tid}/standings", f"/tournaments/{tid}/standings?print=1",
        f"/tournaments/{tid}/protests", f"/tournaments/{tid}/audit", f"/tournaments/{tid}/rounds/1/live",
        "/quiz", "/quiz/new", f"/quiz/{quiz}/links", f"/quiz/{quiz}/report",
        f"/tournaments/{tid}/forbidden", f"/tournaments/{tid}/rounds/1/links", f"/tournaments/{tid}/check-in",
        f"/tournaments/{tid}/fairplay",
        f"/tournaments/{tid}/player-links",
        "/teams", f"/teams/{teams}", f"/teams/{teams}/standings", f"/teams/{teams}/audit",
        "/quiz/teams", "/quiz/tours", "/quiz/tours/new", f"/quiz/tours/{tour}", "/quiz/league", "/practice",
    ]  # fmt: skip
    counts: dict[str, dict[str, int]] = {}
    failures: list[str] = []

    def judge(path: str, language: str, violations: list[dict[str, Any]]) -> None:
        kind = page_kind(path, secrets)
        accepted = ACCEPTED.get(kind, {})
        tally = counts.setdefault(f"{language} {kind}", {})
        for violation in violations:
            impact = str(violation.get("impact"))
            name = f"{impact} {violation['id']}"
            tally[name] = tally.get(name, 0) + len(violation["nodes"])
            if impact in FAILING and violation["id"] not in accepted:
                targets = [node["target"] for node in violation["nodes"][:3]]
                failures.append(f"{language} {kind}: {impact} {violation['id']} ×{len(violation['nodes'])} {targets}")

    for language in LANGUAGES:
        # One size per language keeps this to one pass per page and language: Kazakh at a desktop's size in the light
        # colour scheme, Russian at a phone's (where wide tables scroll inside their own box) in the dark one.
        arbiter.set_viewport_size(DESKTOP if language == "kk" else PHONE)
        arbiter.emulate_media(color_scheme="light" if language == "kk" else "dark")
        for path in arbiter_pages:
            judge(path, language, _check(axe, arbiter, f"{server.url}{path}", language))
        for url in (host, projector, assistant, spectator):
            judge(url.replace(server.url, ""), language, _check(axe, arbiter, url, language))
        phone = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
        # The join link joins at once: the page is the team's buzzer.
        judge(f"/j/{code}", language, _check(axe, phone, f"{server.url}/j/{code}", language, ready=".q-team-name"))
        judge(white_url.replace(server.url, ""), language, _check(axe, phone, white_url, language))
        phone.context.close()
    for page, tally in sorted(counts.items()):
        if tally:
            print(page, dict(sorted(tally.items())))
    assert not failures, "axe finds {} violations:\n{}".format(len(failures), "\n".join(failures))


def serious(axe: Axe, page: Page) -> list[str]:
    """The critical and serious findings of axe on the page as it is now."""
    violations = axe.run(page, options=AXE_OPTIONS).response["violations"]
    return [f"{found['id']} {[node['target'] for node in found['nodes'][:3]]}" for found in violations
            if found.get("impact") in FAILING]  # fmt: skip


def test_the_board_tells_a_screen_reader_the_move_played(browser: Browser, server: Server, arbiter: Page) -> None:
    """A move played on one player's phone is said on the other's (a live region, in that page's language), and the
    board in play, its holes buttons, passes axe."""
    game = create_game(arbiter, server)
    links = game["links"]
    white = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    white.goto(f"{links['white']}&lang=kk")
    black = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    black.goto(f"{links['black']}&lang=ru")
    for page in (white, black):
        expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    arbiter.goto(f"{server.url}/games/{game['id']}?lang=en")
    arbiter.locator("#console [data-cmd=start]").click()
    expect(white.locator("button.hole.legal").first).to_be_visible()
    assert serious(Axe(), white) == []
    news = black.locator("#board-news")
    expect(news).to_have_attribute("aria-live", "polite")
    expect(news).to_be_empty()  # nothing is said for what the page showed when it opened
    play_hole(white, "white", 7)
    expect(news).to_have_text(re.compile(r"^Абай \(Белые\): ход 7"))
    for page in (white, black):
        page.context.close()


def test_the_buzzer_tells_a_screen_reader_it_opened(browser: Browser, server: Server, arbiter: Page) -> None:
    """When the host opens the buzzers, a team's phone says so in a live region, in the phone's language."""
    _quiz, codes, (host, *_screens) = _create_quiz(arbiter, server)
    phone = new_page(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    phone.goto(f"{server.url}/j/{next(iter(codes.values()))}?lang=kk")
    expect(phone.locator(".q-connection")).to_have_attribute("data-status", "online")
    news = phone.locator(".q-buzzer-news")
    expect(news).to_have_attribute("aria-live", "assertive")
    arbiter.goto(host.replace("?token=", "?lang=en&token="))
    expect(arbiter.locator(".q-connection")).to_have_attribute("data-status", "online")
    arbiter.keyboard.press("d")  # the lot
    expect(arbiter.locator(".q-status")).to_have_text(re.compile(r"chooses$"))
    arbiter.locator('.q-grid button.q-cell[data-key="0:1"]').focus()
    arbiter.keyboard.press("Enter")
    expect(phone.locator("#quiz")).to_have_class(re.compile(r"\bstate-open\b"))
    button_text = phone.locator("#buzz").text_content() or ""
    assert button_text and not re.search("[A-Za-z]", button_text)
    expect(news).to_have_text(button_text)
    assert serious(Axe(), phone) == []
    phone.context.close()
