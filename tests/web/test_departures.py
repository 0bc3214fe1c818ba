"""The arbiter's departures from the regulation on the pages (issue 29): the warning page shows the level and keeps
the form (the reason typed too); the confirmation and a written reason together let the action through; the audit
page and the printed report list each departure with who, when, the level and the reason; in Kazakh and Russian
without English."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from toreshi.tournament.codes import TournamentCode

from .helpers import post
from .test_tournament_pages import create, said, sign_in

FORFEIT = "+ −"


def _paired(web: TestClient, csrf: str) -> str:
    tid = create(web, csrf, system="swiss_dutch", rounds="3")
    for index in range(4):
        post(web, f"/tournaments/{tid}/do/add-participant", csrf, name=f"P{index + 1}", rating=str(1800 - index))
    post(web, f"/tournaments/{tid}/do/pair", csrf)
    post(web, f"/tournaments/{tid}/do/publish", csrf)
    return tid


def _text(page: str) -> str:
    main = html.unescape(page.split("<main", 1)[1].split("</main>", 1)[0] if "<main" in page else page)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main))


def test_a_forfeit_by_hand_asks_for_confirmation_and_the_audit_page_and_report_list_it(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _paired(web, csrf)
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result=FORFEIT)
    warning = said(TournamentCode.DEPARTURE_UNCONFIRMED, term="departure.forfeit_entered", level="warning")
    assert html.escape(warning) in page and "Warning level: warning" in _text(page)
    assert f'action="/tournaments/{tid}/do/result"' in page  # the same action, its fields kept
    for field, value in (("round", "1"), ("board", "1"), ("result", FORFEIT)):
        assert f'<input type="hidden" name="{field}" value="{value}">' in page
    assert 'name="confirmed" value="yes" required' in page and '<textarea name="reason"' in page  # both asked
    assert "FORFEIT" not in web.get(f"/tournaments/{tid}/rounds/1").text  # nothing was entered
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result=FORFEIT, confirmed="yes")
    assert html.escape(said(TournamentCode.DEPARTURE_NEEDS_REASON, term="departure.forfeit_entered",
                            level="warning")) in page  # confirmed, but no reason: still nothing entered  # fmt: skip
    assert 'name="confirmed" value="yes" required checked' in page  # the box stays ticked
    page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result=FORFEIT, confirmed="yes",
                reason="did not come")  # fmt: skip
    assert ("Done. The audit log records it as a departure from the regulation (warning): a game scored "
            "by default by the arbiter.") in _text(page)  # fmt: skip
    audit = _text(web.get(f"/tournaments/{tid}/audit").text)
    assert "Departures from the regulation" in audit
    row = "Arbiter (Chief) warning a game scored by default by the arbiter; round 1; board 1 did not come"
    assert row in audit, audit
    report = _text(web.get(f"/tournaments/{tid}/standings?print=1").text)
    assert "warning: a game scored by default by the arbiter; round 1; board 1; reason: did not come" in report
    web.post("/logout", data={"csrf": csrf})  # the public audit page lists it too, by the role only
    audit = _text(web.get(f"/tournaments/{tid}/audit").text)
    assert "a game scored by default by the arbiter" in audit and "Chief" not in audit


def test_a_serious_departure_keeps_the_reason_typed_until_confirmed(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _paired(web, csrf)
    page = post(web, f"/tournaments/{tid}/do/expel", csrf, number="2", after_round="1")
    assert "Warning level: serious" in _text(page) and 'class="warning departure level-serious"' in page
    assert "round 1; player 2. P2" in _text(page)  # whom it concerns
    assert '<textarea name="reason" rows="3" maxlength="500" required></textarea>' in page
    assert 'name="confirmed" value="yes" required>' in page  # the reason and the confirmation, both
    # The reason typed without the confirmation: refused, the reason kept in its field to send again.
    page = post(web, f"/tournaments/{tid}/do/expel", csrf, number="2", after_round="1", reason="insulted <the> arbiter")
    assert "Warning level: serious" in _text(page)
    assert '<textarea name="reason" rows="3" maxlength="500" required>insulted <the> arbiter</textarea>' in page
    assert "Expelled" not in _text(web.get(f"/tournaments/{tid}/audit").text)  # nothing done
    page = post(web, f"/tournaments/{tid}/do/expel", csrf, number="2", after_round="1", reason="insulted the arbiter",
                confirmed="yes")  # fmt: skip
    assert "(serious): a player expelled." in _text(page)
    audit = _text(web.get(f"/tournaments/{tid}/audit").text)
    assert "serious a player expelled; round 1; player 2. P2 insulted the arbiter" in audit


def test_information_goes_ahead_and_is_logged(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _paired(web, csrf)
    page = post(web, f"/tournaments/{tid}/do/withdraw", csrf, number="3", after_round="1", reason="ill")
    assert "(for information): a player withdrawn by the arbiter." in _text(page)
    assert "for information a player withdrawn by the arbiter; round 1; player 3. P3 ill" in _text(
        web.get(f"/tournaments/{tid}/audit").text
    )


def test_the_warning_speaks_kazakh_and_russian(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _paired(web, csrf)
    post(web, f"/tournaments/{tid}/do/withdraw", csrf, number="3", after_round="1")
    for language, level in (("kk", "Ескерту деңгейі: ескерту"), ("ru", "Уровень предупреждения: предупреждение")):
        web.headers["accept-language"] = language
        page = post(web, f"/tournaments/{tid}/do/result", csrf, round="1", board="1", result=FORFEIT)
        assert level in _text(page)
        for where in (page, web.get(f"/tournaments/{tid}/audit").text):
            english = [
                word
                for word in re.findall(r"[A-Za-z][A-Za-z]+", _text(where))
                if word not in {"Chief", "Club", "Cup", "FIDE"}
            ]
            assert english == [], (language, english)


def test_the_rounds_one_form_asks_to_confirm_and_for_the_reasons_at_once(web: TestClient) -> None:
    csrf = sign_in(web)
    tid = _paired(web, csrf)
    form = {"csrf": csrf, "result_1": FORFEIT, "result_2": "1-0", "reason_1": ""}
    response = web.post(f"/tournaments/{tid}/rounds/1/results", data=form)
    page = html.unescape(response.text)
    assert response.status_code == 400 and "Board 1: " in page
    assert said(TournamentCode.DEPARTURE_UNCONFIRMED, term="departure.forfeit_entered", level="warning") in page
    assert 'name="confirmed" value="yes" required' in page  # one box for the form's warnings, with the level
    assert "Warning level: warning" in _text(page)
    assert re.search(r'name="reason_1"[^>]*aria-invalid="true"', page)  # and the board's reason, at once
    assert "Round 1, board 2: 1-0" not in _text(web.get(f"/tournaments/{tid}/audit").text)  # nothing saved
    # Confirmed without the reason: still refused, the typed results kept.
    response = web.post(f"/tournaments/{tid}/rounds/1/results", data={**form, "confirmed": "yes"})
    page = html.unescape(response.text)
    assert response.status_code == 400
    assert said(TournamentCode.DEPARTURE_NEEDS_REASON, term="departure.forfeit_entered", level="warning") in page
    assert "<option selected>+ −</option>" in page and "<option selected>1-0</option>" in page  # kept
    both = {**form, "confirmed": "yes", "reason_1": "did not come"}
    response = web.post(f"/tournaments/{tid}/rounds/1/results", data=both, follow_redirects=True)
    assert response.status_code == 200
    audit = _text(web.get(f"/tournaments/{tid}/audit").text)
    assert "warning a game scored by default by the arbiter; round 1; board 1 did not come" in audit
    assert "Round 1, board 2: 1-0" in audit  # the whole form saved once confirmed
    # A correction on the same form: its reason is asked for at the board's reason field, with the box.
    response = web.post(f"/tournaments/{tid}/rounds/1/results", data={"csrf": csrf, "result_2": "0-1", "reason_2": ""})
    page = html.unescape(response.text)
    assert response.status_code == 400
    assert re.search(r'name="reason_2"[^>]*aria-invalid="true"', page)
    assert said(TournamentCode.DEPARTURE_NEEDS_REASON, term="departure.result_corrected", level="warning") in page
