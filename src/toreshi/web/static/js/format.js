// Pure helpers of the game page: clock digits, and reading a time the arbiter types.

/** Remaining milliseconds as clock digits: "1:05:30", "6:59", and tenths under ten seconds ("0:09.4"). */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < 10000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.ceil(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** The most a dial may show: 24 hours (the server's MAX_CLOCK_MS, toreshi.togyz.match.commands). */
export const MAX_CLOCK_MS = 24 * 60 * 60 * 1000;

/** "5:00", "1:05:30" or "90" (seconds) → milliseconds; null when it cannot be read or is not a possible time:
 * minutes and seconds after a colon below 60 ("999:99" is refused), fractions only in the last part, at most
 * 24 hours. */
export function parseClock(text) {
  const parts = String(text || "").trim().split(":");
  if (!parts.length || parts.length > 3) return null;
  const last = parts.length - 1;
  if (parts.some((part, index) => !(index === last ? /^\d+(\.\d+)?$/ : /^\d+$/).test(part))) return null;
  if (parts.slice(1).some((part) => Number(part) >= 60)) return null;
  const seconds = parts.reduce((total, part) => total * 60 + Number(part), 0);
  const ms = Math.round(seconds * 1000);
  return ms <= MAX_CLOCK_MS ? ms : null;
}

/** A change of a dial as the arbiter typed it, with its sign: "+1:30", "−0:45", "+0:01.5", "+1:00:00". */
export function formatChange(ms) {
  const sign = ms < 0 ? "−" : "+";
  const magnitude = Math.abs(ms);
  const whole = Math.floor(magnitude / 1000);
  const fraction = magnitude % 1000 ? `.${String(magnitude % 1000).padStart(3, "0").replace(/0+$/, "")}` : "";
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = `${String(whole % 60).padStart(2, "0")}${fraction}`;
  return hours ? `${sign}${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${sign}${minutes}:${seconds}`;
}
