"""The host's console shows a press as soon as the projector does (issue 32).

The console used to redraw everything (the board, the question's media, the actions, the rulings, the connections)
in the task that received the press, and only then could the browser paint the pressing team's card. Now it draws
the teams' cards, the status and the presses first and the rest after the next paint. The test watches the console
itself: the frame (animation-frame count) in which the pressing team's card changes, and the one in which the
action bar is redrawn for that press; the card must come in an earlier frame, and the console must still end up
whole (the "right" action offered, the team answering on the status line).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, new_page, sign_in_arbiter
from .test_quiz_game import TEAMS, create_game, open_table_with_phones

WATCH = """(team) => {
  // Count animation frames; note the frame in which the team's card first shows the press, and the frame in which
  // the action bar is first redrawn after it.
  const seen = { frames: 0, card: null, actions: null };
  window.__seen = seen;
  const tick = () => { seen.frames += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const root = document.getElementById("quiz");
  const pressed = () => [...root.querySelectorAll(".q-teams .q-team")].some((card) =>
    card.querySelector(".q-team-title").textContent === team &&
    (card.classList.contains("answering") || card.classList.contains("pressed")));
  new MutationObserver(() => {
    if (seen.card === null && pressed()) seen.card = seen.frames;
  }).observe(root.querySelector(".q-teams"), { subtree: true, childList: true, attributes: true });
  new MutationObserver(() => {
    if (seen.card !== null && seen.actions === null) seen.actions = seen.frames;
  }).observe(root.querySelector(".q-actions"), { childList: true });
}"""


@pytest.fixture(scope="module")
def arbiter(browser: Browser, server: Server) -> Iterator[Page]:
    page = new_page(browser, locale="en-GB", viewport={"width": 1366, "height": 900})
    sign_in_arbiter(page, server)
    yield page
    page.context.close()


def test_the_console_paints_the_pressing_team_before_it_redraws_the_rest(
    browser: Browser, server: Server, arbiter: Page, shared_data: Path
) -> None:
    pack = shared_data / "quiz" / "siq" / "1.siq"
    projector = new_page(browser, locale="ru-RU", viewport={"width": 1920, "height": 1080})
    phones: dict[str, Page] = {}
    try:
        game = create_game(arbiter, server, pack, "qualifying", TEAMS)
        table = open_table_with_phones(browser, server, arbiter, projector, game, phones)
        host = table.host
        table.status("Waiting for the draw")
        host.keyboard.press("d")
        table.status(re.compile(r"chooses$"))
        table.choose(0, 1)
        table.expect_buzzers("open")
        team = TEAMS[1]
        for _attempt in range(3):
            host.evaluate(WATCH, team)
            table.tap(team)
            table.status(f"Answering: {team}")
            expect(host.locator(".q-actions button.primary")).to_be_visible()  # the rest was drawn too
            seen = host.evaluate("window.__seen")
            assert seen["card"] is not None and seen["actions"] is not None, seen
            assert seen["actions"] > seen["card"], f"the actions were redrawn in the lamp's frame: {seen}"
            # The projector lights the same team.
            lamp = projector.locator(".q-teams .q-team").filter(has_text=team)
            expect(lamp).to_have_attribute("data-lamp", "answering")
            host.keyboard.press("-")  # wrong: the next team presses
            table.status(re.compile(r"^(Reading|Press window)$"))
            team = TEAMS[(TEAMS.index(team) + 1) % len(TEAMS)]
            if team == TEAMS[0]:
                break
            table.expect_buzzers("open", team)
    finally:
        projector.context.close()
        for phone in phones.values():
            phone.context.close()
