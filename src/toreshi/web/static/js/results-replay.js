// A game page of the public results site (issue 29): the game move by move, from files alone. The page carries its
// frames in a <script type="application/json"> block; toreshi.web.common.bundle turns this module and its imports
// into one classic script (the site's replay.js), because Chromium loads no module script from file:// and a page
// opened from a USB stick fetches nothing. Stepping and drawing are togyz-stepper.js's and togyz-board.js's, as on
// the app's replay page; this file adds the sentence a screen reader hears after each step (aria-live) and the
// "to move" mark of the player bars.

import { translator } from "./dom.js";
import { other } from "./togyz-board.js";
import { plyText, startStepper } from "./togyz-stepper.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const frames = data.frames;
const root = document.getElementById("replay");
const t = translator(data.strings);
const said = document.getElementById("replay-said");

/** What a screen reader says of `frame`: the move, whose turn (or the result at the end), kazans and tuzdyks. */
function sentence(frame, ply) {
  const parts = [plyText(frame, t, data.moves)];
  const over = data.result && ply === frames.length - 1;
  parts.push(over ? data.result : t("turn", { side: t(frame.turn) }));
  parts.push(t("kazans", {
    white: t("white"), white_kazan: frame.kazans.white, black: t("black"), black_kazan: frame.kazans.black,
  }));
  for (const side of ["white", "black"]) {
    const hole = frame.tuzdyks[side];
    if (hole) parts.push(t("tuzdyk_on", { side: t(side), hole, row: t(other(side)) }));
  }
  return parts.join(". ");
}

startStepper(root, {
  frames, t, names: data.names, moves: data.moves,
  onShow: (frame, ply) => {
    if (data.result && ply === frames.length - 1) {
      for (const bar of root.querySelectorAll(".player-bar")) bar.classList.remove("to-move");
    }
    said.textContent = sentence(frame, ply);
  },
});
