"""SI-3.2 over the socket (issue 29): a new game's lots seed is on every screen from its creation, before the draw;
the host sees the order it draws, the teams only once drawn; the host's draw by lot is the order ``toreshi quiz lots
SEED TEAM...`` prints on any machine, and a host who names another first chooser is logged as overriding the lot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from toreshi.cli import app
from toreshi.quiz.lots import choice_order

from .helpers import receive_until, run_node
from .test_quiz_pages import TEAMS, created_game
from .test_quiz_special import answer


@pytest.fixture
def pack(shared_data: Path) -> Path:
    return shared_data / "quiz" / "siq" / "1.siq"


def _state(ws: Any) -> dict[str, Any]:
    state: dict[str, Any] = receive_until(ws, "snapshot")["data"]
    return state


def _cli(seed: str, *teams: str) -> list[str]:
    result = CliRunner().invoke(app, ["quiz", "lots", seed, *teams])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"seed: {seed} (toreshi-lots-1, order of choice)"
    return [line.split(". ", 1)[1] for line in lines[1:]]


def test_the_seed_is_shown_before_the_draw_and_the_command_line_draws_what_the_app_drew(
    web: TestClient, pack: Path
) -> None:
    room_id, codes, tokens = created_game(web, pack)
    url = f"/ws/rooms/{room_id}?lang=kk"
    host = web.websocket_connect(url)
    host.__enter__()
    phone = web.websocket_connect(url)
    phone.__enter__()
    try:
        host.send_json({"t": "hello", "v": 0, "token": tokens["host"]})
        before = _state(host)
        phone.send_json({"t": "hello", "v": 0, "token": codes[TEAMS[1]].split("-")[1]})
        seen_by_team = _state(phone)
        assert before["status"] == seen_by_team["status"] == "draw" and before["first_chooser"] is None
        seed = before["lots"]["seed"]
        assert seed and seen_by_team["lots"]["seed"] == seed  # published to the teams before the draw
        assert before["lots"]["order"] == list(choice_order(seed, TEAMS))  # the host sees the order it will draw
        assert seen_by_team["lots"]["order"] is None  # the teams learn it at the draw
        host.send_json({"t": "cmd", "id": "1", "type": "draw", "data": {}})
        assert answer(host, "1")["t"] == "ack"
        drawn = receive_until(phone, "event", type="first_chooser_drawn")["data"]
        assert drawn["event"]["seed"] == seed and drawn["event"]["order"] == before["lots"]["order"]
        after = drawn["state"]
        assert after["lots"] == {"seed": seed, "order": before["lots"]["order"], "overridden": False}
        # On another machine, from the published seed and the teams in any order: the same order, the same chooser.
        assert _cli(seed, *reversed(TEAMS)) == after["lots"]["order"]
        assert _cli(seed, *TEAMS)[0] == after["first_chooser"] == after["chooser"]
    finally:
        host.__exit__(None, None, None)
        phone.__exit__(None, None, None)


def test_a_host_naming_another_first_chooser_overrides_the_lot_in_the_log(web: TestClient, pack: Path) -> None:
    room_id, _codes, tokens = created_game(web, pack)
    host = web.websocket_connect(f"/ws/rooms/{room_id}?lang=ru")
    host.__enter__()
    try:
        host.send_json({"t": "hello", "v": 0, "token": tokens["host"]})
        order = _state(host)["lots"]["order"]
        host.send_json({"t": "cmd", "id": "1", "type": "draw", "data": {"team": order[-1]}})
        assert answer(host, "1")["t"] == "ack"
        drawn = receive_until(host, "event", type="first_chooser_drawn")["data"]
        assert drawn["event"]["overridden"] is True and drawn["event"]["team"] == order[-1]
        state = drawn["state"]
        assert state["lots"]["overridden"] is True and state["first_chooser"] == order[-1]
        assert [entry["type"] for entry in state["host"]["audit"]] == ["first_chooser_drawn"]
    finally:
        host.__exit__(None, None, None)


def test_a_bad_seed_or_one_team_is_refused_on_one_line() -> None:
    for args in (["x" * 65, "A", "B"], ["seed", "A"]):
        result = CliRunner().invoke(app, ["quiz", "lots", *args])
        assert result.exit_code == 1 and result.output.startswith("error: ") and result.output.count("\n") == 1


SCRIPT = """
const strings = { waiting_draw: "Жеребе күтілуде", lots_seed: "Жеребе тастаудың бастапқы мәні",
  lots_order: "таңдау кезегі жеребе бойынша", lots_overridden: "жүргізуші оның орнына {team} командасын таңдады" };
globalThis.document = {
  getElementById: (id) => (id === "quiz-config" ? { textContent: JSON.stringify({ strings }) } : null),
  addEventListener() {},
};
globalThis.window = { addEventListener() {} };
const { seedText, statusText, lotsText } = await import("COMMON_JS");
const before = { status: "draw", game: "qualifying", lots: { seed: "k3mzq-7hwae", order: null, overridden: false } };
const host = { ...before, lots: { ...before.lots, order: ["Барыс", "Алтын"] } };
const overridden = { status: "choosing", game: "qualifying", chooser: "Алтын", first_chooser: "Алтын",
  lots: { seed: "k3mzq-7hwae", order: ["Барыс", "Алтын"], overridden: true } };
const old = { status: "draw", game: "qualifying" };
console.log(JSON.stringify({
  status: statusText(before), screens: seedText(before), old: seedText(old),
  after: seedText(overridden),
  team: lotsText(before), host: lotsText(host), overridden: lotsText(overridden),
}));
"""


def test_every_screen_shows_the_seed_while_waiting_for_the_draw_and_the_host_its_order(tmp_path: Path) -> None:
    shown = run_node(tmp_path / "quiz-lots.mjs", SCRIPT, {"COMMON_JS": "quiz-common.js"}, "the browser test does")
    assert shown["status"] == "Жеребе күтілуде"  # the status line is as it was; the seed has its own line
    assert shown["screens"] == "Жеребе тастаудың бастапқы мәні: k3mzq-7hwae"
    assert shown["old"] == shown["after"] == ""  # a game recorded before issue 29 has no seed; after the draw
    assert shown["team"] == ""
    assert shown["host"] == "Жеребе тастаудың бастапқы мәні k3mzq-7hwae · таңдау кезегі жеребе бойынша: Барыс → Алтын"
    assert shown["overridden"].endswith(" · жүргізуші оның орнына Алтын командасын таңдады")
