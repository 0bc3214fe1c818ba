"""A vibration only where the browser allows one (issue 30): Chromium refuses ``navigator.vibrate`` until the reader
has touched the page and writes an error to the console each time; ``vibrate`` of ``static/js/dom.js`` (what the
game and the buzzer call) then does nothing. Run under Node.js with a stand-in ``navigator``."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_node

SCRIPT = """
const calls = [];
const activation = { hasBeenActive: false };
Object.defineProperty(globalThis, "navigator", { configurable: true, value: {
  userActivation: activation,
  vibrate: (pattern) => { calls.push(pattern); return true; },
} });
const { vibrate } = await import("DOM_JS");
const before = vibrate(120);
const callsBefore = calls.length;
activation.hasBeenActive = true;
const after = vibrate([60, 40, 60]);
// A browser without the activation API (Safari before 16) and one without vibration at all.
Object.defineProperty(globalThis, "navigator", {
  configurable: true, value: { vibrate: (p) => { calls.push(p); return true; } },
});
const noActivationApi = vibrate(40);
Object.defineProperty(globalThis, "navigator", { configurable: true, value: {} });
const noVibration = vibrate(40);
console.log(JSON.stringify({ before, callsBefore, after, calls, noActivationApi, noVibration }));
"""


def test_no_vibration_is_asked_for_before_the_reader_touched_the_page(tmp_path: Path) -> None:
    result = run_node(tmp_path / "vibrate.mjs", SCRIPT, {"DOM_JS": "dom.js"}, "the callers are still checked below")
    assert result["before"] is False and result["callsBefore"] == 0
    assert result["after"] is True
    assert result["noActivationApi"] is True
    assert result["noVibration"] is False
    assert result["calls"] == [[60, 40, 60], 40]


def test_the_pages_vibrate_only_through_the_guard() -> None:
    static_js = Path(__file__).resolve().parents[2] / "src" / "toreshi" / "web" / "static" / "js"
    scripts = [path for path in static_js.glob("*.js") if path.name != "dom.js"]
    direct = [path.name for path in scripts if "navigator.vibrate" in path.read_text()]
    assert direct == [], f"navigator.vibrate called directly (a console error before the first tap) in {direct}"
