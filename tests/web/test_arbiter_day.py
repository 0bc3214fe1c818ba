"""An arbiter's day on the tournament pages (issue 28): a refused late entry names the setting that refuses it;
the board does not meet on an unpaid protest (which closes it unconsidered) before the arbiter is warned; a team
with nobody to file a protest is no dead end."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from toreshi.tournament.codes import ProtestCode, TournamentCode

from .helpers import post, receive_until
from .test_tournament_day import protest, with_a_team
from .test_tournament_pages import create, said, sign_in


def _swiss(client: TestClient, csrf: str, players: int = 4) -> str:
    tid = create(client, csrf, system="swiss_dutch", rounds="3")
    for index in range(players):
        post(client, f"/tournaments/{tid}/do/add-participant", csrf, name=f"P{index + 1}", rating=str(1800 - index))
    return tid


def test_a_refused_late_entry_names_the_setting_that_refuses_it(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    page = post(web, f"/tournaments/{tid}/do/add-participant", csrf, name="Late", rating="1500")
    assert said(TournamentCode.LATE_ENTRIES_OFF, round=2) in page
    assert "“Late entries until round” is empty" in page
    post(web, f"/tournaments/{tid}/do/configure", csrf, name="Club Cup", late_entry_until="1")
    page = post(web, f"/tournaments/{tid}/do/add-participant", csrf, name="Late", rating="1500")
    assert said(TournamentCode.LATE_ENTRY_CLOSED, round=2, until=1) in page
    assert "“Late entries until round” is 1" in page
    # The Kazakh and Russian messages name the setting as the settings page labels it.
    assert "«Кеш тіркелу осы турға дейін» баптауы бос" in said(TournamentCode.LATE_ENTRIES_OFF, "kk", round=2)
    assert "«Поздняя регистрация до тура» — 1" in said(TournamentCode.LATE_ENTRY_CLOSED, "ru", round=2, until=1)


def test_the_board_meets_on_an_unpaid_protest_only_after_a_warning(web: TestClient) -> None:
    csrf, tid = with_a_team(web)
    protest(web, csrf, tid, filed_by="Rep A", role="representative", text="The clock was wrong.")
    page = web.get(f"/tournaments/{tid}/protests").text
    assert "The fee has not been paid: if the board meets now, the protest is closed without being considered" in page
    assert 'name="unpaid_confirmed" value="yes" required' in page
    page = post(web, f"/tournaments/{tid}/do/convene", csrf, id="P1", board="A", committee="C")
    assert said(ProtestCode.CONVENE_UNPAID, protest="P1", clause="TK-P4") in page
    assert "P1: round 1, board 1 — Awaiting the fee" in page
    page = post(web, f"/tournaments/{tid}/do/convene", csrf, id="P1", board="A", committee="C", unpaid_confirmed="yes")
    assert "P1: round 1, board 1 — Not considered: fee unpaid" in page
    for language, warning in (("kk", "Жарна төленбеген"), ("ru", "Взнос не оплачен")):
        protest(web, csrf, tid, filed_by="Rep A", role="representative", text="Again.")
        assert warning in web.get(f"/tournaments/{tid}/protests?lang={language}").text


def test_a_team_imported_without_representatives_is_no_dead_end(web: TestClient) -> None:
    """A team from the participants' CSV has nobody to file (TK-P1): the arbiter is told, the team's page says so
    instead of offering an empty form, the arbiter files for the team, and the team's page shows the decision
    with what became of the fee; once representatives are added the team files on its own page."""
    csrf = sign_in(web)
    tid = create(web, csrf, system="swiss_dutch", rounds="3", time_control="blitz")
    rows = ["Abay,1800,Almaty", "Bolat,1790,Astana", "Dana,1780,Almaty", "Erlan,1770,Astana"]
    post(web, f"/tournaments/{tid}/do/import", csrf, csv="name,rating,team\n" + "\n".join(rows))
    nobody = "No representative or coach yet: nobody can file on the team's protest link"
    assert web.get(f"/tournaments/{tid}").text.count(nobody) == 2
    link_page = post(web, f"/tournaments/{tid}/team-link", csrf, team="Almaty")
    assert nobody in link_page
    found = re.search(rf"/tournaments/{tid}/protest\?token=([^\"<\s]+)", link_page)
    assert found is not None
    team_url = f"/tournaments/{tid}/protest?token={found.group(1)}"
    team_page = html.unescape(web.get(team_url).text)
    assert "Nobody of Almaty may file a protest here yet" in team_page and 'name="filed_by"' not in team_page

    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    desk = html.unescape(web.get(f"/tournaments/{tid}/protests").text)
    assert '<select name="for_team">' in desk
    page = post(web, f"/tournaments/{tid}/do/file-protest", csrf, round="1", board="1", for_team="Almaty",
                text="The clock was set wrongly.", fee_paid="1000", currency="KZT")  # fmt: skip
    assert "P1: round 1, board 1 — Accepted" in page and "Filed by Chief (Almaty)" in page
    post(web, f"/tournaments/{tid}/do/convene", csrf, id="P1", board="A", committee="C")
    page = post(web, f"/tournaments/{tid}/do/decide", csrf, id="P1", upheld="no", members="A", reasons="No grounds.")
    assert "Rejected</strong> — No grounds." in page
    team_page = html.unescape(web.get(team_url).text)
    assert "Rejected</strong> — No grounds." in team_page and "Fee: to the arbiters' pay" in team_page
    for language, rejected in (("kk", "Қабылданбады"), ("ru", "Отклонён")):
        assert rejected in html.unescape(web.get(f"{team_url}&lang={language}").text)

    post(web, f"/tournaments/{tid}/do/edit-team", csrf, name="Almaty", representatives="Rep A", coaches="")
    team_page = html.unescape(web.get(team_url).text)
    assert "Nobody of Almaty" not in team_page and "<option>Rep A</option>" in team_page


TEAM_CSV = (
    "team,player,rating\n"
    "Алматы,Абай,1800\nАлматы,Бекзат,1750\nАлматы,Дана,1700\nАлматы,Ержан,1650\n"
    "Астана,Қайрат,1790\nАстана,Луиза,1740\nАстана,Марат,1690\nАстана,Нұр,1640\n"
)


def test_a_team_competition_imported_without_representatives_can_still_protest(web: TestClient) -> None:
    """Team competitions: representatives are set after the import (and after round 1 is paired), and the arbiter
    files a protest for a team that has none."""
    csrf = sign_in(web)
    response = web.post("/teams/new", data={"name": "Cup", "system": "swiss", "boards": "4", "rounds": "3",
                                            "csrf": csrf}, follow_redirects=False)  # fmt: skip
    tid = response.headers["location"].rsplit("/", 1)[1]
    page = post(web, f"/teams/{tid}/do/import", csrf, text=TEAM_CSV)
    assert page.count("none: the team cannot file a protest") == 2
    post(web, f"/teams/{tid}/do/pair", csrf)
    post(web, f"/teams/{tid}/do/enter", csrf, round="1", match="1", boards="4", b1="1-0", b2="½-½", b3="1-0",
         b4="0-1")  # fmt: skip
    form = {"round": "1", "match": "1", "board": "2", "text": "The clock was wrong on board 2."}
    page = post(web, f"/teams/{tid}/do/protest", csrf, team="1", filed_by="Нұрлан", **form)
    assert said(ProtestCode.NOT_A_FILER, person="Нұрлан") in page
    page = post(web, f"/teams/{tid}/do/protest", csrf, team="1", by_arbiter="yes", fee_paid="1000", **form)
    assert "P1" in page and "Chief" in page and "Accepted" in page
    page = post(web, f"/teams/{tid}/do/representatives", csrf, team="1", representatives="Нұрлан")
    assert page.count("none: the team cannot file a protest") == 1
    page = post(web, f"/teams/{tid}/do/protest", csrf, team="1", filed_by="Нұрлан", fee_paid="1000", **form)
    assert "P2" in page
    audit = html.unescape(web.get(f"/teams/{tid}/audit").text)
    assert "Representatives set" in audit and "Алматы: Нұрлан" in audit
    for language, words in (("kk", "жоқ: команда наразылық бере алмайды"), ("ru", "нет: команда не может")):
        assert words in html.unescape(web.get(f"/teams/{tid}?lang={language}").text)


def test_an_entry_is_deleted_from_the_participants_list_before_round_1_is_paired(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=5)
    page = html.unescape(web.get(f"/tournaments/{tid}").text)
    assert page.count(f'action="/tournaments/{tid}/do/delete-entry"') == 5
    page = post(web, f"/tournaments/{tid}/do/delete-entry", csrf, number="5", reason="entered twice",
                confirmed="yes")  # fmt: skip
    assert "Delete P5" not in page and page.count(f'action="/tournaments/{tid}/do/delete-entry"') == 4
    audit = html.unescape(web.get(f"/tournaments/{tid}/audit").text)
    assert "Entry deleted" in audit and "P5 (5)" in audit and "entered twice" in audit
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    page = html.unescape(web.get(f"/tournaments/{tid}").text)
    assert "/do/delete-entry" not in page  # the draft is paired: a player now withdraws
    page = post(web, f"/tournaments/{tid}/do/delete-entry", csrf, number="4")
    assert said(TournamentCode.ENTRY_DELETE_AFTER_PAIRING, player="4. P4") in page
    for language, words in (("kk", "Жазба өшірілді"), ("ru", "Запись удалена")):
        assert words in web.get(f"/tournaments/{tid}/audit?lang={language}").text


def _status_of(client: TestClient, room: str) -> str:
    with client.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"t": "hello", "v": 0})
        receive_until(ws, "welcome")
        return str(receive_until(ws, "snapshot")["data"]["status"])


def test_the_round_page_starts_every_clock_of_the_round_at_once(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf, players=4)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    assert "/rounds/1/start" not in web.get(f"/tournaments/{tid}/rounds/1").text  # no live games yet
    page = html.unescape(web.post(f"/tournaments/{tid}/rounds/1/games", data={"csrf": csrf, "control": "blitz"}).text)
    rooms = sorted(set(re.findall(r'href="/games/(g-[0-9a-f]+)/links"', page)))
    assert len(rooms) == 2 and all(_status_of(web, room) == "scheduled" for room in rooms)
    page = post(web, f"/tournaments/{tid}/rounds/1/start", csrf)
    assert "Clocks started: 2." in page
    assert all(_status_of(web, room) == "running" for room in rooms)
    page = post(web, f"/tournaments/{tid}/rounds/1/start", csrf)  # pressed again: the running games are left alone
    assert "Every live game of this round has already started." in page and "did not start" not in page
    for language, words in (("kk", "Осы турдың барлық сағатын іске қосу"), ("ru", "Запустить все часы этого тура")):
        assert words in web.get(f"/tournaments/{tid}/rounds/1?lang={language}").text
