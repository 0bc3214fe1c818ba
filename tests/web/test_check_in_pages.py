"""Check-in, the players' personal links, results given by the players and the round page's one form (issue 28)."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from toreshi.tournament.journal import TournamentState
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


def _report(phone: TestClient, tid: str, link: str, outcome: str) -> str:
    token = link.split("token=")[1]
    response = phone.post(f"/tournaments/{tid}/me", data={"csrf": session_csrf(phone), "token": token,
                                                          "action": "report", "outcome": outcome})  # fmt: skip
    assert response.status_code == 200
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
    assert "Result" in _report(phone, tid, links[second.black], "maybe")
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
