"""Every control of the main screens is reachable and operable from the keyboard (issue 30): the arbiter's round
page, the quiz host's console and a player's game page are walked with Tab from the top of the page to the end and
round again. Each interactive element must get the focus (in document order: no positive tabindex), show it (an
outline or a ring), and the walk must come back to where it started (no trap). Each focused button, link, summary,
checkbox and radio is then pressed with Enter and/or Space, as it should answer: the click it makes is caught
before the page acts on it, so the walk changes nothing. Then the real thing on each screen: a round's result
entered, a question chosen, a move played, by keyboard alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from .conftest import Server, create_game, new_page, screenshot, sign_in_arbiter
from .test_page_walk import _create_quiz, _create_tournament

MARK = """() => {
  // Number every element that should take the focus by Tab: visible, enabled, not taken out by tabindex=-1 and,
  // of a group of radios, only the checked one (or the first): arrows move within the group.
  const selector = ["a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary", "[tabindex]",
                    "[contenteditable=true]"].join(", ");
  const seenGroups = new Set();
  const marked = [];
  for (const element of document.querySelectorAll("[data-kb]")) delete element.dataset.kb;
  for (const element of document.querySelectorAll(selector)) {
    if (element.disabled || element.tabIndex < 0 || element.closest("[inert], [hidden]")) continue;
    if (!element.getClientRects().length || getComputedStyle(element).visibility === "hidden") continue;
    if (element.checkVisibility && !element.checkVisibility()) continue;  // in a closed <details>, say
    if (element.type === "radio") {
      const group = `${element.form ? "f" : "d"}:${element.name}`;
      const others = [...document.querySelectorAll(`input[type=radio][name="${element.name}"]`)]
        .filter((r) => r.form === element.form);
      const chosen = others.find((r) => r.checked) || others.find((r) => !r.disabled);
      if (element !== chosen || seenGroups.has(group)) continue;
      seenGroups.add(group);
    }
    element.dataset.kb = String(marked.length);
    const name = (element.getAttribute("aria-label") || element.textContent || element.name || "").trim();
    const type = element.type ? `[${element.type}]` : "";
    marked.push(`${element.tagName.toLowerCase()}${type} ${name.slice(0, 40)}`);
  }
  return marked;
}"""

CATCH_CLICKS = """() => {
  // Clicks are recorded and stopped before the page's own handlers (capture on the window): nothing is sent.
  window.kbClicks = [];
  window.addEventListener("click", (event) => {
    const marked = event.target.closest?.("[data-kb]");
    window.kbClicks.push(marked ? marked.dataset.kb : "?");
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
}"""

FOCUSED = """() => {
  const element = document.activeElement;
  if (!element || element === document.body || element === document.documentElement) return null;
  const style = getComputedStyle(element);
  const ring = (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2) || style.boxShadow !== "none";
  return {kb: element.dataset.kb ?? null, tag: element.tagName.toLowerCase(), type: element.type || "",
          role: element.getAttribute("role") || "", visible: ring && element.matches(":focus-visible"),
          text: (element.getAttribute("aria-label") || element.textContent || element.name || "").trim().slice(0, 40)};
}"""

START = """() => {
  // Tab's starting point at the top of the page (a blur alone leaves it where the focus last was)
  let start = document.getElementById("kb-start");
  if (!start) {
    start = Object.assign(document.createElement("span"), {id: "kb-start", tabIndex: -1});
    document.body.prepend(start);
  }
  start.focus();
  window.scrollTo(0, 0);
}"""

KEYS_FOR = {"a": ("Enter",), "button": ("Enter", " "), "summary": ("Enter", " ")}
"""What activates a focused control (a link: Enter only; Space scrolls the page). Checkboxes: Space."""


def walk(page: Page) -> list[str]:
    """Tab through the page from its top, twice round at most; returns the problems found. Every <details> is
    opened first (as Enter on its summary does), so that what they hold is walked too."""
    page.evaluate("() => document.querySelectorAll('details').forEach((details) => { details.open = true; })")
    marked: list[str] = page.evaluate(MARK)
    page.evaluate(CATCH_CLICKS)
    page.evaluate(START)
    problems: list[str] = []
    order: list[int] = []
    for _ in range(2 * len(marked) + 6):
        page.keyboard.press("Tab")
        focused: dict[str, Any] | None = page.evaluate(FOCUSED)
        if focused is None:  # past the end: the document itself; the next Tab starts again at the top
            if order:
                break
            continue
        if focused["kb"] is None:
            problems.append(f"focus on an element not counted as interactive: {focused}")
            continue
        index = int(focused["kb"])
        if order and index == order[0]:
            break  # round again without leaving through the document: fine too
        if index in order:
            problems.append(f"focus trapped: {marked[index]!r} again after {[marked[i] for i in order[-3:]]}")
            break
        if order and index < order[-1]:
            problems.append(f"focus goes back: {marked[index]!r} after {marked[order[-1]]!r}")
        order.append(index)
        if not focused["visible"]:
            problems.append(f"no visible focus on {marked[index]!r}")
        keys = KEYS_FOR.get(focused["tag"], ())
        if focused["tag"] == "input" and focused["type"] == "checkbox":
            keys = (" ",)  # a radio group is operated by its arrow keys (native): nothing to press here
        for key in keys:
            page.evaluate("() => { window.kbClicks = []; }")
            page.keyboard.press(key)
            clicks = page.evaluate("() => window.kbClicks")
            if str(index) not in clicks:
                problems.append(f"{'Space' if key == ' ' else key} does not activate {marked[index]!r} ({clicks})")
            page.evaluate(f"() => document.querySelector('[data-kb=\"{index}\"]')?.focus()")
    missed = [marked[i] for i in range(len(marked)) if i not in order]
    if missed:
        problems.append(f"never focused by Tab: {missed} (the order: {[marked[i] for i in order]})")
    return problems


def tab_to(page: Page, target: Locator, limit: int = 250) -> None:
    """Tab from where the focus is until ``target`` has it (the way a keyboard user gets there)."""
    handle = target.element_handle()
    assert handle is not None
    for _ in range(limit):
        page.keyboard.press("Tab")
        if handle.evaluate("element => element === document.activeElement"):
            return
    raise AssertionError(f"Tab never reaches {target}")


def from_the_top(page: Page) -> None:
    """A fresh load (no click catcher left by a walk), the focus at the top of the page."""
    page.reload()
    page.wait_for_load_state("networkidle")
    page.evaluate(START)


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Iterator[Page]:
    page = new_page(browser, locale="en-GB")
    sign_in_arbiter(page, server)
    yield page
    page.context.close()


def assert_walked(page: Page, *expected: str) -> None:
    """Walk the page; no problem, and the controls named by ``expected`` (CSS selectors) among those walked."""
    problems = walk(page)
    assert not problems, "\n".join(problems)
    for selector in expected:
        walked = page.locator(selector).evaluate_all("nodes => nodes.filter((node) => node.dataset.kb).length")
        assert walked, f"no {selector} among the controls walked"


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_round_page_by_keyboard(arbiter: Page, server: Server, language: str) -> None:
    tid = _create_tournament(arbiter, server)
    arbiter.goto(f"{server.url}/tournaments/{tid}/rounds/1?lang={language}")
    assert_walked(arbiter, "form[action$='/do/publish'] button", "details textarea")
    # Publish the pairings from the keyboard: Tab to the button, Enter
    from_the_top(arbiter)
    tab_to(arbiter, arbiter.locator("form[action$='/do/publish'] button"))
    arbiter.keyboard.press("Enter")
    # The published round is one form (issue 28): every board's result control walked, then its one submit button
    selects = arbiter.locator("select[form='round-results'][name^='result_']")
    expect(selects.first).to_be_visible()
    assert_walked(arbiter, "select[form='round-results'][name^='result_']", "#round-results button[type=submit]")
    # A result entered by keyboard alone
    from_the_top(arbiter)
    tab_to(arbiter, selects.first)
    arbiter.keyboard.press("ArrowDown")  # from the empty choice to the first result
    chosen = selects.first.input_value()
    assert chosen, "the arrow key chose nothing"
    tab_to(arbiter, arbiter.locator("#round-results button[type=submit]"))
    arbiter.keyboard.press("Space")
    expect(arbiter.locator("select[form='round-results'][name^='result_']").first).to_have_value(chosen)
    expect(arbiter.locator("table").first).to_contain_text(chosen)
    screenshot(arbiter, f"keyboard-round-{language}")


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_host_console_by_keyboard(arbiter: Page, server: Server, language: str) -> None:
    _room, _codes, (host, *_others) = _create_quiz(arbiter, server)
    arbiter.goto(f"{host}&lang={language}")
    status = arbiter.locator(".q-status")
    expect(status).not_to_be_empty()
    expect(arbiter.locator(".q-actions button").first).to_be_visible()  # drawn after the status (issue 32)
    assert_walked(arbiter, ".q-actions button", "details summary")
    # The lot for the first chooser from its button, by Enter
    from_the_top(arbiter)
    before = status.inner_text()
    tab_to(arbiter, arbiter.locator(".q-actions button").first)
    arbiter.keyboard.press("Enter")
    expect(status).not_to_have_text(before)
    # Choosing: the board's cells are buttons now, each walked; one chosen by Space
    expect(arbiter.locator(".q-grid button.q-cell:enabled").first).to_be_visible()
    assert_walked(arbiter, ".q-grid button.q-cell")
    from_the_top(arbiter)
    tab_to(arbiter, arbiter.locator(".q-grid button.q-cell:enabled").first)
    arbiter.keyboard.press("Space")
    expect(arbiter.locator(".q-answer")).to_be_visible()
    screenshot(arbiter, f"keyboard-host-{language}")


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_the_players_game_by_keyboard(browser: Browser, arbiter: Page, server: Server, language: str) -> None:
    game = create_game(arbiter, server, white="Абай", black="Болат")
    white = str(game["links"]["white"])
    phone = new_page(browser, viewport={"width": 390, "height": 844})
    url = white if "://" in white else server.url + white
    phone.goto(f"{url}{'&' if '?' in url else '?'}lang={language}")
    phone.wait_for_load_state("networkidle")
    phone.wait_for_timeout(300)  # the room's script draws once its socket has the first state
    assert_walked(phone)
    arbiter.goto(f"{server.url}/games/{game['id']}?lang=en")
    arbiter.locator("#console [data-cmd=start]").click()
    legal = phone.locator("button.hole.side-white.legal")
    expect(legal.first).to_be_visible()
    assert_walked(phone, "button.hole.side-white.legal")
    # A hole chosen by Enter, then another: Enter on a focused hole is that hole's, not the earlier choice's
    from_the_top(phone)
    first, second = legal.nth(0), legal.nth(1)
    tab_to(phone, first)
    phone.keyboard.press("Enter")
    expect(phone.locator("button.hole.side-white.selected")).to_have_count(1)
    tab_to(phone, second)
    second_hole = second.get_attribute("data-hole")
    phone.keyboard.press("Enter")
    expect(phone.locator(f"button.hole.side-white.selected[data-hole='{second_hole}']")).to_have_count(1)
    # Enter again on it plays it (a second tap, TK-B6): now Black is to move, nothing of White's is playable
    phone.keyboard.press("Enter")
    expect(phone.locator("button.hole.side-white.legal")).to_have_count(0)
    screenshot(phone, f"keyboard-player-{language}")
    phone.context.close()


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_a_teams_buzzer_by_keyboard(browser: Browser, arbiter: Page, server: Server, language: str) -> None:
    _room, codes, (host, *_others) = _create_quiz(arbiter, server)
    team, code = next(iter(codes.items()))
    phone = new_page(browser, viewport={"width": 390, "height": 844})
    phone.goto(f"{server.url}/j/{code}?lang={language}")
    expect(phone.locator(".q-team-name")).to_have_text(team)
    assert_walked(phone)
    # The host opens a question (by keyboard too); the phone's buzzer is pressed by Tab and Enter
    arbiter.goto(f"{host}&lang={language}")
    expect(arbiter.locator(".q-status")).not_to_be_empty()
    arbiter.keyboard.press("d")
    cell = arbiter.locator(".q-grid button.q-cell:enabled").first
    expect(cell).to_be_visible()
    cell.focus()
    arbiter.keyboard.press("Enter")
    expect(arbiter.locator(".q-answer")).to_be_visible()
    expect(phone.locator("#quiz")).to_have_class(re.compile(r"\bstate-open\b"))
    # (Not walked while open: the buzzer answers its keys itself, on keydown, and the walk would press it.)
    from_the_top(phone)
    expect(phone.locator("#quiz")).to_have_class(re.compile(r"\bstate-open\b"))
    tab_to(phone, phone.locator("#buzz"))
    phone.keyboard.press("Enter")
    expect(phone.locator("#quiz")).to_have_class(re.compile(r"\bstate-(pressed|your_turn)\b"))
    screenshot(phone, f"keyboard-buzzer-{language}")
    phone.context.close()
