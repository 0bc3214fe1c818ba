"""The home page's games list: statuses true to each game, results with how they came, filters, pages and the
archive; reading it writes nothing."""

from __future__ import annotations

import html
import re
from typing import Any

from sqlalchemy import func, select
from starlette.testclient import TestClient

from toreshi.clock.presets import RAPID
from toreshi.store.schema import room_events, rooms
from toreshi.tournament.journal.commands import AddParticipant, Create, EnterResult, PairRound, PublishRound
from toreshi.tournament.model import TournamentSystem
from toreshi.web.common.services import services_of
from toreshi.web.togyz.games_list import PAGE_SIZE

from .helpers import create_game, receive_until


def command(client: TestClient, room: str, kind: str, data: dict[str, Any] | None = None, token: str = "") -> None:
    with client.websocket_connect(f"/ws/rooms/{room}") as socket:
        socket.send_json({"t": "hello", "v": 0, **({"token": token} if token else {})})
        receive_until(socket, "welcome")
        socket.send_json({"t": "cmd", "id": f"{kind}-{room}", "type": kind, "data": data or {}})
        answer = socket.receive_json()
        while answer.get("id") != f"{kind}-{room}":
            answer = socket.receive_json()
        assert answer["t"] == "ack", answer


def item(page: str, room: str) -> str:
    """The list item of ``room`` on a page, without its markup."""
    found = re.search(rf'<li class="game-item[^"]*">\s*<a href="/games/{room}".*?</li>', page, re.S)
    assert found is not None, room
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())


def store_counts(client: TestClient) -> tuple[int, list[Any]]:
    engine = client.app.state.services.store.engine  # type: ignore[attr-defined]

    async def counts() -> tuple[int, list[Any]]:
        async with engine.connect() as connection:
            events = (await connection.execute(select(func.count()).select_from(room_events))).scalar_one()
            rows = (await connection.execute(select(rooms.c.id, rooms.c.updated_at, rooms.c.status))).all()
        return int(events), sorted(tuple(row) for row in rows)

    portal = client.portal
    assert portal is not None
    found: tuple[int, list[Any]] = portal.call(counts)
    return found


def test_statuses_are_true_to_each_game_and_results_say_how_they_came(client: TestClient, arbiter: str) -> None:
    scheduled = create_game(client, arbiter, white="Күтуші", black="Б")["id"]
    live = create_game(client, arbiter, white="Жүруші", black="Б")["id"]
    paused = create_game(client, arbiter, white="Тоқтаушы", black="Б")["id"]
    resigned = create_game(client, arbiter, white="Берілуші", black="Жеңуші")
    for room in (live, paused, resigned["id"]):
        command(client, room, "start")
    command(client, paused, "pause")
    command(client, resigned["id"], "resign", token=resigned["tokens"]["white"])
    page = client.get("/?lang=en").text
    assert "Not started" in item(page, scheduled) and "Live" not in item(page, scheduled)  # never "Live" unstarted
    assert "Live" in item(page, live) and "Clock stopped" in item(page, paused)
    finished = item(page, resigned["id"])
    assert "0 – 1" in finished and "Resignation — Берілуші resigned" in finished
    kk = client.get("/?lang=kk").text
    assert "Басталған жоқ" in item(kk, scheduled) and "Берілуші жеңілісті мойындады" in item(kk, resigned["id"])


def test_filters_pages_and_the_archive(client: TestClient, arbiter: str) -> None:
    made = [create_game(client, arbiter, white=f"Ақ {n}", black=f"Қара {n}")["id"] for n in range(PAGE_SIZE + 3)]
    live, done = made[0], made[1]
    command(client, live, "start")
    command(client, done, "start")
    command(client, done, "decide", {"result": "1/2-1/2", "reason": "келісім"})
    first = client.get("/?lang=en").text
    assert first.count('class="game-item') == PAGE_SIZE and "Page 1 of 2" in first and 'rel="next"' in first
    second = client.get("/?page=2&lang=en").text
    assert second.count('class="game-item') == 3 and f'href="/games/{made[0]}"' in second  # the oldest last
    assert client.get("/?page=99&lang=en").text.count('class="game-item') == 3  # clamped to the last page
    assert f'href="/games/{live}"' in client.get("/?filter=live").text
    assert f'href="/games/{made[2]}"' not in client.get("/?filter=live").text
    assert client.get("/?filter=finished").text.count('class="game-item') == 1
    assert "½ – ½" in client.get("/?filter=finished").text
    assert "No games here." in client.get("/?filter=tournament&lang=en").text

    before = store_counts(client)
    for path in ("/", "/?filter=finished", "/?filter=archived", f"/games/{done}", f"/games/{done}/replay"):
        assert client.get(path).status_code == 200
    assert store_counts(client) == before  # reading writes nothing

    refused = client.post(f"/games/{live}/archive", data={"csrf": arbiter, "next": "/"}, follow_redirects=False)
    assert refused.status_code == 303 and f'href="/games/{live}"' in client.get("/?filter=live").text
    archived = client.post(f"/games/{done}/archive", data={"csrf": arbiter, "next": "/?filter=finished"},
                           follow_redirects=False)  # fmt: skip
    assert archived.status_code == 303 and archived.headers["location"] == "/?filter=finished"
    assert f'href="/games/{done}"' not in client.get("/?page=1").text
    assert f'href="/games/{done}"' in client.get("/?filter=archived").text
    assert client.get(f"/games/{done}").status_code == 200 and client.get(f"/games/{done}/sheet").status_code == 200
    back = client.post(f"/games/{done}/archive", data={"csrf": arbiter, "archived": "0"}, follow_redirects=False)
    assert back.status_code == 303 and f'href="/games/{done}"' in client.get("/?filter=finished").text
    anonymous = TestClient(client.app, base_url="http://testserver")
    anonymous.portal = client.portal
    assert (
        anonymous.post(f"/games/{done}/archive", data={}, follow_redirects=False)
        .headers["location"]
        .startswith("/login")
    )


def test_a_tournaments_games_are_marked_and_a_result_typed_by_hand_is_shown(client: TestClient, arbiter: str) -> None:
    service = services_of(client).tournaments  # type: ignore[arg-type]

    async def prepare() -> tuple[str, dict[int, tuple[str, dict[str, str]]]]:
        create = Create(name="Жазғы кубок", system=TournamentSystem.ROUND_ROBIN, time_control="rapid")
        tid = await service.create("chief", create)
        for name in ("Абай", "Болат", "Дана", "Ерлан"):
            await service.command(tid, AddParticipant(name=name), "chief")
        await service.command(tid, PairRound(), "chief")
        await service.command(tid, PublishRound(), "chief")
        return tid, await service.create_game_rooms(tid, 1, "chief", RAPID.to_dict())

    portal = client.portal
    assert portal is not None
    tid, made = portal.call(prepare)
    single = create_game(client, arbiter, white="Жеке", black="Ойын")["id"]
    listed = client.get("/?filter=tournament&lang=en").text
    assert f'href="/games/{single}"' not in listed
    for board, (room, _tokens) in made.items():
        assert f"Жазғы кубок · Round 1 · Board {board}" in item(listed, room)
        assert "Not started" in item(listed, room)

    async def typed() -> None:
        await service.command(tid, EnterResult(round=1, board=1, result="1-0"), "chief")

    portal.call(typed)
    room_1 = made[1][0]
    shown = item(client.get("/?lang=en").text, room_1)
    assert "1 – 0" in shown and "Result entered by the arbiter" in shown and "Not started" not in shown
    assert f'href="/games/{room_1}"' in client.get("/?filter=finished").text
    assert f'href="/games/{room_1}"' not in client.get("/?filter=live").text
