// The host console: the board, the question with its answer, comment and sources (host only), who pressed and
// who was too late, the timers, and every host tool as a button and a key. USB buzzers typing on this machine
// are forwarded as "key" commands (the room maps keys to teams).

import * as quiz from "./quiz-common.js";
import { $, config, element, root, stakesText, t } from "./quiz-common.js";
import { ask, dialogOpen } from "./quiz-dialog.js";
import { MediaStage } from "./quiz-media.js";

let state = null;
let noticeTimer = null;
const preview = new MediaStage($(".q-media"), config, { preview: true, texts: t });
const answerPreview = new MediaStage($(".q-answer-media"), config, { preview: true, texts: t });
let volumeBeforeMute = 80;

for (const button of root.querySelectorAll("[data-media]")) {
  button.addEventListener("click", () => send("media", { action: button.dataset.media }));
}
$(".q-volume").addEventListener("change", (event) => {
  send("media", { action: "volume", level: Number(event.target.value) });
});
$(".q-mute").addEventListener("click", () => {
  const level = state ? state.volume ?? 80 : 80;
  if (level > 0) volumeBeforeMute = level;
  send("media", { action: "volume", level: level > 0 ? 0 : volumeBeforeMute || 80 });
});

function renderMedia(current) {
  // The question's items as the host sees them: spoken lines to say, thumbnails, players with their durations.
  const kind = $(".q-kind");
  kind.hidden = !(current && current.kind);
  const kindName = current && current.kind ? (config.strings[`kind_${current.kind}`] || current.kind) : "";
  const rules = current && current.special ? t("played_sigame") : t("played_ordinary");
  kind.textContent = kindName ? `${t("pack_type")}: ${kindName} — ${rules}` : "";
  if (current) {
    preview.render(current.items, `q:${current.number}`);
    answerPreview.render(current.answer_items, `a:${current.number}`);
  } else {
    preview.render([], null);
    answerPreview.render([], null);
  }
  $(".q-media-buttons").hidden = !state.can.includes("media");
  $(".q-media-wait").hidden = !(current && current.waits && state.status === "reading");
  const volume = state.volume ?? 80;
  const slider = $(".q-volume");
  if (document.activeElement !== slider) slider.value = String(volume);
  $(".q-mute").textContent = volume === 0 ? t("unmute") : t("mute");
}

function send(type, data = {}) {
  return client.command(type, data).catch((refusal) => notice(`${t("refused")} ${refusal.message || refusal.code}`));
}

function notice(text) {
  const node = $(".q-notice");
  node.textContent = text;
  node.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (node.hidden = true), 5000);
}

const ACTIONS = [
  // [command, label key, key hint, data]
  ["draw", "draw", "D"],
  ["finish_reading", "finish_reading", "key_space"],
  ["right", "right", "Enter"],
  ["wrong", "wrong", "−"],
  ["clarify", "clarify", "C"],
  ["extend", "extend", "E"],
  ["cancel_press", "cancel_press", "X"],
  ["replace", "replace", "P"],
  ["reserve", "reserve", "R"],
  ["undo", "undo", "Z"],
  ["restore_theme", "strike_undo", "U"],
  ["announce_score", "announce_score", "A"],
  ["stake", "stake_for", ""],
  ["give", "give", ""],
  ["end_game", "end_game", ""],
];

function act(type) {
  if (!state || !state.can.includes(type)) return;
  if (type === "replace") return replace();
  if (type === "reserve") return reserve();
  if (type === "end_game") return endGame();
  if (type === "undo") return undo();
  if (type === "stake") return stakeFor();
  if (type === "give") return giveSecret();
  send(type);
}

/** Z names what it will flip: the team and the question, and the ruling before and after. */
async function undo() {
  const target = undoTarget();
  if (!target) return;
  const was = target.correct ? t("right") : t("wrong");
  const will = target.correct ? t("wrong") : t("right");
  const text = t("undo_confirm", { question: target.question, team: target.team, was, will });
  if (await ask({ title: t("undo"), text, ok: t("reverse"), cancel: t("cancel") })) send("undo");
}

/** A stake for the team whose turn it is (it told the host aloud): an amount in its bounds, or a pass. */
async function stakeFor() {
  const special = state.current && state.current.special;
  if (!special || !special.turn) return;
  const [least, most] = special.bounds[special.turn] || [1, 1];
  const answer = await ask({
    title: t("stake_for"),
    text: `${t("stake_turn", { team: special.turn })} (${least}–${most}). ${stakesText(state.current)}`,
    choices: [{ value: "stake", label: t("stake") }, ...(special.stakes.length ? [{ value: "pass", label: t("stake_pass") }] : [])],
    fields: [{ name: "amount", label: t("stake_amount"), type: "number", value: least, min: least, max: most }],
    ok: t("stake"),
    cancel: t("cancel"),
  });
  if (!answer) return;
  const amount = answer.choice === "pass" ? null : Number(answer.values.amount);
  send("stake", { team: special.turn, amount });
}

/** The chooser names the team it hands the secret question to; the host enters it. */
async function giveSecret() {
  const others = (state.teams || []).filter((team) => team.name !== state.chooser);
  const answer = await ask({
    title: t("give"),
    text: t("secret_giving", { team: state.chooser }),
    choices: others.map((team) => ({ value: team.name, label: team.name })),
    ok: t("give"),
    cancel: t("cancel"),
  });
  if (answer) send("give", { team: answer.choice });
}

/** What a moment of the game's history is, in the host's words: the last thing that happened before it. */
function pointLabel(point) {
  const event = point.event;
  if (!event) return t("point_start");
  if (["answer_judged", "answer_time_expired", "time_called", "question_replaced", "game_ended"].includes(event.type) && point.last) {
    return t("point_question", { number: point.questions, theme: point.last.theme_name || t("reserve"), value: point.last.value });
  }
  switch (event.type) {
    case "first_chooser_drawn":
    case "theme_struck":
      return t(`point_${event.type}`, { team: event.team });
    case "score_corrected":
      return t("point_score_corrected", { team: event.team, delta: event.delta > 0 ? `+${event.delta}` : String(event.delta) });
    case "decision_reversed":
      return t("point_decision_reversed", { team: event.team });
    case "theme_restored":
    case "theme_announced":
    case "score_announced":
      return t(`point_${event.type}`);
    default:
      return point.last
        ? t("point_question", { number: point.questions, theme: point.last.theme_name || t("reserve"), value: point.last.value })
        : t("point_other");
  }
}

function scoresText(scores) {
  return Object.entries(scores).map(([team, score]) => `${team} ${score}`).join(", ");
}

/** Undo to any point (issue 31): every moment between questions, newest first, each with "undo to here". */
function renderHistory() {
  const host = state.host || {};
  const list = $(".q-history-list");
  const points = host.points || [];
  const may = state.can.includes("undo_to");
  $(".q-history-closed").hidden = !state.closed;
  list.replaceChildren();
  for (const point of [...points].reverse()) {
    const item = element("li", "q-history-point");
    item.dataset.step = String(point.step);
    const label = pointLabel(point);
    item.append(element("span", "q-history-label", label), element("small", "q-history-scores", scoresText(point.scores)));
    if (may) {
      const button = element("button", "link q-undo-to", t("undo_to_here"));
      button.type = "button";
      button.addEventListener("click", () => undoTo(point, label));
      item.append(button);
    }
    list.append(item);
  }
}

async function undoTo(point, label) {
  const text = t("undo_to_confirm", { moment: label, scores: scoresText(point.scores) });
  if (await ask({ title: t("history"), text, ok: t("undo_to_ok"), cancel: t("cancel") })) {
    send("undo_to", { step: point.step });
  }
}

/** End the game before its board is played out: the host confirms the scores it ends with, and may give a reason
 * (kept in the report). Cancelling ends nothing. */
async function endGame() {
  const scores = (state.teams || []).map((team) => `${team.name} ${team.score}`).join(", ");
  const answer = await ask({
    title: t("end_game"),
    text: t("end_game_confirm", { scores }),
    fields: [{ name: "reason", label: t("reason"), maxLength: 500 }],
    ok: t("end_game"),
    cancel: t("cancel"),
  });
  if (answer) send("end_game", { reason: answer.values.reason.trim() });
}

/** The ruling Z reverses: the latest counted answer of the question played last (as the room decides it). */
function undoTarget() {
  const last = state.last;
  if (!last) return null;
  const answers = ((state.host && state.host.answers) || []).filter((a) => a.question === last.number && !a.void);
  return answers.length ? answers[answers.length - 1] : null;
}

/** A question to pick, as the host recognises it: its theme and price, and how it begins (or what it shows). */
function optionLabel(option) {
  const theme = option.theme_name || t("reserve");
  return `${theme} · ${option.value}`;
}

function optionDetail(option) {
  const media = (option.items || []).map((kind) => t(`kind_${kind}`)).join(", ");
  return [option.opening || option.text || "", media].filter(Boolean).join(" · ");
}

/** Replace the question (SI-4.6): by another theme's question of the same value or a reserve one, for the reason
 * the host gives (their own error, or a prompt from the audience). */
async function replace() {
  const current = state.current;
  if (!current) return;
  const options = current.replacement_options || [];
  if (!options.length) return notice(`${t("replace")}: ${t("no_replacement")}`);
  const answer = await ask({
    title: t("replace"),
    legend: t("replace_with"),
    choices: options.map((option, index) => ({ value: String(index), label: optionLabel(option), detail: optionDetail(option) })),
    groups: [
      {
        name: "reason",
        legend: t("replace_reason"),
        options: [
          { value: "host_error", label: t("reason_host_error") },
          { value: "audience_prompt", label: t("reason_audience_prompt") },
        ],
        value: "host_error",
      },
    ],
    ok: t("replace"),
    cancel: t("cancel"),
  });
  if (!answer) return;
  const option = options[Number(answer.choice)];
  const where = option.reserve !== undefined ? { reserve: option.reserve } : { theme: option.theme };
  send("replace", { ...where, reason: answer.values.reason });
}

async function reserve() {
  // Sudden death in a shootout: single reserve questions until the first difference (SI-2.2).
  const spare = (state.host && state.host.reserve) || [];
  if (!spare.length) return notice(t("reserve"));
  const answer = await ask({
    title: t("reserve"),
    legend: t("replace_with"),
    choices: spare.map((question) => ({
      value: String(question.index),
      label: optionLabel(question),
      detail: optionDetail({ ...question, opening: question.text.slice(0, 80) }),
    })),
    ok: t("ask_question"),
    cancel: t("cancel"),
  });
  if (answer) send("reserve", { reserve: Number(answer.choice) });
}

async function correct(team) {
  const answer = await ask({
    title: `${t("correct")}: ${team.name}`,
    fields: [
      { name: "delta", label: t("points"), type: "number", required: true },
      { name: "reason", label: t("reason"), required: true, maxLength: 500 },
    ],
    ok: t("correct"),
    cancel: t("cancel"),
  });
  if (!answer) return;
  const delta = Number.parseInt(answer.values.delta, 10);
  const reason = answer.values.reason.trim();
  if (delta && reason) send("correct", { team: team.name, delta, reason });
}

/** A node's text, written only when it changes (an unchanged write still costs the page a layout). */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

// A new state is drawn in two steps (issue 32): first what tells the host who pressed — the status, the teams'
// cards with their lamps, the presses — in the task that received it; then, after the browser has painted that, the
// rest of the console (the board, the question's media, the actions, the rulings), which costs many times more. A
// press is then on the host's screen as soon as on the projector's, not after the whole console is redrawn.
let restDue = false;
const drawn = { actions: null, grid: null };

function render() {
  if (!state || state.status === "empty") return;
  renderLamps();
  if (restDue) return;
  restDue = true;
  // requestAnimationFrame runs just before the next paint, the timeout's task after it (a hidden page paints
  // nothing and runs no animation frames: there the rest is drawn in the next task).
  if (document.hidden) setTimeout(renderRest, 0);
  else requestAnimationFrame(() => setTimeout(renderRest, 0));
}

function renderLamps() {
  setText($(".q-status"), quiz.statusText(state));
  const lots = state.status === "draw" || state.played === 0 ? quiz.lotsText(state) : "";
  quiz.showSeeded($(".q-lots"), lots, state.lots && state.lots.seed);
  const host = state.host || {};
  const current = state.current;
  const pending = (host.pending || []).map((press) => `${press.team} (${t(`source_${press.source}`)})`);
  const decision = state.decision && current && state.decision.question === current.number ? state.decision : null;
  setText(
    $(".q-presses"),
    pending.length
      ? `${t("presses")}: ${pending.join(" → ")} …`
      : decision
        ? `${t("presses")}: ${decision.order.join(" → ")}`
        : "",
  );
  setText($(".q-late"), state.late.length ? `${t("too_late")}: ${state.late.map((late) => late.team).join(", ")}` : "");
  quiz.renderTeams($(".q-teams"), state, {
    buttons: (card, team) => {
      if (state.status === "draw") {
        const pick = element("button", "", t("chooses"));
        pick.type = "button";
        pick.addEventListener("click", () => send("draw", { team: team.name }));
        card.append(pick);
      }
      const fix = element("button", "link q-correct", "±");
      fix.type = "button";
      fix.title = t("correct");
      fix.addEventListener("click", () => correct(team));
      card.append(fix);
    },
  });
}

function renderRest() {
  restDue = false;
  if (!state || state.status === "empty") return;
  const host = state.host || {};
  const current = state.current;
  $(".q-theme").textContent = current ? current.theme_name || t("reserve") : "";
  $(".q-value").textContent = current ? String(current.value) : "";
  // In the final's striking the board waits for a team to strike, not for a question.
  $(".q-text").textContent = current
    ? current.text
    : state.status === "striking"
      ? t("strike_prompt", { team: state.striker })
      : t("no_question");
  renderMedia(current);
  $(".q-answer").textContent = current ? (current.answers || []).join(" / ") : "";
  $(".q-comment").textContent = current ? current.comment || "—" : "";
  $(".q-sources").textContent = current ? (current.sources || []).join("; ") || "—" : "";
  // The action bar and the board are rebuilt only when what they show changes (most events change neither).
  const actions = state.can.join(" ");
  if (actions !== drawn.actions) {
    drawn.actions = actions;
    renderActions();
  }
  renderHistory();
  const grid = JSON.stringify([state.board, state.status, current ? [current.theme, current.value] : null]);
  if (grid !== drawn.grid) {
    drawn.grid = grid;
    quiz.renderGrid($(".q-grid"), state, {
      onCell: (theme, cell) => send("choose", { theme: theme.index, value: cell.value }),
      onTheme: (theme) => send("strike", { theme: theme.index }),
    });
  }
  const due = $(".q-score-due");
  due.hidden = !state.score_due;
  due.textContent = state.score_due ? t("score_due") : "";
  const last = state.last;
  // The rulings as they stand now: a reversed one shows its new ruling, marked as reversed.
  const rulings = last
    ? (host.answers || [])
        .filter((a) => a.question === last.number && !a.void)
        .map((a) => `${a.team}: ${a.correct ? t("right") : a.timed_out ? t("time") : t("wrong")}${a.reversed ? ` (${t("reversed")})` : ""}`)
    : [];
  $(".q-last").textContent = last
    ? `${last.number}. ${last.theme_name || t("reserve")} ${last.value}: ${last.answers.join(" / ")} (${rulings.join("; ") || t(last.outcome)})`
    : "";
  const keys = Object.entries(host.keys || {}).map(([key, team]) => `${key} → ${team}`);
  $(".q-buzzer-keys").textContent = keys.join(", ") || "—";
  $(".q-projector-keys").checked = Boolean(host.projector_keys);
  renderAudience();
  renderConnections();
}

let shownActions = null;

function renderActions() {
  const bar = $(".q-actions");
  const shown = ACTIONS.filter(([type]) => state.can.includes(type));
  const key = shown.map(([type]) => type).join(" ");
  // The same actions as on screen: the buttons stay, and so does a keyboard user's focus on one of them (a phone
  // connecting or a presence update must not throw the host's focus back to the top of the page).
  if (key === shownActions && bar.childElementCount === shown.length) return;
  const focused = bar.contains(document.activeElement) ? document.activeElement.dataset.action : null;
  shownActions = key;
  bar.replaceChildren();
  for (const [type, label, hint] of shown) {
    const button = element("button", type === "right" ? "primary" : ["wrong", "end_game"].includes(type) ? "danger" : "", t(label));
    button.type = "button";
    button.dataset.action = type;
    if (hint) button.append(element("kbd", "", hint.startsWith("key_") ? t(hint) : hint));
    button.addEventListener("click", () => act(type));
    bar.append(button);
  }
  if (focused) bar.querySelector(`[data-action="${focused}"]`)?.focus();
}

/** Milliseconds as seconds with one decimal, in the page's language ("4,6 с", "4.6s"). */
function seconds(ms) {
  return t("seconds", { value: (ms / 1000).toFixed(1).replace(".", t("decimal")) });
}

function frame() {
  if (!state) return;
  setText($(".q-status"), quiz.statusText(state, client.roomNow()));
  const timer = quiz.countdown(state, client.roomNow());
  quiz.renderBar($(".q-bar"), timer);
  setText($(".q-timer"), timer ? seconds(timer.left) : "");
}

const SHORTCUTS = {
  " ": "finish_reading",
  Enter: "right",
  "+": "right",
  "-": "wrong",
  Backspace: "wrong",
  c: "clarify",
  e: "extend",
  x: "cancel_press",
  p: "replace",
  r: "reserve",
  z: "undo",
  d: "draw",
  a: "announce_score",
  u: "restore_theme",
};

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!state || dialogOpen()) return; // the app's dialog is modal: its own keys (Enter, Escape) are its own
  const keys = (state.host && state.host.keys) || {};
  if (event.key in keys) {
    // A USB buzzer on this machine: the server records the press at the moment it receives it.
    event.preventDefault();
    if (!event.repeat && state.current && state.current.open) send("key", { key: event.key });
    return;
  }
  const command = SHORTCUTS[event.key] || SHORTCUTS[event.key.toLowerCase()];
  if (!command || event.repeat) return;
  // Enter or Space on a focused button (a board cell, a theme to strike) presses that button unless the
  // shortcut applies now: the host chooses questions from the keyboard too.
  const activates = event.key === "Enter" || event.key === " ";
  if (activates && event.target.closest("button, a, summary") && !state.can.includes(command)) return;
  event.preventDefault();
  act(command);
});

// Each phone's and screen's connection, as the server sees it (a "presence" message every second, issue 14 §3):
// live or lost, when it was last heard from, its measured round trip; a team whose link is slower than the cap on
// compensation is marked suspect (its presses are placed as if its link were the cap, issue 13 §1), and one whose
// presses claim more lag than its link has is marked too (issue 26).
let presence = [];

function renderConnections() {
  const table = $(".q-connections tbody");
  if (!table || !state || state.status === "empty") return;
  const links = (state.host && state.host.links) || {};
  const rows = [
    ...(state.teams || []).map((team) => ({
      label: team.name,
      who: presence.find((p) => p.role.startsWith("team:") && p.name === team.name),
      link: links[team.name],
    })),
    { label: t("projector"), who: presence.find((p) => p.role === "projector") },
    { label: t("assistant"), who: presence.find((p) => p.role === "assistant") },
  ];
  table.replaceChildren();
  for (const { label, who, link } of rows) {
    const status = who ? who.status : "never";
    const row = element("tr", `q-link-${status}`);
    row.dataset.status = status;
    const seen = who && status !== "live" ? t("seen_ago", { seconds: Math.round(who.seen_ago_ms / 1000) }) : "";
    const delay = who && who.rtt_ms !== null ? `${who.rtt_ms} ${t("ms")}` : "—";
    const limit = (state.host.arbitration || {}).suspect_rtt_ms;
    const marks = [];
    if (link && link.suspect) marks.push(t("suspect", { rtt: link.rtt_ms, limit }));
    // Its presses claim more lag than its measured link has (issue 26): not believed, and the host is told.
    if (link && link.backdating) marks.push(t("backdating", { count: link.backdated }));
    const suspect = marks.join(" · ");
    row.classList.toggle("q-link-backdating", Boolean(link && link.backdating));
    // The marks go under the name, across the panel's narrow column, not in a fourth column that overflows it.
    const whoCell = element("td", "q-link-who", label);
    whoCell.append(element("div", "q-link-suspect", suspect));
    row.append(
      whoCell,
      element("td", "q-link-status", `${t(`link_${status}`)}${seen ? ` · ${seen}` : ""}`),
      element("td", "q-link-delay", delay),
    );
    table.append(row);
  }
}

// Audience warnings and removals (SI-4.5): a person is warned first; a removal names the warned person.
for (const button of document.querySelectorAll("[data-audience]")) {
  button.addEventListener("click", () => {
    const input = $(".q-audience-form input[name=person]");
    const person = input.value.trim();
    if (!person) return;
    const kind = button.dataset.audience;
    const sent = kind === "warn" ? send("warn", { person }) : send("sanction", { person, scope: kind });
    sent.then(() => (input.value = ""));
  });
}

function renderAudience() {
  const list = $(".q-audience-list");
  if (!list || !state) return;
  const removed = new Map((state.sanctions || []).map((s) => [s.person, s.scope]));
  list.replaceChildren(
    ...(state.warnings || []).map((person) => {
      const scope = removed.get(person);
      const text = scope ? `${person} — ${t(scope === "round" ? "removed_round" : "removed_game")}` : `${person} — ${t("warned")}`;
      return element("li", scope ? "q-removed" : "q-warned", text);
    }),
  );
}

const client = quiz.connect(
  (newState) => {
    state = newState;
    render();
  },
  {
    onPresence: (message) => {
      presence = message.people || [];
      renderConnections();
    },
  },
);
quiz.animate(frame);

// Keyboard buzzers on the projector's machine: its link may press for the teams only while this is on (issue 13 §4).
$(".q-projector-keys").addEventListener("change", (event) => {
  if (!state || !state.host) return;
  send("map_keys", { keys: state.host.keys, buttons: state.host.buttons, projector: event.target.checked });
});
