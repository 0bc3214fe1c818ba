// A togyz game move by move: the server sends one frame per ply (board, kazans, tuzdyks, mover, token, its move
// number and FEN); togyz-stepper.js chooses the frame (buttons, arrow keys, Home/End, the move list) and
// togyz-board.js draws it. This file adds what only the app's page has: the FEN to copy, the engine's review and
// the evaluation bar.

import { translator } from "./dom.js";
import { startStepper } from "./togyz-stepper.js";
import { startReview } from "./togyz-review.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const frames = data.frames;
const root = document.getElementById("replay");
const $ = (selector) => root.querySelector(selector);
const t = translator(data.strings);

let followReview = () => {};
const stepper = startStepper(root, {
  frames, t, names: data.names, moves: data.moves,
  onShow: (frame, ply) => {
    $("#replay-fen").textContent = frame.fen;
    followReview(ply);
  },
});
const show = stepper.show;
const current = () => stepper.current();

$("#copy-fen").addEventListener("click", async () => {
  const field = $("#replay-fen");
  try {
    await navigator.clipboard.writeText(field.textContent);
    $("#copy-fen").textContent = `✓ ${t("copied")}`;
  } catch (error) {
    window.getSelection()?.selectAllChildren(field);
  }
});

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
    url: panel.dataset.url, t, show, current,
    onReady: (review) => { followReview = (ply) => { follow(ply); fillBar(review.expectation[ply]); }; followReview(current()); },
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
window.toreshiReplay = { frames, show, get ply() { return current(); } };
