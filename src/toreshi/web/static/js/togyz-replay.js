// A togyz game move by move: the server sends one frame per ply (board, kazans, tuzdyks, mover, token); this
// file draws the chosen one. Buttons, arrow keys, Home/End and the move list choose the ply.

import { element, translator } from "./dom.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const frames = data.frames;
const strings = data.strings;
const root = document.getElementById("replay");
const $ = (selector) => root.querySelector(selector);
const HOLE_DOTS = 36;
const KAZAN_DOTS = 100;

const other = (side) => (side === "white" ? "black" : "white");
const t = translator(strings);

function dots(count, limit, className) {
  const box = element("span", className);
  box.setAttribute("aria-hidden", "true");
  for (let i = 0; i < Math.min(count, limit); i += 1) box.append(element("span", "kumalak"));
  return box;
}

function hole(frame, side, number) {
  const count = frame.board[side][number - 1];
  const owner = frame.tuzdyks[other(side)] === number ? other(side) : null;
  const node = element("div", `hole side-${side}`);
  node.dataset.side = side;
  node.dataset.hole = String(number);
  if (frame.side === side && frame.hole === number) node.classList.add("last");
  node.append(element("span", "hole-num", String(number)));
  if (owner) {
    node.classList.add("tuzdyk", `tuzdyk-${owner}`);
    node.append(element("span", "tuzdyk-mark", "X"));
  } else {
    const stones = dots(count, HOLE_DOTS, "stones");
    if (count > 20) stones.classList.add("crowded");
    else if (count > 12) stones.classList.add("many");
    node.append(stones);
  }
  node.append(element("span", "hole-count", String(count)));
  node.setAttribute("aria-label", `${t(side)} ${number}: ${owner ? `${t("tuzdyk")} X` : count}`);
  return node;
}

function kazan(frame, side) {
  const node = element("div", `kazan side-${side}`);
  node.dataset.side = side;
  const count = frame.kazans[side];
  node.append(
    element("span", "kazan-label", `${t("kazan")} · ${data.names[side]}`),
    dots(count, KAZAN_DOTS, "kazan-stones"),
    element("span", "kazan-count", String(count)),
  );
  node.setAttribute("aria-label", `${t("kazan")} ${data.names[side]}: ${count}`);
  return node;
}

let current = frames.length - 1;

function show(ply) {
  current = Math.max(0, Math.min(frames.length - 1, ply));
  const frame = frames[current];
  const top = element("div", "row row-top");
  for (let number = 9; number >= 1; number -= 1) top.append(hole(frame, "black", number));
  const bottom = element("div", "row row-bottom");
  for (let number = 1; number <= 9; number += 1) bottom.append(hole(frame, "white", number));
  const kazans = element("div", "kazans");
  kazans.append(kazan(frame, "black"), kazan(frame, "white"));
  $("#board").replaceChildren(top, kazans, bottom);
  root.dataset.ply = String(current);
  $("#replay-ply").textContent = current === 0
    ? t("start")
    : `${t("ply", { number: current, total: frames.length - 1 })}: ${frame.token}`;
  for (const bar of root.querySelectorAll(".player-bar")) {
    bar.classList.toggle("to-move", bar.dataset.side === frame.turn);
  }
  for (const button of root.querySelectorAll(".replay-move")) {
    const chosen = Number(button.dataset.ply) === current;
    button.closest("td").classList.toggle("last", chosen);
    if (chosen) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  root.querySelector('[data-step="first"]').disabled = current === 0;
  root.querySelector('[data-step="previous"]').disabled = current === 0;
  root.querySelector('[data-step="next"]').disabled = current === frames.length - 1;
  root.querySelector('[data-step="last"]').disabled = current === frames.length - 1;
}

const steps = {
  first: () => 0,
  previous: () => current - 1,
  next: () => current + 1,
  last: () => frames.length - 1,
};

for (const button of root.querySelectorAll("[data-step]")) {
  button.addEventListener("click", () => show(steps[button.dataset.step]()));
}
for (const button of root.querySelectorAll(".replay-move")) {
  button.addEventListener("click", () => show(Number(button.dataset.ply)));
}
const KEYS = { ArrowLeft: "previous", ArrowRight: "next", ArrowUp: "previous", ArrowDown: "next", Home: "first", End: "last" };
document.addEventListener("keydown", (key) => {
  if (key.altKey || key.ctrlKey || key.metaKey || key.target.closest?.("input, select, textarea")) return;
  const step = KEYS[key.key];
  if (!step) return;
  key.preventDefault();
  show(steps[step]());
});

show(current);
window.toreshiReplay = { frames, show, get ply() { return current; } };
