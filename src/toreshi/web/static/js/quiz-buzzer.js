// The team buzzer on a phone: one big button with clear states (locked, open, pressed, your turn, answered),
// vibration and a short tone. A press carries the moment of the touch on this phone's clock ("tc",
// performance.timeOrigin + event.timeStamp); the server places it with this connection's clock sync.

import { $, callOut, ClosedWatch, config, connect, element, root, seedText, showSeeded, stakesText, t } from "./quiz-common.js";
import { vibrate } from "./dom.js";

const SYNC_FIRST_MS = 1500; // after the join burst of 8 pings, 100 ms apart
const SYNC_EVERY_MS = 20000;
const STATES = ["locked", "open", "pressed", "your_turn", "answered"];

let state = null;
let shown = "locked";
const closed = new ClosedWatch();
let callTimer = null;
let optimistic = null; // "pressed" between the touch and the server's answer
const button = document.getElementById("buzz");

function buzzerState() {
  if (optimistic && state && state.buzzer === "open") return optimistic;
  return state ? state.buzzer || "locked" : "locked";
}

function render() {
  const now = buzzerState();
  for (const name of STATES) root.classList.toggle(`state-${name}`, name === now);
  button.textContent = t(now);
  button.disabled = now !== "open";
  showSeeded($(".q-lots"), seedText(state), state && state.lots && state.lots.seed);
  if (now !== shown) {
    // A screen reader hears the new state at once (the button's own text changes too, but is not a live region).
    $(".q-buzzer-news").textContent = t(now);
    if (now === "your_turn") signal([120, 60, 120], 880);
    else if (now === "open" && shown !== "pressed") signal([30], 0);
    shown = now;
  }
  if (!state || state.status === "empty") return;
  renderCall();
  renderSpecial();
  const me = (state.teams || []).find((team) => team.name === state.you);
  $(".q-team-name").textContent = state.you || "";
  $(".q-team-score").textContent = me ? String(me.score) : "";
  const current = state.current;
  const info = $(".q-buzzer-info");
  if (current) info.textContent = `${current.theme_name || t("reserve")} · ${current.value}`;
  else if (state.status === "finished") info.textContent = t("finished");
  else if (state.status === "striking") {
    // The final's striking: the striking team is told it is its turn (the host strikes the theme it names).
    info.textContent = state.striker === state.you ? t("your_strike") : `${state.striker} ${t("strikes")}`;
  } else info.textContent = state.chooser && state.status === "choosing" ? `${state.chooser} ${t("chooses")}` : "";
}

// What the projector calls out, the phones say too: «Уточните» to the team clarifying (and everyone), «Время»
// for as long as the projector shows it after the question.
function renderCall() {
  closed.note(state);
  const recent = closed.recent(state);
  const call = callOut(state, recent);
  const node = $(".q-call");
  node.hidden = !call;
  node.textContent = call === "time" ? t("time") : call === "clarify" ? t("clarify") : "";
  node.dataset.call = call || "";
  clearTimeout(callTimer);
  if (recent) callTimer = setTimeout(render, closed.ms - (Date.now() - closed.at) + 50);
}

// SIGame's special questions (a game setting): the team stakes in its turn, the chooser hands a secret question.
function renderSpecial() {
  const current = state.current;
  const special = current && current.special;
  const box = $(".q-special");
  const form = $(".q-stake-form");
  const give = $(".q-give");
  box.hidden = !special;
  if (!special) return;
  const myTurn = state.status === "staking" && special.turn === state.you;
  const giving = state.status === "giving" && state.chooser === state.you;
  let text = `${t(`special_${special.kind}`)}`;
  if (state.status === "staking") text += `: ${[stakesText(current), myTurn ? t("your_stake_turn") : t("stake_turn", { team: special.turn })].filter(Boolean).join(" — ")}`;
  else if (state.status === "giving") text += `: ${giving ? t("give_it") : t("secret_giving", { team: state.chooser })}`;
  else if (special.solo) text += `: ${t("answers_alone", { team: special.solo, price: special.price })}`;
  $(".q-special-text").textContent = text;
  form.hidden = !myTurn;
  if (myTurn) {
    const [least, most] = special.bounds[state.you] || [current.value, current.value];
    const input = form.elements.amount;
    input.min = String(least);
    input.max = String(most);
    if (!input.value || Number(input.value) < least || Number(input.value) > most) input.value = String(least);
    $(".q-stake-pass").hidden = !special.stakes.length; // the chooser opens the stakes
  }
  give.hidden = !giving;
  give.replaceChildren();
  if (giving) {
    for (const team of state.teams || []) {
      if (team.name === state.you) continue;
      const choice = element("button", "", t("give_to", { team: team.name }));
      choice.type = "button";
      choice.addEventListener("click", () => client.command("give", { team: team.name }).catch((r) => tell(r.message || "")));
      give.append(choice);
    }
  }
}

$(".q-stake-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const amount = Number(event.target.elements.amount.value);
  client.command("stake", { amount }).catch((refusal) => tell(refusal.message || ""));
});
$(".q-stake-pass").addEventListener("click", () => {
  client.command("stake", { amount: null }).catch((refusal) => tell(refusal.message || ""));
});

let audio = null;
function signal(pattern, frequency) {
  vibrate(pattern);
  if (!frequency) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.2, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.25);
  } catch (error) {
    // no sound on this device: the vibration and the colour still tell
  }
}

// «нет связи» within 2 s of losing the link: the server pings a phone every second, so 1.5 s of silence is a lost
// link (issue 14 §3). A press is never queued: without a socket it is not sent; on a socket that has gone silent it
// is sent, and is dropped (and the phone says so) if the socket closes before the answer; one that arrives more
// than a second after its touch is refused by the room.
const WATCHDOG_MS = 1500;

const client = connect(
  (newState) => {
    state = newState;
    if (optimistic && state.buzzer !== "open") optimistic = null;
    render();
  },
  { watchdogMs: WATCHDOG_MS },
);

function tell(text) {
  $(".q-buzzer-info").textContent = text;
}

function press(event) {
  event.preventDefault();
  if (buzzerState() !== "open") return;
  // The touch's own timestamp, on the same clock as the pings' "tc" (docs/protocol.md).
  const tc = performance.timeOrigin + event.timeStamp;
  if (!client.welcomed) {
    // No socket at all: nothing is queued (a press must not arrive seconds later as if it were new).
    tell(`${t("no_connection")}: ${t("press_not_sent")}`);
    return;
  }
  optimistic = "pressed";
  vibrate(40);
  render();
  client.command("press", { tc }, { once: true }).catch((refusal) => {
    optimistic = null;
    render();
    tell(refusal.code === "offline" ? `${t("no_connection")}: ${t("press_not_sent")}` : refusal.message || "");
  });
}

button.addEventListener("pointerdown", press);
button.addEventListener("keydown", (event) => {
  if (event.key === " " || event.key === "Enter") press(event);
});
$(".q-score-request").addEventListener("click", () => client.command("request_score").catch(() => {}));

// Tell the room this phone's measured link (offset and round trips), so that its presses are placed fairly.
function sync() {
  if (client.status === "online") client.command("sync").catch(() => {});
}
setTimeout(sync, SYNC_FIRST_MS);
setInterval(sync, SYNC_EVERY_MS);
client.callbacks.onWelcome = () => setTimeout(sync, SYNC_FIRST_MS);

// Keep the screen on during the game where the browser allows it.
async function keepAwake() {
  try {
    if (navigator.wakeLock && document.visibilityState === "visible") await navigator.wakeLock.request("screen");
  } catch (error) {
    // not allowed here: the phone may dim, the connection survives
  }
}
document.addEventListener("visibilitychange", keepAwake);
keepAwake();
render();
if (config.token) localStorage.setItem(`quiz:${config.room}`, config.token);
