"""The pairing checker's verdict on the round page (issue 29): every round of a Swiss paired in the app is re-paired
by the Dutch engine and the page says whether it agrees, else which criteria the round's pairing breaks."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from .helpers import post
from .test_tournament_pages import create, sign_in
from .test_tournament_pairing_tools import _swiss

AGREES = "Pairing checker: the FIDE Dutch engine pairs this round the same."
DIFFERS = "Pairing checker: this pairing differs from the FIDE Dutch engine's."


def _verdict(client: TestClient, url: str) -> str:
    page = html.unescape(client.get(url).text)
    found = re.search(r'<div class="pairing-check[^"]*" id="pairing-check".*?</div>', page, re.S)
    assert found is not None, url
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).strip()


def test_an_engine_round_agrees_and_a_changed_round_names_the_criteria_it_breaks(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert _verdict(web, f"/tournaments/{tid}/rounds/1") == AGREES  # the draft, before it is published
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="0-1")
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    assert _verdict(web, f"/tournaments/{tid}/rounds/2") == AGREES
    post(web, f"/tournaments/{tid}/do/override", csrf, pairs="1 2\n3 4", reason="TV", confirmed="yes")
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    web.post("/logout", data={"csrf": csrf})
    # Anyone reads the verdict of a published round: the same as the arbiter saw when confirming the change.
    verdict = _verdict(web, f"/tournaments/{tid}/rounds/2")
    assert verdict.startswith(DIFFERS + " The criteria it breaks:"), verdict
    assert "Criterion C12, players without their colour preference: 1. P1, 2. P2" in verdict
    assert "C13" in verdict
    assert _verdict(web, f"/tournaments/{tid}/rounds/1") == AGREES


def test_the_verdict_speaks_kazakh_and_russian(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _swiss(web, csrf)
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result="1-0")
    post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="2", result="0-1")
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/override", csrf, pairs="1 2\n3 4", reason="TV", confirmed="yes")
    for language in ("kk", "ru"):
        verdict = _verdict(web, f"/tournaments/{tid}/rounds/2?lang={language}")
        english = [w for w in re.findall(r"[A-Za-z][A-Za-z]+", verdict) if w not in ("FIDE", "TV")]
        assert english == [], (language, verdict)
        assert re.search(r"C\d+", verdict), verdict


def test_a_round_robin_has_no_verdict(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = create(web, csrf, system="round_robin")
    for name in ("A", "B", "C"):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=name, rating="1500")
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    page = web.get(f"/tournaments/{tid}/rounds/1")
    assert page.status_code == 200 and "Paired by the Berger tables." in page.text
    assert 'id="pairing-check"' not in page.text
