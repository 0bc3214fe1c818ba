"""An arbiter's day on the tournament pages (issue 28): a refused late entry names the setting that refuses it."""

from __future__ import annotations

from starlette.testclient import TestClient

from toreshi.tournament.codes import TournamentCode

from .helpers import post
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
