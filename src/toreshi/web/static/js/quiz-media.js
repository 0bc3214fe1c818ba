// The pack's content items on the «Своя игра» screens, and the projector's sounds.
//
// A question's items come in the room's state (`current.items`, `last.answer_items`): text is shown by the screen
// itself; images fit the screen, video plays on it, audio plays in the background, an HTML item runs in a frame
// with every sandbox restriction (no script, and the item is served with a CSP that forbids any request). Media
// are loaded by their address in the room (`media/{cell}/{part}/{index}`), never by file name. The host's spoken
// lines (`replic`) never reach the projector: the server leaves them out of its state.

import { element } from "./dom.js";

/** The URL of an item's bytes in this room (the page's token, if any, proves the screen's role). */
export function mediaUrl(config, item) {
  const token = config.token ? `?token=${encodeURIComponent(config.token)}` : "";
  return `/quiz/${encodeURIComponent(config.room)}/${item.url}${token}`;
}

/** How long an item without a duration of its own stays before the next one (SIGame moves on after a while). */
const STILL_MS = 5000;
const TEXT_MS_PER_CHAR = 60;
const TEXT_MIN_MS = 2500;

/**
 * The steps of a sequence of items (SIGame plays a question's items in order): an item that waits for its end
 * (`waitForFinish`, the default) closes a step; one that does not is shown together with what follows it.
 */
export function stepsOf(items) {
  const steps = [];
  let step = [];
  for (const item of items) {
    step.push(item);
    if (item.wait) {
      steps.push(step);
      step = [];
    }
  }
  if (step.length) steps.push(step);
  return steps;
}

/** How long a step's last item holds the screen when it does not end by itself (audio and video end). */
export function holdMs(item) {
  if (item.duration_ms > 0) return item.duration_ms;
  if (item.type === "text") return Math.max(TEXT_MIN_MS, (item.text || "").length * TEXT_MS_PER_CHAR);
  return STILL_MS;
}

/**
 * Media of one question part on a screen. `render(items, key)` rebuilds only when `key` changes (a new question, or
 * its answer), so that a redraw never restarts a video. `onFinished()` is called once every item that the press
 * window waits for (SIGame's waitForFinish) has ended.
 *
 * On a screen that plays by itself (the projector), items that form a sequence — a text, then an image, then a
 * sound, each waiting for the one before — are played in order, one step after the other (`sequence`), as SIGame
 * does: the next step comes when the previous one has ended (its sound or video) or held its time, or when the host
 * moves on (`skipToEnd()`). A press pauses the sequence with the media; "неверно" resumes both.
 */
export class MediaStage {
  constructor(container, config, { autoplay = false, preview = false, texts = (key) => key, onFinished = null } = {}) {
    this.container = container;
    this.config = config;
    this.autoplay = autoplay;
    this.preview = preview;
    this.t = texts;
    this.onFinished = onFinished;
    this.key = null;
    this.players = [];
    this.waiting = new Set();
    this.volume = 0.8;
    this.blocked = false;
    this.steps = [];
    this.step = -1;
    this.hold = null;
    this.paused = false;
    this.items = [];
  }

  /** The stage plays a sequence now (and shows its texts itself: the screen's own text line stays empty). */
  get sequencing() {
    return this.steps.length > 1;
  }

  render(items, key) {
    if (key === this.key) return;
    this.key = key;
    this.stopAll();
    this.players = [];
    this.waiting = new Set();
    this.clearHold();
    this.steps = [];
    this.step = -1;
    this.paused = false;
    this.items = items || [];
    this.container.replaceChildren();
    const steps = this.autoplay && !this.preview ? stepsOf(this.items) : [];
    if (steps.length > 1) {
      this.steps = steps;
      this.container.hidden = false;
      this.container.dataset.steps = String(steps.length);
      this.nextStep();
      return;
    }
    delete this.container.dataset.steps;
    delete this.container.dataset.step;
    const shown = this.items.filter((item) => item.type !== "text" || this.preview);
    this.container.hidden = shown.length === 0;
    this.container.dataset.count = String(shown.filter((item) => item.type === "image").length);
    for (const item of shown) this.container.append(this.itemNode(item));
    if (this.autoplay) this.playAll();
  }

  /** The sequence's next step replaces what the screen shows (a sound still playing under it plays on). */
  nextStep() {
    this.clearHold();
    if (this.step + 1 >= this.steps.length) return;
    this.step += 1;
    const key = this.key;
    for (const node of [...this.container.children]) {
      const sound = node.querySelector("audio");
      if (sound && !sound.ended) continue; // a sound under the next items plays on (SIGame's background)
      if (node.matches("video")) node.pause();
      node.remove();
    }
    const step = this.steps[this.step];
    this.container.dataset.step = String(this.step);
    this.container.dataset.count = String(step.filter((item) => item.type === "image").length);
    const fresh = [];
    for (const item of step) {
      const before = this.players.length;
      this.container.append(this.itemNode(item));
      fresh.push(...this.players.slice(before));
    }
    const last = step[step.length - 1];
    const ends = fresh.find((player) => this.waiting.has(player));
    if (this.step === this.steps.length - 1 && !last.wait) {
      // The sequence's end: nothing left to wait for.
    } else if (ends) {
      ends.addEventListener("ended", () => {
        if (this.key === key && this.steps[this.step] === step) this.nextStep();
      });
    } else if (this.step < this.steps.length - 1) {
      this.hold = { left: holdMs(last), since: null, handle: null };
      if (!this.paused) this.runHold();
    } else if (this.waiting.size === 0 && this.onFinished) {
      // The last step held its time: the sequence is over for the press window too.
      this.hold = { left: holdMs(last), since: null, handle: null, finishes: true };
      if (!this.paused) this.runHold();
    }
    if (this.autoplay && !this.paused) for (const player of fresh) this.start(player);
  }

  runHold() {
    const hold = this.hold;
    if (!hold || hold.handle !== null) return;
    hold.since = Date.now();
    hold.handle = setTimeout(() => {
      this.hold = null;
      if (hold.finishes) this.onFinished?.();
      else this.nextStep();
    }, hold.left);
  }

  pauseHold() {
    const hold = this.hold;
    if (!hold || hold.handle === null) return;
    clearTimeout(hold.handle);
    hold.handle = null;
    hold.left = Math.max(0, hold.left - (Date.now() - hold.since));
  }

  clearHold() {
    if (this.hold && this.hold.handle !== null) clearTimeout(this.hold.handle);
    this.hold = null;
  }

  /** The host moved on (reading finished): the rest of the sequence at once, its last step on the screen. */
  skipToEnd() {
    if (!this.sequencing || this.step >= this.steps.length - 1) return;
    for (const player of this.players) player.pause(); // what is skipped stops, its sound too
    this.container.replaceChildren();
    this.step = this.steps.length - 2;
    this.nextStep();
    this.clearHold(); // the press window is open already: nothing to report when the last step has held its time
  }

  itemNode(item) {
    const node = this.itemBody(item);
    if (this.preview && item.duration_ms > 0) {
      // The pack's own duration for the item (SIGame shows it that long), for the host to see.
      const box = element("span", "q-item-with-duration");
      box.append(node, element("span", "tag", this.t("seconds", { value: String(Math.round(item.duration_ms / 1000)) })));
      return box;
    }
    return node;
  }

  itemBody(item) {
    if (item.type === "text") {
      // The host's preview: the spoken line to say, marked as such.
      const line = element("p", `q-item-text placement-${item.placement}`, item.text || "");
      if (item.placement === "replic") line.prepend(element("span", "tag", this.t("spoken")), " ");
      return line;
    }
    if (item.external || !item.url) {
      const note = element("p", "q-item-external", this.t("external_media"));
      if (item.name) note.title = item.name;
      return note;
    }
    const url = mediaUrl(this.config, item);
    if (item.type === "image") {
      const image = element("img", "q-item-image");
      image.src = url;
      image.alt = "";
      image.decoding = "async";
      return image;
    }
    if (item.type === "html") {
      const frame = element("iframe", "q-item-html");
      frame.setAttribute("sandbox", ""); // every restriction: no scripts, no forms, no top navigation
      frame.setAttribute("referrerpolicy", "no-referrer");
      frame.setAttribute("loading", "eager");
      frame.title = this.t("html_item");
      frame.src = url;
      return frame;
    }
    const player = element(item.type === "video" ? "video" : "audio", `q-item-${item.type}`);
    player.src = url;
    player.preload = "auto";
    player.playsInline = true;
    player.volume = this.volume;
    // The host's preview and a spectator's screen play it by hand; only the projector plays it by itself.
    if (this.preview || !this.autoplay) player.controls = true;
    this.players.push(player);
    if (item.wait) {
      this.waiting.add(player);
      player.addEventListener("ended", () => {
        this.waiting.delete(player);
        const more = this.sequencing && this.step < this.steps.length - 1; // the sequence is not over yet
        if (this.waiting.size === 0 && this.onFinished && !more) this.onFinished();
      });
    }
    if (item.type === "audio") {
      const box = element("div", "q-item-audio-box");
      box.append(element("span", "q-item-audio-icon", "♪"), player);
      return box;
    }
    return player;
  }

  start(player) {
    player.play().then(
      () => {
        this.blocked = false;
        this.onSound?.(); // the browser plays sound here: the projector's prompt for a click is not needed
      },
      () => {
        this.blocked = true; // the browser wants a click first; the sound prompt says so
      },
    );
  }

  playAll() {
    this.paused = false;
    for (const player of this.players) {
      if (player.ended || !player.isConnected) continue;
      this.start(player);
    }
    this.runHold();
  }

  pauseAll() {
    this.paused = true;
    for (const player of this.players) player.pause();
    this.pauseHold();
  }

  replay() {
    if (this.sequencing) {
      // The sequence from its first item again.
      const items = this.items;
      const key = this.key;
      this.key = null;
      this.render(items, key);
      return;
    }
    for (const player of this.players) {
      player.currentTime = 0;
      this.waiting.add(player);
    }
    this.playAll();
  }

  stopAll() {
    for (const player of this.players) {
      player.pause();
      player.removeAttribute("src");
      player.load();
    }
  }

  setVolume(level) {
    this.volume = Math.max(0, Math.min(1, level / 100));
    for (const player of this.players) {
      player.volume = this.volume;
      player.muted = level === 0;
    }
  }

  get playing() {
    return this.players.some((player) => !player.paused && !player.ended);
  }
}

/**
 * The projector's sounds, synthesized (no files): a press (a tone per team), «неверно», «время», a right answer.
 * Browsers start audio only after a click on the page: `prompt` is shown until the first click anywhere.
 */
export class Sounds {
  constructor(prompt) {
    this.context = null;
    this.gain = null;
    this.level = 0.8;
    this.prompt = prompt;
    this.onEnabled = null;
    const enable = () => {
      this.enable();
      document.removeEventListener("pointerdown", enable);
      document.removeEventListener("keydown", enable);
    };
    document.addEventListener("pointerdown", enable);
    document.addEventListener("keydown", enable);
  }

  get enabled() {
    return this.context !== null && this.context.state === "running";
  }

  enable() {
    if (!this.context) {
      const AudioContext = window.AudioContext || window.webkitAudioContext;
      if (!AudioContext) return;
      this.context = new AudioContext();
      this.gain = this.context.createGain();
      this.gain.gain.value = this.level;
      this.gain.connect(this.context.destination);
    }
    if (this.context.state === "running") return this.ready();
    this.context.resume().then(
      () => this.context.state === "running" && this.ready(),
      () => {}, // not allowed yet: the prompt stays until a click
    );
  }

  /** Sound is possible now: the prompt asking for a click goes. */
  ready() {
    if (this.prompt) this.prompt.hidden = true;
    this.onEnabled?.();
  }

  setVolume(level) {
    this.level = Math.max(0, Math.min(1, level / 100));
    if (this.gain) this.gain.gain.value = this.level;
  }

  tone(frequency, start, duration, type = "sine", peak = 0.5) {
    const context = this.context;
    const oscillator = context.createOscillator();
    const envelope = context.createGain();
    oscillator.type = type;
    oscillator.frequency.value = frequency;
    const at = context.currentTime + start;
    envelope.gain.setValueAtTime(0.0001, at);
    envelope.gain.exponentialRampToValueAtTime(peak, at + 0.01);
    envelope.gain.exponentialRampToValueAtTime(0.0001, at + duration);
    oscillator.connect(envelope).connect(this.gain);
    oscillator.start(at);
    oscillator.stop(at + duration + 0.05);
  }

  /** `press` (with the team's seat 0–3), `wrong`, `time` or `right`. */
  play(kind, seat = 0) {
    if (!this.enabled || this.level === 0) return false;
    if (kind === "press") {
      // Four teams, four notes a fourth apart: C5, F5, B♭5, E♭6 — told apart without looking.
      const frequency = 523.25 * 2 ** ((5 * seat) / 12);
      this.tone(frequency, 0, 0.35, "triangle", 0.6);
    } else if (kind === "wrong") {
      this.tone(196, 0, 0.45, "sawtooth", 0.35);
      this.tone(147, 0.2, 0.5, "sawtooth", 0.35);
    } else if (kind === "time") {
      for (let i = 0; i < 3; i += 1) this.tone(880, i * 0.22, 0.15, "square", 0.25);
    } else if (kind === "right") {
      [523.25, 659.25, 783.99, 1046.5].forEach((frequency, i) => this.tone(frequency, i * 0.09, 0.3, "sine", 0.5));
    }
    return true;
  }
}

/** A team's lamp on the projector: `pressed`, `answering`, `locked` (already answered), `late` or `off`. */
export function lampOf(state, team) {
  if (team.answering) return "answering";
  if (team.pressed) return "pressed";
  if (team.answered) return "locked";
  if ((state.late || []).some((late) => late.team === team.name)) return "late";
  return "off";
}
