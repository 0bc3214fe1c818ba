// Shared pieces of the «Своя игра» screens: the room connection, texts, timers and the board/team renderers.
// State comes from the room (docs/protocol.md, "Room kind quiz"); these helpers only render it.

import { element, translator } from "./dom.js";
import { RoomClient } from "./room.js";

export const config = JSON.parse(document.getElementById("quiz-config").textContent);
const texts = config.strings || {};
export const t = translator(texts);
export { element };
export const root = document.getElementById("quiz");
export const $ = (selector) => root.querySelector(selector);

/** Connect to the room; `onState(state, info, client)` is called for every snapshot and event. */
export function connect(onState, extra = {}) {
  const client = new RoomClient({
    roomId: config.room,
    token: config.token || "",
    onState: (state, info) => onState(state, info, client),
    onStatus: (status) => showConnection(status),
    onOutdated: () => setTimeout(() => location.reload(), 2000),
    onError: (error, room) => {
      if (error.code !== "link_revoked") return;
      // The host reissued this link: nothing more to do here with it (the new code opens the game again).
      room.close();
      showConnection("revoked", error.message);
    },
    ...extra,
  });
  client.connect();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") client.nudge();
  });
  window.addEventListener("online", () => client.nudge());
  return client;
}

export function showConnection(status, message = "") {
  root.dataset.connection = status;
  const node = $(".q-connection");
  if (!node) return;
  node.dataset.status = status;
  const texts = { online: "●", offline: t("no_connection"), revoked: message };
  node.textContent = texts[status] ?? t("connecting");
  node.title = status === "online" ? t("online") : node.textContent;
}

/** The status line: whose turn it is, what the game waits for (as of `roomNow`, when the screen knows it). */
export function statusText(state, roomNow = null) {
  if (!state || state.status === "empty") return "";
  const text = phaseText(state, roomNow);
  return state.game === "shootout" && state.status !== "finished" ? `${t("shootout")} · ${text}` : text;
}

/** Simulated reading is over at `roomNow` (the state still says "reading": no event marks its end). */
export function readingOver(state, roomNow) {
  const current = state && state.current;
  return Boolean(
    current && state.status === "reading" && current.reading.ends !== null && current.reading.since !== null &&
      roomNow !== null && roomNow >= current.reading.ends,
  );
}

function phaseText(state, roomNow) {
  const current = state.current;
  if (readingOver(state, roomNow)) return t("window");
  switch (state.status) {
    case "draw":
      return t("waiting_draw");
    case "striking":
      return `${t("final_strike")} — ${state.striker} ${t("strikes")}`;
    case "choosing":
      if (state.sudden_death) return t("sudden_death");
      return state.chooser ? `${state.chooser} ${t("chooses")}` : t("no_question");
    case "reading":
      return current && current.waits && current.reading.since !== null ? t("media_playing") : t("reading");
    case "press_window":
      return t("window");
    case "staking":
      return `${t("special_stake")}: ${[stakesText(current), t("stake_turn", { team: current.special.turn })].filter(Boolean).join(" — ")}`;
    case "giving":
      return `${t("special_secret")}: ${t("secret_giving", { team: state.chooser })}`;
    case "answering":
      if (current && current.special && current.special.solo) {
        return `${t(`special_${current.special.kind}`)}: ${t("answers_alone", { team: current.special.solo, price: current.special.price })}`;
      }
      return `${t("answering")}: ${current ? current.answering : ""}`;
    case "finished":
      return t("finished");
    default:
      return state.status;
  }
}

/** The lot's seed, published on every screen while the game waits for the draw (SI-3.2, issue 29). */
export function seedText(state) {
  return state && state.status === "draw" && state.lots ? `${t("lots_seed")}: ${state.lots.seed}` : "";
}

/** Shows ``text`` in ``node`` with the seed in it marked as no language (it is letters, not words: a reader's
 * translator and the page's language checks leave it alone). */
export function showSeeded(node, text, seed) {
  if (!node || node.textContent === text) return;
  const at = seed ? text.indexOf(seed) : -1;
  if (at < 0) {
    node.textContent = text;
    return;
  }
  const code = document.createElement("code");
  code.lang = "zxx";
  code.translate = false;
  code.textContent = seed;
  node.replaceChildren(text.slice(0, at), code, text.slice(at + seed.length));
}

/** The lot for the order of choice as the host reads it: the order the seed draws, and an override if any. */
export function lotsText(state) {
  const lots = state && state.lots;
  if (!lots || !lots.order) return "";
  const line = `${t("lots_seed")} ${lots.seed} · ${t("lots_order")}: ${lots.order.join(" → ")}`;
  return lots.overridden ? `${line} · ${t("lots_overridden", { team: state.first_chooser })}` : line;
}

/** A stake question's stakes so far: "Алтын 2, Барыс 9, Сұңқар pass". */
export function stakesText(current) {
  const stakes = (current && current.special && current.special.stakes) || [];
  // Before the first stake there is nothing to list: the caller leaves the part out rather than show a dash.
  return stakes.map((s) => `${s.team} ${s.amount === null ? t("stake_pass") : s.amount}`).join(", ");
}

/** The theme grid: one row per theme, one cell per value; struck themes greyed (final), played cells empty. */
export function renderGrid(container, state, { onCell = null, onTheme = null } = {}) {
  // A host walking the grid with Tab keeps their place when a new state redraws it.
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.key : null;
  container.replaceChildren();
  if (!state.board) return;
  const current = state.current;
  for (const theme of state.board) {
    const row = element("div", "q-row");
    if (theme.struck) row.classList.add("struck");
    const name = element(onTheme && state.status === "striking" && !theme.struck ? "button" : "div", "q-theme-name", theme.name);
    if (onTheme && state.status === "striking" && !theme.struck) {
      name.type = "button";
      name.dataset.key = `theme:${theme.index}`;
      name.addEventListener("click", () => onTheme(theme));
    }
    row.append(name);
    for (const cell of theme.cells) {
      const playing = current && current.theme === theme.index && current.value === cell.value;
      const clickable = onCell && cell.open && state.status === "choosing";
      const node = element(clickable ? "button" : "div", "q-cell", cell.open || playing ? String(cell.value) : "");
      if (playing) node.classList.add("playing");
      if (!cell.open && !playing) node.classList.add("used");
      if (cell.empty) node.classList.add("empty");
      if (cell.price !== undefined && (cell.open || playing)) node.append(element("small", "q-price", String(cell.price)));
      if (clickable) {
        node.type = "button";
        node.dataset.key = `${theme.index}:${cell.value}`;
        node.addEventListener("click", () => onCell(theme, cell));
      }
      row.append(node);
    }
    container.append(row);
  }
  if (focused) container.querySelector(`[data-key="${focused}"]`)?.focus();
}

/** Teams with their scores; the answering team highlighted, teams that answered dimmed. */
export function renderTeams(container, state, { buttons = null } = {}) {
  container.replaceChildren();
  for (const team of state.teams || []) {
    const card = element("div", "q-team");
    if (team.answering) card.classList.add("answering");
    if (team.answered) card.classList.add("answered");
    if (team.pressed) card.classList.add("pressed");
    if (state.chooser === team.name && state.status === "choosing") card.classList.add("chooser");
    card.append(element("span", "q-team-title", team.name), element("span", "q-team-points", String(team.score)));
    if (buttons) buttons(card, team);
    container.append(card);
  }
}

/** Visible text of the question: simulated reading reveals it progressively, the host's reading shows it all. */
export function revealedText(current, state, roomNow) {
  if (!current) return "";
  const reading = current.reading;
  if (reading.total_ms === null || reading.done) return current.text;
  let read = reading.read_ms;
  if (reading.since !== null && state.status === "reading" && roomNow !== null) read += Math.max(0, roomNow - reading.since);
  const chars = Math.floor((read * reading.chars_per_second) / 1000);
  return current.text.slice(0, Math.min(current.text.length, chars));
}

/** The running countdown, if any: {kind: "window" | "answer", left, total} in ms. */
export function countdown(state, roomNow) {
  const current = state && state.current;
  if (!current || roomNow === null) return null;
  if (state.status === "answering" && current.answer_deadline !== null) {
    return { kind: "answer", left: Math.max(0, current.answer_deadline - roomNow), total: state.timers.answer_ms };
  }
  let closes = current.window.closes;
  if (state.status === "reading" && current.reading.ends !== null && current.reading.since !== null) {
    if (roomNow >= current.reading.ends) closes = current.reading.ends + state.timers.press_window_ms;
  }
  if ((state.status === "press_window" || closes !== null) && closes !== null) {
    return { kind: "window", left: Math.max(0, closes - roomNow), total: state.timers.press_window_ms };
  }
  return null;
}

export function renderBar(bar, timer) {
  if (!bar) return;
  if (!timer) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  bar.dataset.kind = timer.kind;
  const fill = bar.firstElementChild;
  fill.style.width = `${Math.min(100, (100 * timer.left) / timer.total)}%`;
}

/** Run `frame()` on every animation frame (timers, simulated reading). */
export function animate(frame) {
  const loop = () => {
    frame();
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
}

/**
 * When the last question ended, as this screen saw it: a screen opened or reloaded between questions has seen
 * nothing end. `recent(state)` is true for `ms` after a question ended while no new one is in play — the time the
 * projector shows the answer (also after the last question, before the end of the game).
 */
export class ClosedWatch {
  constructor(ms = 8000) {
    this.ms = ms;
    this.played = null;
    this.at = 0;
  }

  note(state) {
    if (this.played === null) this.played = state.played;
    if (state.played !== this.played) {
      this.played = state.played;
      this.at = Date.now();
    }
  }

  recent(state) {
    return !state.current && state.played > 0 && ["choosing", "finished"].includes(state.status) &&
      Date.now() - this.at < this.ms;
  }
}

/**
 * What the projector calls out now, for the phones to say as well: "clarify" («Уточните») while the answering team
 * is asked to clarify, "time" («Время») just after a question ended with nobody answering right in time.
 */
export function callOut(state, justClosed) {
  if (!state) return null;
  if (state.current && state.current.clarifying && state.status === "answering") return "clarify";
  if (!state.current && justClosed && state.last && state.last.outcome === "time") return "time";
  return null;
}
