"""A club arbiter's togyz day in a real browser (issue 16, the game's part), in Kazakh and Russian, on phones and
laptops: touching a hole does not oblige a move (TK-B6), the set-up check before the start (TK-B5), the players'
links kept on the server (shown again from another browser, revoked and reissued), clock changes confirmed, the
games list, the exports, phones in both orientations, and no regulation code outside the arbiter's console."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .conftest import Server, create_game, hole_of, new_page, play_hole, screenshot, sign_in_arbiter

PHONE = {"width": 390, "height": 844}
PHONE_LANDSCAPE = {"width": 844, "height": 390}
LAPTOP = {"width": 1280, "height": 860}


def phone(browser: Browser, *, landscape: bool = False, locale: str = "kk-KZ") -> Page:
    viewport = PHONE_LANDSCAPE if landscape else PHONE
    return new_page(browser, locale=locale, viewport=viewport, is_mobile=True, has_touch=True, device_scale_factor=2)


def ready(page: Page) -> None:
    expect(page.locator("#game")).to_have_class(re.compile(r"\bready\b"))
    expect(page.locator("#connection")).to_be_hidden()


def arbiter_page(browser: Browser, server: Server, locale: str = "en-GB") -> Page:
    page = new_page(browser, locale=locale, viewport=LAPTOP)
    sign_in_arbiter(page, server)
    return page


def start(arbiter: Page, server: Server, game_id: str, lang: str = "en") -> None:
    arbiter.goto(f"{server.url}/games/{game_id}?lang={lang}")
    ready(arbiter)
    arbiter.locator("#console [data-cmd=start]").click()
    expect(arbiter.locator("#status")).to_contain_text(re.compile("to move|жүреді|ходит"))


def plies(page: Page) -> int:
    count: int = page.evaluate("window.toreshiGame.state.moves.length")
    return count


def no_horizontal_scroll(page: Page) -> None:
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    header = page.locator("header.top").bounding_box()
    assert header is not None and header["x"] >= 0 and header["x"] + header["width"] <= width


def test_a_tap_selects_and_previews_and_the_selection_is_changed_before_playing(
    browser: Browser, server: Server
) -> None:
    # TK-B6: a player who touches a hole need not move from it.
    arbiter = arbiter_page(browser, server)
    game = create_game(arbiter, server, white="Асқар", black="Бекзат")
    white = phone(browser)
    white.goto(f"{game['links']['white']}&lang=kk")
    ready(white)
    start(arbiter, server, str(game["id"]))
    expect(white.locator("button.hole.side-white.legal")).to_have_count(9)

    hole_of(white, "white", 7).click()  # a tap selects hole 7: nothing is played
    expect(white.locator("button.hole.side-white.selected .hole-num")).to_have_text("7")
    preview = white.locator("#preview")
    # 9 kumalaks from White's hole 7: the last lands in Black's hole 6, making it 10 — taken into the kazan.
    expect(preview).to_have_text(
        "7-отау: соңғы құмалақ Бекзат ойыншысының 6-отауына түседі: 10 құмалақ ұтады (қазан 10)"
    )
    expect(white.locator(".row-top .hole.landing .hole-num")).to_have_text("6")
    white.wait_for_timeout(300)
    assert plies(white) == 0
    screenshot(white, "togyz-selection-preview-kk")
    sideways = phone(browser, landscape=True, locale="ru-RU")  # the same selection seen on a phone held sideways
    sideways.goto(f"{game['links']['white']}&lang=ru")
    ready(sideways)
    hole_of(sideways, "white", 7).click()
    expect(sideways.locator("#preview")).to_contain_text("Лунка 7: последний кумалак упадёт в лунку 6 игрока Бекзат")
    screenshot(sideways, "togyz-selection-preview-landscape-ru")
    sideways.context.close()

    hole_of(white, "white", 3).click()  # changed before playing: another hole is selected, still nothing played
    expect(white.locator("button.hole.side-white.selected .hole-num")).to_have_text("3")
    expect(white.locator("button.hole.selected")).to_have_count(1)
    expect(preview).to_contain_text("3-отау")
    assert plies(white) == 0
    white.locator("#play-selected").click()  # the play button (it presses the clock too) plays the selection
    white.wait_for_function("window.toreshiGame.state.moves.length === 1")
    assert white.evaluate("window.toreshiGame.state.moves[0].token").startswith("3")
    expect(white.locator("#selection")).to_be_hidden()

    # One-tap play stays a player's own setting: Black turns it on and a single tap plays.
    black = phone(browser, locale="ru-RU")
    black.goto(f"{game['links']['black']}&lang=ru")
    ready(black)
    black.locator("#one-tap").check()
    hole_of(black, "black", 5).click()
    black.wait_for_function("window.toreshiGame.state.moves.length === 2")
    assert black.evaluate("localStorage.getItem('toreshi.togyz.one-tap')") == "1"
    # And a second tap on the same hole plays it, for White (who previews).
    play_hole(white, "white", 1)
    white.wait_for_function("window.toreshiGame.state.moves.length === 3")


def test_both_players_check_the_setup_then_the_arbiter_starts_and_no_complaint_after(
    browser: Browser, server: Server
) -> None:
    # TK-B4, TK-B5: the arbiter starts the clock once both players are ready and have checked the set-up.
    arbiter = arbiter_page(browser, server, locale="ru-RU")
    game = create_game(arbiter, server, settings={"start_mode": "when_ready", "flag_mode": "automatic"})
    arbiter.goto(f"{server.url}/games/{game['id']}?lang=ru")
    ready(arbiter)
    white, black = new_page(browser, locale="ru-RU"), phone(browser, locale="ru-RU")
    white.goto(f"{game['links']['white']}&lang=ru")
    black.goto(f"{game['links']['black']}&lang=ru")
    for page in (white, black):
        ready(page)
        # Players are told that the arbiter starts their clock.
        expect(page.locator("#status")).to_have_text("Ожидание начала: часы пускает судья")
    expect(arbiter.locator("#console [data-cmd=start]")).to_be_hidden()
    white.locator("[data-player-cmd=confirm_setup]").click()
    expect(arbiter.locator("#console-setup")).to_contain_text("Расстановка проверена: Абай ✓, Болат …")
    black.locator("[data-player-cmd=complain_setup]").click()  # a fault found: put right, checked again by both
    expect(arbiter.locator("#console-setup")).to_contain_text("Болат сообщает об ошибке в расстановке")
    expect(white.locator("[data-player-cmd=confirm_setup]")).to_be_visible()
    screenshot(arbiter, "togyz-setup-complaint-console-ru")
    for page in (white, black):
        page.locator("[data-player-cmd=confirm_setup]").click()
    expect(black.locator("#setup-note")).to_have_text("Расстановка проверена: Абай ✓, Болат ✓")
    screenshot(black, "togyz-setup-checked-phone-ru")
    start_button = arbiter.locator("#console [data-cmd=start]")
    expect(start_button).to_be_visible()
    start_button.click()
    expect(white.locator("#status")).to_contain_text("ходит")
    # After the start a complaint about the set-up is not offered, and the server refuses it with the rule.
    expect(black.locator("[data-player-cmd=complain_setup]")).to_have_count(0)
    send = "([type, data]) => window.toreshiGame.clients[0].command(type, data).catch(() => null)"
    black.evaluate(send, ["complain_setup", {}])
    expect(black.locator("#notice")).to_have_text(
        "Партия началась: расстановку проверяют до начала, после начала претензии к ней не принимаются."
    )


def test_the_arbiter_reprints_revokes_and_reissues_links_from_another_browser(browser: Browser, server: Server) -> None:
    first = arbiter_page(browser, server)
    game = create_game(first, server, white="Асқар", black="Бекзат", event="Клуб чемпионаты", round="3", board=4)
    old_white = game["links"]["white"]
    white = new_page(browser, locale="kk-KZ")
    white.goto(f"{old_white}&lang=kk")
    ready(white)
    expect(white.locator("#role")).to_have_text("Бастаушы · Асқар")

    # Another browser, signed in afresh: the links are shown again, with the names, the board and the QR codes.
    second = new_page(browser, locale="kk-KZ", viewport=LAPTOP)
    sign_in_arbiter(second, server)
    second.goto(f"{server.url}/games/{game['id']}/links?lang=kk")
    cards = second.locator(".link-card")
    expect(cards).to_have_count(3)
    expect(second.locator("#link-white .link-name")).to_have_text("Асқар")
    expect(second.locator("#link-black .link-name")).to_have_text("Бекзат")
    expect(second.locator("#link-white .link-board")).to_have_text("Тақта 4 · Тур 3")
    expect(second.locator("#link-white .url a")).to_have_text(old_white)
    expect(second.locator("#link-black .url a")).to_have_text(game["links"]["black"])
    assert second.locator(".link-card .qr svg").count() == 3
    screenshot(second, "togyz-links-page-kk")
    second.goto(f"{server.url}/games/{game['id']}/links?lang=ru")
    expect(second.locator("#link-white .link-board")).to_have_text("Доска 4 · Тур 3")
    screenshot(second, "togyz-links-page-ru")
    second.goto(f"{server.url}/games/{game['id']}/links?lang=kk")

    # Revoked and reissued: the page open with the old link is told at once, and the old link opens nothing.
    second.once("dialog", lambda dialog: dialog.accept())
    second.locator("#link-white form.reissue button").click()
    second.wait_for_url(re.compile(r"reissued=white"))
    new_white = second.locator("#link-white .url a").inner_text()
    assert new_white != old_white and "token=" in new_white
    expect(white.locator("#link-state")).to_have_text("Бұл сілтеме енді ойынды ашпайды: төреші жаңасын берді.")
    white.goto(f"{old_white}&lang=kk")
    expect(white.locator("#link-state")).to_contain_text("Бұл сілтеме ойынды ашпайды")
    expect(white.locator("#role")).to_have_text("Көрермен")
    renewed = new_page(browser, locale="kk-KZ")
    renewed.goto(f"{new_white}&lang=kk")
    ready(renewed)
    expect(renewed.locator("#role")).to_have_text("Бастаушы · Асқар")
    # The console has the same buttons, and the printed sheet no reissue buttons.
    second.goto(f"{server.url}/games/{game['id']}?lang=kk")
    ready(second)
    expect(second.locator("#console [data-reissue=black]")).to_be_visible()
    second.emulate_media(media="print")
    second.goto(f"{server.url}/games/{game['id']}/links?lang=kk")
    expect(second.locator("form.reissue").first).to_be_hidden()


def test_clock_changes_show_the_result_and_are_confirmed_a_total_below_zero_is_refused(
    browser: Browser, server: Server
) -> None:
    arbiter = arbiter_page(browser, server, locale="ru-RU")
    game = create_game(arbiter, server)
    start(arbiter, server, str(game["id"]), lang="ru")
    arbiter.locator("#console [data-cmd=pause]").click()
    expect(arbiter.locator("#status")).to_have_text("Часы остановлены")
    form = arbiter.locator("#add-time")
    form.locator("select[name=side]").select_option("white")
    form.locator("input[name=seconds]").fill("-99999")  # more than a day: refused naming the field
    form.locator("button[type=submit]").click()
    expect(arbiter.locator("#notice")).to_contain_text("Секунды:")
    form.locator("input[name=seconds]").fill("-86400")  # a day: more than the clock holds
    form.locator("button[type=submit]").click()
    expect(arbiter.locator("#notice")).to_contain_text("У игрока Абай осталось только 7:00: −24:00:00 отнять нельзя")
    expect(arbiter.locator("#confirm-dialog")).to_be_hidden()
    # Sent anyway (as a script could): the server refuses it, in the page's language, with the times.
    send = "([type, data]) => window.toreshiGame.clients[0].command(type, data).catch(() => null)"
    arbiter.evaluate(send, ["add_time", {"side": "white", "ms": -99_999_000}])
    expect(arbiter.locator("#notice")).to_have_text(re.compile(r"^Абай: осталось \d:\d\d — нельзя отнять 27:46:39"))
    white_clock = arbiter.locator(".player-bar[data-side=white] [data-clock]")
    expect(white_clock).not_to_have_text("0:00")

    form.locator("input[name=seconds]").fill("-30")
    form.locator("button[type=submit]").click()
    dialog = arbiter.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    before = white_clock.inner_text()
    expect(dialog.locator("#confirm-text")).to_contain_text(f"Абай: −0:30 ({before} → ")  # the change as typed
    screenshot(arbiter, "togyz-add-time-confirm-ru")
    dialog.locator("button[value=no]").click()  # cancelled: nothing changes
    expect(white_clock).to_have_text(before)
    form.locator("button[type=submit]").click()
    dialog.locator("#confirm-yes").click()
    expect(white_clock).not_to_have_text(before)

    clocks = arbiter.locator("#set-clocks")
    clocks.locator("input[name=white]").fill("5:00")
    clocks.locator("input[name=black]").fill("4:30")
    clocks.locator("button[type=submit]").click()
    expect(dialog.locator("#confirm-text")).to_contain_text("→ 5:00")
    expect(dialog.locator("#confirm-text")).to_contain_text("→ 4:30")
    dialog.locator("#confirm-yes").click()
    expect(white_clock).to_have_text("5:00")


def test_phones_the_header_fits_in_portrait_and_the_board_in_landscape(browser: Browser, server: Server) -> None:
    arbiter = arbiter_page(browser, server)
    game = create_game(arbiter, server, white="Нұрсұлтан Әбдірахманов", black="Бекзат")
    start(arbiter, server, str(game["id"]))
    for language, locale in (("kk", "kk-KZ"), ("ru", "ru-RU")):
        upright = phone(browser, locale=locale)
        for path in ("/", f"/games/{game['id']}", "/login"):
            upright.goto(f"{server.url}{path}?lang={language}")
            no_horizontal_scroll(upright)
            nav = upright.locator("header.top nav")
            box = nav.bounding_box()
            assert box is not None
            for link in nav.locator("a").all():  # every section's link is in view, none cut off
                item = link.bounding_box()
                assert item is not None and item["x"] >= 0 and item["x"] + item["width"] <= PHONE["width"]
        upright.goto(f"{game['links']['white']}&lang={language}")
        ready(upright)
        board = upright.locator("#board").bounding_box()
        assert board is not None and board["width"] <= PHONE["width"]
        screenshot(upright, f"togyz-phone-board-{language}")

        sideways = phone(browser, landscape=True, locale=locale)
        sideways.goto(f"{game['links']['black']}&lang={language}")
        ready(sideways)
        no_horizontal_scroll(sideways)
        # The board and both players' clocks are on the screen at once, without scrolling.
        for selector in ("#board", ".player-bar.top", ".player-bar.bottom"):
            box = sideways.locator(selector).bounding_box()
            assert box is not None, selector
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE_LANDSCAPE["height"], (language, selector, box)
        screenshot(sideways, f"togyz-landscape-board-{language}")


def body_text(page: Page) -> str:
    text: str = page.evaluate("document.body.innerText")
    return text


def test_regulation_codes_appear_on_the_arbiters_console_only(browser: Browser, server: Server) -> None:
    arbiter = arbiter_page(browser, server)
    game = create_game(arbiter, server, settings={"flag_mode": "claim"})
    watchers: dict[str, Page] = {}
    for role, language in (("white", "kk"), ("black", "ru")):
        page = new_page(browser, locale="kk-KZ")
        page.goto(f"{game['links'][role]}&lang={language}")
        watchers[role] = page
    spectator = new_page(browser, locale="ru-RU")
    spectator.goto(f"{server.url}/games/{game['id']}?lang=ru")
    watchers["spectator"] = spectator
    arbiter.goto(f"{server.url}/games/{game['id']}?lang=kk")
    ready(arbiter)
    arbiter.locator('#start-absent input[value="black"]').check()
    arbiter.locator("#console [data-cmd=start]").click()
    for page in watchers.values():
        ready(page)
    play_hole(watchers["white"], "white", 7)
    send = "([type, data]) => window.toreshiGame.clients[0].command(type, data).catch(() => null)"
    # Refused by a rule with a clause (TK-R8): the page says the rule without its number.
    watchers["white"].evaluate(send, ["offer_draw", {}])
    expect(watchers["white"].locator("#notice")).to_be_visible()
    for role, page in watchers.items():
        assert "TK-" not in body_text(page), role
    assert "TK-" in body_text(arbiter)  # the console's hints cite the clauses
    watchers["white"].once("dialog", lambda dialog: dialog.accept())
    watchers["white"].locator("[data-player-cmd=resign]").click()
    for role, page in watchers.items():
        expect(page.locator("#result")).to_be_visible()
        assert "TK-" not in body_text(page), role
    watchers["spectator"].goto(f"{server.url}/games/{game['id']}/replay?lang=ru")
    assert "TK-" not in body_text(watchers["spectator"])


def test_the_games_list_statuses_filters_and_archive(browser: Browser, server: Server) -> None:
    arbiter = arbiter_page(browser, server, locale="kk-KZ")
    scheduled = create_game(arbiter, server, white="Күтуші", black="Ойыншы")
    playing = create_game(arbiter, server, white="Жүруші", black="Қарсылас")
    finished = create_game(arbiter, server, white="Жеңімпаз", black="Жеңілуші")
    start(arbiter, server, str(playing["id"]))
    start(arbiter, server, str(finished["id"]))
    arbiter.evaluate(
        "([type, data]) => window.toreshiGame.clients[0].command(type, data)",
        ["decide", {"result": "1-0", "reason": "Қарсылас келісті"}],
    )
    arbiter.goto(f"{server.url}/?lang=kk")
    items = arbiter.locator(".game-item")
    row = {name: items.filter(has_text=name) for name in ("Күтуші", "Жүруші", "Жеңімпаз")}
    expect(row["Күтуші"].locator(".game-status")).to_have_text("Басталған жоқ")  # never "Live" before the start
    expect(row["Жүруші"].locator(".game-status")).to_have_text("Жүріп жатыр")
    expect(row["Жеңімпаз"].locator(".game-result")).to_have_text("1 – 0")
    expect(row["Жеңімпаз"].locator(".game-ending")).to_contain_text("Қарсылас келісті")
    screenshot(arbiter, "togyz-games-list-kk")
    arbiter.goto(f"{server.url}/?lang=ru")
    expect(row["Күтуші"].locator(".game-status")).to_have_text("Не началась")
    screenshot(arbiter, "togyz-games-list-ru")
    arbiter.goto(f"{server.url}/?lang=kk")
    arbiter.locator(".game-filters a", has_text="Аяқталды").click()
    expect(items.filter(has_text="Жеңімпаз")).to_have_count(1)
    expect(items.filter(has_text="Жүруші")).to_have_count(0)
    expect(items.filter(has_text="Күтуші")).to_have_count(0)
    arbiter.locator(".game-filters a", has_text="Жүріп жатыр").click()
    expect(items.filter(has_text="Жүруші")).to_have_count(1)
    expect(items.filter(has_text="Күтуші")).to_have_count(0)

    arbiter.goto(f"{server.url}/?lang=kk")
    row["Жеңімпаз"].locator("form.inline button").click()  # archived: off the list, still readable
    expect(items.filter(has_text="Жеңімпаз")).to_have_count(0)
    arbiter.locator(".game-filters a", has_text="Мұрағат").click()
    expect(items.filter(has_text="Жеңімпаз")).to_have_count(1)
    arbiter.goto(f"{server.url}/games/{finished['id']}/replay?lang=kk")
    expect(arbiter.locator("#replay-ending")).to_contain_text("Жеңімпаз жеңді")
    assert scheduled["id"] != finished["id"]


def test_the_record_of_a_game_its_sheet_pgn_and_fen(browser: Browser, server: Server) -> None:
    arbiter = arbiter_page(browser, server, locale="kk-KZ")
    game = create_game(arbiter, server, control="classical-60", white="Асқар", black="Бекзат")
    white, black = new_page(browser, locale="kk-KZ"), new_page(browser, locale="ru-RU")
    white.goto(f"{game['links']['white']}&lang=kk")
    black.goto(f"{game['links']['black']}&lang=ru")
    start(arbiter, server, str(game["id"]))
    ready(white)
    ready(black)
    white.locator("#offer-with-move").check()
    play_hole(white, "white", 7)
    black.locator("[data-player-cmd=decline_draw]").click()
    # The player who offered is told it was declined.
    expect(white.locator("#notice")).to_have_text("Бекзат тең ойын ұсынысыңызды қабылдамады")
    play_hole(black, "black", 9)
    white.once("dialog", lambda dialog: dialog.accept())
    white.locator("[data-player-cmd=resign]").click()
    expect(black.locator("#result")).to_be_visible()

    black.goto(f"{server.url}/games/{game['id']}/replay?lang=ru")
    expect(black.locator("#replay-ply")).to_have_text("Ход 1 из 1 · Чёрные: 98")
    expect(black.locator(".replay-move").first).to_have_text("76(10) =")
    expect(black.locator("#replay-ending")).to_have_text("Победа: Бекзат — Сдача партии — Асқар: партия сдана")
    fen = black.locator("#replay-fen")
    expect(fen).to_have_text(re.compile(r" S 2$"))
    black.locator('[data-step="first"]').click()
    expect(fen).to_have_text("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1")
    screenshot(black, "togyz-replay-fen-ru")
    pgn = black.request.get(f"{server.url}/games/{game['id']}/export.pgn").text()
    assert re.search(r"1\. 76\(10\) \{\[%clk 0:\d\d:\d\d\]\} \{=\} 98 \{\[%clk 0:\d\d:\d\d\]\} 0-1", pgn), pgn

    white.goto(f"{server.url}/games/{game['id']}/sheet?lang=kk")
    expect(white.locator("h1")).to_have_text("Жазу бланкасы")
    expect(white.locator("table.sheet-moves tbody tr").first).to_have_text(re.compile(r"1\s*76\(10\) =\s*98"))
    expect(white.locator(".signature")).to_have_count(3)  # both players and the arbiter
    screenshot(white, "togyz-score-sheet-kk")
    white.goto(f"{server.url}/games/{game['id']}/sheet?lang=ru")
    expect(white.locator("h1")).to_have_text("Бланк записи")
    screenshot(white, "togyz-score-sheet-ru")
    data: Any = white.evaluate("document.title")
    assert "Асқар" in data
