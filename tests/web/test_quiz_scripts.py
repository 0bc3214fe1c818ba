"""The quiz screens' status and lamps (``static/js/quiz-common.js``, ``quiz-media.js``) under Node.js with a small
stand-in for the page: the press window is named as soon as simulated reading has shown the whole text (issue 14
§4: the status said «Чтение» through the window), a question whose media the window waits for says so, and each
team's lamp on the projector."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

STATIC_JS = Path(__file__).resolve().parents[2] / "src" / "toreshi" / "web" / "static" / "js"

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
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: the screens are checked in a browser instead")
    script = tmp_path / "quiz-status.mjs"
    script.write_text(
        SCRIPT.replace("COMMON_JS", (STATIC_JS / "quiz-common.js").as_uri()).replace(
            "MEDIA_JS", (STATIC_JS / "quiz-media.js").as_uri()
        )
    )
    finished = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=60, check=False)
    assert finished.returncode == 0, finished.stderr
    result: dict[str, Any] = json.loads(finished.stdout)
    return result


def test_the_status_names_the_press_window_once_simulated_reading_is_over(tmp_path: Path) -> None:
    shown = run_script(tmp_path)
    assert shown["reading"] == ["Чтение", "Окно нажатия", "Чтение"]
    assert shown["host"] == "Чтение"  # the host reads aloud: only the host ends the reading
    assert shown["media"] == "Идёт медиа"


def test_each_team_has_a_lamp_pressed_answering_locked_out_or_too_late(tmp_path: Path) -> None:
    assert run_script(tmp_path)["lamps"] == ["answering", "pressed", "locked", "late", "off"]
