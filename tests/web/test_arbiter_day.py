"""An arbiter's day on the tournament pages (issue 28): a refused late entry names the setting that refuses it;
the board does not meet on an unpaid protest (which closes it unconsidered) before the arbiter is warned."""

from __future__ import annotations

from starlette.testclient import TestClient

from toreshi.tournament.codes import ProtestCode, TournamentCode

from .helpers import post
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
