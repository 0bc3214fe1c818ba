// The board overlay (issue 29): board N of the tournament's current round, as a spectator. Which game room that is
// comes from the page's `data-source` (asked again every few seconds): when the next round is published the same
// URL follows its game. Drawn with togyz-board.js; no evaluation bar, no envelope, nothing sent but the hello.

import { translator } from "./dom.js";
import { RoomClient } from "./room.js";
import { RESULT_SYMBOLS, SIDES, drawBoard, lastMove, remainingTime, showClock } from "./togyz-board.js";

const root = document.getElementById("overlay");
const t = translator(JSON.parse(document.getElementById("overlay-texts").textContent));
const FOLLOW_MS = 5000;

let client = null;
let room = null;
let state = null;
let pairing = null;

const $ = (selector) => root.querySelector(selector);

function names() {
  if (state && state.names) return state.names;
  return { white: pairing?.white || "", black: pairing?.black || "" };
}

function render() {
  $(".ov-round").textContent = pairing ? t("round", { n: pairing.round }) : "";
  const shown = names();
  for (const side of SIDES) {
    const bar = $(`.ov-player[data-side=${side}]`);
    bar.querySelector(".ov-name").textContent = shown[side] || "";
    bar.classList.toggle("to-move", Boolean(state && state.status === "running" && state.turn === side && !state.result));
  }
  const status = $(".ov-status");
  if (!state || state.kind !== "togyz" || !state.board) {
    status.textContent = pairing && pairing.result ? ` · ${RESULT_SYMBOLS[pairing.result] || pairing.result}` : ` · ${t("waiting")}`;
    $(".ov-position").replaceChildren();
    $(".ov-last-move").textContent = "—";
    return;
  }
  const last = lastMove(state.moves);
  drawBoard($(".ov-position"), state, { t, names: state.names, last, compact: true, kazanLabel: (side) => `${t("kazan")} · ${t(side)}` });
  status.textContent = state.result ? ` · ${RESULT_SYMBOLS[state.result] || state.result}` : "";
  root.dataset.plies = String((state.moves || []).length);
  root.dataset.status = state.status;
  $(".ov-last-move").textContent = last
    ? `${Math.floor((last.ply - 1) / 2) + 1}${last.side === "white" ? "." : "…"} ${last.token}`
    : t("no_moves");
  tick();
}

function tick() {
  if (!state || !state.clock || !client) return;
  const at = client.roomNow();
  for (const side of SIDES) showClock($(`.ov-player[data-side=${side}] [data-clock]`), state, side, remainingTime(state, side, at));
}

function follow(next) {
  if (next === room) return;
  if (client) client.close();
  client = null;
  state = null;
  room = next;
  root.dataset.room = room || "";
  if (!room) return;
  client = new RoomClient({
    roomId: room,
    watchdogMs: 5000,
    onState: (newState) => {
      state = newState;
      render();
    },
    onStatus: (status) => {
      root.dataset.connection = status;
    },
    onOutdated: () => setTimeout(() => location.reload(), 3000),
  });
  client.connect();
}

async function ask() {
  try {
    const response = await fetch(root.dataset.source, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok) {
      pairing = await response.json();
      follow(pairing.room);
      render();
    }
  } catch (error) {
    // offline for a moment: the next question finds the room again
  }
}

ask();
setInterval(ask, FOLLOW_MS);
setInterval(tick, 200);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && client) client.nudge();
});
window.addEventListener("online", () => client && client.nudge());
