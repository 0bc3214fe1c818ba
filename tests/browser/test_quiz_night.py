"""What a host met at a quiz night with real packs (issue 31), in real browsers.

A sequence of items — a text, then an image, then a sound, each waiting for the one before (SIGame's
``waitForFinish``) — plays in order on the projector, and the sound banner goes once the browser plays sound. In a
shootout on the phones: «Уточните» and «Время» show on the phones as on the projector; the host replaces a question
from a list that names theme, price and opening words, for a reason the host picks, in the app's own dialog (never
the browser's); the last question's answer is shown before the end of the game.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from toreshi.quiz.pack import ContentItem, ContentType, Parameter, ParameterKind, Placement
from toreshi.quiz.siq import read_siq, write_siq

from .conftest import CHROMIUM, CHROMIUM_ARGS, Server, new_page, screenshot, sign_in_arbiter
from .test_quiz_game import Table, answer_dialog, create_game, open_phone, open_table
from .test_quiz_media import create_media_game, keep, status

SEQUENCE_TEXT = "Сначала текст, потом лодка, потом звук."


@pytest.fixture(scope="module")
def autoplay_browser(browser: Browser) -> Iterator[Browser]:
    """A chromium that lets pages play sound without a click (as a projector's browser a club has set up may),
    from the same Playwright as the suite's own browser (one sync Playwright at a time)."""
    launched = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--autoplay-policy=no-user-gesture-required"]
    )
    yield launched
    launched.close()


def sequence_pack(shared_data: Path, folder: Path) -> Path:
    """``SIGameTestNew.siq`` with its questions «Контент вопросов» 200 and 500 (worth 1 and 4 in the game) made
    sequences: a text, the boat's image for 2 s, then a 3 s sound, each waiting for the one before (the pack's own
    files)."""
    original = shared_data / "quiz" / "siq" / "SIGameTestNew.siq"
    if not original.exists():
        pytest.skip(f"{original} is absent")
    package = read_siq(original.read_bytes())
    items = (
        ContentItem(ContentType.TEXT, SEQUENCE_TEXT),
        ContentItem(ContentType.IMAGE, "sample-boat-400x300.png", is_ref=True, duration=timedelta(seconds=2)),
        ContentItem(ContentType.AUDIO, "sample-3s.mp3", is_ref=True, placement=Placement.BACKGROUND),
    )
    round_ = package.rounds[0]
    theme = round_.themes[1]
    content = (Parameter("question", ParameterKind.CONTENT, items=items),)
    questions = list(theme.questions)
    for index in (1, 4):  # worth 1 and 4 in the game
        questions[index] = dataclasses.replace(questions[index], params=content)
    theme = dataclasses.replace(theme, questions=tuple(questions))
    round_ = dataclasses.replace(round_, themes=(round_.themes[0], theme, *round_.themes[2:]))
    package = dataclasses.replace(package, rounds=(round_, *package.rounds[1:]))
    path = folder / "SIGameTestNew.siq"  # the name create_media_game picks its questions by
    path.write_bytes(write_siq(package))
    return path


def test_a_sequence_plays_item_after_item_and_the_sound_banner_goes(
    autoplay_browser: Browser, server: Server, shared_data: Path, tmp_path: Path
) -> None:
    pack = sequence_pack(shared_data, tmp_path)
    host = new_page(autoplay_browser)
    sign_in_arbiter(host, server)
    room_id, projector_url = create_media_game(host, server, pack)
    host.goto(f"{server.url}/quiz/{room_id}/host?lang=en")
    projector = new_page(autoplay_browser, locale="ru-RU", viewport={"width": 1920, "height": 1080})
    projector.goto(projector_url)
    status(host, "Waiting for the draw")
    host.keyboard.press("d")
    expect(host.locator(".q-status")).to_contain_text("chooses")
    host.locator('.q-grid button.q-cell[data-key="0:1"]').click()  # picked questions: 1 → the pack's 200
    media = projector.locator(".q-media")
    # 1. the text alone (no image yet, no sound)
    expect(media).to_have_attribute("data-step", "0")
    expect(media.locator(".q-item-text")).to_have_text(SEQUENCE_TEXT)
    expect(media.locator("img")).to_have_count(0)
    expect(media.locator("audio")).to_have_count(0)
    expect(projector.locator(".q-text")).to_be_hidden()  # the text is the sequence's, told in its turn
    status(host, "Media playing")
    # 2. then the image, in place of the text
    expect(media).to_have_attribute("data-step", "1", timeout=8_000)
    expect(media.locator("img.q-item-image")).to_be_visible()
    expect(media.locator(".q-item-text")).to_have_count(0)
    expect(media.locator("audio")).to_have_count(0)
    projector.wait_for_function("() => document.querySelector('.q-media img').naturalWidth > 0")
    keep(projector, "quiz-sequence-playing-1920")
    # 3. then the sound; the press window waits for its end (waitForFinish)
    expect(media).to_have_attribute("data-step", "2", timeout=6_000)
    expect(media.locator("img")).to_have_count(0)
    projector.wait_for_function(
        "() => { const a = document.querySelector('.q-media audio'); return a && !a.paused && a.currentTime > 0; }"
    )
    status(host, "Media playing")
    status(host, "Press window", timeout=10_000)
    # The browser played the sound without a click: the banner asking for one is gone.
    expect(projector.locator(".q-sound-prompt")).to_be_hidden()
    # The host moves on: "reading finished" during the text shows the sequence's last step at once.
    host.keyboard.press("1")
    status(host, "Answering: Алтын")
    host.keyboard.press("Enter")
    expect(host.locator(".q-status")).to_contain_text("chooses")
    host.locator('.q-grid button.q-cell[data-key="0:4"]').click()
    expect(media).to_have_attribute("data-step", "0")
    # The host's own screen must know the question too: until it does, Space on the focused cell is the cell's.
    status(host, "Media playing")
    host.keyboard.press(" ")
    # At once: on its own the sequence would need the text's 2.5 s and the image's 2 s to get there.
    expect(media).to_have_attribute("data-step", "2", timeout=1_000)
    expect(media.locator(".q-item-text")).to_have_count(0)
    status(host, "Press window")
    host.close()
    projector.close()


@pytest.fixture
def arbiter(browser: Browser, server: Server) -> Iterator[Page]:
    page = new_page(browser, locale="en-GB", viewport={"width": 1280, "height": 800})
    sign_in_arbiter(page, server)
    yield page
    page.context.close()


def never_the_browsers_dialog(page: Page) -> list[str]:
    """Every prompt(), confirm() or alert() the page opens (the host must get the app's own dialog instead)."""
    opened: list[str] = []

    def record(dialog: Dialog) -> None:
        opened.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", record)
    return opened


def test_phones_say_what_the_projector_says_replacements_are_named_and_the_last_answer_is_shown(
    browser: Browser, server: Server, arbiter: Page, shared_data: Path
) -> None:
    teams = ("Алтын", "Барыс")
    a, b = teams
    game = create_game(arbiter, server, shared_data / "quiz" / "siq" / "1.siq", "shootout", teams)
    projector = new_page(browser, locale="ru-RU", viewport={"width": 1920, "height": 1080})
    phones = {
        a: open_phone(browser, server, a, game.codes[a], locale="ru-RU", typed=False),
        b: open_phone(browser, server, b, game.codes[b], locale="kk-KZ", typed=False),
    }
    for phone in phones.values():
        phone.set_viewport_size({"width": 390, "height": 844})
    table: Table = open_table(arbiter, projector, game, phones)
    host = table.host
    browsers_dialogs = never_the_browsers_dialog(host)
    expect(projector.locator(".q-sound-prompt")).to_be_visible()  # this browser wants a click before sound
    host.keyboard.press("d")
    table.status(re.compile(r"chooses$"))

    # «Уточните»: the host asks the answering team to clarify; the phones say it with the projector.
    table.choose(0, 5)
    table.tap(a)
    table.status(f"Answering: {a}")
    host.keyboard.press("c")
    expect(projector.locator(".q-big-status")).to_have_text("Уточните")
    expect(phones[a].locator(".q-call")).to_have_text("Уточните")
    expect(phones[b].locator(".q-call")).to_have_text("Нақтылаңыз")
    screenshot(phones[a], "quiz-phone-clarify-ru-390")
    screenshot(phones[b], "quiz-phone-clarify-kk-390")
    table.judge(a, 5, right=True)
    expect(phones[a].locator(".q-call")).to_be_hidden()

    # A replacement: picked from a list that names theme, price and the opening words, for the host's reason.
    table.choose(0, 4)
    replaced = host.locator(".q-text").inner_text()
    host.keyboard.press("p")
    dialog = host.locator("dialog.q-dialog[open]")
    expect(dialog.locator(".q-dialog-option").first).to_contain_text(" · 4")
    first = dialog.locator(".q-dialog-choices .q-dialog-option").first
    assert "Reserve question" not in first.locator(".q-dialog-option-label").inner_text()  # its own theme
    assert first.locator(".q-dialog-option-detail").inner_text().strip()  # how the question begins
    expect(dialog.locator("input[name=reason][value=host_error]")).to_be_checked()
    screenshot(host, "quiz-host-replace-dialog-1280")
    answer_dialog(host, 1, reason="audience_prompt")
    expect(host.locator(".q-text")).not_to_have_text(replaced)
    table.tap(b)
    table.judge(b, 4, right=True)

    # «Время»: nobody presses; the phones say it as the projector does.
    table.choose(0, 3)
    host.keyboard.press(" ")
    table.status("Press window")
    expect(projector.locator(".q-big-status")).to_have_text("Время!", timeout=10_000)
    expect(phones[a].locator(".q-call")).to_have_text("Время!")
    expect(phones[b].locator(".q-call")).to_have_text("Уақыт!")
    screenshot(phones[b], "quiz-phone-time-kk-390")

    # The last question: its answer is shown on the projector before the end of the game.
    table.choose(0, 2)
    table.tap(a)
    table.judge(a, 2, right=True)
    table.status("End of the game")
    expect(projector.locator(".q-answer")).to_be_visible()
    expect(projector.locator(".q-answer")).to_contain_text("Ответ")
    expect(projector.locator(".q-final")).to_be_hidden()
    screenshot(projector, "quiz-projector-last-answer-1920")
    expect(projector.locator(".q-final")).to_be_visible(timeout=15_000)
    expect(projector.locator(".q-answer")).to_be_hidden()

    arbiter.goto(f"{server.url}/quiz/{game.room_id}/report?lang=ru")
    expect(arbiter.locator(".q-report-question").nth(1)).to_contain_text("подсказка из зала")
    expect(arbiter.locator(".q-report-question").nth(2)).to_contain_text("Время: никто не нажал")
    expect(arbiter.locator(".q-report-question").first.locator(".q-report-story")).to_contain_text(
        f"{a}: нажали → {a}: уточните → {a}: верно → Верный ответ"
    )
    arbiter.locator(".q-report-question").first.scroll_into_view_if_needed()
    screenshot(arbiter, "quiz-report-story-ru-1280")
    assert browsers_dialogs == []
    for page in (projector, *phones.values()):
        page.context.close()


INSIDE = """card => {
    const box = card.getBoundingClientRect();
    return [...card.querySelectorAll("button")].every(button => {
        const inner = button.getBoundingClientRect();
        return inner.left >= box.left - 0.5 && inner.right <= box.right + 0.5 && inner.bottom <= box.bottom + 0.5;
    });
}"""

BESIDE = """label => {
    const box = label.querySelector("input").getBoundingClientRect();
    const text = label.querySelector("span").getBoundingClientRect();
    return text.left - box.right;
}"""


@pytest.mark.parametrize(("language", "width"), [("kk", 390), ("ru", 1280)])
def test_the_host_console_keeps_its_buttons_in_the_team_cards_and_corrects_in_its_own_dialog(
    browser: Browser, server: Server, arbiter: Page, shared_data: Path, language: str, width: int
) -> None:
    teams = ("Алтын Орда жастары", "Барыс", "Сұңқар командасы ұзын атау", "Тұлпар")
    game = create_game(arbiter, server, shared_data / "quiz" / "siq" / "1.siq", "qualifying", teams)
    host = new_page(browser, viewport={"width": width, "height": 844 if width == 390 else 800})
    browsers_dialogs = never_the_browsers_dialog(host)
    host.goto(game.links["host"].replace("?token=", f"?lang={language}&token="))
    expect(host.locator(".q-connection")).to_have_attribute("data-status", "online")
    cards = host.locator(".q-teams-host .q-team")
    expect(cards).to_have_count(4)
    expect(cards.first.locator("button")).to_have_count(2)  # «chooses» (the draw) and ±
    for card in cards.all():
        assert card.evaluate(INSIDE), card.inner_text()
    # The projector-keys checkbox sits right beside its words.
    assert 0 <= host.locator(".q-projector-keys-label").evaluate(BESIDE) <= 16
    screenshot(host, f"quiz-host-teams-{language}-{width}")
    cards.nth(1).locator(".q-correct").click()
    dialog = host.locator("dialog.q-dialog[open]")
    expect(dialog.locator("h2")).to_contain_text("Барыс")
    correct = {"kk": "Есепті түзету", "ru": "Исправить счёт"}[language]
    expect(dialog.locator("button[type=submit]")).to_have_text(correct)
    screenshot(host, f"quiz-host-correct-dialog-{language}-{width}")
    answer_dialog(host, None, delta="2", reason="Қате есеп")
    expect(cards.nth(1).locator(".q-team-points")).to_have_text("2")
    assert browsers_dialogs == []
    host.context.close()
