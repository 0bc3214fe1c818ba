"""Real SIGame packs with media: the host picks questions at creation, and the media endpoint serves a room's items
(by room and content item only, with Range requests), refusing other rooms' items, unknown items and traversal names."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from .helpers import sign_in
from .test_quiz_pages import create_quiz


def siq(shared_data: Path, name: str) -> Path:
    return shared_data / "quiz" / "siq" / name


def hidden(page: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', page))


def checked(page: str, name: str) -> list[str]:
    return re.findall(rf'<input type="checkbox" name="{name}" value="([\d.]+)" checked', page)


def pick(client: TestClient, page: str, picks: list[str] | None = None, rounds: list[str] | None = None) -> Any:
    form: dict[str, Any] = hidden(page)
    form["q"] = checked(page, "q") if picks is None else picks
    form["use_round"] = checked(page, "use_round") if rounds is None else rounds
    return client.post("/quiz/new/pick", data=form, follow_redirects=False)


# In SIGameTestNew.siq, theme 2 («Контент вопросов») questions 2 (a spoken line and screen text), 3 (an image with a
# spoken line), 4 (audio), 5 (video) and 14 (HTML) are at indexes 1, 2, 3, 4 and 13.
MEDIA_PICKS = ["0.1.1", "0.1.2", "0.1.3", "0.1.4", "0.1.13"]


# In SIGameTest.siq the same, with an image by external link (index 7) instead of the HTML item.
OLD_MEDIA_PICKS = ["0.1.1", "0.1.2", "0.1.3", "0.1.4", "0.1.7"]


def media_game(
    client: TestClient, shared_data: Path, name: str = "SIGameTestNew.siq", *, first: bool = True
) -> tuple[str, str, str]:
    """A shootout on the media questions of a SIGame test pack: its room, the host's and the projector's tokens."""
    if first:
        sign_in(client)
    page = create_quiz(client, siq(shared_data, name), kind="shootout", team3="")
    assert page.status_code == 200 and "/quiz/new/pick" in page.text, page.text[:500]
    picks = MEDIA_PICKS if name == "SIGameTestNew.siq" else OLD_MEDIA_PICKS
    response = pick(client, page.text, picks, ["0"])
    assert response.status_code == 303, response.text
    room_id = response.headers["location"].split("/")[2]
    links = client.get(f"/quiz/{room_id}/links").text
    tokens = dict(re.findall(r"/quiz/" + room_id + r"/(host|board)\?token=([\w-]+)", links))
    return room_id, tokens["host"], tokens["board"]


def test_a_pack_of_any_shape_asks_the_host_to_pick_and_gives_a_qualifying_game(
    web: TestClient, shared_data: Path
) -> None:
    sign_in(web)
    page = create_quiz(web, siq(shared_data, "SIGameTestNew.siq"))
    assert page.status_code == 200
    text = page.text
    # Themes of 12 and 14 questions: the five lowest prices are picked; the 2-question theme plays whole (issue 31),
    # the final's 1-question themes are shown as unusable, not dropped silently.
    assert checked(text, "q") == [f"0.0.{i}" for i in range(5)] + [f"0.1.{i}" for i in range(5)] + ["0.2.0", "0.2.1"]
    assert text.count("Fewer than 2 questions: this theme cannot be played.") == 3
    assert "Дополнительно" in text and "Тема 1" in text
    assert 'class="tag tag-kind">stake<' in text and 'class="tag tag-kind">secret<' in text
    assert 'class="tag">image<' in text
    # Three board themes from three pack themes: a qualifying game needs 5, and says so.
    refused = pick(web, text)
    assert refused.status_code == 400 and "5" in refused.text
    # A lone question left over would make a board theme of one: refused naming the theme.
    wrong = pick(web, text, [f"0.1.{i}" for i in range(6)])
    assert wrong.status_code == 400 and "Контент вопросов" in wrong.text and "fewer than 2 questions" in wrong.text
    # All 14 of «Контент вопросов» make 5 + 5 + 4: with the 5 of the first theme and the 2 of the third, the five
    # themes of a qualifying game (SIGameTestNew.siq could only be a shootout before issue 31)
    form = hidden(text) | {"show_prices": "on"}
    picks = [f"0.0.{i}" for i in range(5)] + [f"0.1.{i}" for i in range(14)] + ["0.2.0", "0.2.1"]
    made = web.post("/quiz/new/pick", data={**form, "q": picks, "use_round": ["0"]}, follow_redirects=False)
    assert made.status_code == 303, made.text
    room_id = made.headers["location"].split("/")[2]
    links = web.get(f"/quiz/{room_id}/links?lang=ru").text
    assert "Как пакет лёг на очки регламента 1–5 (SI-3.1)" in links and '<td class="num">—</td>' in links
    assert '<td class="num">1400</td>' in links and "Табло показывает цены пакета рядом с очками." in links
    portal = web.portal
    assert portal is not None
    rooms: Any = web.app.state.services.rooms  # type: ignore[attr-defined]
    owner = portal.call(rooms.get, room_id, "quiz")
    setup = owner.logic.game.setup
    assert setup.kind.value == "qualifying" and len(setup.board.themes) == 5 and setup.show_prices
    view = owner.logic.view(None, owner.now_ms())
    assert [c.get("price") for c in view["board"][3]["cells"]] == [1200, 1300, None, 1400, 1500]
    assert view["board"][3]["cells"][2]["empty"] and not view["board"][3]["cells"][2]["open"]


def test_the_picking_page_names_types_and_media_in_the_hosts_language(web: TestClient, shared_data: Path) -> None:
    sign_in(web)
    page = create_quiz(web, siq(shared_data, "SIGameTestNew.siq"), query="?lang=ru").text
    assert 'class="tag tag-kind">ставка<' in page and 'class="tag">изображение<' in page
    assert "Меньше 2 вопросов: эту тему сыграть нельзя." in page and "Fewer than" not in page


def test_a_created_game_keeps_the_picked_questions_in_pack_order(web: TestClient, shared_data: Path) -> None:
    room_id, host, _board = media_game(web, shared_data)
    assert web.get(f"/quiz/{room_id}/host?token={host}").status_code == 200


def media_url(room_id: str, cell: str, part: str, index: int, token: str = "") -> str:
    return f"/quiz/{room_id}/media/{cell}/{part}/{index}" + (f"?token={token}" if token else "")


def test_the_media_endpoint_serves_a_rooms_items_with_type_and_ranges(web: TestClient, shared_data: Path) -> None:
    room_id, host, _board = media_game(web, shared_data)
    # Board theme 0: value 1 spoken+text, 2 image (+ spoken line), 3 audio, 4 video, 5 HTML.
    image = web.get(media_url(room_id, "0-2", "q", 0, host))
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert image.content.startswith(b"\x89PNG") and len(image.content) == 705670
    assert "sandbox" in image.headers["content-security-policy"]
    audio = web.get(media_url(room_id, "0-3", "q", 0, host), headers={"range": "bytes=100-199"})
    assert audio.status_code == 206 and audio.headers["content-type"] == "audio/mpeg"
    assert audio.headers["content-range"] == "bytes 100-199/52079" and len(audio.content) == 100
    whole = web.get(media_url(room_id, "0-3", "q", 0, host)).content
    assert audio.content == whole[100:200]
    tail = web.get(media_url(room_id, "0-4", "q", 0, host), headers={"range": "bytes=-10"})
    assert tail.status_code == 206 and tail.headers["content-type"] == "video/mp4" and len(tail.content) == 10
    beyond = web.get(media_url(room_id, "0-4", "q", 0, host), headers={"range": "bytes=99999999-"})
    assert beyond.status_code == 416 and beyond.headers["content-range"] == "bytes */1046987"
    page = web.get(media_url(room_id, "0-5", "q", 0, host))
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert policy.startswith("sandbox;") and "default-src 'none'" in policy and "script" not in policy
    assert page.headers["x-frame-options"] == "SAMEORIGIN"


def test_the_media_endpoint_refuses_other_rooms_unknown_items_and_names(web: TestClient, shared_data: Path) -> None:
    room_id, host, board = media_game(web, shared_data)
    other_id, other_host, _other_board = media_game(web, shared_data, "SIGameTest.siq", first=False)
    assert web.get(media_url(room_id, "0-2", "q", 0, host)).status_code == 200
    web.cookies.clear()  # not the signed-in arbiter any more: a token decides
    # Another room's host token opens nothing here (it is a spectator of this room), nor the projector's before
    # the question is in play.
    assert web.get(media_url(room_id, "0-2", "q", 0, other_host)).status_code == 404
    assert web.get(media_url(room_id, "0-2", "q", 0, board)).status_code == 404  # not in play yet
    for path in (
        media_url(room_id, "0-2", "q", 9, host),  # no such item
        media_url(room_id, "0-9", "q", 0, host),  # no such value
        media_url(room_id, "7-2", "q", 0, host),  # no such theme
        media_url(room_id, "r99", "q", 0, host),  # no such reserve question
        media_url(room_id, "0-1", "q", 1, host),  # a text item has no file
        media_url(room_id, "0-2", "x", 0, host),
        f"/quiz/{room_id}/media/..%2F..%2Fcontent.xml/q/0?token={host}",
        f"/quiz/{room_id}/media/Images%2Fsample-boat-400x300.png/q/0?token={host}",
        f"/quiz/{room_id}/media/0-2/q/..%2F0?token={host}",
        f"/quiz/q-zzzz/media/0-2/q/0?token={host}",
        f"/quiz/{other_id}/media/0-2/q/0?token={host}",  # this room's token in the other room
    ):
        assert web.get(path).status_code == 404, path


def test_a_pack_created_in_one_step_tells_the_host_what_it_does_not_play(web: TestClient, shared_data: Path) -> None:
    sign_in(web)
    response = create_quiz(web, siq(shared_data, "1.siq"))
    assert response.status_code == 303
    links = web.get(response.headers["location"]).text
    assert "Not played from this pack (a board theme has 5 questions):" in links
    assert links.count("questions: 1)") == 7  # the final round's seven 1-question themes


def test_the_answer_media_reach_the_screens_once_the_question_is_over(web: TestClient, shared_data: Path) -> None:
    sign_in(web)
    page = create_quiz(web, siq(shared_data, "SIGameTestNew.siq"), kind="shootout", team3="")
    # «Контент вопросов» 900, 1000, 1100: an image, audio and video as the answer; and two plain ones.
    response = pick(web, page.text, ["0.1.0", "0.1.7", "0.1.8", "0.1.9", "0.1.10"], ["0"])
    room_id = response.headers["location"].split("/")[2]
    links = web.get(f"/quiz/{room_id}/links").text
    host, board = (
        dict(re.findall(r"/quiz/" + room_id + r"/(host|board)\?token=([\w-]+)", links))[k] for k in ("host", "board")
    )
    web.cookies.clear()
    assert web.get(media_url(room_id, "0-2", "a", 0, board)).status_code == 404  # not before the question is over
    assert web.get(media_url(room_id, "0-2", "a", 0, host)).status_code == 200  # the host previews it
    with web.websocket_connect(f"/ws/rooms/{room_id}") as socket:
        socket.send_json({"t": "hello", "v": 0, "token": host})
        for number, (kind, data) in enumerate(
            (("draw", {"team": "Алтын"}), ("choose", {"theme": 0, "value": 2}), ("finish_reading", {})), start=1
        ):
            socket.send_json({"t": "cmd", "id": str(number), "type": kind, "data": data})
        deadline = time.monotonic() + 10
        while web.get(media_url(room_id, "0-2", "a", 0, board)).status_code != 200:
            assert time.monotonic() < deadline, "the answer's image never became loadable after «время»"
            time.sleep(0.2)
    image = web.get(media_url(room_id, "0-2", "a", 0, board))
    assert image.headers["content-type"] == "image/png"
