"""The page kit (toreshi.web.common.pagekit, flash, forms) on a small app of its own: the form token is checked
before anything else, a bad field is refused naming the field in the reader's language, a refusal kept for the next
page is worded in that page's language (Kazakh, Russian), and a 404 leaves a pending flash for the next page."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jinja2 import ChoiceLoader, FileSystemLoader
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient
from starlette.types import ASGIApp, Receive, Scope, Send

from toreshi.kit.refusal import Common, Refusal, Refused
from toreshi.texts import i18n, refusals
from toreshi.texts.i18n import N_
from toreshi.tournament.codes import TournamentCode
from toreshi.web.common import flash, forms, pagekit, templates
from toreshi.web.common.middleware import LanguageMiddleware

TOKEN = "the-session-token"
COUNTED = pagekit.notice(N_("Game rooms created: %(count)s."))


class _Session:
    """A session kept in the test (the app's own is on the server, in the store)."""

    def __init__(self, app: ASGIApp, kept: dict[str, Any]) -> None:
        self.app, self.kept = app, kept

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope["session"] = self.kept
        await self.app(scope, receive, send)


class Recorder:
    def __init__(self) -> None:
        self.looked_up: list[str] = []
        self.applied: list[int] = []


def _app(session: dict[str, Any], seen: Recorder) -> Starlette:
    async def act(request: Request) -> Response:
        thing = request.path_params["thing"]
        form = await pagekit.posted(request, f"/things/{thing}")
        if isinstance(form, Response):
            return form
        seen.looked_up.append(thing)
        if thing == "missing":
            return pagekit.not_found(request)
        try:
            number = forms.required_int(form, "rounds")
            if number > 9:
                raise Refused(TournamentCode.SWISS_NEEDS_ROUNDS)
        except Refused as why:
            return pagekit.refused(request, why, f"/things/{thing}")
        seen.applied.append(number)
        return pagekit.done(request, f"/things/{thing}", COUNTED, count=number)

    async def show(request: Request) -> Response:
        if request.path_params["thing"] == "missing":
            return pagekit.not_found(request)
        return pagekit.page(request, "tournaments/team_protest_flash_probe.html")

    routes = [Route("/things/{thing}/do", act, methods=["POST"]), Route("/things/{thing}", show)]
    return Starlette(routes=routes, middleware=[Middleware(_Session, kept=session), Middleware(LanguageMiddleware)])


@pytest.fixture
def kit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[TestClient, dict[str, Any], Recorder]]:
    # The probe page shows the flash as the tournament pages do (templates/tournaments/_flash.html).
    probe = tmp_path / "tournaments"
    probe.mkdir()
    (probe / "team_protest_flash_probe.html").write_text('{% include "tournaments/_flash.html" %}')
    loaders = ChoiceLoader([FileSystemLoader(templates.TEMPLATE_DIR), FileSystemLoader(tmp_path)])
    monkeypatch.setattr(templates.environment, "loader", loaders)
    session: dict[str, Any] = {"csrf": TOKEN}
    seen = Recorder()
    with TestClient(_app(session, seen), headers={"accept-language": "en"}) as client:
        yield client, session, seen


def _shown(client: TestClient, url: str, language: str) -> str:
    return html.unescape(client.get(f"{url}?lang={language}").text)


def test_the_form_token_is_checked_before_anything_else(kit: tuple[TestClient, dict[str, Any], Recorder]) -> None:
    client, session, seen = kit
    for token in ("forged", ""):
        # A bad field and an unknown record too: the token is refused first, nothing is looked up or read.
        answer = client.post("/things/missing/do", data={"csrf": token, "rounds": "x"}, follow_redirects=False)
        assert answer.status_code == 303 and answer.headers["location"] == "/things/missing"
        assert session["flash"] == {"expired": True}
        assert seen.looked_up == [] and seen.applied == []
        session.pop("flash")
    expired = client.post("/things/a/do", data={"rounds": "1"}, follow_redirects=True)
    assert "The form has expired; please try again." in html.unescape(expired.text) and seen.applied == []


@pytest.mark.parametrize("language", ["en", "kk", "ru"])
def test_a_bad_field_is_refused_naming_the_field_in_the_readers_language(
    kit: tuple[TestClient, dict[str, Any], Recorder], language: str
) -> None:
    client, _session, seen = kit
    answer = client.post("/things/a/do", data={"csrf": TOKEN, "rounds": "seven"}, follow_redirects=False)
    assert answer.status_code == 303 and seen.applied == []
    page = _shown(client, "/things/a", language)
    i18n.activate(language)
    expected = refusals.render(Refusal(Common.FIELD_NOT_INTEGER, {"field": "rounds"}))
    assert expected in page
    if language != "en":  # the sentence and the field's name, both in the reader's language
        assert re.search("[а-яәіңғүұқөһ]", expected, re.IGNORECASE) and "rounds" not in expected, expected
        assert "whole number" not in page


@pytest.mark.parametrize("language", ["kk", "ru"])
def test_a_refusal_is_worded_on_the_next_page_in_its_readers_language(
    kit: tuple[TestClient, dict[str, Any], Recorder], language: str
) -> None:
    client, session, _seen = kit
    client.post("/things/a/do", data={"csrf": TOKEN, "rounds": "12"}, follow_redirects=False)
    assert session["flash"]["refusal"]["code"] == TournamentCode.SWISS_NEEDS_ROUNDS.value  # kept as its code
    page = _shown(client, "/things/a", language)
    i18n.activate("en")
    english = refusals.render(Refusal(TournamentCode.SWISS_NEEDS_ROUNDS))
    i18n.activate(language)
    worded = refusals.render(Refusal(TournamentCode.SWISS_NEEDS_ROUNDS))
    assert worded != english and worded in page and english not in page
    assert "flash" not in session  # shown once


def test_a_404_leaves_the_pending_flash_for_the_next_page(kit: tuple[TestClient, dict[str, Any], Recorder]) -> None:
    client, session, _seen = kit
    client.post("/things/a/do", data={"csrf": TOKEN, "rounds": "3"}, follow_redirects=False)
    assert client.get("/things/missing?lang=en").status_code == 404
    assert client.get("/nowhere?lang=en").status_code == 404
    assert "flash" in session
    assert "Game rooms created: 3." in _shown(client, "/things/a", "en")
    assert "flash" not in session


def test_a_notice_must_be_registered() -> None:
    request = Request({"type": "http", "session": {}})
    with pytest.raises(ValueError, match="not a registered notice"):
        flash.keep(request, notice="Anything a page makes up")
    request.session["flash"] = {"notice": "Anything a page makes up", "params": {}}
    assert flash.take(request) == flash.nothing()


def test_a_long_list_of_problems_is_cut_and_counted_with_its_lines() -> None:
    request = Request({"type": "http", "session": {}})
    details = tuple(Refusal(Common.FIELD_REQUIRED, {"field": "name", "line": n}) for n in range(1, 31))
    flash.keep(request, Refusal(TournamentCode.CSV_NOT_IMPORTED, {"problems": 30}, details))
    i18n.activate("en")
    shown = flash.take(request, clauses=False)
    assert len(shown["problems"]) == flash.MAX_PROBLEMS + 1
    assert shown["problems"][0].startswith("Line 1: ")
    assert shown["problems"][-1] == refusals.render(Refusal(TournamentCode.CSV_MORE_PROBLEMS, {"count": 5}))
