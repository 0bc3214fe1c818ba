// The togyz kumalak game page: move list, clocks, players' and arbiter's controls, clock-only mode; the board is
// drawn by togyz-board.js. State comes from the room (docs/protocol.md, "Room kind togyz"); this file renders it
// and sends intents. Every text comes from the page, in its language; a refusal's text is the server's.

import { element, translator, vibrate } from "./dom.js";
import { formatChange, formatClock, MAX_CLOCK_MS, parseClock } from "./format.js";
import { RoomClient } from "./room.js";
import { qrSvg } from "./qr.js";
import { HOLE_NAMES, RESULT_SYMBOLS, SIDES, drawBoard, lastMove, other, remainingTime, showClock } from "./togyz-board.js";

const PLAYERS = new Set(SIDES);

const config = JSON.parse(document.getElementById("game-config").textContent);
const texts = { ...config.strings, ...JSON.parse(document.getElementById("game-texts").textContent) };
const root = document.getElementById("game");
const $ = (selector) => root.querySelector(selector);
const $$ = (selector) => Array.from(root.querySelectorAll(selector));

const t = translator(texts);

// --- connections ---------------------------------------------------------------------------------------------

// A device held by both players (shared board, clock only) carries both secret links: one connection per link.
// A signed-in arbiter on such a device gets one more connection, as the arbiter.
const urlTokens = new URLSearchParams(location.search).getAll("token").filter(Boolean);
const tokens = [...new Set([config.token, ...urlTokens].filter(Boolean))];
const plan = tokens.length ? tokens : [""];
if (tokens.length && config.signed_in && config.mode !== "board") plan.push("");

let state = null;
let version = 0;
let busy = false;
let pickerOpen = false;
let notice = null;
let noticeTimer = null;
let linkRevoked = false;

const clients = plan.map(
  (token) =>
    new RoomClient({
      roomId: config.room,
      token,
      onWelcome: (welcome) => {
        // After a revocation the page reconnects with the old link: "revoked" says more than "refused".
        if (welcome.link === "refused" && !linkRevoked) showLinkState(t("link_refused"));
        render();
      },
      onError: (error) => {
        if (error.code === "link_revoked") {
          linkRevoked = true;
          showLinkState(t("link_revoked"));
        }
      },
      onState: (newState, info) => receive(newState, info),
      onStatus: () => renderConnection(),
      // The server's sentence, in this page's language (a refusal, or "failed" when the server could not tell).
      onRefused: (refusal) => showNotice(refusal.message || refusal.code, "error"),
      onOutdated: () => {
        showNotice(t("outdated"), "error");
        setTimeout(() => location.reload(), 3000);
      },
    }),
);

function receive(newState, info) {
  if (info.snapshot) info.client.snapshotVersion = info.version;
  if (info.version < version) return;
  const changed = info.version > version || info.snapshot;
  const before = state;
  version = info.version;
  state = newState;
  if (changed && before && newState) tellDeclinedOffer(before, newState);
  keepSelection();
  if (info.type === "envelope_opened" && info.event && changed) {
    showNotice(t("sealed_move_was", { hole: info.event.hole }));
  }
  if (changed) render();
}

const roles = () => new Set(clients.map((client) => client.role).filter(Boolean));
// A connection keeps its role while it reconnects: a command made meanwhile waits and is sent after the welcome.
const clientFor = (role) => clients.find((client) => client.role === role);
const mySides = () => SIDES.filter((side) => roles().has(side));
const isArbiter = () => roles().has("arbiter");

// --- time ----------------------------------------------------------------------------------------------------

function roomNow() {
  for (const client of clients) {
    const now = client.roomNow();
    if (now !== null) return now;
  }
  return null;
}

/** A side's remaining time now: the server's value at room time `at`, counted down if that clock runs. */
function remaining(side, at = roomNow()) {
  if (!state || !state.clock) return 0;
  return remainingTime(state, side, at);
}

// --- what each connection may do -----------------------------------------------------------------------------

function offeredBefore(side) {
  return (state.moves || []).some((move) => move.side === side && move.draw_offer);
}

/**
 * The commands a connection may send now: the server's own list for this connection where its message carries
 * one (a snapshot, or an event addressed to this role); otherwise (a public state, whose list is empty) the list
 * is worked out from the state by the same rules (TK-R8, TK-R9, TK-C9, TK-B9, TK-P2). The server still decides.
 */
function commandsFor(client) {
  const can = new Set();
  const role = client.role;
  if (!state || state.kind !== "togyz" || !role || role === "spectator") return can;
  // Each connection keeps the state it received itself: a snapshot's list is addressed to that connection only.
  const own = client.state && client.version === version ? client.state : null;
  const server = own && Array.isArray(own.can) ? own.can : [];
  const fromServer = own !== null && (server.length > 0 || client.snapshotVersion === version);
  const status = state.status;
  const running = status === "running";
  if (fromServer) {
    server.forEach((command) => can.add(command));
    // The interval after a call ends between messages: the call button comes back without one.
    if (PLAYERS.has(role) && !can.has("call_arbiter") && callAllowedAgain(role)) can.add("call_arbiter");
  } else if (PLAYERS.has(role)) {
    const opponent = other(role);
    const pending = running && state.clock.running === role && state.turn === opponent;
    // Once the arbiter adjourns, the only move is the sealed one (TK-A2): nobody plays openly.
    if (running && state.turn === role && state.legal.length && !state.adjournment_requested) can.add("move");
    if (pending) {
      can.add("press");
      if (!offeredBefore(role)) can.add("offer_draw");
    }
    if (running && state.draw_offer === opponent) {
      can.add("accept_draw");
      can.add("decline_draw");
    }
    if (running) can.add("resign");
    if (status === "finished" && state.score_sheets && !state.signed[role]) can.add("sign");
    if (status === "scheduled" || status === "postponed") {
      if (!state.setup?.confirmed?.[role]) can.add("confirm_setup");
      can.add("complain_setup");
    }
    if (running && state.adjournment_requested && state.turn === role && !pending) can.add("adjourn");
    if (state.calls?.enabled && !openCalls().includes(role)) can.add("call_arbiter");
  } else if (role === "arbiter") {
    if (openCalls().length) can.add("acknowledge_call");
    const ready = !state.setup?.required || SIDES.every((side) => state.setup.confirmed[side]);
    if ((status === "scheduled" || status === "postponed") && ready) can.add("start");
    if (running) can.add("pause");
    if (status === "paused") can.add("resume");
    if (running && !state.adjournment_requested) can.add("request_adjournment");
    if (state.adjournment_requested && (running || status === "paused")) can.add("cancel_adjournment");
  }
  // Flags depend on time, which moves between messages.
  if (running && state.clock.flag === "claim") {
    if (PLAYERS.has(role) && remaining(other(role)) <= 0) can.add("claim_flag");
    if (role === "arbiter" && SIDES.some((side) => remaining(side) <= 0)) can.add("claim_flag");
  }
  if (role === "arbiter" && status !== "finished" && SIDES.every((side) => remaining(side) <= 0)) {
    can.add("extend_both_flags");
  }
  return can;
}

const LAG_CAP_MS = 2000;

async function send(client, type, data = {}) {
  if (!client) return;
  if ((type === "move" || type === "press") && client.rtt > 0) {
    // The network's share of this move's time: half the measured round trip. The server forgives it only up to
    // the player's lag quota (docs/realtime.md §3), so reporting it cannot gain more than that.
    data = { ...data, lag_ms: Math.min(LAG_CAP_MS, Math.round(client.rtt / 2)) };
  }
  busy = true;
  render();
  try {
    await client.command(type, data);
    clearErrors(); // the action went through: an earlier error no longer holds
  } catch (refusal) {
    // shown by onRefused
  } finally {
    busy = false;
    render();
  }
}

// --- rendering -----------------------------------------------------------------------------------------------

function bottomSide() {
  if (config.mode === "shared") return state?.turn || "white";
  const sides = mySides();
  return sides.length === 1 ? sides[0] : "white";
}

function movableSides() {
  const can = new Set();
  for (const client of clients) {
    if (PLAYERS.has(client.role) && commandsFor(client).has("move")) can.add(client.role);
  }
  return can;
}

function renderBoard() {
  const board = $("#board");
  const bottom = bottomSide();
  const top = other(bottom);
  const movable = movableSides();
  drawBoard(board, state, {
    t,
    names: state.names,
    bottom,
    last: lastMove(state.moves),
    sealed: state.sealed_move,
    play: (side, hole) =>
      movable.has(side) && state.legal.includes(hole) && !busy ? () => touchHole(side, hole) : null,
    selected: selection ? selection.hole : null,
    landing: selectionPreview(),
  });
  board.classList.toggle("my-move", movable.size > 0);

  for (const [slot, side] of [["top", top], ["bottom", bottom]]) {
    const bar = $(`.player-bar.${slot}`);
    bar.dataset.side = side;
    bar.querySelector(".side-dot").className = `side-dot ${side}`;
    const mine = mySides().includes(side) && config.mode === "board";
    bar.querySelector(".name").textContent = state.names[side];
    bar.querySelector(".side-label").textContent = mine ? `${t(side)} · ${t("you")}` : t(side);
    bar.classList.toggle("to-move", state.status === "running" && state.turn === side);
  }
}

function renderMoves() {
  const body = $("#moves tbody");
  const moves = state.moves || [];
  body.replaceChildren();
  let row = null;
  moves.forEach((move, index) => {
    if (move.side === "white" || !row) {
      row = element("tr");
      row.append(element("th", "", String(Math.floor(index / 2) + 1)), element("td"), element("td"));
      body.append(row);
    }
    const cell = row.children[move.side === "white" ? 1 : 2];
    cell.textContent = `${move.token}${move.draw_offer ? " =" : ""}`;
    if (index === moves.length - 1) cell.classList.add("last");
  });
  $("#moves-empty").hidden = moves.length > 0;
  const scroller = $(".moves-scroll");
  if (scroller) scroller.scrollTop = scroller.scrollHeight;
}

function statusText() {
  switch (state.status) {
    case "running":
      if (state.clock.running && state.clock.running !== state.turn) return `${state.names[state.clock.running]}: ${t("press")}`;
      if ((state.absent || []).includes(state.turn)) return t("not_arrived", { name: state.names[state.turn] });
      if (state.sealed_move) return t("must_play_sealed", { name: state.names[state.turn], hole: state.sealed_move });
      return `${state.names[state.turn]} (${t(state.turn)}) — ${t("to_move")}`;
    case "paused":
      return t("paused");
    case "scheduled":
      // Players are told who starts their clock: the arbiter (TK-B4, TK-C5), never they themselves.
      return mySides().length ? t("scheduled_player") : t("scheduled");
    case "adjourned":
      if (state.envelope) {
        return t("adjourned_by", { number: state.envelope.move_number, name: state.names[state.envelope.sealer] });
      }
      return t("adjourned");
    case "postponed":
      return t("postponed");
    case "finished":
      return t("finished");
    default:
      return t("connecting");
  }
}

function resultText() {
  const result = state.result;
  let headline = t("draw");
  if (result === "1-0" || result === "+-") headline = t("wins", { name: state.names.white });
  if (result === "0-1" || result === "-+") headline = t("wins", { name: state.names.black });
  if (result === "--") headline = t("double_forfeit");
  return { symbol: RESULT_SYMBOLS[result] || result, headline };
}

function renderResult() {
  const banner = $("#result");
  if (!state.result) {
    banner.hidden = true;
    return;
  }
  const { symbol, headline } = resultText();
  banner.hidden = false;
  banner.querySelector(".result-symbol").textContent = symbol;
  banner.querySelector(".result-headline").textContent = headline;
  const how = state.termination ? t(`term_${state.termination}`) : "";
  banner.querySelector(".result-how").textContent = [how, endingNote()].filter(Boolean).join(" — ");
  const signed = SIDES.filter((side) => state.signed[side]).map((side) => `${state.names[side]} ✓`);
  banner.querySelector(".result-signed").textContent = signed.length ? `${t("signed")}: ${signed.join(", ")}` : "";
}

/** How the game ended, beyond the termination, with the players' names (the arbiters' reason as they typed it). */
function endingNote() {
  const side = state.note_side;
  const name = side ? state.names[side] : "";
  switch (state.note) {
    case "board":
      return t("note_board", {
        white: state.names.white,
        black: state.names.black,
        white_kazan: state.kazans.white,
        black_kazan: state.kazans.black,
      });
    case "resigned":
      return t("note_resigned", { name });
    case "flag":
      return t("note_flag", { name, kazan: state.kazans[side] });
    case "flag_81":
      return t("note_flag_81", { name });
    case "absent":
      return side ? t("note_absent", { name }) : t("note_absent_both");
    case "sealed_move_illegal":
      return t("note_sealed_move_illegal", { name, hole: state.sealed_move ?? "" });
    case "arbiter":
      return state.reason || "";
    default:
      return "";
  }
}

const PLAYER_BUTTONS = [
  "confirm_setup", "complain_setup", "adjourn", "press", "accept_draw", "decline_draw", "offer_draw", "claim_flag", "sign",
  "take_back", "resign", "call_arbiter",
];

/** The player buttons this device needs now: one per player connection and allowed command, in a fixed order. */
function playerButtons() {
  const players = SIDES.map((side) => clientFor(side)).filter(Boolean);
  const wanted = [];
  for (const command of PLAYER_BUTTONS) {
    for (const client of players) {
      if (commandsFor(client).has(command)) wanted.push({ client, command, named: players.length > 1 });
    }
  }
  return wanted;
}

let shownButtons = "";

function renderPlayerButtons() {
  const box = $("#player-buttons");
  const patterns = $("#player-commands");
  if (!box || !patterns) return;
  const wanted = playerButtons();
  const key = JSON.stringify([busy, wanted.map(({ client, command }) => `${client.role}:${command}`)]);
  if (key === shownButtons) return;
  shownButtons = key;
  box.replaceChildren(
    ...wanted.map(({ client, command, named }) => {
      const button = patterns.content.querySelector(`[data-player-cmd="${command}"]`).cloneNode(true);
      if (named) button.textContent = `${button.textContent} · ${state.names[client.role]}`;
      button.disabled = busy;
      button.addEventListener("click", () => {
        if (command === "resign" && !window.confirm(t("confirm_resign"))) return;
        if (command === "adjourn") {
          openSealDialog(client);
          return;
        }
        send(client, command);
      });
      return button;
    }),
  );
}

function renderControls() {
  for (const button of $$("[data-cmd]")) {
    // The arbiter's buttons (the players' are made by renderPlayerButtons).
    button.hidden = !commandsFor(clientFor("arbiter") || {}).has(button.dataset.cmd);
    button.disabled = busy;
  }
  renderPlayerButtons();
  const toggle = $("#offer-toggle");
  const movers = movableSides();
  const canOffer = [...movers].some((side) => !offeredBefore(side));
  if (toggle) {
    toggle.hidden = !canOffer;
    if (!canOffer) $("#offer-with-move").checked = false;
  }
  const drawNote = $("#draw-note");
  if (!drawNote) {
    // clock-only mode has no draw controls
  } else if (state.draw_offer && state.status === "running") {
    drawNote.hidden = false;
    drawNote.textContent = t("draw_offered_by", { name: state.names[state.draw_offer] });
  } else {
    drawNote.hidden = true;
  }
  const role = $("#role");
  const sides = mySides();
  if (isArbiter() && !sides.length) role.textContent = t("arbiter");
  else if (sides.length === 1) role.textContent = `${t(sides[0])} · ${state.names[sides[0]]}`;
  else if (sides.length === 2) role.textContent = `${t("white")} + ${t("black")}`;
  else role.textContent = t("spectator");
  $$("[data-status-only]").forEach((node) => {
    node.hidden = !node.dataset.statusOnly.split(" ").includes(state.status);
  });
  // The late arrival is recorded only while a player is absent; a flag is announced in claim mode, or (automatic
  // mode) only once a dial shows zero and the clock has not recorded it yet.
  const absent = state.absent || [];
  $$("[data-needs-absent]").forEach((node) => {
    node.hidden = !absent.length;
    const select = node.querySelector("select[name=side]");
    if (absent.length && select && !absent.includes(select.value)) select.value = absent[0];
  });
  $$("[data-needs-flag]").forEach((node) => {
    node.hidden = !(state.clock.flag === "claim" || SIDES.some((side) => remaining(side) <= 0));
  });
  renderSetup();
  renderSelection();
  // A device with nothing for a player to do (the arbiter's, a spectator's) shows no empty actions box.
  for (const box of $$(".controls")) {
    const shown = [...box.children].some(
      (child) => child.tagName !== "TEMPLATE" && !child.hidden && (child.children.length || child.textContent.trim()),
    );
    box.hidden = !shown;
  }
  const panel = $("#console");
  const consoleUseful = $$("#console [data-cmd], #console [data-status-only], #console .console-links").some(
    (node) => !node.hidden,
  );
  panel.hidden = !isArbiter() || !consoleUseful;
}

// --- the set-up check before the start (TK-B5) --------------------------------------------------------------

function setupMarks() {
  const confirmed = state.setup?.confirmed || {};
  return {
    white: state.names.white,
    black: state.names.black,
    white_mark: confirmed.white ? "✓" : "…",
    black_mark: confirmed.black ? "✓" : "…",
  };
}

function renderSetup() {
  const before = state.status === "scheduled" || state.status === "postponed";
  const note = $("#setup-note");
  const mine = mySides();
  if (note) {
    note.hidden = !before || !mine.length;
    if (!note.hidden) {
      const waiting = mine.some((side) => !state.setup?.confirmed?.[side]);
      note.textContent = [t("setup_status", setupMarks()), waiting ? t("setup_waiting") : ""].filter(Boolean).join(" — ");
    }
  }
  const panel = $("#console-setup");
  if (panel) {
    const complaints = state.setup?.complaints || [];
    const confirmed = SIDES.some((side) => state.setup?.confirmed?.[side]);
    const parts = [t("setup_status", setupMarks())];
    if (complaints.length && !confirmed) parts.push(t("setup_complaint", { name: state.names[complaints.at(-1)] }));
    panel.textContent = parts.join(" — ");
  }
}

// --- touching a hole does not oblige a move (TK-B6) ---------------------------------------------------------
// A tap selects a hole and previews the move the rules would make (the server's `previews`: where the last
// kumalak lands, the capture, a tuzdyk); a second tap on it, or the play button, plays it. A player may choose
// one-tap play instead (kept in this browser).

let selection = null;
const ONE_TAP_KEY = "toreshi.togyz.one-tap";

function oneTap() {
  try {
    return localStorage.getItem(ONE_TAP_KEY) === "1";
  } catch (error) {
    return false;
  }
}

function touchHole(side, hole) {
  if (oneTap() || (selection && selection.side === side && selection.hole === hole)) {
    selection = null;
    playHole(side, hole);
    return;
  }
  selection = { side, hole };
  render();
}

/** The selection stays only while the same player may still play that hole. */
function keepSelection() {
  if (!selection || !state) return;
  const stillMine = state.status === "running" && state.turn === selection.side && (state.legal || []).includes(selection.hole);
  if (!stillMine || !movableSides().has(selection.side)) selection = null;
}

/** The hole where the selected move's last kumalak lands ({side, hole}), for the board to mark. */
function selectionPreview() {
  const preview = selection && state.previews ? state.previews[String(selection.hole)] : null;
  return preview ? { side: preview.side, hole: preview.landing } : null;
}

function previewText(hole) {
  const preview = state.previews?.[String(hole)];
  if (!preview) return "";
  const lands = t("preview_lands", { hole, side: state.names[preview.side], landing: preview.landing });
  let effect = t("preview_quiet");
  if (preview.tuzdyk) effect = t("preview_tuzdyk", { kazan: preview.kazan });
  else if (preview.captured) effect = t("preview_capture", { count: preview.captured, kazan: preview.kazan });
  return `${lands}: ${effect}`;
}

function renderSelection() {
  const box = $("#selection");
  const toggle = $("#one-tap-toggle");
  if (toggle) {
    toggle.hidden = !(config.mode !== "clock" && mySides().length && state.status !== "finished");
    $("#one-tap").checked = oneTap();
  }
  if (!box) return;
  box.hidden = !selection;
  if (!selection) return;
  $("#preview").textContent = previewText(selection.hole);
  const button = $("#play-selected");
  button.textContent = t("play_selected_press", { hole: selection.hole });
  button.disabled = busy;
}

let wasMyMove = false;

/** The tab's title and a short vibration tell a player that it is their move. */
function announceTurn() {
  const mine = movableSides().size > 0 && mySides().length === 1;
  if (!baseTitle) baseTitle = `${state.names.white} – ${state.names.black} · ${document.title}`;
  document.title = mine ? `● ${baseTitle}` : baseTitle;
  if (mine && !wasMyMove) vibrate(120);
  wasMyMove = mine;
}
let baseTitle = "";

function renderConnection() {
  const banner = $("#connection");
  const statuses = clients.map((client) => client.status);
  if (statuses.includes("offline")) {
    banner.hidden = false;
    banner.textContent = t("offline");
    banner.className = "connection offline";
  } else if (statuses.includes("connecting")) {
    banner.hidden = false;
    banner.textContent = t("connecting");
    banner.className = "connection connecting";
  } else {
    banner.hidden = true;
  }
  root.classList.toggle("is-offline", statuses.includes("offline"));
}

function renderClockFace() {
  for (const area of $$(".tap")) {
    const side = area.dataset.side;
    const client = clientFor(side);
    const can = client ? commandsFor(client) : new Set();
    area.querySelector(".tap-name").textContent = `${state.names[side]} · ${t(side)}`;
    const active = can.has("press") || can.has("move");
    area.classList.toggle("active", active && !busy);
    area.classList.toggle("running", state.status === "running" && state.clock.running === side);
    let hint = "";
    if (can.has("press")) hint = t("tap_to_press");
    else if (can.has("move")) hint = pickerOpen === side ? t("choose_hole") : t("tap_to_move");
    area.querySelector(".tap-hint").textContent = hint;
    const picker = area.querySelector(".picker");
    picker.hidden = pickerOpen !== side || !can.has("move");
    if (!picker.hidden) {
      picker.replaceChildren(
        ...Array.from({ length: 9 }, (_, index) => {
          const hole = index + 1;
          const button = element("button", "pick", String(hole));
          button.type = "button";
          button.disabled = !state.legal.includes(hole) || busy;
          button.addEventListener("click", (click) => {
            click.stopPropagation();
            pickerOpen = false;
            playHole(side, hole);
          });
          return button;
        }),
      );
    }
  }
}

function render() {
  renderConnection();
  if (!state || state.kind !== "togyz" || !state.board) return;
  root.classList.add("ready");
  $("#status").textContent = statusText();
  if (config.mode === "clock") renderClockFace();
  else {
    renderBoard();
    renderMoves();
  }
  renderResult();
  renderControls();
  renderAdjournment();
  renderCalls();
  announceTurn();
  announceMove();
  tick();
}

// A screen reader hears what changed on the board (the status line, a live region too, says whose turn it is):
// the move just played and a fallen flag. Nothing is said for what the page shows when it opens.
let announcedPly = undefined;
const announcedFlags = new Set();
function announce(text) {
  $("#board-news").textContent = text;
}
function announceMove() {
  const last = lastMove(state.moves);
  const ply = last ? last.ply : null;
  if (announcedPly !== undefined && ply !== announcedPly && last) {
    announce(t("news_move", { name: state.names[last.side], side: t(last.side), move: last.token }));
  }
  announcedPly = ply;
}
function announceFlags(at) {
  for (const side of SIDES) {
    const fallen = state.status === "running" && remaining(side, at) <= 0;
    if (fallen && !announcedFlags.has(side)) announce(t("news_flag", { name: state.names[side], side: t(side) }));
    if (fallen) announcedFlags.add(side);
    else announcedFlags.delete(side);
  }
}

function tick() {
  if (!state || !state.clock) return;
  const at = roomNow();
  for (const node of $$("[data-clock]")) {
    const side = node.closest("[data-side]")?.dataset.side;
    if (!side) continue;
    showClock(node, state, side, remaining(side, at));
  }
  announceFlags(at);
  // A flag that can be claimed appears without any message from the server; so does the call button again.
  if (state.status === "running" && SIDES.some((side) => remaining(side, at) <= 0)) renderControls();
  else if (mySides().some((side) => callAllowedAgain(side))) renderControls();
}

// --- actions -------------------------------------------------------------------------------------------------

function playHole(side, hole) {
  const client = clientFor(side);
  const data = { hole };
  const offer = $("#offer-with-move");
  if (offer?.checked && !offeredBefore(side)) data.offer_draw = true;
  if (offer) offer.checked = false;
  send(client, "move", data);
}

/** A player whose draw offer was answered "no" (declined, or by the opponent's move) is told so. */
function tellDeclinedOffer(before, after) {
  const offerer = before.draw_offer;
  if (!offerer || after.draw_offer || after.result || before.status !== "running") return;
  if (!mySides().includes(offerer)) return;
  showNotice(t("draw_declined", { name: after.names[other(offerer)] }));
}

/** A link that no longer opens the game: said once, and kept on screen (the page goes on as a spectator's). */
function showLinkState(message) {
  const banner = $("#link-state");
  banner.textContent = message;
  banner.hidden = false;
}

function showNotice(message, kind = "info") {
  notice = $("#notice");
  notice.textContent = message;
  notice.className = `notice ${kind}`;
  notice.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    notice.hidden = true;
  }, 6000);
}

/** A console field that cannot be sent: marked, focused, and the notice names it. Nothing is sent (null). */
function fieldError(formId, name, message) {
  clearFieldErrors(formId);
  const input = $(`${formId} [name="${name}"]`);
  input?.setAttribute("aria-invalid", "true");
  input?.focus();
  showNotice(message, "error");
  return null;
}

function clearFieldErrors(formId) {
  for (const input of $$(`${formId} [aria-invalid]`)) input.removeAttribute("aria-invalid");
}

/** After an action that went through: no error notice and no field marked wrong is left from before. */
function clearErrors() {
  for (const input of $$("#console [aria-invalid]")) input.removeAttribute("aria-invalid");
  if (notice && !notice.hidden && notice.classList.contains("error")) {
    notice.hidden = true;
    clearTimeout(noticeTimer);
  }
}

/** What an arbiter's button sends: the start names the players not there yet (TK-C6). */
function commandData(command) {
  if (command !== "start") return {};
  const absent = $$('#start-absent input[name="absent"]:checked').map((box) => box.value);
  return absent.length ? { absent } : {};
}

function bindControls() {
  for (const button of $$("[data-cmd]")) {
    button.addEventListener("click", () => send(clientFor("arbiter"), button.dataset.cmd, commandData(button.dataset.cmd)));
  }
  const arbiterForm = (id, build, confirmKey = null) =>
    onFormSubmit(id, build, (form, data) => {
      if (confirmKey && !window.confirm(t(confirmKey))) return;
      send(clientFor("arbiter"), form.dataset.command, data);
    });
  // Clock changes show the resulting times and are sent only once confirmed; taking more than is left is not sent
  // (the server refuses it too).
  confirmedForm("#add-time", (form) => {
    const typed = String(form.get("seconds") ?? "").trim();
    const seconds = Number(typed);
    if (!typed || !Number.isInteger(seconds) || seconds === 0 || Math.abs(seconds) * 1000 > MAX_CLOCK_MS) {
      return fieldError("#add-time", "seconds", t("bad_seconds", { field: t("seconds_field") }));
    }
    const side = form.get("side");
    const ms = seconds * 1000;
    const left = remaining(side);
    // From the time as the dial shows it (whole seconds from ten seconds up), so that before and after differ by
    // exactly what was typed; the change itself is shown as typed.
    const shown = left >= 10000 ? Math.ceil(left / 1000) * 1000 : left;
    const values = { name: state.names[side], change: formatChange(ms), before: clockText(shown), after: clockText(shown + ms) };
    if (left + ms < 0) return fieldError("#add-time", "seconds", t("time_below_zero", values));
    if (shown + ms > MAX_CLOCK_MS) return fieldError("#add-time", "seconds", t("time_above_limit", values));
    const reason = String(form.get("reason") ?? "").trim();
    const limit = state.clock?.correction_limit;
    if (limit !== null && limit !== undefined && Math.abs(ms) > limit) {
      // A tournament's departure (issue 29): the level shown, the reason written, the confirmation sent.
      const over = { ...values, limit: clockText(limit), level: t("level_warning") };
      if (!reason) return fieldError("#add-time", "reason", t("correction_needs_reason", over));
      clearErrors(); // the reason now written: the notice asking for it no longer holds
      return { data: { side, ms, reason, confirmed: true }, question: t("add_time_departure", over) };
    }
    clearFieldErrors("#add-time");
    return { data: reason ? { side, ms, reason } : { side, ms }, question: t("add_time_confirm", values) };
  });
  confirmedForm("#set-clocks", (form) => {
    const times = {};
    for (const side of SIDES) {
      times[side] = parseClock(form.get(side));
      if (times[side] === null) {
        const value = String(form.get(side) ?? "").trim().slice(0, 20);
        return fieldError("#set-clocks", side, t("bad_clock_time", { field: t(side), value }));
      }
    }
    clearFieldErrors("#set-clocks");
    const question = t("set_clocks_confirm", {
      white: state.names.white,
      black: state.names.black,
      white_before: clockText(remaining("white")),
      white_after: clockText(times.white),
      black_before: clockText(remaining("black")),
      black_after: clockText(times.black),
    });
    return { data: { white_ms: times.white, black_ms: times.black }, question };
  });
  arbiterForm("#claim-flag", (form) => ({ side: form.get("side") }));
  arbiterForm("#arrive", (form) => ({ side: form.get("side") }));
  arbiterForm("#decide", (form) => ({ result: form.get("result"), reason: String(form.get("reason") || "") }), "confirm_decide");
  $("#play-selected")?.addEventListener("click", () => {
    if (!selection) return;
    const { side, hole } = selection;
    selection = null;
    playHole(side, hole);
  });
  $("#clear-selection")?.addEventListener("click", () => {
    selection = null;
    render();
  });
  $("#one-tap")?.addEventListener("change", (change) => {
    try {
      localStorage.setItem(ONE_TAP_KEY, change.target.checked ? "1" : "");
    } catch (error) {
      // private mode: the setting lasts as long as the page
    }
    selection = null;
    render();
  });
  $("#copy-fen")?.addEventListener("click", async () => {
    if (!state?.fen) return;
    try {
      await navigator.clipboard.writeText(state.fen);
      showNotice(`${t("copied")}: ${state.fen}`);
    } catch (error) {
      showNotice(state.fen);
    }
  });
  const fill = $("#fill-clocks");
  fill?.addEventListener("click", () => {
    const form = $("#set-clocks");
    form.elements.white.value = formatClock(remaining("white")).replace(/\.\d$/, "");
    form.elements.black.value = formatClock(remaining("black")).replace(/\.\d$/, "");
  });
  for (const area of $$(".tap")) {
    area.addEventListener("click", () => tapArea(area.dataset.side));
    area.addEventListener("keydown", (key) => {
      if (key.key === "Enter" || key.key === " ") {
        key.preventDefault();
        tapArea(area.dataset.side);
      }
    });
  }
  $("#swap-sides")?.addEventListener("click", () => {
    root.classList.toggle("swapped");
    localStorage.setItem("toreshi.clock.swapped", root.classList.contains("swapped") ? "1" : "");
  });
  if (localStorage.getItem("toreshi.clock.swapped")) root.classList.add("swapped");
  // Keys 1–9 play that hole for the one player on this device; space presses the clock.
  document.addEventListener("keydown", (key) => {
    if (!state || key.altKey || key.ctrlKey || key.metaKey || key.target.closest("input, select, textarea")) return;
    const movers = [...movableSides()];
    if (/^[1-9]$/.test(key.key) && movers.length === 1 && config.mode !== "clock") {
      const hole = Number(key.key);
      if (state.legal.includes(hole) && !busy) touchHole(movers[0], hole);
    } else if ((key.key === "Enter" || key.key === " ") && ownControl(key.target)) {
      // A focused control (a button, a link, another hole than the one chosen) answers Enter and Space itself:
      // a keyboard user Tabs to "offer a draw" or to another hole and presses Enter for that, not for the move.
    } else if ((key.key === "Enter" || key.key === " ") && selection && config.mode !== "clock") {
      key.preventDefault();
      const { side, hole } = selection;
      selection = null;
      playHole(side, hole);
    } else if (key.key === "Escape" && selection) {
      selection = null;
      render();
    } else if (key.key === " " && config.mode !== "clock") {
      const pressing = clients.filter((client) => commandsFor(client).has("press"));
      if (pressing.length !== 1) return;
      key.preventDefault();
      send(pressing[0], "press");
    }
  });
  $("#fullscreen")?.addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen?.().catch(() => {});
  });
}

/** Whether Enter and Space on `target` belong to the control it is in: any button, link or summary but the chosen
 * hole (Enter there plays the move chosen) and a board hole when nothing is chosen (Space presses the clock). */
function ownControl(target) {
  const control = target.closest?.("button, a[href], summary");
  if (!control) return false;
  if (!control.classList.contains("hole")) return true;
  if (!selection) return false;
  return !(control.dataset.side === selection.side && control.dataset.hole === String(selection.hole));
}

/** Clock digits for a confirmation: whole seconds, a sign when below zero. */
function clockText(ms) {
  return ms < 0 ? `−${formatClock(-ms)}` : formatClock(ms);
}

/** Binds a form of the page, if it has one: on submit, `build` reads its fields (null: nothing to send) and
 * `submitted(form, built)` acts on what it built; the form itself is never posted. */
function onFormSubmit(id, build, submitted) {
  const form = $(id);
  if (!form) return;
  form.addEventListener("submit", (submit) => {
    submit.preventDefault();
    const built = build(new FormData(form));
    if (built) submitted(form, built);
  });
}

/** An arbiter's form whose change is confirmed in a dialog that shows the resulting times. */
function confirmedForm(id, build) {
  onFormSubmit(id, build, (form, built) =>
    askConfirmation(built.question).then((yes) => {
      if (yes) send(clientFor("arbiter"), form.dataset.command, built.data);
    }),
  );
}

function askConfirmation(question) {
  const dialog = $("#confirm-dialog");
  if (!dialog || typeof dialog.showModal !== "function") return Promise.resolve(window.confirm(question));
  $("#confirm-text").textContent = question;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

function tapArea(side) {
  if (!state) return;
  const client = clientFor(side);
  if (!client || busy) return;
  const can = commandsFor(client);
  if (can.has("press")) {
    pickerOpen = false;
    send(client, "press");
  } else if (can.has("move")) {
    pickerOpen = pickerOpen === side ? false : side;
    render();
  }
}

async function keepAwake() {
  try {
    await navigator.wakeLock?.request("screen");
  } catch (error) {
    // not allowed here; the screen may dim
  }
}

// --- adjournment: the sealed move (TK-A2..A4) --------------------------------------------------------------
// The player to move picks the hole here; the salt is made in this browser, so the server receives the hole
// and the salt only to compute the seal (a SHA-256 commitment) and keeps only that. The envelope code (hole +
// salt) stays with the sealer — on screen and in this device's storage — until the arbiter types it to resume.

const ENVELOPE_KEY = `toreshi.envelope.${config.room}`;
const SEAL_TAG = "toreshi/togyz/sealed-move";
let myEnvelope = loadEnvelope();
let sealingClient = null;
let sealChoice = null;
let codeShown = false;
let checkedCode = "";

function loadEnvelope() {
  try {
    const stored = JSON.parse(localStorage.getItem(ENVELOPE_KEY) || "null");
    return stored && typeof stored.code === "string" ? stored : null;
  } catch (error) {
    return null;
  }
}

function keepEnvelope(envelope) {
  myEnvelope = envelope;
  try {
    if (envelope) localStorage.setItem(ENVELOPE_KEY, JSON.stringify(envelope));
    else localStorage.removeItem(ENVELOPE_KEY);
  } catch (error) {
    // private mode: the code is kept on screen only
  }
}

/** 128 random bits as 32 hex digits, from the browser's cryptographic generator. */
function newSalt() {
  if (!window.crypto?.getRandomValues) return null;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The envelope code: the hole, then the salt in groups of four (e.g. "7-0f3a-9c1b-…"). */
function envelopeCode(hole, salt) {
  return `${hole}-${salt.match(/.{1,4}/g).join("-")}`;
}

/** {hole, salt} from a typed or pasted code (spaces, dashes and case do not matter), or null. */
function parseEnvelopeCode(text) {
  const cleaned = String(text || "").toLowerCase().replace(/[\s\-–·.]/g, "");
  const match = /^([1-9])([0-9a-f]{32})$/.exec(cleaned);
  return match ? { hole: Number(match[1]), salt: match[2] } : null;
}

/** The seal the server computes (toreshi/togyz/match/sealed.py), where this page may use WebCrypto (https, localhost). */
async function sealOf(hole, salt) {
  if (!window.crypto?.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${SEAL_TAG}:${hole}:${salt}`));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Used time in whole seconds, "h:mm:ss" or "m:ss" (no tenths: it is written in the envelope's record). */
function formatUsed(ms) {
  const total = Math.floor(Math.max(0, ms) / 1000);
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const tail = `${String(seconds).padStart(2, "0")}`;
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${tail}` : `${minutes}:${tail}`;
}

function groupedSeal(commitment) {
  return commitment.match(/.{1,8}/g).join(" ");
}

function openSealDialog(client) {
  const dialog = $("#seal-dialog");
  if (!dialog || !state) return;
  sealingClient = client;
  sealChoice = null;
  renderSealHoles();
  if (typeof dialog.showModal === "function") dialog.showModal();
  else dialog.setAttribute("open", "");
}

function renderSealHoles() {
  const box = $("#seal-holes");
  box.replaceChildren(
    ...Array.from({ length: 9 }, (_, index) => {
      const hole = index + 1;
      const button = element("button", "seal-hole", String(hole));
      button.type = "button";
      button.disabled = !state.legal.includes(hole);
      button.setAttribute("aria-pressed", String(sealChoice === hole));
      button.title = HOLE_NAMES[index];
      button.addEventListener("click", () => {
        sealChoice = hole;
        renderSealHoles();
      });
      return button;
    }),
  );
  $("#seal-confirm").disabled = sealChoice === null;
}

async function seal(client, hole) {
  const salt = newSalt();
  if (!salt) {
    showNotice(t("no_random"), "error");
    return;
  }
  const code = envelopeCode(hole, salt);
  // Kept before sending: a page closed right after sealing must not lose the only copy.
  keepEnvelope({ code, side: client.role, ply: (state.moves || []).length });
  codeShown = mySides().length === 1; // on a shared device the opponent might be looking
  busy = true;
  render();
  try {
    await client.command("adjourn", { hole, salt });
  } catch (refusal) {
    keepEnvelope(null);
    codeShown = false;
  } finally {
    busy = false;
    render();
  }
}

function renderAdjournment() {
  const note = $("#adjournment");
  const requested = state.adjournment_requested && state.status !== "finished";
  note.hidden = !requested;
  if (requested) note.textContent = t("adjourning", { name: state.names[state.turn] });

  // This device's envelope code is forgotten once the sealed move has been played or the game is over.
  if (myEnvelope && state.status !== "adjourned" && (state.status === "finished" || (state.moves || []).length > myEnvelope.ply)) {
    keepEnvelope(null);
  }
  const panel = $("#envelope");
  const envelope = state.envelope;
  panel.hidden = !(envelope && state.status === "adjourned");
  if (panel.hidden) return;
  // What the envelope records besides the seal (TK-A3): each player's used time, to set on the clock again.
  panel.querySelector(".envelope-what").textContent = t("time_used", {
    white: state.names.white,
    white_time: formatUsed(envelope.used.white),
    black: state.names.black,
    black_time: formatUsed(envelope.used.black),
  });
  $("#envelope-commitment").textContent = groupedSeal(envelope.commitment);
  const mine = myEnvelope && myEnvelope.side === envelope.sealer && mySides().includes(envelope.sealer);
  $("#envelope-mine").hidden = !mine;
  $("#envelope-code-box").hidden = !(mine && codeShown);
  $("#show-code").setAttribute("aria-expanded", String(Boolean(mine && codeShown)));
  $("#show-code").textContent = t(codeShown ? "hide_code" : "show_code");
  if (!mine) return;
  const printable = myEnvelope.code.toUpperCase();
  const code = $("#envelope-code");
  if (code.textContent !== printable) {
    code.textContent = printable;
    // The QR code is drawn here too: the code never travels to the server.
    const qr = qrSvg(printable);
    $("#envelope-qr").replaceChildren(...(qr ? [qr] : []));
  }
  if (checkedCode !== `${myEnvelope.code}|${envelope.commitment}`) {
    checkedCode = `${myEnvelope.code}|${envelope.commitment}`;
    const { hole, salt } = parseEnvelopeCode(myEnvelope.code) || {};
    sealOf(hole, salt).then((computed) => {
      if (computed === null) return;
      const check = $("#envelope-check");
      check.textContent = computed === envelope.commitment ? `✓ ${t("code_matches")}` : t("wrong_code");
      check.classList.toggle("error", computed !== envelope.commitment);
    });
  }
}

function bindAdjournment() {
  const dialog = $("#seal-dialog");
  dialog?.addEventListener("close", () => {
    const client = sealingClient;
    sealingClient = null;
    if (dialog.returnValue === "seal" && client && sealChoice !== null) seal(client, sealChoice);
  });
  $("#show-code")?.addEventListener("click", () => {
    codeShown = !codeShown;
    render();
  });
  $("#copy-code")?.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(myEnvelope.code.toUpperCase());
      showNotice(t("copied"));
    } catch (error) {
      window.getSelection()?.selectAllChildren($("#envelope-code"));
    }
  });
  const form = $("#open-envelope");
  form?.addEventListener("submit", async (submit) => {
    submit.preventDefault();
    const opened = parseEnvelopeCode(form.elements.code.value);
    if (!opened) {
      showNotice(t("bad_code"), "error");
      return;
    }
    const computed = await sealOf(opened.hole, opened.salt);
    if (computed !== null && state?.envelope && computed !== state.envelope.commitment) {
      showNotice(t("wrong_code"), "error");
      return;
    }
    await send(clientFor("arbiter"), "open_envelope", opened);
    if (state?.status !== "adjourned") form.reset();
  });
}

// --- calls to the arbiter ------------------------------------------------------------------------------------

function openCalls() {
  return state?.calls?.open || [];
}

/** Whether `side` called before, that call is answered, and the interval since it has passed (room time). */
function callAllowedAgain(side) {
  const calls = state?.calls;
  const last = calls?.log?.findLast((entry) => entry.side === side);
  if (!last || last.answered_at === null) return false;
  const now = roomNow() ?? calls.now;
  return now - last.at >= calls.interval;
}

/** A call's time on this device's clock: the log keeps the server's room time, which `roomNow` follows. */
function callTime(at) {
  const now = roomNow() ?? state.calls.now;
  const wall = new Date(Date.now() - Math.max(0, now - at));
  return wall.toLocaleTimeString(document.documentElement.lang || undefined, { hour: "2-digit", minute: "2-digit" });
}

let shownCalls = "";

function renderCalls() {
  const calls = state.calls || { open: [], log: [] };
  const arbiter = clientFor("arbiter");
  const key = JSON.stringify([calls.log, Boolean(arbiter), busy]);
  if (key === shownCalls) return;
  shownCalls = key;
  const box = $("#calls");
  box.hidden = !calls.open.length;
  box.replaceChildren(
    ...calls.open.map((side) => {
      const call = calls.log.findLast((entry) => entry.side === side && entry.answered_at === null);
      const line = element("p", "call-line", t("call_open", { name: state.names[side], time: callTime(call.at) }));
      if (!arbiter) return line;
      const answer = element("button", "primary", t("answer_call", { name: state.names[side] }));
      answer.type = "button";
      answer.dataset.answerCall = side;
      answer.disabled = busy;
      answer.addEventListener("click", () => send(arbiter, "acknowledge_call", { side }));
      const row = element("div", "call-open");
      row.append(line, answer);
      return row;
    }),
  );
  const log = $("#call-log");
  log.hidden = !calls.log.length;
  log.querySelector("ol").replaceChildren(
    ...calls.log.map((entry) => {
      const name = state.names[entry.side];
      const text = entry.answered_at === null
        ? t("call_log_open", { time: callTime(entry.at), name })
        : t("call_log_answered", { time: callTime(entry.at), name, answered: callTime(entry.answered_at) });
      return element("li", "", text);
    }),
  );
}

// --- start ---------------------------------------------------------------------------------------------------

bindControls();
bindAdjournment();
renderConnection();
clients.forEach((client) => client.connect());
setInterval(tick, 100);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") {
    clients.forEach((client) => client.nudge());
    if (config.mode === "clock") keepAwake();
  }
});
window.addEventListener("online", () => clients.forEach((client) => client.nudge()));
if (config.mode === "clock") keepAwake();
window.toreshiGame = { clients, get state() { return state; } };
