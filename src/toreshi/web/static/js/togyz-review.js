// The engine's review on the replay page: asks /games/{id}/review.json until the review is ready (the server
// computes it in a worker process and says how far it has got), then draws White's chances after every move as
// an SVG curve (no library) and lists the worst moves with the better move and its line. A click on the curve or
// on a move shows that position on the board.

import { element } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 140;
const PAD = 6; // the dots at the ends and at 0 % or 100 % stay inside the chart

function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

function percent(value) {
  return `${Math.round(value * 100)}%`;
}

/** Draw the curve into `box`; returns a function that marks the ply shown on the board. */
function drawCurve(box, review, t, show) {
  const points = review.expectation;
  const last = Math.max(1, points.length - 1);
  const x = (ply) => PAD + (ply / last) * (WIDTH - 2 * PAD);
  const y = (value) => PAD + (1 - value) * (HEIGHT - 2 * PAD);
  const chart = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "review-chart",
    "aria-label": t("curve_label"),
  });
  chart.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "review-black" }));
  const line = points.map((value, ply) => `${x(ply).toFixed(1)},${y(value).toFixed(1)}`);
  chart.append(svg("polygon", { points: `${x(0)},${HEIGHT} ${line.join(" ")} ${x(last)},${HEIGHT}`, class: "review-white" }));
  chart.append(svg("line", { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: "review-middle" }));
  chart.append(svg("polyline", { points: line.join(" "), class: "review-line" }));
  for (const move of review.worst) {
    chart.append(svg("circle", { cx: x(move.ply), cy: y(points[move.ply]), r: 5, class: `review-mistake ${move.side}` }));
  }
  const marker = svg("line", { x1: 0, y1: 0, x2: 0, y2: HEIGHT, class: "review-marker" });
  chart.append(marker);
  chart.addEventListener("click", (click) => {
    const bounds = chart.getBoundingClientRect();
    const fraction = ((click.clientX - bounds.left) / bounds.width * WIDTH - PAD) / (WIDTH - 2 * PAD);
    show(Math.round(Math.max(0, Math.min(1, fraction)) * last));
  });
  box.replaceChildren(chart);
  box.dataset.points = String(points.length);
  return (ply) => {
    marker.setAttribute("x1", x(ply).toFixed(1));
    marker.setAttribute("x2", x(ply).toFixed(1));
  };
}

function listWorst(list, review, t, show) {
  list.replaceChildren();
  for (const move of review.worst) {
    const item = element("li", `review-move ${move.side}`);
    const jump = element("button", "link", t("worst_move", { number: move.move, side: t(move.side), token: move.token }));
    jump.type = "button";
    jump.addEventListener("click", () => show(move.ply - 1));
    item.append(jump, " — ", element("span", "review-loss", t("loss", { percent: percent(move.expectation_loss) })));
    if (move.best) item.append(element("div", "review-better", t("better", { best: move.best })));
    if (move.line.length > 1) item.append(element("div", "review-line-text", t("line", { line: move.line.join(" ") })));
    list.append(item);
  }
}

/** Start the review panel of the replay page; `show(ply)` moves the board, `onShow(callback)` follows it. */
export function startReview(root, { url, t, show, current, onReady = () => {} }) {
  const status = root.querySelector("#review-status");
  let mark = null;
  async function ask() {
    let answer;
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" } });
      answer = await response.json();
    } catch (error) {
      setTimeout(ask, 3000);
      return;
    }
    if (answer.status === "analysing") {
      status.textContent = t("analysing", { done: answer.done, total: answer.total });
      root.dataset.review = "analysing";
      setTimeout(ask, 1000);
      return;
    }
    if (answer.status !== "ready") {
      status.textContent = t("review_failed");
      root.dataset.review = "failed";
      return;
    }
    status.textContent = t("depth", { depth: answer.depth });
    mark = drawCurve(root.querySelector("#review-curve"), answer, t, show);
    mark(current());
    listWorst(root.querySelector("#review-worst"), answer, t, show);
    if (!answer.worst.length) root.querySelector("#review-worst").append(element("li", "hint", t("worst_none")));
    root.dataset.review = "ready";
    onReady(answer);
  }
  ask();
  return (ply) => { if (mark) mark(ply); };
}
