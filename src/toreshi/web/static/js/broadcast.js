// The broadcast view of a round: one spectator connection (room.js) per linked game room, each board drawn small
// by togyz-board.js. State comes from the room (docs/protocol.md, "Room kind togyz"); nothing is ever sent but the
// protocol's hello.

import { translator } from "./dom.js";
import { RoomClient } from "./room.js";
import { RESULT_SYMBOLS, SIDES, drawBoard, lastMove, remainingTime, showClock } from "./togyz-board.js";

const texts = JSON.parse(document.getElementById("broadcast-texts").textContent);
const t = translator(texts);

/** One board of the page and its spectator connection. */
class LiveBoard {
  constructor(article) {
    this.article = article;
    this.state = null;
    this.client = new RoomClient({
      roomId: article.dataset.room,
      onState: (state) => {
        this.state = state;
        this.render();
      },
      onStatus: (status) => article.classList.toggle("offline", status === "offline"),
      onOutdated: () => setTimeout(() => location.reload(), 3000),
    });
  }

  connect() {
    this.client.connect();
  }

  statusText() {
    const state = this.state;
    if (state.result) {
      const symbol = RESULT_SYMBOLS[state.result] || state.result;
      return state.termination ? `${symbol} · ${t(`term_${state.termination}`)}` : symbol;
    }
    switch (state.status) {
      case "running":
        return `${t(state.turn)} — ${t("to_move")}`;
      case "paused":
        return t("paused");
      case "scheduled":
        return t("scheduled");
      case "adjourned":
        return t("adjourned");
      case "postponed":
        return t("postponed");
      case "finished":
        return t("finished");
      default:
        return "";
    }
  }

  render() {
    const state = this.state;
    if (!state || state.kind !== "togyz" || !state.board) return;
    const article = this.article;
    const last = lastMove(state.moves);
    drawBoard(article.querySelector(".lb-board"), state, {
      t,
      names: state.names,
      last,
      compact: true,
      // The names stand beside the board already; the kazans say whose by side.
      kazanLabel: (side) => `${t("kazan")} · ${t(side)}`,
    });
    for (const side of SIDES) {
      const bar = article.querySelector(`.lb-player[data-side=${side}]`);
      bar.classList.toggle("to-move", state.status === "running" && state.turn === side && !state.result);
    }
    const status = article.querySelector(".lb-status");
    status.textContent = this.statusText();
    status.title = status.textContent;
    article.classList.toggle("over", Boolean(state.result));
    article.dataset.status = state.status;
    article.dataset.plies = String((state.moves || []).length);
    const move = article.querySelector(".lb-last-move");
    if (move) {
      move.textContent = last
        ? `${Math.floor((last.ply - 1) / 2) + 1}${last.side === "white" ? "." : "…"} ${last.token}`
        : t("no_moves");
    }
    this.tick();
  }

  tick() {
    const state = this.state;
    if (!state || !state.clock) return;
    const at = this.client.roomNow();
    for (const side of SIDES) {
      const node = this.article.querySelector(`.lb-player[data-side=${side}] [data-clock]`);
      showClock(node, state, side, remainingTime(state, side, at));
    }
  }
}

/** The evaluation bars: the server decides what spectators may see (a live game's only after the arbiter's delay). */
async function refreshEvaluation(url) {
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" } });
    const answer = await response.json();
    for (const article of document.querySelectorAll(".live-board[data-room]")) {
      const bar = article.querySelector(".lb-eval");
      const shown = answer.boards?.[article.dataset.board];
      if (!bar) continue;
      bar.hidden = !shown;
      if (!shown) continue;
      const percent = `${Math.round(shown.white * 100)}%`;
      bar.querySelector(".lb-eval-fill").style.width = percent;
      const text = t("evaluation", { percent });
      bar.querySelector(".lb-eval-text").textContent = shown.delayed ? `${text} · ${t("evaluation_delayed", { move: shown.move })}` : text;
      bar.setAttribute("aria-label", bar.querySelector(".lb-eval-text").textContent);
      bar.dataset.ply = String(shown.ply);
    }
  } catch (error) {
    // offline for a moment: the next round of asking fills the bars
  }
}

const evaluationUrl = document.getElementById("broadcast")?.dataset.evaluation;
if (evaluationUrl) {
  refreshEvaluation(evaluationUrl);
  setInterval(() => refreshEvaluation(evaluationUrl), 5000);
}

const boards = Array.from(document.querySelectorAll(".live-board[data-room]")).map((article) => new LiveBoard(article));
boards.forEach((board) => board.connect());
setInterval(() => boards.forEach((board) => board.tick()), 100);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) boards.forEach((board) => board.client.nudge());
});
window.addEventListener("online", () => boards.forEach((board) => board.client.nudge()));
