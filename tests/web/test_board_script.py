"""The one board renderer (``static/js/togyz-board.js``), run under Node.js with a small stand-in for the DOM: the
live game, the replay and the broadcast draw the same holes, kazans, tuzdyk marks and last move with it."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import run_node

SCRIPT = """
class Node {
  constructor(tag) { this.tag = tag; this.children = []; this.className = ""; this.textContent = ""; this.dataset = {};
    this.attributes = {}; this.listeners = {}; this.title = ""; }
  get classList() {
    const node = this;
    return {
      add: (...names) => {
        node.className = [...new Set([...node.className.split(" ").filter(Boolean), ...names])].join(" ");
      },
      contains: (name) => node.className.split(" ").includes(name),
    };
  }
  append(...nodes) { this.children.push(...nodes); }
  replaceChildren(...nodes) { this.children = nodes; }
  setAttribute(name, value) { this.attributes[name] = value; }
  addEventListener(type, handler) { this.listeners[type] = handler; }
  all() { return [this, ...this.children.flatMap((child) => child.all())]; }
  text() { return this.textContent + this.children.map((child) => child.text()).join(""); }
}
globalThis.document = { createElement: (tag) => new Node(tag) };
const { drawBoard, lastMove } = await import("BOARD_JS");

const t = (key) => ({ white: "Бастаушы", black: "Қостаушы", kazan: "қазан", tuzdyk: "тұздық" })[key] || key;
const position = {
  board: { white: [0, 9, 9, 9, 9, 9, 1, 9, 9], black: [9, 9, 0, 9, 9, 0, 9, 9, 9] },
  kazans: { white: 28, black: 4 }, tuzdyks: { white: 3, black: null },
};
const names = { white: "Асқар", black: "Бекзат" };
const played = [];
const full = new Node("div");
drawBoard(full, position, { t, names, bottom: "black", last: lastMove([{ ply: 1, side: "white", token: "76(10)" }]),
  play: (side, hole) => (side === "black" && hole === 1 ? () => played.push([side, hole]) : null) });
const holes = full.all().filter((node) => node.className.split(" ").includes("hole"));
const where = (node) => node.dataset.side + node.dataset.hole;
const out = {
  rows: full.children.map((row) => row.className),
  order: holes.map(where),
  counts: holes.map((node) => node.children.at(-1).textContent),
  tuzdyk: holes.filter((node) => node.className.includes("tuzdyk")).map((node) => [where(node), node.title]),
  last: holes.filter((node) => node.className.split(" ").includes("last")).map(where),
  buttons: holes.filter((node) => node.tag === "button").map((node) => [where(node), node.className]),
  kazans: full.children[1].children.map((node) => [node.dataset.side, node.text()]),
  dots: holes.find((node) => node.dataset.side === "white" && node.dataset.hole === "2").children[1].children.length,
};
holes.find((node) => node.tag === "button").listeners.click();
out.played = played;
const compact = new Node("div");
drawBoard(compact, position, { t, names, compact: true, kazanLabel: (side) => `${t("kazan")} · ${t(side)}` });
const small = compact.all().filter((node) => node.className.split(" ").includes("lb-hole"));
out.compact = {
  rows: compact.children.map((row) => row.className),
  counts: small.map((node) => node.children.at(-1).textContent),
  kazans: compact.children[1].children.map((node) => node.text()),
  dots: compact.all().filter((node) => node.className === "kumalak").length,
};
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    script = tmp_path_factory.mktemp("board") / "board.mjs"
    return run_node(script, SCRIPT, {"BOARD_JS": "togyz-board.js"}, "the board is checked in a browser instead")


def test_the_board_has_both_rows_the_kazans_between_and_the_viewer_at_the_bottom(drawn: dict[str, Any]) -> None:
    assert drawn["rows"] == ["row row-top", "kazans", "row row-bottom"]
    # Black at the bottom: White's row runs 9 → 1 at the top, Black's 1 → 9 below.
    assert drawn["order"] == [f"white{n}" for n in range(9, 0, -1)] + [f"black{n}" for n in range(1, 10)]
    assert drawn["counts"][:9] == ["9", "9", "1", "9", "9", "9", "9", "9", "0"]
    assert drawn["kazans"] == [["white", "қазан · Асқар28"], ["black", "қазан · Бекзат4"]]
    assert drawn["dots"] == 9  # every kumalak drawn on the full board


def test_the_tuzdyk_the_last_move_and_the_playable_holes(drawn: dict[str, Any]) -> None:
    # White's tuzdyk is Black's hole 3: marked X and named after its owner.
    assert drawn["tuzdyk"] == [["black3", "тұздық · Асқар (Қостаушы 3)"]]
    assert drawn["last"] == ["white7"]
    assert drawn["buttons"] == [["black1", "hole side-black legal"]]
    assert drawn["played"] == [["black", 1]]


def test_the_compact_board_shows_counts_only(drawn: dict[str, Any]) -> None:
    compact = drawn["compact"]
    assert compact["rows"] == ["lb-row lb-row-top", "lb-kazans", "lb-row lb-row-bottom"]
    assert compact["counts"][9:] == ["0", "9", "9", "9", "9", "9", "1", "9", "9"]  # White at the bottom by default
    assert compact["counts"][6] == "X"  # Black's hole 3, White's tuzdyk (the top row runs 9 → 1)
    assert compact["kazans"] == ["қазан · Қостаушы4", "қазан · Бастаушы28"]
    assert compact["dots"] == 0
