// The standings ticker overlay (issue 29): the rows scroll by; they are asked again every half minute.

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
}

async function refresh() {
  try {
    const response = await fetch(root.dataset.source, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok) show(await response.json());
  } catch (error) {
    // offline for a moment: the ticker keeps what it has
  }
}

setInterval(refresh, REFRESH_MS);
