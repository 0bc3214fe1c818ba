// The projector board (1920×1080 and 1280×720), the spectator view and the assistant's scoreboard.
// The projector may also forward the keys of USB buzzers plugged into its machine (role "projector").

import {
  $,
  animate,
  config,
  connect,
  countdown,
  element,
  renderBar,
  renderGrid,
  renderTeams,
  revealedText,
  root,
  statusText,
  t,
} from "./quiz-common.js";

let state = null;
let client = null;
const screen = root.dataset.screen || config.screen;

function render() {
  if (!state || state.status === "empty") return;
  const status = $(".q-status");
  if (status) status.textContent = statusText(state);
  const teams = $(".q-teams");
  if (teams) renderTeams(teams, state);
  if (screen === "assistant") return renderAssistant();
  const grid = $(".q-grid");
  const question = $(".q-question");
  const current = state.current;
  const last = state.last;
  noteClosed();
  const showQuestion = Boolean(current) || (last && state.status !== "finished" && justClosed());
  grid.hidden = Boolean(showQuestion);
  question.hidden = !showQuestion;
  root.dataset.status = state.status;
  if (!showQuestion) {
    renderGrid(grid, state);
    return;
  }
  const shown = current || last;
  $(".q-theme").textContent = shown.theme_name || t("reserve");
  $(".q-value").textContent = String(shown.value);
  const answering = $(".q-answering");
  answering.textContent = current && current.answering ? current.answering : "";
  answering.hidden = !(current && current.answering);
  const answer = $(".q-answer");
  const big = $(".q-big-status");
  if (!current && last) {
    answer.hidden = false;
    answer.textContent = `${t("answer")}: ${last.answers.join(" / ")}`;
    big.hidden = last.outcome !== "time";
    big.textContent = t("time");
  } else {
    answer.hidden = true;
    big.hidden = true;
  }
  frame();
}

let closedAt = 0;
let lastPlayed = null;
function noteClosed() {
  // When a question ends, the board shows its answer for a while (a screen opened or reloaded between
  // questions shows the board at once).
  if (lastPlayed === null) lastPlayed = state.played;
  if (state.played !== lastPlayed) {
    lastPlayed = state.played;
    closedAt = Date.now();
  }
}

function justClosed() {
  return state.status === "choosing" && state.played > 0 && Date.now() - closedAt < 8000;
}

function frame() {
  if (!state || screen === "assistant" || !state.current) {
    renderBar($(".q-bar"), null);
    return;
  }
  const now = client ? client.roomNow() : null;
  $(".q-text").textContent = revealedText(state.current, state, now);
  renderBar($(".q-bar"), countdown(state, now));
}

function renderAssistant() {
  const due = $(".q-score-due");
  due.hidden = !state.score_due;
  due.textContent = state.score_due
    ? `${t("score_due")}${state.score_requests.length ? ` — ${state.score_requests.join(", ")}` : ""}`
    : "";
  const actions = $(".q-actions");
  actions.replaceChildren();
  if (state.can.includes("announce_score")) {
    const button = element("button", state.score_due ? "primary" : "", t("announce_score"));
    button.type = "button";
    button.addEventListener("click", () => client.command("announce_score").catch(() => {}));
    actions.append(button);
  }
  const list = $(".q-announcements");
  list.replaceChildren();
  for (const announcement of [...state.announcements].reverse()) {
    const line = Object.entries(announcement.scores)
      .map(([team, score]) => `${team} ${score}`)
      .join(" · ");
    list.append(element("p", "q-announcement", line));
  }
}

client = connect((newState) => {
  state = newState;
  render();
});

animate(() => {
  frame();
  if (state && state.status === "choosing" && !$(".q-question")?.hidden && !justClosed()) render();
});

// USB buzzers that type keys on the projector's machine: forwarded while the buttons are open.
if (config.role === "projector") {
  document.addEventListener("keydown", (event) => {
    if (event.repeat || event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
    if (!state || !state.current || !state.current.open) return;
    client.command("key", { key: event.key }).catch(() => {});
  });
}
