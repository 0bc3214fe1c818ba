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
  const finished = state.status === "finished" && screen !== "assistant";
  const final = $(".q-final");
  if (final) final.hidden = !finished;
  grid.hidden = Boolean(showQuestion) || finished;
  question.hidden = !showQuestion || finished;
  root.dataset.status = state.status;
  if (finished) return renderFinal();
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

// The end of the game: the final scores best first, the winner and, in a tour, what the result means for each
// team (who advances, who plays a shootout), asked of the tour until its result has arrived there.
let tourAsked = 0;
function renderFinal() {
  const ranked = [...(state.teams || [])].sort((a, b) => b.score - a.score);
  const top = ranked.length ? ranked[0].score : 0;
  const winners = ranked.filter((team) => team.score === top).map((team) => team.name);
  $(".q-winner").textContent = `${t("winner")}: ${winners.join(", ")}`;
  $(".q-final-scores").replaceChildren(
    ...ranked.map((team) => {
      const item = element("li", "q-final-team");
      item.dataset.team = team.name;
      item.append(element("span", "q-team-title", team.name), element("span", "q-team-points", String(team.score)));
      return item;
    }),
  );
  askTour();
}

function askTour() {
  if (tourAsked > 20) return;
  tourAsked += 1;
  fetch(`/api/quiz/${encodeURIComponent(config.room)}/tour`, { headers: { accept: "application/json" } })
    .then((response) => (response.ok ? response.json() : null))
    .then((data) => {
      if (!data || !data.tour) return;
      const entries = Object.entries(data.teams || {});
      if (!entries.length) {
        setTimeout(askTour, 1000);
        return;
      }
      for (const [team, outcome] of entries) {
        const item = document.querySelector(`.q-final-team[data-team="${CSS.escape(team)}"]`);
        if (!item) continue;
        item.dataset.outcome = outcome.code;
        item.querySelector(".q-final-outcome")?.remove();
        item.append(element("span", "q-final-outcome", outcome.text));
      }
      const tour = $(".q-final-tour");
      tour.hidden = false;
      tour.textContent = data.name;
      if (entries.some(([, outcome]) => outcome.code === "waiting" || outcome.code === "shootout")) {
        setTimeout(askTour, 3000);
      }
    })
    .catch(() => setTimeout(askTour, 2000));
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
