"""The quiz screens' status and lamps (``static/js/quiz-common.js``, ``quiz-media.js``) under Node.js with a small
stand-in for the page: the press window is named as soon as simulated reading has shown the whole text (issue 14
§4: the status said «Чтение» through the window), a question whose media the window waits for says so, and each
team's lamp on the projector."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .helpers import run_node

SCRIPT = """
const strings = { reading: "Чтение", window: "Окно нажатия", media_playing: "Идёт медиа" };
globalThis.document = {
  getElementById: (id) => (id === "quiz-config" ? { textContent: JSON.stringify({ strings }) } : null),
  addEventListener() {},
};
globalThis.window = { addEventListener() {} };
const { statusText } = await import("COMMON_JS");
const { lampOf } = await import("MEDIA_JS");
const reading = { status: "reading", game: "qualifying",
  current: { reading: { since: 1000, ends: 6000, total_ms: 5000 } } };
const byHost = { status: "reading", game: "qualifying",
  current: { reading: { since: 1000, ends: null, total_ms: null } } };
const media = { ...byHost, current: { ...byHost.current, waits: true } };
const state = { late: [{ team: "Д", reason: "time" }] };
console.log(JSON.stringify({
  reading: [statusText(reading, 5999), statusText(reading, 6000), statusText(reading)],
  host: statusText(byHost, 99999),
  media: statusText(media, 99999),
  lamps: [
    lampOf(state, { name: "А", answering: true, pressed: false, answered: false }),
    lampOf(state, { name: "Б", answering: false, pressed: true, answered: false }),
    lampOf(state, { name: "В", answering: false, pressed: false, answered: true }),
    lampOf(state, { name: "Д", answering: false, pressed: false, answered: false }),
    lampOf(state, { name: "Е", answering: false, pressed: false, answered: false }),
  ],
}));
"""


def run_script(tmp_path: Path) -> dict[str, Any]:
    scripts = {"COMMON_JS": "quiz-common.js", "MEDIA_JS": "quiz-media.js"}
    return run_node(tmp_path / "quiz-status.mjs", SCRIPT, scripts, "the screens are checked in a browser instead")


def test_the_status_names_the_press_window_once_simulated_reading_is_over(tmp_path: Path) -> None:
    shown = run_script(tmp_path)
    assert shown["reading"] == ["Чтение", "Окно нажатия", "Чтение"]
    assert shown["host"] == "Чтение"  # the host reads aloud: only the host ends the reading
    assert shown["media"] == "Идёт медиа"


def test_each_team_has_a_lamp_pressed_answering_locked_out_or_too_late(tmp_path: Path) -> None:
    assert run_script(tmp_path)["lamps"] == ["answering", "pressed", "locked", "late", "off"]
