"""Check-in, the players' personal links, results given by the players and the round page's one form (issue 28)."""

from __future__ import annotations

import html
import re
from unittest.mock import ANY

from starlette.testclient import TestClient

from toreshi.tournament.journal import TournamentState
from toreshi.tournament.journal.check_in import Report, board_reports
from toreshi.tournament.model import GameResult

from .helpers import post, session_csrf
from .test_tournament_pages import call, create, sign_in, tournaments

LINK = re.compile(r'href="http://testserver(/tournaments/t-[0-9a-f]+/me\?token=([^"]+))"')


def _state(web: TestClient, tid: str) -> TournamentState:
    return call(web, lambda: tournaments(web).state(tid))


def _player_client(web: TestClient) -> TestClient:
    client = TestClient(web.app, base_url="http://testserver", headers={"accept-language": "en"})
    client.portal = web.portal  # the same running app
    return client


def _links(web: TestClient, csrf: str, tid: str) -> dict[int, str]:
    """Every player's link from the printable sheet (made first), by pairing number."""
    post(web, f"/tournaments/{tid}/player-links", csrf)
    page = html.unescape(web.get(f"/tournaments/{tid}/player-links").text)
    found = {}
    for card in page.split('<article class="link-card" id="player-')[1:]:
        number = int(card.split('"', 1)[0])
        match = LINK.search(card)
        assert match is not None
        found[number] = match.group(1)
    return found


def _swiss(web: TestClient, players: int = 5, check_in: bool = True) -> tuple[str, str]:
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    csv = "name,rating\n" + "".join(f"Player {n},{2000 - n}\n" for n in range(1, players + 1))
    post(web, f"/tournaments/{tid}/do/import", csrf, csv=csv)
    if check_in:
        post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", check_in_shown="1", check_in="on")
    return csrf, tid


def test_the_setting_turns_check_in_on_and_off(web: TestClient) -> None:
    csrf, tid = _swiss(web, check_in=False)
    assert "Check-in is off" in post(web, f"/tournaments/{tid}/do/check-in", csrf, number="1")
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", check_in_shown="1", check_in="on")
    page = post(web, f"/tournaments/{tid}/do/check-in", csrf, number="1", back=f"/tournaments/{tid}/check-in")
    assert "Checked in: 1 of 5" in page
    # The settings form without the checkbox turns it off; a form without the field leaves it as it is.
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup")
    assert "Checked in: 1 of 5" in web.get(f"/tournaments/{tid}/check-in").text
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", check_in_shown="1")
    assert "Check-in is off" in web.get(f"/tournaments/{tid}/check-in").text


def test_players_check_in_from_their_links_and_only_they_are_paired(web: TestClient) -> None:
    csrf, tid = _swiss(web)
    links = _links(web, csrf, tid)
    assert sorted(links) == [1, 2, 3, 4, 5]
    phone = _player_client(web)
    before = len(_state(web, tid).audit)
    page = html.unescape(phone.get(links[1]).text)
    assert "1. Player 1" in page and "You are not checked in yet" in page
    assert len(_state(web, tid).audit) == before  # reading the page writes nothing
    token_field = links[1].split("token=")[1]
    for number in (1, 2, 3):
        token = links[number].split("token=")[1]
        page = html.unescape(phone.post(f"/tournaments/{tid}/me", data={"csrf": session_csrf(phone),
                             "token": token, "action": "check-in"}).text)  # fmt: skip
        assert "You are checked in for round 1." in page
    assert "Checked in: 3 of 5" in web.get(f"/tournaments/{tid}/check-in").text
    post(web, f"/tournaments/{tid}/do/check-in", csrf, number="4")  # the arbiter checks in by hand
    # A player checks out again; twice is harmless.
    for _ in range(2):
        phone.post(f"/tournaments/{tid}/me", data={"csrf": session_csrf(phone), "token": token_field,
                                                   "action": "check-out"})  # fmt: skip
    post(web, f"/tournaments/{tid}/do/check-in", csrf, number="1")
    overview = html.unescape(web.get(f"/tournaments/{tid}").text)
    assert "Check-in for round 1: Checked in: 4 of 5" in overview  # beside the pairing button
    page = post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert "Round 1" in page
    snapshot = _state(web, tid)
    assert snapshot.draft is not None and snapshot.absences[1] == (5,)
    # Check-in of a paired Swiss round is closed, from the link as from the desk.
    token5 = links[5].split("token=")[1]
    page = html.unescape(phone.post(f"/tournaments/{tid}/me", data={"csrf": session_csrf(phone), "token": token5,
                                                                     "action": "check-in"}).text)  # fmt: skip
    assert "check-in for it is closed" in page
    page = post(web, f"/tournaments/{tid}/do/publish", csrf)
    assert "Absent: not checked in (Z)" in page
    # Every check-in is a line of the audit log, by the player's own link or by the arbiter.
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert audit.count("Player 2 (own link)") == 1 and "1. Player 1, round 1: checked out" in audit
    assert "absent, not checked in: 5. Player 5" in audit


def test_a_revoked_link_opens_nothing_and_the_new_one_works(web: TestClient) -> None:
    csrf, tid = _swiss(web)
    links = _links(web, csrf, tid)
    old = links[2]
    post(web, f"/tournaments/{tid}/player-links/2/reissue", csrf)
    new = _links(web, csrf, tid)[2]
    assert new != old
    phone = _player_client(web)
    for language, text in (("kk", "Бұл сілтеме ойыншы бетін ашпайды"),
                           ("ru", "Эта ссылка не открывает страницу игрока")):  # fmt: skip
        refused = phone.get(old, headers={"accept-language": language})
        assert refused.status_code == 404 and text in html.unescape(refused.text)
    response = phone.post(
        f"/tournaments/{tid}/me",
        data={"csrf": session_csrf(phone), "token": old.split("token=")[1], "action": "check-in"},
    )
    assert response.status_code == 404
    assert phone.get(f"/tournaments/{tid}/me?token=made-up").status_code == 404
    assert phone.get(new).status_code == 200


def _published(web: TestClient, players: int = 4) -> tuple[str, str]:
    csrf, tid = _swiss(web, players, check_in=False)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    return csrf, tid


def _report(
    phone: TestClient, tid: str, link: str, outcome: str, status: int = 200, language: str = "en", **kazans: str
) -> str:
    token = link.split("token=")[1]
    response = phone.post(f"/tournaments/{tid}/me", data={"csrf": session_csrf(phone), "token": token,
                                                          "action": "report", "outcome": outcome, **kazans},
                          headers={"accept-language": language})  # fmt: skip
    assert response.status_code == status
    return html.unescape(response.text)


def test_players_give_the_result_and_the_arbiter_confirms_the_round(web: TestClient) -> None:
    csrf, tid = _published(web)
    links = _links(web, csrf, tid)
    state = _state(web, tid)
    first, second = state.t.round(1).games
    phone = _player_client(web)
    page = _report(phone, tid, links[first.white], "win")
    assert "Your result is sent" in page and "Your opponent has not given it yet." in page
    _report(phone, tid, links[first.black], "loss")
    _report(phone, tid, links[second.white], "draw")
    page = _report(phone, tid, links[second.black], "win")
    assert "Your opponent gave a different result" in page
    # A bad choice is refused, naming the field.
    assert "Result" in _report(phone, tid, links[second.black], "maybe", status=400)
    round_page = html.unescape(web.get(f"/tournaments/{tid}/rounds/1").text)
    assert "The players disagree on boards 2" in round_page
    assert "Confirm the players' results of boards 1" in round_page
    standings = html.unescape(web.get(f"/tournaments/{tid}/standings").text)
    assert "Player" in standings
    assert _state(web, tid).t.round(1).game(1).result is None
    page = post(web, f"/tournaments/{tid}/do/confirm-round", csrf, round="1")
    after = _state(web, tid)
    assert after.t.round(1).game(1).result is GameResult.WHITE_WINS
    assert after.t.round(1).game(2).result is None
    assert "(players)" in page
    # The player can no longer change it; the page says the result.
    page = _report(phone, tid, links[first.black], "win")
    assert "already has its result" in page
    # A player's link cannot give another board's result, nor act as the arbiter.
    response = phone.post(f"/tournaments/{tid}/do/confirm-round", data={"csrf": session_csrf(phone), "round": "1"},
                          follow_redirects=False)  # fmt: skip
    assert response.status_code == 303 and response.headers["location"].startswith("/login")


def test_the_round_form_saves_every_board_in_one_submit(web: TestClient) -> None:
    csrf, tid = _published(web, players=6)
    form = {"csrf": csrf, "result_1": "1-0", "kazan_white_1": "90", "kazan_black_1": "50", "result_2": "½-½",
            "result_3": ""}  # fmt: skip
    response = web.post(f"/tournaments/{tid}/rounds/1/results", data=form, follow_redirects=True)
    assert response.status_code == 200 and "Results saved: 2." in html.unescape(response.text)
    state = _state(web, tid)
    assert state.t.round(1).game(1).kazans == (90, 50) and state.t.round(1).game(2).result is GameResult.DRAW
    assert state.t.round(1).game(3).result is None
    # The same form again (a double submit) changes nothing.
    events = len(state.audit)
    response = web.post(f"/tournaments/{tid}/rounds/1/results", data=form, follow_redirects=True)
    assert "Nothing changed" in html.unescape(response.text)
    assert len(_state(web, tid).audit) == events


def test_a_wrong_board_saves_nothing_names_board_and_field_and_keeps_what_was_typed(web: TestClient) -> None:
    csrf, tid = _published(web, players=6)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    form = {"csrf": csrf, "result_1": "0-1", "reason_1": "", "result_2": "1-0", "kazan_white_2": "40",
            "kazan_black_2": "90", "result_3": "½-½", "kazan_white_3": "abc", "kazan_black_3": "81"}  # fmt: skip
    response = web.post(f"/tournaments/{tid}/rounds/1/results", data=form)
    page = html.unescape(response.text)
    assert response.status_code == 400
    assert "Nothing was saved" in page
    assert "Board 1: " in page and "Reason" in page  # a correction needs its reason
    assert "Board 2: " in page and "82 kazans win the game" in page
    assert "Board 3: " in page and "White's kazan" in page
    # Everything typed is still there to correct.
    assert 'name="kazan_white_3" form="round-results" inputmode="numeric" maxlength="3" size="3" value="abc"' in page
    assert re.search(r'name="result_3"[^>]*aria-invalid="true"|name="kazan_white_3"[^>]*aria-invalid="true"', page)
    state = _state(web, tid)
    assert state.t.round(1).game(1).result is GameResult.WHITE_WINS  # nothing saved, not even the good boards
    assert state.t.round(1).game(3).result is None
    # An expired form keeps what was typed too.
    expired = web.post(f"/tournaments/{tid}/rounds/1/results", data={**form, "csrf": "stale"})
    assert expired.status_code == 400 and 'value="abc"' in expired.text and "expired" in expired.text


def test_the_pages_speak_kazakh_and_russian(web: TestClient) -> None:
    csrf, tid = _swiss(web)
    links = _links(web, csrf, tid)
    phone = _player_client(web)
    for language, words in (("kk", "Мен осындамын"), ("ru", "Я на месте")):
        page = html.unescape(phone.get(links[1], headers={"accept-language": language}).text)
        assert words in page and "I am here" not in page
        page = html.unescape(web.get(f"/tournaments/{tid}/check-in", headers={"accept-language": language}).text)
        assert "Checked in" not in page and "Check in" not in page


def _kazans_on(web: TestClient, csrf: str, tid: str) -> None:
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", report_kazans_shown="1", report_kazans="on")


def test_the_kazans_setting_is_on_the_settings_page_and_off_by_default(web: TestClient) -> None:
    csrf, tid = _swiss(web, check_in=False)
    for language, words in (("kk", "Ойыншылар нәтижемен бірге соңғы қазандарды да береді"),
                            ("ru", "Игроки вместе с результатом сообщают итоговые казаны")):  # fmt: skip
        page = html.unescape(web.get(f"/tournaments/{tid}/settings", headers={"accept-language": language}).text)
        assert words in page and "Players give the final kazans" not in page
    assert not _state(web, tid).report_kazans
    assert re.search(r'name="report_kazans" value="on">', web.get(f"/tournaments/{tid}/settings").text)
    _kazans_on(web, csrf, tid)
    assert _state(web, tid).report_kazans
    assert re.search(r'name="report_kazans" value="on" checked>', web.get(f"/tournaments/{tid}/settings").text)
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup")  # a form without it leaves it on
    assert _state(web, tid).report_kazans
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", report_kazans_shown="1")
    assert not _state(web, tid).report_kazans


def test_without_the_setting_the_form_has_no_kazans_and_any_sent_are_not_read(web: TestClient) -> None:
    csrf, tid = _published(web)
    links = _links(web, csrf, tid)
    game = _state(web, tid).t.round(1).game(1)
    phone = _player_client(web)
    assert 'name="kazan_mine"' not in phone.get(links[game.white]).text
    page = _report(phone, tid, links[game.white], "win", kazan_mine="90", kazan_theirs="50")
    assert "Your result is sent" in page
    assert board_reports(_state(web, tid), 1, 1).white == Report(GameResult.WHITE_WINS, ANY, None)


def test_players_give_the_kazans_in_kazakh_and_russian_and_the_arbiter_confirms_them(web: TestClient) -> None:
    csrf, tid = _published(web)
    _kazans_on(web, csrf, tid)
    links = _links(web, csrf, tid)
    first, second = _state(web, tid).t.round(1).games
    phone = _player_client(web)
    form = html.unescape(phone.get(links[first.white], headers={"accept-language": "kk"}).text)
    assert "Менің қазаным" in form and "Қарсыласымның қазаны" in form and "My kazan" not in form
    # Board 1: White (in Kazakh) and Black (in Russian) give the same result and the same kazans, each their own
    # kazan first.
    page = _report(phone, tid, links[first.white], "win", language="kk", kazan_mine="90", kazan_theirs="50")
    assert "Қазандар: сіздікі 90, қарсыласыңыздікі 50." in page
    page = _report(phone, tid, links[first.black], "loss", language="ru", kazan_mine="50", kazan_theirs="90")
    assert "Казаны: ваш 50, соперника 90." in page and "Соперник указал то же: судья подтвердит." in page
    assert board_reports(_state(web, tid), 1, 1).agreed_kazans == (90, 50)  # White's, Black's
    # Board 2: the same result, other kazans: flagged for the arbiter.
    _report(phone, tid, links[second.white], "win", language="kk", kazan_mine="90", kazan_theirs="50")
    page = _report(phone, tid, links[second.black], "loss", language="ru", kazan_mine="52", kazan_theirs="90")
    assert "Соперник сообщил тот же результат, но другие казаны" in page
    kk = _report(phone, tid, links[second.white], "win", language="kk", kazan_mine="90", kazan_theirs="50")
    assert "Қарсыласыңыз дәл осы нәтижені, бірақ басқа қазандарды берді" in kk
    # The arbiter's round page, in both languages: the disagreement on the kazans, with what each gave.
    for language, disputed, kazans_only in (
        ("kk", "Ойыншылар келіспеді (тақталар: 2)", "ойыншылар бір нәтижені, бірақ әртүрлі қазандарды берді"),
        ("ru", "Игроки не согласны (доски 2)", "игроки сообщили одинаковый результат, но разные казаны"),
    ):
        round_page = html.unescape(web.get(f"/tournaments/{tid}/rounds/1", headers={"accept-language": language}).text)
        assert disputed in round_page and kazans_only in round_page
        row = round_page.split('id="board-2"', 1)[1].split("</tr>", 1)[0]
        assert "1-0 (90:50) / 1-0 (90:52)" in row
    # One action confirms the round: the agreed board's result and kazans count; the disputed one stays.
    page = html.unescape(post(web, f"/tournaments/{tid}/do/confirm-round", csrf, round="1"))
    after = _state(web, tid)
    assert (after.t.round(1).game(1).result, after.t.round(1).game(1).kazans) == (GameResult.WHITE_WINS, (90, 50))
    assert after.t.round(1).game(2).result is None
    assert "90:50" in page.split('id="board-1"', 1)[1].split("</tr>", 1)[0]
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit", headers={"accept-language": "kk"}).text)
    assert "қазандар 90:52" in audit and "қазандар 90:50" in audit


def _kazan_value(page: str, name: str) -> str:
    match = re.search(rf'<input name="{name}"[^>]* value="([^"]*)"', page)
    assert match is not None, name
    return match.group(1)


def test_a_bad_kazan_is_refused_in_the_players_language_keeping_what_was_typed(web: TestClient) -> None:
    csrf, tid = _published(web)
    _kazans_on(web, csrf, tid)
    links = _links(web, csrf, tid)
    game = _state(web, tid).t.round(1).game(1)
    phone = _player_client(web)
    link = links[game.black]  # Black: their own kazan is the second of (White, Black)
    cases = (
        ("kk", "win", "абв", "50", "Менің қазаным: сан енгізіңіз."),
        ("kk", "win", "", "50", "Менің қазаным: бұл өріс міндетті."),
        ("ru", "win", "100", "90", "В двух казанах вместе не больше 162 кумалаков: 100 и 90 быть не может."),
        (
            "ru",
            "loss",
            "90",
            "40",
            "Ваш казан 90, казан соперника 40: у кого в казане 82 кумалака или больше, тот "
            "выиграл, поэтому «Я проиграл(а)» быть не может.",
        ),
        ("kk", "draw", "85", "70", "қазанында 82 немесе одан көп құмалақ бар ойыншы ұтқан, сондықтан «Тең ойын» болуы"),
    )
    for language, outcome, mine, theirs, message in cases:
        page = _report(phone, tid, link, outcome, status=400, language=language, kazan_mine=mine, kazan_theirs=theirs)
        assert message in page, (message, page.split('id="result-problem"', 1)[-1][:300])
        # Nothing typed is lost: the choice and both kazans come back as they were sent.
        assert re.search(rf'value="{outcome}" checked', page)
        assert _kazan_value(page, "kazan_mine") == mine and _kazan_value(page, "kazan_theirs") == theirs
        assert 'aria-invalid="true"' in page and "Your result" not in page
    assert not _state(web, tid).reports  # nothing refused was recorded
    page = _report(phone, tid, link, "loss", language="kk", kazan_mine="40", kazan_theirs="90")
    assert board_reports(_state(web, tid), 1, 1).black == Report(GameResult.WHITE_WINS, ANY, (90, 40))
    # After the send, the page shows what was given (the player's own kazan first), ready to change.
    assert _kazan_value(page, "kazan_mine") == "40" and _kazan_value(page, "kazan_theirs") == "90"
