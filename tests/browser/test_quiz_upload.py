"""The new-game form with a large pack in a real browser (issue 30): the upload shows its progress and then what is
being checked; when another field is wrong the form comes back saying the pack is already uploaded, and is sent
again without the file; without JavaScript the same happens by an ordinary post. Phone size, Kazakh and Russian."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, new_page, screenshot, sign_in_arbiter

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
TEXTS = {
    "kk": ("Пакет жүктелуде", "Пакет жүктелді. Тексерілуде", "Пакет жүктеліп қойған: SIGameTestNew"),
    "ru": ("Пакет загружается", "Пакет загружен. Проверяем", "Пакет уже загружен: SIGameTestNew"),
}
FILE_FIELD = {"kk": ("Файлды таңдау", "Файл таңдалмаған"), "ru": ("Выбрать файл", "Файл не выбран")}
"""The file field's own words, in the page's language (the browser's would be in its own)."""


@pytest.fixture
def large_pack(shared_data: Path) -> Path:
    pack = shared_data / "quiz" / "siq" / "SIGameTestNew.siq"
    assert pack.stat().st_size > 2_500_000
    return pack


def fill_with_twin_teams(page: Page, server: Server, language: str, pack: Path, *, scripts: bool = True) -> None:
    """The form with the pack, and two teams of the same name: a mistake only the server sees."""
    page.goto(f"{server.url}/quiz/new?lang={language}")
    field = page.locator(".file-pick").filter(has=page.locator("input[name=pack]"))
    choose, none = FILE_FIELD[language]
    expect(field.locator(".file-pick-button")).to_have_text(choose)
    expect(field.locator(".file-pick-name")).to_have_text(none)
    page.set_input_files("input[name=pack]", str(pack))
    if scripts:  # page.js names the chosen file
        expect(field.locator(".file-pick-name")).to_have_text(pack.name)
    page.check("input[name=kind][value=shootout]")
    page.fill("input[name=team1]", "Алтын")
    page.fill("input[name=team2]", "Алтын")


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_a_large_pack_uploads_with_progress_and_is_not_asked_for_again(
    browser: Browser, server: Server, large_pack: Path, language: str
) -> None:
    page = new_page(browser, **PHONE)
    sign_in_arbiter(page, server)
    uploading, checking, kept = TEXTS[language]
    # A slow club network: about 7 s for the pack, so the progress can be seen (Chromium's own throttling)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    conditions = {"offline": False, "latency": 20, "downloadThroughput": -1, "uploadThroughput": 400 * 1024}
    cdp.send("Network.emulateNetworkConditions", conditions)
    fill_with_twin_teams(page, server, language, large_pack)
    status = page.locator(".upload-progress [role=status]")
    expect(page.locator(".upload-progress")).to_be_hidden()
    said = "said => new MutationObserver(() => window.said.push(said.textContent)).observe(said, {childList: true})"
    page.evaluate("() => { window.said = []; }")
    status.evaluate(said)  # everything the status line says, kept after the page's main part is replaced
    page.locator("#quiz-new-form button[type=submit]").click()
    expect(status).to_contain_text(re.compile(rf"^{uploading}: .*\d[.,]\d МиБ.* \((?:[1-9]|[1-9]\d)\u00a0%\)$"))
    expect(page.locator("#quiz-new-form button[type=submit]")).to_be_disabled()
    screenshot(page, f"quiz-upload-progress-{language}-390")
    assert 0 < page.locator(".upload-progress progress").evaluate("bar => bar.value") < 100
    # The server read the pack, found the twin teams: the form is back in place with the pack kept, the error read
    alert = page.locator("main .error[role=alert]")
    expect(alert).to_be_visible(timeout=30_000)
    expect(page.locator(".pack-kept")).to_have_text(kept)
    expect(alert).to_be_focused()
    statuses = page.evaluate("() => window.said")
    assert any(text.startswith(checking) for text in statuses), statuses  # all sent: what the server checks now
    assert page.url.endswith(f"/quiz/new?lang={language}")
    screenshot(page, f"quiz-upload-kept-{language}-390")
    cdp.send("Network.emulateNetworkConditions", {**conditions, "uploadThroughput": -1})
    # Corrected and sent without the file: the questions to pick (the pack's themes are not all of 5 questions)
    assert page.locator("input[name=pack]").evaluate("input => input.files.length") == 0
    page.fill("input[name=team2]", "Барыс")
    page.locator("#quiz-new-form button[type=submit]").click()
    expect(page.locator("form[action='/quiz/new/pick']")).to_be_visible()
    page.context.close()


def test_a_pack_that_needs_picking_shows_the_questions_in_place(
    browser: Browser, server: Server, large_pack: Path
) -> None:
    page = new_page(browser, **PHONE)
    sign_in_arbiter(page, server)
    fill_with_twin_teams(page, server, "kk", large_pack)
    page.fill("input[name=team2]", "Барыс")
    page.locator("#quiz-new-form button[type=submit]").click()  # sent by the page's script, with its progress
    expect(page.locator("form[action='/quiz/new/pick']")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("heading", level=1)).to_be_focused()
    assert page.title().startswith("Сұрақтарды таңдау")
    page.locator("form[action='/quiz/new/pick'] button[type=submit]").click()  # the default picks make a shootout
    page.wait_for_url(lambda url: "/links" in url)
    page.context.close()


def test_without_javascript_the_form_still_keeps_the_pack(browser: Browser, server: Server, large_pack: Path) -> None:
    page = new_page(browser, java_script_enabled=False, **PHONE)
    sign_in_arbiter(page, server)
    fill_with_twin_teams(page, server, "ru", large_pack, scripts=False)
    expect(page.locator("noscript")).to_have_count(1)
    page.locator("#quiz-new-form button[type=submit]").click()
    expect(page.locator(".pack-kept")).to_have_text(TEXTS["ru"][2])
    page.fill("input[name=team2]", "Барыс")
    page.locator("#quiz-new-form button[type=submit]").click()
    expect(page.locator("form[action='/quiz/new/pick']")).to_be_visible()
    page.context.close()


def test_the_assistant_is_required_except_for_a_shootout(browser: Browser, server: Server) -> None:
    page = new_page(browser, **PHONE)
    sign_in_arbiter(page, server)
    page.goto(f"{server.url}/quiz/new?lang=kk")
    assistant = page.locator("input[name=assistant]")
    expect(assistant).to_have_js_property("required", True)
    expect(assistant).to_have_attribute("aria-required", "true")
    page.check("input[name=kind][value=shootout]")
    expect(assistant).to_have_js_property("required", False)
    expect(assistant).not_to_have_attribute("aria-required", "true")
    page.check("input[name=kind][value=final]")
    expect(assistant).to_have_js_property("required", True)
    assistant.scroll_into_view_if_needed()
    screenshot(page, "quiz-new-required-kk-390")
    page.context.close()
