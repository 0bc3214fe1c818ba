"""Check-in → pairing → the players give their results → the arbiter confirms (issue 28), in a real browser: players
on 390 × 844 phones in Kazakh and Russian, the arbiter on a laptop and a phone, with wrong inputs on the way (a
revoked link, a double submit, a disagreement, a bad kazan in the round's one form)."""

from __future__ import annotations

import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, ViewportSize, expect

from .conftest import Server, new_page, screenshot, session_csrf, sign_in_arbiter
from .test_accessibility import serious

PHONE: ViewportSize = {"width": 390, "height": 844}
LAPTOP: ViewportSize = {"width": 1280, "height": 800}
ENGLISH = re.compile(r"\b(Check-in|checked in|I am here|Send the result|Save the results|Confirm the players)\b")
NAMES = ["Асқар", "Бекзат", "Гүлнар", "Дәурен", "Ерлан"]


def _no_english(page: Page) -> None:
    text = page.locator("main").inner_text()
    assert not ENGLISH.search(text), ENGLISH.search(text)


def _fits(page: Page) -> None:
    """Nothing of the page is off-screen sideways at this width."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, width  # type: ignore[index]


def test_check_in_pairing_players_results_and_the_arbiters_confirmation(browser: Browser, server: Server) -> None:
    arbiter = new_page(browser, locale="kk-KZ", viewport=LAPTOP)
    sign_in_arbiter(arbiter, server)
    arbiter.goto(f"{server.url}/tournaments/new?lang=kk")
    arbiter.fill("input[name=name]", "Тіркелу кубогы")
    arbiter.select_option("select[name=system]", "swiss_dutch")
    arbiter.fill("input[name=rounds]", "3")
    arbiter.check("input[name=control][value=blitz]")
    arbiter.locator("form button[type=submit].primary").click()
    arbiter.wait_for_url(re.compile(r"/tournaments/t-[0-9a-f]+$"))
    tid = arbiter.url.rsplit("/", 1)[-1]
    base = f"{server.url}/tournaments/{tid}"
    rows = "\n".join(f"{name},{1900 - 10 * i}" for i, name in enumerate(NAMES))
    response = arbiter.request.post(
        f"{base}/do/import",
        form={"csv": f"name,rating\n{rows}\n", "csrf": session_csrf(arbiter, server)},
        headers={"origin": server.url},
    )
    assert response.ok

    # The setting turns check-in on.
    arbiter.goto(f"{base}/settings?lang=kk")
    arbiter.check("#check-in-setting input")
    arbiter.locator("form[action$='/do/configure'] button[type=submit].primary").click()
    arbiter.goto(f"{base}/check-in?lang=kk")
    expect(arbiter.locator("#check-in-count")).to_contain_text("0")

    # The players' links: made once, printed with their QR codes.
    arbiter.goto(f"{base}/player-links?lang=kk")
    arbiter.locator("form[action$='/player-links'] button").click()
    expect(arbiter.locator(".link-card .qr svg")).to_have_count(5)
    links = {n: arbiter.locator(f"#player-{n} .url a").get_attribute("href") or "" for n in range(1, 6)}
    screenshot(arbiter, "checkin-player-links-kk-desktop")

    # A link revoked opens nothing; the new one works.
    old = links[3]
    arbiter.once("dialog", lambda dialog: dialog.accept())
    arbiter.locator("#player-3 form.reissue button").click()
    expect(arbiter.locator("[role=status]")).to_be_visible()
    links[3] = arbiter.locator("#player-3 .url a").get_attribute("href") or ""
    assert links[3] != old
    phones = {n: new_page(browser, locale="ru-RU" if n % 2 == 0 else "kk-KZ", viewport=PHONE) for n in range(1, 6)}
    lang = {n: "ru" if n % 2 == 0 else "kk" for n in range(1, 6)}
    revoked = phones[3].goto(f"{old}&lang=kk")
    assert revoked is not None and revoked.status == 404
    expect(phones[3].locator("h1")).to_have_text("Бұл сілтеме ойыншы бетін ашпайды")
    screenshot(phones[3], "checkin-revoked-link-kk-phone")

    # Players 1–3 check in from their phones (player 1 twice: a double tap); the arbiter checks player 4 in by hand;
    # player 5 does not come.
    for n in (1, 2, 3):
        phone = phones[n]
        phone.goto(f"{links[n]}&lang={lang[n]}")
        _fits(phone)
        _no_english(phone)
        if n == 1:
            screenshot(phone, "checkin-player-before-kk-phone")
        button = phone.locator("button[value=check-in]")
        button.dblclick() if n == 1 else button.click()  # player 1 taps twice: one check-in
        expect(phone.locator(".big-status.is-in")).to_be_visible()
        _no_english(phone)
    screenshot(phones[1], "checkin-player-checked-in-kk-phone")
    screenshot(phones[2], "checkin-player-checked-in-ru-phone")
    arbiter.goto(f"{base}/check-in?lang=kk")
    arbiter.locator("#player-4 button").click()
    expect(arbiter.locator("#player-4")).to_have_class(re.compile(r"\bis-in\b"))
    expect(arbiter.locator("#check-in-count")).to_contain_text("4")
    _no_english(arbiter)
    screenshot(arbiter, "checkin-arbiter-kk-desktop")
    for language in ("kk", "ru"):
        arbiter.set_viewport_size(PHONE)
        arbiter.goto(f"{base}/check-in?lang={language}")
        _fits(arbiter)
        _no_english(arbiter)
        screenshot(arbiter, f"checkin-arbiter-{language}-phone")
    arbiter.set_viewport_size(LAPTOP)
    arbiter.goto(f"{base}/check-in?lang=ru")
    screenshot(arbiter, "checkin-arbiter-ru-desktop")

    # Pairing pairs only those checked in: player 5 is absent.
    arbiter.goto(f"{base}?lang=kk")
    arbiter.locator("form[action$='/do/pair'] button").first.click()
    arbiter.wait_for_url(re.compile(r"/rounds/1$"))
    paired = arbiter.locator("table.grid tbody").inner_text()
    assert NAMES[4] not in paired and all(name in paired for name in NAMES[:4])
    arbiter.locator("form[action$='/do/publish'] button").click()
    expect(arbiter.locator("tr.bye-row")).to_contain_text(NAMES[4])
    # Player 5's phone: check-in for the paired round is closed now.
    phones[5].goto(f"{links[5]}&lang=kk")
    expect(phones[5].locator("#game")).to_be_visible()

    # The players give their results: board 1 agrees, board 2 does not.
    boards = []
    for board in (1, 2):
        row = arbiter.locator(f"#board-{board}")
        cells = row.locator("td").all_inner_texts()
        boards.append(tuple(int(cell.split(".", 1)[0]) for cell in cells[1:3]))
    (w1, b1), (w2, b2) = boards
    given = {w1: "win", b1: "loss", w2: "draw", b2: "win"}
    for n, outcome in given.items():
        phone = phones[n]
        phone.goto(f"{links[n]}&lang={lang[n]}")
        phone.locator(f"label.outcome:has(input[value={outcome}])").click()
        phone.locator(".outcome-form button[type=submit]").click()
        expect(phone.locator("[role=status]")).to_be_visible()
        _fits(phone)
        _no_english(phone)
    screenshot(phones[b2], f"checkin-player-result-disagreed-{lang[b2]}-phone")
    screenshot(phones[b1], f"checkin-player-result-agreed-{lang[b1]}-phone")
    assert "Үйлесімсіз" not in phones[b1].content()

    # The arbiter's round page on a phone: one form, the disagreement flagged, the agreed board to confirm.
    for language in ("kk", "ru"):
        for name, size in (("phone", PHONE), ("desktop", LAPTOP)):
            arbiter.set_viewport_size(size)
            arbiter.goto(f"{base}/rounds/1?lang={language}")
            expect(arbiter.locator("#disputed")).to_contain_text("2")
            _no_english(arbiter)
            if name == "phone":
                _fits(arbiter)
                screenshot(arbiter, f"checkin-round-top-{language}-{name}")
                arbiter.locator("#board-2").scroll_into_view_if_needed()
            screenshot(arbiter, f"checkin-round-form-{language}-{name}")
    arbiter.set_viewport_size(PHONE)
    arbiter.goto(f"{base}/rounds/1?lang=kk")
    # A wrong input: nothing saved, the board and the field named, what was typed kept.
    arbiter.select_option("select[name=result_2]", "0-1")
    arbiter.fill("input[name=kazan_white_2]", "абв")
    arbiter.fill("input[name=kazan_black_2]", "90")
    arbiter.locator("#round-results button").click()
    problems = arbiter.locator("#results-problems")
    expect(problems).to_contain_text("2-тақта")
    expect(arbiter.locator("input[name=kazan_white_2]")).to_have_value("абв")
    expect(arbiter.locator("input[name=kazan_white_2]")).to_have_attribute("aria-invalid", "true")
    _fits(arbiter)
    screenshot(arbiter, "checkin-round-form-error-kk-phone")
    arbiter.locator("#board-2").scroll_into_view_if_needed()
    screenshot(arbiter, "checkin-round-form-error-board-kk-phone")
    arbiter.fill("input[name=kazan_white_2]", "50")
    arbiter.locator("#round-results button").click()
    expect(arbiter.locator("[role=status]")).to_be_visible()
    arbiter.locator("form[action$='/do/confirm-round'] button").click()
    expect(arbiter.locator("#board-1 .result-cell")).to_contain_text("ойыншылар")
    expect(arbiter.locator("#board-2 .result-cell")).to_contain_text("0-1")
    expect(arbiter.locator("#players-results")).to_have_count(1)
    screenshot(arbiter, "checkin-round-confirmed-kk-phone")
    # The players now see the result, and cannot change it.
    phones[b1].goto(f"{links[b1]}&lang={lang[b1]}")
    expect(phones[b1].locator("#game .big-status")).to_contain_text("1-0" if b1 != w1 else "0-1")
    expect(phones[b1].locator(".outcome-form")).to_have_count(0)
    # The standings count the confirmed results.
    arbiter.goto(f"{base}/standings?lang=kk")
    expect(arbiter.locator("main")).to_contain_text(NAMES[w1 - 1])


def _give(phone: Page, outcome: str, mine: str, theirs: str) -> None:
    """A player's result form filled and sent: the outcome, their own kazan, the opponent's."""
    phone.locator(f"label.outcome:has(input[value={outcome}])").click()
    phone.fill("input[name=kazan_mine]", mine)
    phone.fill("input[name=kazan_theirs]", theirs)
    phone.locator(".outcome-form button[type=submit]").click()


def test_players_give_the_result_and_the_final_kazans_on_their_phones(browser: Browser, server: Server) -> None:
    """The setting asks for the kazans: players on 390 × 844 phones (Kazakh, Russian) give result and kazans, a bad
    kazan comes back in their language with everything typed kept, a disagreement on the kazans alone is flagged on
    the arbiter's round page, and the confirmation records the agreed kazans."""
    arbiter = new_page(browser, locale="kk-KZ", viewport=PHONE)
    sign_in_arbiter(arbiter, server)
    arbiter.goto(f"{server.url}/tournaments/new?lang=kk")
    arbiter.fill("input[name=name]", "Қазан кубогы")
    arbiter.select_option("select[name=system]", "swiss_dutch")
    arbiter.fill("input[name=rounds]", "3")
    arbiter.check("input[name=control][value=blitz]")
    arbiter.locator("form button[type=submit].primary").click()
    arbiter.wait_for_url(re.compile(r"/tournaments/t-[0-9a-f]+$"))
    base = f"{server.url}/tournaments/{arbiter.url.rsplit('/', 1)[-1]}"
    rows = "\n".join(f"{name},{1900 - 10 * i}" for i, name in enumerate(NAMES[:4]))
    response = arbiter.request.post(f"{base}/do/import", form={"csv": f"name,rating\n{rows}\n",
                                    "csrf": session_csrf(arbiter, server)}, headers={"origin": server.url})  # fmt: skip
    assert response.ok

    # The setting, off by default, asks the players for the final kazans.
    arbiter.goto(f"{base}/settings?lang=kk")
    setting = arbiter.locator("#report-kazans-setting input")
    expect(setting).not_to_be_checked()
    setting.check()
    arbiter.locator("form[action$='/do/configure'] button[type=submit].primary").click()
    arbiter.goto(f"{base}/settings?lang=kk")
    expect(arbiter.locator("#report-kazans-setting input")).to_be_checked()
    arbiter.locator("#report-kazans-setting").scroll_into_view_if_needed()
    _fits(arbiter)
    screenshot(arbiter, "kazans-setting-kk-phone")
    arbiter.goto(f"{base}?lang=kk")
    arbiter.locator("form[action$='/do/pair'] button").first.click()
    arbiter.wait_for_url(re.compile(r"/rounds/1$"))
    arbiter.locator("form[action$='/do/publish'] button").click()
    expect(arbiter.locator("#board-2")).to_be_visible()
    boards = []
    for board in (1, 2):
        cells = arbiter.locator(f"#board-{board} td").all_inner_texts()
        boards.append(tuple(int(cell.split(".", 1)[0]) for cell in cells[1:3]))
    (w1, b1), (w2, b2) = boards
    arbiter.goto(f"{base}/player-links?lang=kk")
    arbiter.locator("form[action$='/player-links'] button").click()
    expect(arbiter.locator(".link-card")).to_have_count(4)
    links = {n: arbiter.locator(f"#player-{n} .url a").get_attribute("href") or "" for n in range(1, 5)}

    # White players on Kazakh phones, Black players on Russian ones.
    lang = {w1: "kk", w2: "kk", b1: "ru", b2: "ru"}
    phones = {n: new_page(browser, locale="kk-KZ" if lang[n] == "kk" else "ru-RU", viewport=PHONE) for n in lang}
    for n, phone in phones.items():
        phone.goto(f"{links[n]}&lang={lang[n]}")
        expect(phone.locator("input[name=kazan_mine]")).to_be_visible()
        _fits(phone)
        _no_english(phone)
    screenshot(phones[w1], "kazans-player-form-kk-phone")

    # Board 1: White gives a win, 90 kumalaks against 50.
    _give(phones[w1], "win", "90", "50")
    expect(phones[w1].locator("[role=status]")).to_be_visible()
    expect(phones[w1].locator("#game")).to_contain_text("90")
    # Black first types kazans that cannot be (190 kumalaks in all): refused in Russian, everything typed kept.
    _give(phones[b1], "loss", "100", "90")
    problem = phones[b1].locator("#result-problem")
    expect(problem).to_contain_text("не больше 162 кумалаков")
    expect(phones[b1].locator("input[name=kazan_mine]")).to_have_value("100")
    expect(phones[b1].locator("input[name=kazan_theirs]")).to_have_value("90")
    expect(phones[b1].locator("input[name=kazan_mine]")).to_have_attribute("aria-invalid", "true")
    expect(phones[b1].locator("input[value=loss]")).to_be_checked()
    _fits(phones[b1])
    _no_english(phones[b1])
    screenshot(phones[b1], "kazans-player-error-ru-phone")
    assert serious(Axe(), phones[b1]) == []  # the refused form, its problem and its invalid fields, for axe-core
    phones[b1].fill("input[name=kazan_mine]", "50")
    phones[b1].locator(".outcome-form button[type=submit]").click()
    expect(phones[b1].locator("[role=status]")).to_be_visible()
    expect(phones[b1].locator("#game")).to_contain_text("Соперник указал то же")
    screenshot(phones[b1], "kazans-player-agreed-ru-phone")

    # Board 2: White in Kazakh first picks a draw with 85 in their own kazan: refused, with the reason.
    _give(phones[w2], "draw", "85", "70")
    expect(phones[w2].locator("#result-problem")).to_contain_text("82 немесе одан көп құмалақ")
    expect(phones[w2].locator("input[name=kazan_mine]")).to_have_value("85")
    _fits(phones[w2])
    _no_english(phones[w2])
    screenshot(phones[w2], "kazans-player-error-kk-phone")
    assert serious(Axe(), phones[w2]) == []
    phones[w2].locator("label.outcome:has(input[value=win])").click()
    phones[w2].fill("input[name=kazan_theirs]", "50")
    phones[w2].locator(".outcome-form button[type=submit]").click()
    expect(phones[w2].locator("[role=status]")).to_be_visible()
    # Black gives the same result with other kazans: the board goes to the arbiter.
    _give(phones[b2], "loss", "52", "85")
    expect(phones[b2].locator("#game .error-text")).to_contain_text("другие казаны")
    phones[w2].reload()
    expect(phones[w2].locator("#game .error-text")).to_contain_text("басқа қазандарды")
    _fits(phones[w2])
    screenshot(phones[w2], "kazans-player-disagreed-kk-phone")

    # The arbiter's round page, on a phone in both languages: board 2 flagged, what each player gave shown.
    for language in ("kk", "ru"):
        for name, size in (("phone", PHONE), ("desktop", LAPTOP)):
            arbiter.set_viewport_size(size)
            arbiter.goto(f"{base}/rounds/1?lang={language}")
            expect(arbiter.locator("#disputed")).to_contain_text("2")
            expect(arbiter.locator("#board-2 .reports-disagreed")).to_contain_text("1-0 (85:50) / 1-0 (85:52)")
            _fits(arbiter)
            _no_english(arbiter)
            arbiter.locator("#board-2").scroll_into_view_if_needed()
            screenshot(arbiter, f"kazans-round-disagreed-{language}-{name}")
    arbiter.set_viewport_size(PHONE)
    # The player's page on a laptop too: the two kazans side by side, what was given kept in the fields.
    phones[b2].set_viewport_size(LAPTOP)
    phones[b2].reload()
    expect(phones[b2].locator("input[name=kazan_mine]")).to_have_value("52")
    _fits(phones[b2])
    screenshot(phones[b2], "kazans-player-disagreed-ru-desktop")
    # One action confirms board 1 with its kazans; the arbiter enters board 2 (result and kazans) in the round form.
    arbiter.goto(f"{base}/rounds/1?lang=kk")
    arbiter.locator("form[action$='/do/confirm-round'] button").click()
    expect(arbiter.locator("#board-1")).to_contain_text("90:50")
    expect(arbiter.locator("#board-1 .result-cell")).to_contain_text("ойыншылар")
    arbiter.select_option("select[name=result_2]", "1-0")
    arbiter.fill("input[name=kazan_white_2]", "85")
    arbiter.fill("input[name=kazan_black_2]", "52")
    arbiter.locator("#round-results button").click()
    expect(arbiter.locator("#board-2")).to_contain_text("85:52")
    expect(arbiter.locator("#disputed")).to_have_count(0)
    arbiter.locator("#board-1").scroll_into_view_if_needed()
    screenshot(arbiter, "kazans-round-confirmed-kk-phone")
    # The players see the recorded result; the form is gone.
    phones[b1].goto(f"{links[b1]}&lang=ru")
    expect(phones[b1].locator("#game .big-status")).to_contain_text("1-0")
    expect(phones[b1].locator(".outcome-form")).to_have_count(0)
