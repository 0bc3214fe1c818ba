"""The page kit in the real app: what its pages used to do each their own way (issue 27, "Pages have no kit").

- The form token is checked before the record is looked up: a forged form to a tournament that does not exist is
  answered as a forged form (back, "expired"), not by a 404 that tells whether the tournament exists.
- A 404 leaves a pending flash for the next page (the quiz tour's team page ate it).
- A refusal of a team tournament's form is worded on the next page in its reader's language, naming the field.
- A refused finish of a quiz game is a flash on the games list (it was a bare JSON page answering a plain form).
"""

from __future__ import annotations

import html

import pytest
from starlette.testclient import TestClient

from toreshi.kit.refusal import Common, Refusal
from toreshi.texts import i18n, refusals

from .helpers import sign_in

UNKNOWN = "t-000000000000"


def test_a_forged_form_is_refused_before_the_tournament_is_looked_up(web: TestClient) -> None:
    csrf = sign_in(web)
    forged = web.post(f"/tournaments/{UNKNOWN}/do/add-participant", data={"csrf": "forged", "name": "Abay"},
                      follow_redirects=False)  # fmt: skip
    assert forged.status_code == 303 and forged.headers["location"] == f"/tournaments/{UNKNOWN}"
    genuine = web.post(f"/tournaments/{UNKNOWN}/do/add-participant", data={"csrf": csrf, "name": "Abay"},
                       follow_redirects=False)  # fmt: skip
    assert genuine.status_code == 404
    for path in (f"/teams/{UNKNOWN}/do/pair", f"/tournaments/{UNKNOWN}/collect", "/quiz/tours/tour-x/seed",
                 f"/tournaments/{UNKNOWN}/rounds/1/calls", f"/tournaments/{UNKNOWN}/rounds/1/start"):  # fmt: skip
        answer = web.post(path, data={"csrf": "forged"}, follow_redirects=False)
        assert answer.status_code == 303, path
    # The flash says the form expired, on the next page that shows one.
    assert "The form has expired; please try again." in web.get("/teams").text


def test_a_404_leaves_the_pending_flash_for_the_next_page(web: TestClient) -> None:
    csrf = sign_in(web)
    saved = web.post("/quiz/teams", data={"csrf": csrf, "name": "Алтын", "players": "Асқар"}, follow_redirects=False)
    assert saved.status_code == 303
    assert web.get("/quiz/teams/99999").status_code == 404  # the unknown team's page
    assert web.get("/tournaments/t-000000000000").status_code == 404
    assert "The team is saved." in web.get("/quiz/teams").text
    assert "The team is saved." not in web.get("/quiz/teams").text  # shown once


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_a_refused_form_names_the_field_in_the_readers_language(web: TestClient, language: str) -> None:
    csrf = sign_in(web)
    web.post("/teams/new", data={"csrf": csrf, "name": "Кубок", "boards": "four"}, follow_redirects=False)
    page = html.unescape(web.get(f"/teams?lang={language}").text)
    i18n.activate(language)
    said = refusals.render(Refusal(Common.FIELD_NOT_INTEGER, {"field": "boards"}))
    i18n.activate("en")
    english = refusals.render(Refusal(Common.FIELD_NOT_INTEGER, {"field": "boards"}))
    assert said in page and english not in page and "Boards" not in said
