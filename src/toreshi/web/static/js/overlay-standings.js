// The standings ticker overlay (issue 29): rows longer than the bar scroll to their end and back; they are asked
// again every half minute.

import { element } from "./dom.js";

const root = document.getElementById("overlay");
const REFRESH_MS = 30000;

function show(standings) {
  const rows = standings.rows.map((row) => {
    const item = element("li");
    item.append(element("span", "ov-rank", row.rank ? String(row.rank) : ""), " ", element("span", "ov-name", row.name), " ");
    item.append(element("b", "ov-points", row.points));
    return item;
  });
  root.querySelector(".ov-ticker-rows").replaceChildren(...rows);
  fit();
}

/** The scroll, when the rows do not fit: how far (CSS custom properties, no inline style) and how long. */
function fit() {
  const window = root.querySelector(".ov-ticker-window");
  const list = root.querySelector(".ov-ticker-rows");
  const overflow = list.scrollWidth - window.clientWidth;
  root.classList.toggle("scrolling", overflow > 0);
  root.style.setProperty("--ov-shift", `${-Math.max(0, overflow)}px`);
  root.style.setProperty("--ov-duration", `${Math.max(10, Math.round(overflow / 60))}s`);
}

async function refresh() {
  try {
    const response = await fetch(root.dataset.source, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok) show(await response.json());
  } catch (error) {
    // offline for a moment: the ticker keeps what it has
  }
}

fit();
setInterval(refresh, REFRESH_MS);
