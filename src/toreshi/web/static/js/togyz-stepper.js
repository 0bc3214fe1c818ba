// Stepping through a togyz game frame by frame: the app's replay page (togyz-replay.js) and the public results
// site's game pages (results-replay.js) share it. A frame is one position with the ply that led to it (board,
// kazans, tuzdyks, mover, token, its move number, whose turn), as toreshi.web.togyz.replay.replay_frames makes
// them; togyz-board.js draws it. This file chooses the frame: the first / previous / next / last buttons
// ([data-step]), the arrow keys and Home/End, the move list's buttons (.replay-move[data-ply]). The counter
// counts moves as a score sheet does (White's ply and Black's reply are one move).

import { drawBoard } from "./togyz-board.js";

const KEYS = { ArrowLeft: "previous", ArrowRight: "next", ArrowUp: "previous", ArrowDown: "next", Home: "first", End: "last" };

/** The counter's text for `frame`: "Starting position", or "Move 3 of 20 · White: 76(10)" (" =": a draw offer). */
export function plyText(frame, t, moves) {
  if (!frame.ply) return t("start");
  const mark = frame.draw_offer ? " =" : "";
  return `${t("ply", { number: frame.move, total: moves })} · ${t(frame.side)}: ${frame.token}${mark}`;
}

/**
 * Steps through `frames` inside `root` (which holds #board, #replay-ply, the [data-step] buttons, the player bars
 * .player-bar[data-side] and the move list). Options: `t` (the page's translator), `names` ({white, black}),
 * `moves` (the number of moves, for the counter), `start` (the frame shown first: the last by default) and
 * `onShow(frame, ply)` (called after each frame is drawn). Returns {show(ply), current()}.
 */
export function startStepper(root, { frames, t, names, moves, start = frames.length - 1, onShow = () => {} }) {
  const $ = (selector) => root.querySelector(selector);
  let current = start;

  function show(ply) {
    current = Math.max(0, Math.min(frames.length - 1, ply));
    const frame = frames[current];
    const last = frame.side ? { side: frame.side, hole: frame.hole } : null;
    drawBoard($("#board"), frame, { t, names, bottom: "white", last });
    root.dataset.ply = String(current);
    $("#replay-ply").textContent = plyText(frame, t, moves);
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
    onShow(frame, current);
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
  document.addEventListener("keydown", (key) => {
    if (key.altKey || key.ctrlKey || key.metaKey || key.target.closest?.("input, select, textarea")) return;
    const step = KEYS[key.key];
    if (!step) return;
    key.preventDefault();
    show(steps[step]());
  });

  show(current);
  return { show, current: () => current };
}
