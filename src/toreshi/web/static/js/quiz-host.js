// The host console: the board, the question with its answer, comment and sources (host only), who pressed and
// who was too late, the timers, and every host tool as a button and a key. USB buzzers typing on this machine
// are forwarded as "key" commands (the room maps keys to teams).

import {
  $,
  animate,
  connect,
  countdown,
  element,
  renderBar,
  renderGrid,
  renderTeams,
  statusText,
  t,
} from "./quiz-common.js";

let state = null;
let noticeTimer = null;

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
  ["announce_score", "announce_score", "A"],
];

function act(type) {
  if (!state || !state.can.includes(type)) return;
  if (type === "replace") return replace();
  if (type === "reserve") return reserve();
  if (type === "undo" && !confirm(t("undo"))) return;
  send(type);
}

function replace() {
  const current = state.current;
  if (!current) return;
  const options = [
    ...current.replacements.map((theme) => ({ label: state.board[theme].name, data: { theme } })),
    ...current.reserve_same_value.map((reserve) => ({ label: `${t("reserve")} ${reserve + 1}`, data: { reserve } })),
  ];
  if (!options.length) return notice(t("replace"));
  const list = options.map((option, index) => `${index + 1}. ${option.label}`).join("\n");
  const picked = Number.parseInt(prompt(`${t("replace")}\n${list}`, "1") || "", 10);
  if (!picked || picked > options.length) return;
  send("replace", { ...options[picked - 1].data, reason: "host_error" });
}

function reserve() {
  // Sudden death in a shootout: single reserve questions until the first difference (SI-2.2).
  const spare = (state.host && state.host.reserve) || [];
  if (!spare.length) return notice(t("reserve"));
  const list = spare.map((question, index) => `${index + 1}. (${question.value}) ${question.text.slice(0, 60)}`).join("\n");
  const picked = Number.parseInt(prompt(`${t("reserve")}\n${list}`, "1") || "", 10);
  if (!picked || picked > spare.length) return;
  send("reserve", { reserve: spare[picked - 1].index });
}

function correct(team) {
  const delta = Number.parseInt(prompt(`${t("correct")}: ${team.name} (±)`, "") || "", 10);
  if (!delta) return;
  const reason = prompt(t("reason"), "") || "";
  if (reason.trim()) send("correct", { team: team.name, delta, reason });
}

function render() {
  if (!state || state.status === "empty") return;
  $(".q-status").textContent = statusText(state);
  const host = state.host || {};
  const current = state.current;
  $(".q-theme").textContent = current ? current.theme_name || t("reserve") : "";
  $(".q-value").textContent = current ? String(current.value) : "";
  $(".q-text").textContent = current ? current.text : t("no_question");
  $(".q-answer").textContent = current ? (current.answers || []).join(" / ") : "";
  $(".q-comment").textContent = current ? current.comment || "—" : "";
  $(".q-sources").textContent = current ? (current.sources || []).join("; ") || "—" : "";
  const pending = (host.pending || []).map((press) => `${press.team} (${t(`source_${press.source}`)})`);
  const decision = state.decision && current && state.decision.question === current.number ? state.decision : null;
  $(".q-presses").textContent = pending.length
    ? `${t("presses")}: ${pending.join(" → ")} …`
    : decision
      ? `${t("presses")}: ${decision.order.join(" → ")}`
      : "";
  $(".q-late").textContent = state.late.length
    ? `${t("too_late")}: ${state.late.map((late) => late.team).join(", ")}`
    : "";
  renderActions();
  renderGrid($(".q-grid"), state, {
    onCell: (theme, cell) => send("choose", { theme: theme.index, value: cell.value }),
    onTheme: (theme) => send("strike", { theme: theme.index }),
  });
  renderTeams($(".q-teams"), state, {
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
  const due = $(".q-score-due");
  due.hidden = !state.score_due;
  due.textContent = state.score_due ? t("score_due") : "";
  const last = state.last;
  $(".q-last").textContent = last
    ? `${last.number}. ${last.theme_name || t("reserve")} ${last.value}: ${last.answers.join(" / ")} (${t(last.outcome)})`
    : "";
  const keys = Object.entries(host.keys || {}).map(([key, team]) => `${key} → ${team}`);
  $(".q-buzzer-keys").textContent = keys.join(", ") || "—";
  $(".q-projector-keys").checked = Boolean(host.projector_keys);
}

function renderActions() {
  const bar = $(".q-actions");
  bar.replaceChildren();
  for (const [type, label, hint] of ACTIONS) {
    if (!state.can.includes(type)) continue;
    const button = element("button", type === "right" ? "primary" : type === "wrong" ? "danger" : "", t(label));
    button.type = "button";
    button.append(element("kbd", "", hint.startsWith("key_") ? t(hint) : hint));
    button.addEventListener("click", () => act(type));
    bar.append(button);
  }
}

/** Milliseconds as seconds with one decimal, in the page's language ("4,6 с", "4.6s"). */
function seconds(ms) {
  return t("seconds", { value: (ms / 1000).toFixed(1).replace(".", t("decimal")) });
}

function frame() {
  if (!state) return;
  const timer = countdown(state, client.roomNow());
  renderBar($(".q-bar"), timer);
  $(".q-timer").textContent = timer ? seconds(timer.left) : "";
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
};

document.addEventListener("keydown", (event) => {
  if (event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!state) return;
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
// compensation is marked suspect (its presses are placed as if its link were the cap, issue 13 §1).
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
    const suspect = link && link.suspect ? t("suspect", { rtt: link.rtt_ms, limit }) : "";
    row.append(
      element("td", "", label),
      element("td", "q-link-status", `${t(`link_${status}`)}${seen ? ` · ${seen}` : ""}`),
      element("td", "q-link-delay", delay),
      element("td", "q-link-suspect", suspect),
    );
    table.append(row);
  }
}

const client = connect(
  (newState) => {
    state = newState;
    render();
    renderConnections();
  },
  {
    onPresence: (message) => {
      presence = message.people || [];
      renderConnections();
    },
  },
);
animate(frame);

// Keyboard buzzers on the projector's machine: its link may press for the teams only while this is on (issue 13 §4).
$(".q-projector-keys").addEventListener("change", (event) => {
  if (!state || !state.host) return;
  send("map_keys", { keys: state.host.keys, buttons: state.host.buttons, projector: event.target.checked });
});
