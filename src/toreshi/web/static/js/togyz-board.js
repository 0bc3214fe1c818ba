// The one togyz board renderer: two rows of nine holes with their kumalaks, the two kazans, tuzdyk marks and the
// last move. The live game (togyz.js), the replay (togyz-replay.js) and the round broadcast (broadcast.js) draw
// with it; each keeps only its own logic (what is clickable, which frame, which room). The live pages' clocks
// are read from the room state and shown here too.

import { element } from "./dom.js";
import { formatClock } from "./format.js";

export const SIDES = ["white", "black"];

// A result as the pages print it (the same in every language), by the room state's `result`.
export const RESULT_SYMBOLS = { "1-0": "1 – 0", "0-1": "0 – 1", "1/2-1/2": "½ – ½", "+-": "+ –", "-+": "– +", "--": "– –" };
export const other = (side) => (side === "white" ? "black" : "white");

// The traditional Kazakh names of the holes 1–9 (docs/togyz-rules.md §1), shown as a hint on each hole.
export const HOLE_NAMES = ["Арт", "Тектұрмас", "Ат өтпес", "Атсыратар", "Бел", "Белбасар", "Қандықақпан", "Көкмойын", "Маңдай"];

// A running clock under this is shown as low on time.
const LOW_TIME_MS = 30000;

/** A side's remaining time at room time `at` (null before the room's time is known): the room state's value,
 * counted down while that side's clock runs. */
export function remainingTime(state, side, at) {
  const clock = state.clock;
  const base = clock[side] ?? 0;
  if (clock.running !== side || at === null || state.status !== "running") return base;
  return base - Math.max(0, at - clock.at);
}

/** A side's clock face: `ms` left, whether it runs, is low on time or has fallen. */
export function showClock(node, state, side, ms) {
  const text = formatClock(ms);
  if (node.textContent !== text) node.textContent = text;
  const live = state.status === "running" && state.clock.running === side;
  node.classList.toggle("running", live);
  node.classList.toggle("low", live && ms < LOW_TIME_MS);
  node.classList.toggle("flagged", ms <= 0);
}

const HOLE_DOTS = 36;
const KAZAN_DOTS = 100;

// The full board draws every kumalak; the compact one (a projector's grid of boards) draws counts only.
const CLASSES = {
  full: {
    row: "row", hole: "hole", number: "hole-num", count: "hole-count", tuzdyk: "tuzdyk-mark",
    kazans: "kazans", kazan: "kazan", kazanLabel: "kazan-label", kazanCount: "kazan-count",
  },
  compact: {
    row: "lb-row", hole: "lb-hole", number: "lb-hole-num", count: "lb-count", tuzdyk: "lb-count lb-tuzdyk",
    kazans: "lb-kazans", kazan: "lb-kazan", kazanLabel: "lb-kazan-label", kazanCount: "lb-kazan-count",
  },
};

/** The hole the last move was played from, read from its token ("76(10)": hole 7), or null. */
export function lastMove(moves) {
  if (!moves || !moves.length) return null;
  const last = moves[moves.length - 1];
  return { side: last.side, hole: Number(String(last.token)[0]), token: last.token, ply: last.ply };
}

function dots(count, limit, className) {
  const box = element("span", className);
  box.setAttribute("aria-hidden", "true");
  for (let i = 0; i < Math.min(count, limit); i += 1) box.append(element("span", "kumalak"));
  return box;
}

/**
 * Draws `position` ({board: {white: [9 counts], black: […]}, kazans: {white, black}, tuzdyks: {white, black}} as in
 * the room's state) into `container`, replacing what was there.
 *
 * Options: `t` (the page's translator: white, black, kazan, tuzdyk), `names` ({white, black}: who owns a tuzdyk,
 * whose kazan), `bottom` (the side drawn nearer the viewer, "white" by default), `last` ({side, hole} or null),
 * `compact` (counts only), `kazanLabel(side)` (the kazan's caption; "kazan · name" by default), `play(side, hole)`
 * (a function to call when the hole is chosen, or null: the hole is then not clickable), `sealed` (the sealed
 * hole to mark among the clickable ones), `selected` (the clickable hole chosen but not yet played, TK-B6) and
 * `landing` ({side, hole}: where the selected move's last kumalak would land).
 */
export function drawBoard(container, position, options) {
  const { t, names = {}, bottom = "white", last = null, compact = false, play = null, sealed = null } = options;
  const { selected = null, landing = null } = options;
  const css = compact ? CLASSES.compact : CLASSES.full;
  const kazanLabel = options.kazanLabel || ((side) => `${t("kazan")} · ${names[side] ?? t(side)}`);
  const top = other(bottom);

  const hole = (side, number) => {
    const count = position.board[side][number - 1];
    const owner = position.tuzdyks[other(side)] === number ? other(side) : null;
    const action = play ? play(side, number) : null;
    const node = element(action ? "button" : "div", `${css.hole} side-${side}`);
    node.dataset.side = side;
    node.dataset.hole = String(number);
    if (action) {
      node.type = "button";
      node.classList.add("legal");
      if (sealed === number) node.classList.add("sealed");
      if (selected === number) node.classList.add("selected");
      node.setAttribute("aria-pressed", String(selected === number));
      node.addEventListener("click", action);
    }
    if (landing && landing.side === side && landing.hole === number) node.classList.add("landing");
    if (last && last.side === side && last.hole === number) node.classList.add("last");
    node.append(element("span", css.number, String(number)));
    node.title = `${t(side)} ${number} · ${HOLE_NAMES[number - 1]}`;
    if (owner) {
      node.classList.add("tuzdyk", `tuzdyk-${owner}`);
      node.append(element("span", css.tuzdyk, "X"));
      node.title = `${t("tuzdyk")} · ${names[owner] ?? t(owner)} (${t(side)} ${number})`;
    } else if (compact) {
      node.append(element("span", css.count, String(count)));
    } else {
      const stones = dots(count, HOLE_DOTS, "stones");
      if (count > 20) stones.classList.add("crowded");
      else if (count > 12) stones.classList.add("many");
      node.append(stones);
    }
    if (!compact) node.append(element("span", css.count, String(count)));
    node.setAttribute("aria-label", `${t(side)} ${number}: ${owner ? `${t("tuzdyk")} X` : count}`);
    return node;
  };

  const kazan = (side) => {
    const count = position.kazans[side];
    const node = element("div", `${css.kazan} side-${side}`);
    node.dataset.side = side;
    node.append(element("span", css.kazanLabel, kazanLabel(side)));
    if (!compact) node.append(dots(count, KAZAN_DOTS, "kazan-stones"));
    node.append(element("span", css.kazanCount, String(count)));
    node.setAttribute("aria-label", `${kazanLabel(side)}: ${count}`);
    return node;
  };

  const topRow = element("div", `${css.row} ${css.row}-top`);
  for (let number = 9; number >= 1; number -= 1) topRow.append(hole(top, number));
  const bottomRow = element("div", `${css.row} ${css.row}-bottom`);
  for (let number = 1; number <= 9; number += 1) bottomRow.append(hole(bottom, number));
  const kazans = element("div", css.kazans);
  kazans.append(kazan(top), kazan(bottom));
  container.replaceChildren(topRow, kazans, bottomRow);
}
