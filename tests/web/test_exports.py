"""A game's record from its page and its replay: PlayOK PGN with clocks and ``=`` offers, the printable score sheet
in the page's language (signatures only where score sheets are kept, TK-B2), the FEN at any ply."""

from __future__ import annotations

import html
import io
import json
import re
from typing import Any

from starlette.testclient import TestClient

from toreshi.togyz.fen import STARTING_FEN, from_fen
from toreshi.togyz.pgn import read_game

from .helpers import create_game, receive_until, start_game


def play(client: TestClient, game: dict[str, Any], steps: list[tuple[str, str, dict[str, Any]]]) -> None:
    room = game["id"]
    start_game(client, room)
    for number, (role, kind, data) in enumerate(steps):
        with client.websocket_connect(f"/ws/rooms/{room}") as player:
            player.send_json({"t": "hello", "v": 0, "token": game["tokens"][role]})
            receive_until(player, "welcome")
            player.send_json({"t": "cmd", "id": f"s{number}", "type": kind, "data": data})
            receive_until(player, "ack", id=f"s{number}")


def played(client: TestClient, arbiter: str, control: str = "classical-60") -> dict[str, Any]:
    game = create_game(client, arbiter, white="Асқар", black="Бекзат", control=control, event="Клуб", round="1")
    play(client, game, [
        ("white", "move", {"hole": 7, "offer_draw": True}),
        ("black", "decline_draw", {}),
        ("black", "move", {"hole": 9}),
        ("white", "resign", {}),
        ("black", "sign", {}),
    ] if control.startswith("classical") else [
        ("white", "move", {"hole": 7, "offer_draw": True}),
        ("black", "decline_draw", {}),
        ("black", "move", {"hole": 9}),
        ("white", "resign", {}),
    ])  # fmt: skip
    return game


def test_the_pgn_has_the_moves_clocks_offers_and_result(client: TestClient, arbiter: str) -> None:
    game = played(client, arbiter)
    answer = client.get(f"/games/{game['id']}/export.pgn")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/x-chess-pgn")
    assert "attachment" in answer.headers["content-disposition"] and ".pgn" in answer.headers["content-disposition"]
    text = answer.text
    assert '[Event "Клуб"]' in text and '[Round "1"]' in text and '[White "Асқар"]' in text
    assert re.search(r'\[Date "\d{4}\.\d\d\.\d\d"\]', text) and '[Termination "resignation"]' in text
    assert re.search(r"1\. 76\(10\) \{\[%clk 0:59:\d\d\]\} \{=\} 98 \{\[%clk 0:59:\d\d\]\} 0-1", text), text
    record = read_game(io.StringIO(text))
    assert record is not None and not record.errors and [move.hole for move in record.moves] == [7, 9]
    assert client.get("/games/g-000000000000/export.pgn").status_code == 404


def test_the_score_sheet_in_the_page_language_with_marks_and_signatures(client: TestClient, arbiter: str) -> None:
    game = played(client, arbiter)
    kk = html.unescape(client.get(f"/games/{game['id']}/sheet?lang=kk").text)
    assert "<h1>Жазу бланкасы</h1>" in kk and '<html lang="kk">' in kk
    assert re.search(r'<th scope="row">1</th><td class="offer">76\(10\) =</td><td>98</td>', kk)
    assert "0 – 1" in kk and "Бекзат жеңді" in kk and "Асқар жеңілісті мойындады" in kk
    assert kk.count('class="signature"') == 3 and kk.count("ойында қол қойылды") == 1  # Бекзат signed
    assert "Клуб" in kk and "ойынға 60 мин" in kk
    ru = html.unescape(client.get(f"/games/{game['id']}/sheet?lang=ru").text)
    assert "<h1>Бланк записи</h1>" in ru and "Белые" in ru and "Победа: Бекзат" in ru and "TK-" not in ru


def test_in_blitz_the_sheet_is_the_record_without_signatures(client: TestClient, arbiter: str) -> None:
    game = played(client, arbiter, control="blitz")
    page = html.unescape(client.get(f"/games/{game['id']}/sheet?lang=en").text)
    assert "<h1>Game record</h1>" in page and "nobody signs it" in page
    assert 'class="signature"' not in page and "76(10) =" in page


def test_the_fen_at_any_ply_and_in_the_replay(client: TestClient, arbiter: str) -> None:
    game = played(client, arbiter)
    room = game["id"]
    assert client.get(f"/games/{room}/position.fen?ply=0").text.strip() == STARTING_FEN
    after_one = client.get(f"/games/{room}/position.fen?ply=1").text.strip()
    assert from_fen(after_one).kazans == (10, 0)
    last = client.get(f"/games/{room}/position.fen").text.strip()
    assert last == client.get(f"/games/{room}/position.fen?ply=99").text.strip() != after_one
    replay = client.get(f"/games/{room}/replay?lang=en").text
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', replay, re.S)
    assert found is not None
    data = json.loads(found.group(1))
    assert [frame["fen"] for frame in data["frames"]] == [STARTING_FEN, after_one, last]
    assert [frame["move"] for frame in data["frames"]] == [0, 1, 1] and data["moves"] == 1
    assert data["frames"][1]["draw_offer"] is True and "76(10) =" in html.unescape(replay)
    assert "Бекзат wins" in html.unescape(replay) and "Асқар resigned" in html.unescape(replay)
    for link in (f"/games/{room}/sheet", f"/games/{room}/export.pgn"):
        assert f'href="{link}"' in replay and f'href="{link}"' in client.get(f"/games/{room}").text
