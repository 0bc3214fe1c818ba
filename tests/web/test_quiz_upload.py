"""The new-game form never asks for a pack twice (issue 30): when another field is wrong, the pack it read is kept
server-side under a token bound to the session, and the form comes back saying "pack already uploaded"; required
fields are marked for the eye and for screen readers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from .helpers import csrf_in, sign_in
from .test_quiz_media import MEDIA_PICKS, hidden, pick
from .test_quiz_pages import TEAMS, create_quiz

TOKEN = re.compile(r'<input type="hidden" name="pack_token" value="(d-[\w-]+)">')


def found(pattern: str | re.Pattern[str], text: str, group: int = 0) -> str:
    match = re.search(pattern, text)
    assert match is not None, (pattern, text[:2000])
    return match.group(group)


@pytest.fixture
def pack(shared_data: Path) -> Path:
    return shared_data / "quiz" / "siq" / "1.siq"


def resend(client: TestClient, page: str, **fields: str) -> Any:
    """Send the form back as the page shows it, with ``fields`` corrected, and no file."""
    form = {**hidden(page), "csrf": csrf_in(page), "kind": "qualifying", "round": "1", "first_theme": "1"}
    form |= {"reading": "host", "arbitration": "compensated", "team1": TEAMS[0], "team2": TEAMS[1], **fields}
    return client.post("/quiz/new", data=form, follow_redirects=False)


def test_a_wrong_field_keeps_the_pack_and_the_form_without_a_file_makes_the_game(web: TestClient, pack: Path) -> None:
    sign_in(web)
    refused = create_quiz(web, pack, assistant="")
    assert refused.status_code == 400
    assert "Appoint the assistant" in refused.text
    assert "Pack already uploaded: 1" in refused.text
    found(TOKEN, refused.text)
    # The file field is optional now (the kept pack is used unless another is chosen)
    assert "required" not in found(r'<input type="file" name="pack"[^>]*>', refused.text)
    made = resend(web, refused.text, assistant="Ерлан", assistant_team="Тұлпар")
    assert made.status_code == 303, made.text
    room_id = made.headers["location"].split("/")[2]
    assert TEAMS[1] in web.get(f"/quiz/{room_id}/links").text
    # The token served once: the draft is gone (a pack without media is not kept with its room)
    again = resend(web, refused.text, assistant="Ерлан", assistant_team="Тұлпар")
    assert again.status_code == 400 and "Choose a pack file" in again.text


def test_every_wrong_field_in_turn_keeps_the_same_pack(web: TestClient, pack: Path) -> None:
    sign_in(web)
    refused = create_quiz(web, pack, team2="", team3="")
    assert "Enter the names of 2 to 4 teams." in refused.text and "Pack already uploaded: 1" in refused.text
    token = found(TOKEN, refused.text, 1)
    # A round the pack does not have: the pack's own check of the game, still the same pack kept
    second = resend(web, refused.text, round="9", assistant="Ерлан")
    assert second.status_code == 400 and found(TOKEN, second.text, 1) == token
    made = resend(web, second.text, round="1", assistant="Ерлан")
    assert made.status_code == 303


def test_a_token_of_another_session_is_no_pack(web: TestClient, pack: Path, tmp_path: Path) -> None:
    sign_in(web)
    refused = create_quiz(web, pack, assistant="")
    page = refused.text
    web.cookies.clear()
    sign_in(web)
    stranger = resend(web, page.replace(csrf_in(page), csrf_in(web.get("/quiz/new").text)), assistant="Ерлан")
    assert stranger.status_code == 400 and "Choose a pack file" in stranger.text
    assert "Pack already uploaded" not in stranger.text


def test_a_new_file_replaces_the_kept_pack(web: TestClient, pack: Path, shared_data: Path) -> None:
    sign_in(web)
    refused = create_quiz(web, pack, assistant="")
    other = shared_data / "quiz" / "siq" / "2.1.siq"
    form = {**hidden(refused.text), "csrf": csrf_in(refused.text), "kind": "qualifying", "reading": "host"}
    form |= {"arbitration": "arrival", "team1": TEAMS[0], "team2": TEAMS[1], "assistant": "Ерлан", "title": ""}
    files = {"pack": (other.name, other.read_bytes(), "application/zip")}
    made = web.post("/quiz/new", data=form, files=files, follow_redirects=False)
    assert made.status_code == 303, made.text
    listed = re.findall(r'<span class="players">([^<]*)</span>', web.get("/quiz").text)
    assert listed == [f"Пакет 2.1 — {TEAMS[0]}, {TEAMS[1]}"]  # the new pack's name is the title, not the kept one's


def test_a_large_pack_with_media_is_kept_then_picked_and_served_from_its_room(
    web: TestClient, shared_data: Path
) -> None:
    large = shared_data / "quiz" / "siq" / "SIGameTestNew.siq"
    assert large.stat().st_size > 2_000_000
    sign_in(web)
    refused = create_quiz(web, large, kind="shootout", team2="", team3="")
    assert refused.status_code == 400 and "Pack already uploaded: SIGameTestNew" in refused.text
    token = found(TOKEN, refused.text, 1)
    page = resend(web, refused.text, kind="shootout", assistant="")
    assert page.status_code == 200 and "/quiz/new/pick" in page.text
    assert hidden(page.text)["draft"] == token  # the same draft: not stored twice
    made = pick(web, page.text, MEDIA_PICKS, ["0"])
    assert made.status_code == 303, made.text
    room_id = made.headers["location"].split("/")[2]
    host = dict(re.findall(r"/quiz/" + room_id + r"/(host)\?token=([\w-]+)", web.get(f"/quiz/{room_id}/links").text))
    console = web.get(f"/quiz/{room_id}/host?token={host['host']}")
    assert console.status_code == 200


def test_required_fields_are_marked_for_the_eye_and_for_screen_readers(web: TestClient) -> None:
    sign_in(web)
    page = web.get("/quiz/new").text
    assert "Fields marked * are required." in page
    for name in ("pack", "team1", "team2"):
        field = found(rf'<input [^>]*name="{name}"[^>]*>', page)
        assert " required" in field, field
        label = page[: page.index(field)].rsplit("<label", 1)[1]
        assert 'class="required-mark"' in label and 'aria-hidden="true"' in label, label
    assistant = found(r'<input name="assistant"[^>]*>', page)
    assert 'aria-required="true"' in assistant and 'aria-describedby="assistant-note"' in assistant
    assert " required" not in assistant  # a shootout may have none: the page's script follows the game chosen
    shootout = web.get("/quiz/new").text
    assert 'id="assistant-note"' in shootout
    for language, note in (("kk", "* белгісі бар өрістер міндетті."), ("ru", "Поля, отмеченные *, обязательны.")):
        assert note in web.get(f"/quiz/new?lang={language}").text
