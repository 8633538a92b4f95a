// The polite live region: tells a screen-reader user what the view now shows.

import { h, hiddenWhy } from "./dom.js";
import { fmt } from "./format.js";

export function createLive() {
  const el = h("div", {class: "ae-live", "aria-live": "polite", "data-testid": "live-region"});
  function update(snap) {
    if (snap.status !== "ready") return;
    const {t, cube, query} = snap;
    let text;
    if (snap.reveal >= 4) {
      const row = cube.weightRow(snap.heads, snap.scale, snap.causal, snap.visibleHeads[0], query);
      const best = row.indexOf(Math.max(...row));
      text = t("announce", {query: cube.tokens[query], key: cube.tokens[best], weight: fmt(row[best])});
    } else if (snap.checking || snap.polling || snap.step < 0) {  // hidden for an answer or a room's question
      text = hiddenWhy(snap);
    } else {
      text = t("step_of", {step: snap.step + 1, steps: snap.steps, name: t(`step_name_${snap.step}`)});
    }
    if (el.textContent !== text) el.textContent = text;  // the same words are not announced twice
  }
  return {el, update};
}
