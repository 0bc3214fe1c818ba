// The projector board (1920×1080 and 1280×720), the spectator view and the assistant's scoreboard.
// The projector may also forward the keys of USB buzzers plugged into its machine (role "projector").

import * as quiz from "./quiz-common.js";
import { $, config, element, root, t } from "./quiz-common.js";
import { lampOf, MediaStage, Sounds } from "./quiz-media.js";

let state = null;
let client = null;
const screen = root.dataset.screen || config.screen;
const projector = config.role === "projector";
const stageNode = $(".q-media");
const stage = stageNode
  ? new MediaStage(stageNode, config, {
      autoplay: projector,
      texts: t,
      onFinished: () => {
        // The press window waits for this question's audio or video (waitForFinish): tell the room it has ended.
        const key = stage.key || "";
        if (projector && key.startsWith("q:")) {
          client.command("media_finished", { question: Number(key.slice(2)) }).catch(() => {});
        }
      },
    })
  : null;
const soundPrompt = $(".q-sound-prompt");
const sounds = projector ? new Sounds(soundPrompt) : null;
if (sounds) {
  soundPrompt.hidden = false;
  sounds.onEnabled = () => {
    if (stage && stage.blocked && state && state.status === "reading") stage.playAll();
  };
  // A browser that lets this page play sound without a click (its autoplay policy, or a medium that just
  // played) needs no prompt: the banner goes as soon as sound is possible.
  sounds.enable();
  if (stage) stage.onSound = () => sounds.enable();
} else if (soundPrompt) {
  soundPrompt.hidden = true;
}
let mediaSeen = null;
let shownStatus = null;

function render() {
  if (!state || state.status === "empty") return;
  const status = $(".q-status");
  if (status) status.textContent = quiz.statusText(state);
  const lots = $(".q-lots");
  quiz.showSeeded(lots, quiz.seedText(state), state.lots && state.lots.seed);
  const teams = $(".q-teams");
  if (teams) {
    quiz.renderTeams(teams, state, {
      buttons: (card, team) => {
        if (screen === "assistant") return;
        // Each team's lamp: pressed, answering, locked out (answered already), too late.
        const lamp = lampOf(state, team);
        card.dataset.lamp = lamp;
        const light = element("span", `q-lamp lamp-${lamp}`);
        light.title = lamp === "off" ? "" : t(`lamp_${lamp}`);
        card.prepend(light);
      },
    });
  }
  if (screen === "assistant") return renderAssistant();
  const grid = $(".q-grid");
  const question = $(".q-question");
  const current = state.current;
  const last = state.last;
  closed.note(state);
  // After a question the answer stays up a while, after the last one too (then the end of the game comes).
  const showQuestion = Boolean(current) || Boolean(last && closed.recent(state));
  const finished = state.status === "finished" && screen !== "assistant" && !showQuestion;
  const final = $(".q-final");
  if (final) final.hidden = !finished;
  grid.hidden = Boolean(showQuestion) || finished;
  question.hidden = !showQuestion || finished;
  root.dataset.status = state.status;
  if (finished) return renderFinal();
  if (!showQuestion) {
    quiz.renderGrid(grid, state);
    if (stage) stage.render([], null);
    return;
  }
  const shown = current || last;
  renderMedia(current, last);
  $(".q-theme").textContent = shown.theme_name || t("reserve");
  $(".q-value").textContent = String(shown.value);
  const answering = $(".q-answering");
  answering.textContent = current && current.answering ? current.answering : "";
  answering.hidden = !(current && current.answering);
  const answer = $(".q-answer");
  const big = $(".q-big-status");
  answer.hidden = !(!current && last);
  if (!current && last) answer.textContent = `${t("answer")}: ${last.answers.join(" / ")}`;
  // «Время» when the question ended on time, «Уточните» while the answering team clarifies (the phones say it too).
  const call = quiz.callOut(state, closed.recent(state));
  big.hidden = !call;
  big.textContent = call === "time" ? t("time") : call === "clarify" ? t("clarify") : "";
  big.dataset.call = call || "";
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

// When a question ends, the board shows its answer for a while (a screen opened or reloaded between questions
// shows the board at once).
const closed = new quiz.ClosedWatch();

function renderMedia(current, last) {
  if (!stage) return;
  if (current) stage.render(current.items, `q:${current.number}`);
  else stage.render(last.answer_items, `a:${last.number}`); // the answer's image or sound, at «время» or after "верно"
  stage.setVolume(state.volume ?? 80);
  if (sounds) sounds.setVolume(state.volume ?? 80);
  // The host's play, pause and replay: each new one once (a screen opened later does not replay old ones).
  const media = state.media;
  const count = media ? media.count : 0;
  if (mediaSeen === null) mediaSeen = count;
  if (count > mediaSeen) {
    mediaSeen = count;
    const number = current ? current.number : last.number;
    if (media.question === number) {
      if (media.action === "pause") stage.pauseAll();
      else if (media.action === "replay") stage.replay();
      else stage.playAll();
    }
  }
  // A press during the media stops it, as a press during reading stops reading (SI-3.6); after "неверно" the
  // rest plays on (SI-3.9).
  if (current && projector && state.status !== shownStatus) {
    // The host moved on (reading finished): the rest of a sequence at once.
    if (state.status === "press_window" && shownStatus === "reading") stage.skipToEnd();
    if (state.status === "answering" || current.arbitrating) stage.pauseAll();
    else if (state.status === "reading" && shownStatus === "answering") stage.playAll();
  }
  shownStatus = state.status;
}

function frame() {
  if (!state || state.status === "empty") return;
  const now = client ? client.roomNow() : null;
  const status = $(".q-status");
  if (status) status.textContent = quiz.statusText(state, now);
  const number = $(".q-countdown");
  if (screen === "assistant" || !state.current) {
    quiz.renderBar($(".q-bar"), null);
    if (number) number.textContent = "";
    return;
  }
  const text = $(".q-text");
  // A stake or secret question is not read before its stakes or its handing over: the board says who stakes.
  const waiting = state.current.special && ["staking", "giving"].includes(state.status);
  text.textContent = waiting ? quiz.statusText(state, now) : quiz.revealedText(state.current, state, now);
  text.hidden = Boolean(stage && stage.sequencing); // a sequence shows its texts in their turn
  const timer = quiz.countdown(state, now);
  quiz.renderBar($(".q-bar"), timer);
  if (number) number.textContent = timer ? String(Math.ceil(timer.left / 1000)) : "";
}

const SOUND_OF = { answer_judged: null, time_called: "time", answer_time_expired: "wrong" };

function sound(info) {
  if (!sounds || !info || info.snapshot || !info.event) return;
  const event = info.event;
  const seat = Math.max(0, (state.teams || []).findIndex((team) => team.name === event.team));
  let kind = null;
  if (event.type === "press_received") kind = "press";
  else if (event.type === "answer_judged") kind = event.correct ? "right" : "wrong";
  else kind = SOUND_OF[event.type] || null;
  // The last sound played, on the page (what a test, or a curious technician, can read).
  if (kind && sounds.play(kind, seat)) root.dataset.sound = kind === "press" ? `press:${seat}` : kind;
}

let announceButton = null;

function renderAssistant() {
  const due = $(".q-score-due");
  due.hidden = !state.score_due;
  due.textContent = state.score_due
    ? `${t("score_due")}${state.score_requests.length ? ` — ${state.score_requests.join(", ")}` : ""}`
    : "";
  // One button for the page's life, shown or hidden: a new state (a phone's link measured, a press) must not
  // replace it under the assistant's finger.
  if (!announceButton) {
    announceButton = element("button", "", t("announce_score"));
    announceButton.type = "button";
    announceButton.addEventListener("click", () => client.command("announce_score").catch(() => {}));
    $(".q-actions").append(announceButton);
  }
  announceButton.hidden = !state.can.includes("announce_score");
  announceButton.classList.toggle("primary", Boolean(state.score_due));
  const list = $(".q-announcements");
  list.replaceChildren();
  for (const announcement of [...state.announcements].reverse()) {
    const line = Object.entries(announcement.scores)
      .map(([team, score]) => `${team} ${score}`)
      .join(" · ");
    list.append(element("p", "q-announcement", line));
  }
}

client = quiz.connect((newState, info) => {
  state = newState;
  render();
  sound(info);
});

quiz.animate(() => {
  frame();
  // Only the board has a question to take down once the answer has been shown: the assistant's screen is not
  // redrawn every frame (its «Счёт объявлен» button must stay the same element to be clickable).
  const question = $(".q-question");
  const over = state && ["choosing", "finished"].includes(state.status);
  if (over && question && !question.hidden && !state.current && !closed.recent(state)) render();
});

// USB buzzers that type keys on the projector's machine: forwarded while the buttons are open.
if (config.role === "projector") {
  document.addEventListener("keydown", (event) => {
    if (event.repeat || event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
    if (!state || !state.current || !state.current.open) return;
    client.command("key", { key: event.key }).catch(() => {});
  });
}
