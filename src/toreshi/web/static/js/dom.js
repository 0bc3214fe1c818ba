// Small DOM and text helpers shared by every page's script.

/** A new element with an optional class and text (text, never HTML: names come from users). */
export function element(tag, className = "", text = null) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== null) node.textContent = text;
  return node;
}

/** A translator over the page's texts: `t("key", {name: "Асқар"})` fills `{name}` placeholders. */
export function translator(texts) {
  return (key, values = {}) => (texts[key] || key).replace(/\{(\w+)\}/g, (_, name) => values[name] ?? "");
}

/** A short vibration, where the browser allows one: Chromium refuses (and writes an error to the console) until the
 * reader has touched the page, and some browsers have no vibration at all. Then nothing happens, silently. */
export function vibrate(pattern) {
  if (typeof navigator.vibrate !== "function") return false;
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return false;
  try {
    return navigator.vibrate(pattern);
  } catch {
    return false;
  }
}
