"""A clock corrected by more than the tournament's amount (issue 29), end to end: the arbiter's ``add_time`` in a
tournament's game room is refused until confirmed, then until a reason is written; done, it is kept in the game's
log and, once the game is over, carried into the tournament — its audit log (who, when, level, reason), its printed
report and its TRF (a ``###`` line at round 1 that the TRF reader and ``toreshi tournament check`` read past)."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

from starlette.testclient import TestClient
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.tournament.trf import format_trf, parse_trf

from .helpers import post, receive_until
from .test_arbiter_calls import a_round_with_games, board_one, links_of_round, player_sends
from .test_departures import _text
from .test_tournament_pages import call, tournaments


def arbiter_sends(web: TestClient, room: str, command: str, **data: object) -> dict[str, object]:
    """The signed-in arbiter's command to a game room over its socket: the room's answer (ack or refused)."""
    command_id = secrets.token_hex(4)
    with web.websocket_connect(f"/ws/rooms/{room}") as ws:
        ws.send_json({"t": "hello", "v": 0})
        receive_until(ws, "welcome")
        ws.send_json({"t": "cmd", "id": command_id, "type": command, "data": data})
        while True:
            message: dict[str, object] = ws.receive_json()
            if message["t"] in ("ack", "refused") and message.get("id") == command_id:
                return message


def test_a_large_clock_correction_is_confirmed_with_a_reason_and_travels_with_the_tournament(
    web: TestClient, tmp_path: Path
) -> None:
    _, tid = a_round_with_games(web)
    room = board_one(web, tid)
    assert "clock_correction_over_s" in web.get(f"/tournaments/{tid}/settings").text  # the amount is a setting
    arbiter_sends(web, room, "start")
    answer = arbiter_sends(web, room, "add_time", side="black", ms=120_000, reason="clock fault")
    assert answer["t"] == "refused" and answer["code"] == "correction_unconfirmed", answer
    answer = arbiter_sends(web, room, "add_time", side="black", ms=120_000, confirmed=True)
    assert answer["t"] == "refused" and answer["code"] == "correction_needs_reason", answer
    assert arbiter_sends(web, room, "add_time", side="white", ms=30_000)["t"] == "ack"  # within the amount
    answer = arbiter_sends(web, room, "add_time", side="black", ms=120_000, reason="clock fault", confirmed=True)
    assert answer["t"] == "ack", answer
    # The game ends (White resigns from the player's link): the correction reaches the tournament with the result.
    white_token = links_of_round(web, tid)[(room, "white")]
    assert player_sends(web, room, white_token, "resign")["t"] == "ack"
    call(web, tournaments(web).settled)
    state = call(web, lambda: tournaments(web).state(tid))
    game = state.t.round(1).game(1)
    assert game.result is not None
    corrected = [line for line in state.audit if line.action == "clock_corrected"]
    assert len(corrected) == 1 and corrected[0].by == "Chief"
    assert dict(corrected[0].params) == {"round": 1, "board": 1, "player": state.t.label(game.black),
                                         "change": "+2:00", "reason": "clock fault"}  # fmt: skip
    # Carried once: the reconciliation finds nothing more to carry.
    call(web, lambda: tournaments(web).reconcile(tid))
    state = call(web, lambda: tournaments(web).state(tid))
    assert len([line for line in state.audit if line.action == "clock_corrected"]) == 1
    # The audit log (the arbiter's page), with the level and the reason.
    audit = _text(web.get(f"/tournaments/{tid}/audit").text)
    assert ("warning a clock corrected by more than the tournament allows without a reason; round 1; board 1; "
            f"player {state.t.label(game.black)} clock fault") in audit  # fmt: skip
    # The printed report lists it.
    report = _text(web.get(f"/tournaments/{tid}/standings?print=1").text)
    assert "a clock corrected by more than the tournament allows without a reason; round 1; board 1" in report
    # The TRF carries it next to round 1; it reads back the same and the checker reads past it.
    text = web.get(f"/tournaments/{tid}/export.trf").content.decode("utf-8")
    comments = [line for line in text.split("\r\n") if line.startswith("###")]
    assert f"### round 1 board 1: clock of {state.t.label(game.black)} corrected by +2:00 [warning]: clock fault" in (
        comments
    ), comments
    assert not any("Chief" in line for line in comments)  # the login stays off the public file
    assert format_trf(parse_trf(text), "\r\n") == text
    file = tmp_path / "cup.trf"
    file.write_bytes(text.encode("utf-8"))
    result = CliRunner().invoke(app, ["tournament", "check", str(file)])
    assert result.exit_code == 0, result.output


def test_the_amount_is_a_setting_the_next_rooms_get(web: TestClient) -> None:
    csrf, tid = a_round_with_games(web)
    post(web, f"/tournaments/{tid}/do/configure", csrf, clock_correction_over_s="300")
    assert re.search(r'name="clock_correction_over_s" value="300"', web.get(f"/tournaments/{tid}/settings").text)
    state = call(web, lambda: tournaments(web).state(tid))
    assert state.clock_correction_over_s == 300
