// The room protocol client (docs/protocol.md, version 2): one WebSocket per room, resync by version,
// command ids with retry after a reconnect, and the clock synchronisation the server asks for.

export const PROTOCOL = 2;

/** The client's clock, as the protocol defines it: performance.timeOrigin + performance.now(). */
export function clientNow() {
  return performance.timeOrigin + performance.now();
}

const BACKOFF_START_MS = 250;
const BACKOFF_MAX_MS = 5000;
const TS_SAMPLES = 30;
const MOVED_RETRIES = 5;
const MOVED_RETRY_MS = 300;

let pageSerial = 0;

/**
 * A connection to one live room.
 *
 * Callbacks (all optional): onWelcome(welcome), onState(state, {version, event, type, snapshot}),
 * onStatus("connecting" | "online" | "offline"), onRefused({id, code, message, command}), onAck({id, v}),
 * onError({code, message}) (a link revoked, a protocol error).
 */
export class RoomClient {
  constructor({ roomId, token = "", url = null, watchdogMs = null, ...callbacks }) {
    this.roomId = roomId;
    this.token = token || "";
    this.url = url || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/rooms/${encodeURIComponent(roomId)}`;
    this.callbacks = callbacks;
    this.version = 0;
    this.state = null;
    this.role = null;
    this.name = "";
    this.status = "connecting";
    this.welcomed = false;
    this.socket = null;
    this.attempt = 0;
    this.retryTimer = null;
    this.closedByUs = false;
    // Unacknowledged commands, in the order they were made; resent with the same ids after a reconnect.
    this.pending = new Map();
    this.prefix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}${(pageSerial += 1)}`;
    this.serial = 0;
    // Clock synchronisation: the server's offset estimate (client − server) and round trip, and samples of
    // (client receive time, room time) to map the room's timeline onto this client's clock.
    this.offset = null;
    this.rtt = 0;
    this.tsSamples = [];
    // A link can die without the socket closing (Wi-Fi gone, a phone's radio asleep): with `watchdogMs`, a
    // welcomed socket that hears nothing for that long reports "offline" (the server pings every second), and
    // after four times as long it is closed and a new one opened.
    this.lastHeard = 0;
    this.watchdogMs = watchdogMs;
    if (watchdogMs) setInterval(() => this.watch(), 250);
  }

  watch() {
    if (!this.socket || !this.welcomed) return;
    const silent = performance.now() - this.lastHeard;
    if (silent > 4 * this.watchdogMs) {
      const socket = this.socket;
      this.socket = null;
      this.welcomed = false;
      this.dropOnce();
      socket.close();
      this.scheduleReconnect();
    } else if (silent > this.watchdogMs) {
      this.setStatus("offline");
    }
  }

  /** Commands sent with `once` are not resent after the link comes back: they fail now (a press made while
   * offline must not arrive seconds later as if it were new). */
  dropOnce() {
    for (const [id, entry] of this.pending) {
      if (!entry.once) continue;
      this.pending.delete(id);
      entry.reject({ id, code: "offline" });
    }
  }

  connect() {
    this.closedByUs = false;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) return;
    this.setStatus("connecting");
    this.welcomed = false;
    this.tsSamples = [];
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.addEventListener("open", () => this.sendHello());
    socket.addEventListener("message", (message) => this.receive(message.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.welcomed = false;
      this.dropOnce();
      if (!this.closedByUs) this.scheduleReconnect();
    });
    socket.addEventListener("error", () => {
      // A "close" follows every "error"; reconnecting is handled there.
    });
  }

  close() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  /** Reconnect at once (the page became visible again, the network came back). */
  nudge() {
    if (this.closedByUs) return;
    if (!this.socket) {
      this.attempt = 0;
      this.connect();
    }
  }

  scheduleReconnect() {
    this.setStatus("offline");
    clearTimeout(this.retryTimer);
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** this.attempt);
    const delay = base / 2 + Math.random() * (base / 2);
    this.attempt += 1;
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.callbacks.onStatus?.(status, this);
  }

  rawSend(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  sendHello() {
    const hello = { t: "hello", v: this.version };
    if (this.token) hello.token = this.token;
    this.rawSend(hello);
  }

  /** Send a command; resolves with the ack, rejects with the refusal. Retried after a reconnect until answered,
   * unless `once`: then it is refused at once ({code: "offline"}) when there is no open socket, or when the socket
   * closes before the answer. (A socket that is only silent still sends it: if it arrives late, the room refuses it.) */
  command(type, data = {}, { once = false } = {}) {
    this.serial += 1;
    const id = `${this.prefix}-${this.serial}`;
    const message = { t: "cmd", id, type, data };
    return new Promise((resolve, reject) => {
      if (once && !this.welcomed) {
        reject({ id, code: "offline" });
        return;
      }
      this.pending.set(id, { message, resolve, reject, once });
      if (this.welcomed) this.rawSend(message);
    });
  }

  receive(raw) {
    let message;
    try {
      message = JSON.parse(raw);
    } catch (error) {
      return;
    }
    const received = clientNow();
    this.lastHeard = performance.now();
    if (this.welcomed && this.status !== "online") this.setStatus("online");
    switch (message.t) {
      case "welcome":
        this.onWelcome(message);
        break;
      case "snapshot":
        this.sampleRoomTime(message.ts, received);
        this.version = message.v;
        this.state = message.data;
        this.callbacks.onState?.(this.state, { version: this.version, snapshot: true, client: this });
        break;
      case "event":
        this.onEvent(message, received);
        break;
      case "events":
        // Several events in one frame (a command's events, or what a reconnect missed), in version order.
        for (const event of message.events || []) {
          if (!this.onEvent(event, received)) break;
        }
        break;
      case "ack":
        this.settle(message.id, "resolve", message);
        this.callbacks.onAck?.(message, this);
        break;
      case "refused": {
        const entry = this.pending.get(message.id);
        if (message.code === "moved" && entry && (entry.moves = (entry.moves || 0) + 1) <= MOVED_RETRIES) {
          // The room changed servers while the command was in flight: its fate is unknown, but a command sent
          // again with the same id is answered once (the new owner knows from the log whether it was applied).
          setTimeout(() => this.pending.has(message.id) && this.welcomed && this.rawSend(entry.message), MOVED_RETRY_MS);
          break;
        }
        this.settle(message.id, "reject", message);
        this.callbacks.onRefused?.({ ...message, command: entry?.message }, this);
        break;
      }
      case "failed": {
        // The server failed on the command (a bug, not a refusal): its fate is unknown, so look at the room again.
        const entry = this.pending.get(message.id);
        this.settle(message.id, "reject", message);
        this.callbacks.onRefused?.({ ...message, command: entry?.message }, this);
        this.sendHello();
        break;
      }
      case "ping":
        this.rawSend({ t: "pong", id: message.id, tc: clientNow() });
        break;
      case "offset":
        this.offset = message.offset;
        this.rtt = message.rtt;
        break;
      case "resync":
        this.sendHello();
        break;
      case "presence":
        this.callbacks.onPresence?.(message, this);
        break;
      case "error":
        if (message.code !== "closing") console.warn("room error", message.code, message.message);
        this.callbacks.onError?.(message, this);
        break;
      default:
        break;
    }
  }

  onWelcome(message) {
    if (message.protocol !== PROTOCOL) {
      // A newer server: this page's script is out of date.
      this.close();
      this.callbacks.onOutdated?.(message);
      return;
    }
    this.role = message.role;
    this.name = message.name || "";
    this.welcomed = true;
    this.attempt = 0;
    this.setStatus("online");
    this.callbacks.onWelcome?.(message, this);
    for (const { message: command } of this.pending.values()) this.rawSend(command);
  }

  /** Apply one event; false when it cannot be applied (a gap: the client asked for what is missing). */
  onEvent(message, received) {
    if (message.v <= this.version) return true; // already applied
    if (message.v !== this.version + 1) {
      this.sendHello(); // a gap: ask for what is missing
      return false;
    }
    this.sampleRoomTime(message.ts, received);
    this.version = message.v;
    const data = message.data || {};
    if (data.state) this.state = data.state;
    this.callbacks.onState?.(this.state, {
      version: this.version,
      snapshot: false,
      type: message.type,
      event: data.event,
      client: this,
    });
    return true;
  }

  settle(id, how, message) {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    entry[how](message);
  }

  sampleRoomTime(ts, received) {
    if (typeof ts !== "number") return;
    this.tsSamples.push(ts - received);
    if (this.tsSamples.length > TS_SAMPLES) this.tsSamples.shift();
  }

  /**
   * The room's time now, in ms, or null before the first message.
   *
   * `offset` (client − server) relates this client's clock to the server's; room time runs at a fixed distance
   * from the server's clock. Each message stamped with room time `ts` and received at client time `r` tells
   * that distance up to the message's one-way delay, so the estimate is the least-delayed sample plus half the
   * measured round trip: room = client + max(ts − r) + rtt/2 (the offset itself cancels out of this sum).
   */
  roomNow(now = clientNow()) {
    if (!this.tsSamples.length) return null;
    return now + Math.max(...this.tsSamples) + (this.rtt || 0) / 2;
  }
}
