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

/** "5:00", "1:05:30" or "90" (seconds) → milliseconds; null when it cannot be read. */
export function parseClock(text) {
  const parts = String(text || "").trim().split(":");
  if (!parts.length || parts.length > 3 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part))) return null;
  const seconds = parts.reduce((total, part) => total * 60 + Number(part), 0);
  return Math.round(seconds * 1000);
}
