// The quiz scoreboard overlay (issue 29): teams with their scores and lamps, the current question's theme and price.
// It connects as a spectator (the page gives no token) and shows neither the question's text nor any answer.

import * as quiz from "./quiz-common.js";
import { $, element, root, t } from "./quiz-common.js";
import { lampOf } from "./quiz-media.js";

function render(state) {
  if (!state || state.status === "empty") return;
  root.dataset.status = state.status;
  quiz.renderTeams($(".q-teams"), state, {
    buttons: (card, team) => {
      const lamp = lampOf(state, team);
      card.dataset.lamp = lamp;
      const light = element("span", `q-lamp lamp-${lamp}`);
      light.title = lamp === "off" ? "" : t(`lamp_${lamp}`);
      card.prepend(light);
    },
  });
  const current = state.current;
  const head = $(".ov-question");
  head.hidden = !current;
  if (current) {
    $(".q-theme").textContent = current.theme_name || t("reserve");
    $(".q-value").textContent = String(current.value);
  }
}

quiz.connect((state) => render(state), { watchdogMs: 5000 });
