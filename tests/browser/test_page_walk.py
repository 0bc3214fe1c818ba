"""Every page of the product, read in Kazakh and Russian after its scripts have run: not one English word (issue 12 §2).

One server holds a bit of everything a club night makes: a togyz game with its links, a tournament with a paired
round, a «Своя игра» game with its screens and a phone that joined, refused forms. Each page is opened in Kazakh and
in Russian as the person it is for (arbiter, player, host, projector, team, spectator) and every text node, every
``placeholder``/``title``/``aria-label``/``alt`` and the document's title are read. A Latin word that is not on the
short, reviewed allow-list below fails the test, as does any text that is exactly an English message of the
catalogues.

Every page is also read for console errors (issue 30: "no console errors on any page, in any orientation"): the
phone's pages in portrait and held sideways.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page

from toreshi.texts import i18n

from .conftest import Server, create_game, new_page, screenshot, session_csrf, sign_in_arbiter

PACK = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "quiz" / "siq" / "1.siq"
LANGUAGES = ("kk", "ru")

ALLOWED = {
    # File formats, notations and protocol names a club meets as they are.
    "TRF", "TRF16", "CSV", "PGN", "FEN", "JSON", "QR", "ZIP", "SIGame", "siq", "PlayOK", "Wi", "Fi", "USB", "HTTPS",
    "Elo", "XML", "PDF", "FIDE",
    # The product's own name (the footer: "toreshi 0.1.0").
    "toreshi",
    # Keys as printed on a keyboard.
    "Home", "End", "Space", "Enter", "Esc", "Tab", "Shift", "Ctrl", "Alt", "PgUp", "PgDn",
    # Tie-break codes of FIDE C.07 (their full names are in the legend), clause-ID prefixes.
    "BH", "SB", "DE", "WIN", "BPTS", "ARO", "PS", "KS", "TK", "SI", "BHC", "MB", "KZT", "WON",
    "BPG", "BWG", "TPR", "KUM", "APRO", "APPO", "PTP", "BC", "AOB", "REP", "STD", "BAK", "TOP",
    # CSV column names the import form documents (they are what the file must say).
    "name", "rating", "club", "team", "federation_id", "federation", "title", "sex", "birth_date", "elo",
    "player", "representative", "players", "contact", "active",
    # TRF record codes, the team tie-break of C.07 (match points, then game points), the rating system's name.
    "XXP", "XXA", "MPVGP", "MPTS", "GPTS", "OpenSkill", "Plackett", "Luce",
}  # fmt: skip
"""Latin words a Kazakh or Russian page may show, reviewed one by one."""

URL = re.compile(r"\b(?:https?|wss?)://\S+|/dev/\S+|\b[\w.-]+\.(?:info|ru|kz|com|org)\b|\.siq\b")
KEY_HINT = re.compile(r"^(?:[A-Z]|F\d{1,2}|Esc|Space|Enter|Tab|Shift|Ctrl|Alt)$")

COLLECT = """() => {
  // Text marked as another language (the language switcher's "English") is that language on purpose.
  const page = document.documentElement.lang;
  const foreign = (element) => { const marked = element.closest("[lang]"); return marked && marked.lang !== page; };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      const parent = node.parentElement;
      if (!parent || parent.closest("script, style, noscript, template, kbd, code") || foreign(parent)) {
        return NodeFilter.FILTER_REJECT;
      }
      return node.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
    },
  });
  while (walker.nextNode()) texts.push(walker.currentNode.textContent.trim());
  for (const element of document.querySelectorAll("[placeholder], [title], [aria-label], [alt]")) {
    if (foreign(element)) continue;
    for (const name of ["placeholder", "title", "aria-label", "alt"]) {
      const value = element.getAttribute(name);
      if (value && value.trim()) texts.push(value.trim());
    }
  }
  for (const input of document.querySelectorAll("input[type=submit], input[type=button]")) texts.push(input.value);
  texts.push(document.title);
  return texts;
}"""


def english_messages() -> set[str]:
    """Every English msgid whose Kazakh translation differs from it: a page showing one forgot to translate."""
    found: set[str] = set()
    kazakh = i18n.read_catalogue("kk")
    for message in kazakh:
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        string = message.string if isinstance(message.string, str) else (message.string or ("",))[0]
        if msgid and string and string != msgid and re.search("[A-Za-z]{3}", msgid):
            found.add(msgid)
    return found


def untranslated(texts: list[str], secrets: set[str], english: set[str]) -> list[str]:
    """The texts that show English: a whole catalogue msgid, or a Latin word off the allow-list."""
    bad: list[str] = []
    for text in texts:
        if text in english:
            bad.append(text)
            continue
        stripped = URL.sub(" ", text)
        for secret in secrets:
            stripped = stripped.replace(secret, " ")
        if KEY_HINT.match(stripped.strip()):
            continue
        words = [word for word in re.findall(r"[A-Za-z][A-Za-z_]+", stripped) if word not in ALLOWED]
        if words:
            bad.append(text)
    return bad


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Iterator[Page]:
    page = new_page(browser, locale="en-GB")
    sign_in_arbiter(page, server)
    yield page
    page.context.close()


def _create_tournament(page: Page, server: Server) -> str:
    page.goto(f"{server.url}/tournaments/new?lang=en")
    page.fill("input[name=name]", "Кубок клуба")
    page.select_option("select[name=system]", "round_robin")
    page.fill("input[name=rounds]", "")
    page.fill("input[name=venue]", "Алматы")
    page.click("form button[type=submit].primary")
    page.wait_for_url(re.compile(r"/tournaments/[^/?]+$"))
    tid = page.url.rstrip("/").rsplit("/", 1)[-1]
    page.locator("details.form", has=page.locator("form[action$='/do/import']")).locator("summary").click()
    page.locator("textarea[name=csv]").fill(
        "name,rating,club\nАбенов Нұрлан,1850,Тоғыз\nБекова Айгерім,1790,Тоғыз\n"
        "Сейітов Ерлан,1720,Алау\nЖұмабаева Дана,1655,Алау\n"
    )
    page.locator("form[action$='/do/import'] button[type=submit]").click()
    page.wait_for_load_state()
    pair = page.locator("form[action$='/do/pair'] button[type=submit]")
    if pair.count():
        pair.first.click()
        page.wait_for_load_state()
    return tid


def _create_quiz(page: Page, server: Server) -> tuple[str, dict[str, str], list[str]]:
    page.goto(f"{server.url}/quiz/new?lang=en")
    page.set_input_files("input[name=pack]", str(PACK.resolve()))
    page.fill("input[name=title]", "Бой 1")
    page.check("input[name=kind][value=qualifying]")
    for seat, team in enumerate(("Алтын", "Барыс", "Сұңқар"), start=1):
        page.fill(f"input[name=team{seat}]", team)
    page.fill("input[name=team4]", "")
    page.fill("input[name=assistant]", "Ерлан")
    page.fill("input[name=assistant_team]", "Жолбарыс")
    page.locator("form.stack button[type=submit]").click()
    page.wait_for_url(re.compile(r"/quiz/q-[a-z0-9]{4}/links$"))
    room_id = page.url.rsplit("/", 2)[-2]
    codes = {card.locator("h2").inner_text(): card.locator(".join-code").inner_text()
             for card in page.locator(".team-card").all()}  # fmt: skip
    links = page.locator("ul.plain li a").evaluate_all("links => links.map(link => link.href)")
    return room_id, codes, list(links)


def _post(page: Page, server: Server, path: str, **fields: Any) -> str:
    """A form posted with the arbiter page's session (its token from ``/api/session``); the address it led to."""
    response = page.request.post(f"{server.url}{path}", multipart={"csrf": session_csrf(page, server), **fields},
                                 headers={"origin": server.url}, max_redirects=0)  # fmt: skip
    assert response.status in (200, 303), (path, response.status, response.text()[:300])
    return str(response.headers.get("location", ""))


def _create_team_event(page: Page, server: Server) -> str:
    location = _post(page, server, "/teams/new", name="Командалар кубогы", system="round_robin", boards="2")
    return location.rstrip("/").rsplit("/", 1)[-1]


def _create_tour(page: Page, server: Server) -> str:
    _post(page, server, "/quiz/teams", csv_text="name,players\nАлтын,Асан\nБарыс,Бек\n")
    page.goto(f"{server.url}/quiz/tours/new?lang=en")
    page.fill("input[name=name]", "Күзгі тур")
    page.fill("input[name=date]", "2026-12-01")
    page.set_input_files("input[name=pack]", str(PACK.resolve()))
    for team in ("Алтын", "Барыс"):
        page.check(f"input[name=team][value='{team}']")
    page.fill("input[name=stages]", "0")
    page.check("input[name=final]")
    page.locator("#tour-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/quiz/tours/[^/?]+$"))
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def watch_console(page: Page, errors: list[str]) -> None:
    """Adds every console error and uncaught exception of ``page`` to ``errors``, with the page's address. The
    browser's line about the document's own status is not one: the walk opens pages that refuse (404, 403) on
    purpose, and says so in their text."""

    def on_console(message: ConsoleMessage) -> None:
        own_status = message.location.get("url") == page.url and message.text.startswith("Failed to load resource")
        if message.type == "error" and not own_status:
            errors.append(f"{page.url}: {message.text} ({message.location.get('url', '')})")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))


def _read(page: Page, url: str, language: str) -> list[str]:
    separator = "&" if "?" in url else "?"
    page.goto(f"{url}{separator}lang={language}")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(150)  # the room scripts draw once their socket has its first state
    texts: list[str] = page.evaluate(COLLECT)
    return texts


def test_every_page_reads_in_kazakh_and_russian(browser: Browser, server: Server, arbiter: Page) -> None:
    english = english_messages()
    game = create_game(arbiter, server, white="Абай Құнанбаев", black="Болат Серікұлы")
    room = game["id"]
    tid = _create_tournament(arbiter, server)
    quiz, codes, (host, projector, assistant, spectator) = _create_quiz(arbiter, server)
    teams = _create_team_event(arbiter, server)
    tour = _create_tour(arbiter, server)
    secrets = {room, tid, quiz, teams, tour, *codes.values()}

    arbiter_pages = [
        "/", "/games/new", f"/games/{room}/links", f"/games/{room}", f"/games/{room}/replay", f"/games/{room}/sheet",
        "/tournaments", "/tournaments/new", f"/tournaments/{tid}", f"/tournaments/{tid}/settings",
        f"/tournaments/{tid}/rounds/1", f"/tournaments/{tid}/standings", f"/tournaments/{tid}/standings?print=1",
        f"/tournaments/{tid}/protests", f"/tournaments/{tid}/audit", f"/tournaments/{tid}/rounds/1/live",
        "/quiz", "/quiz/new", f"/quiz/{quiz}/links", f"/quiz/{quiz}/report", "/games/g-0000000000/links",
        f"/tournaments/{tid}/forbidden", f"/tournaments/{tid}/rounds/1/links", f"/tournaments/{tid}/check-in",
        f"/tournaments/{tid}/player-links",
        "/teams", f"/teams/{teams}", f"/teams/{teams}/standings", f"/teams/{teams}/audit",
        "/quiz/teams", "/quiz/tours", "/quiz/tours/new", f"/quiz/tours/{tour}", "/quiz/league", "/practice",
        "/guide/kk/index", "/guide/kk/arbiter", "/guide/kk/quiz-host",  # ?lang= opens the guide's page in that language
    ]  # fmt: skip
    screens = [host, projector, assistant, spectator]
    found: dict[str, list[str]] = {}
    console_errors: list[str] = []
    watch_console(arbiter, console_errors)
    for language in LANGUAGES:
        for path in arbiter_pages:
            bad = untranslated(_read(arbiter, f"{server.url}{path}", language), secrets, english)
            if bad:
                found[f"{language} {path}"] = bad
        for url in screens:
            bad = untranslated(_read(arbiter, url, language), secrets, english)
            if bad:
                found[f"{language} {url.replace(server.url, '')}"] = bad
        # A refused form: the flash and the form as it comes back.
        arbiter.goto(f"{server.url}/games/new?lang={language}")
        arbiter.fill("input[name=white]", "Абай")
        arbiter.fill("input[name=black]", "Абай")
        arbiter.locator("main form button[type=submit]").last.click()
        arbiter.wait_for_load_state()
        bad = untranslated(arbiter.evaluate(COLLECT), secrets, english)
        if bad:
            found[f"{language} refused /games/new"] = bad
        # A phone that joined a team, and a player's own link.
        phone = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        watch_console(phone, console_errors)
        white = str(game["links"]["white"])
        phone_pages = (f"{server.url}/j/{next(iter(codes.values()))}", white if "://" in white else server.url + white)
        for url in phone_pages:
            bad = untranslated(_read(phone, url, language), secrets, english)
            if bad:
                found[f"{language} phone {url.replace(server.url, '')}"] = bad
        screenshot(phone, f"page-walk-phone-{language}")
        # The same phone held sideways (a new page: the orientation a phone is picked up in).
        phone.set_viewport_size({"width": 844, "height": 390})
        for url in phone_pages:
            _read(phone, url, language)
        phone.context.close()
    report = "\n".join(f"{page}: {texts}" for page, texts in found.items())
    assert not found, f"English on {len(found)} pages:\n{report}"
    assert not console_errors, "console errors:\n" + "\n".join(console_errors)
