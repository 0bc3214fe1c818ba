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
