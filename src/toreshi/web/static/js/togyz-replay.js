// A togyz game move by move: the server sends one frame per ply (board, kazans, tuzdyks, mover, token, its move
// number and FEN); this file chooses the frame (buttons, arrow keys, Home/End, the move list) and togyz-board.js
// draws it. The counter counts moves as a score sheet does (White's ply and Black's reply are one move).

import { translator } from "./dom.js";
import { drawBoard } from "./togyz-board.js";
import { startReview } from "./togyz-review.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const frames = data.frames;
const root = document.getElementById("replay");
const $ = (selector) => root.querySelector(selector);
const t = translator(data.strings);

let current = frames.length - 1;
let followReview = () => {};

function show(ply) {
  current = Math.max(0, Math.min(frames.length - 1, ply));
  const frame = frames[current];
  const last = frame.side ? { side: frame.side, hole: frame.hole } : null;
  drawBoard($("#board"), frame, { t, names: data.names, bottom: "white", last });
  root.dataset.ply = String(current);
  const mark = frame.draw_offer ? " =" : "";
  $("#replay-ply").textContent = current === 0
    ? t("start")
    : `${t("ply", { number: frame.move, total: data.moves })} · ${t(frame.side)}: ${frame.token}${mark}`;
  $("#replay-fen").textContent = frame.fen;
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
  followReview(current);
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

$("#copy-fen").addEventListener("click", async () => {
  const field = $("#replay-fen");
  try {
    await navigator.clipboard.writeText(field.textContent);
    $("#copy-fen").textContent = `✓ ${t("copied")}`;
  } catch (error) {
    window.getSelection()?.selectAllChildren(field);
  }
});

show(current);
const bar = document.getElementById("eval-bar");

/** The evaluation bar: White's share from the left, with the text the server's numbers make. */
function fillBar(white, note = "") {
  const percent = `${Math.round(white * 100)}%`;
  bar.querySelector(".eval-fill").style.width = percent;
  const text = note ? `${t("evaluation", { percent })} · ${note}` : t("evaluation", { percent });
  bar.querySelector(".eval-text").textContent = text;
  bar.setAttribute("aria-label", text);
  bar.hidden = false;
}

const panel = document.getElementById("review");
if (panel) {
  const follow = startReview(panel, {
    url: panel.dataset.url, t, show, current: () => current,
    onReady: (review) => { followReview = (ply) => { follow(ply); fillBar(review.expectation[ply]); }; followReview(current); },
  });
  followReview = follow;
}
if (bar?.dataset.url) {
  // A live game: the server says whether spectators may see an evaluation yet, and of which position (fair play).
  const ask = async () => {
    try {
      const answer = await (await fetch(bar.dataset.url, { headers: { Accept: "application/json" } })).json();
      const shown = answer.evaluation;
      if (!shown) bar.hidden = true;
      else fillBar(shown.white, shown.delayed ? t("evaluation_delayed", { move: shown.move }) : "");
      if (shown) bar.dataset.ply = String(shown.ply);
    } catch (error) {
      // offline for a moment: asked again below
    }
  };
  ask();
  setInterval(ask, 10000);
}
window.toreshiReplay = { frames, show, get ply() { return current; } };
