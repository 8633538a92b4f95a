// The bars: one row per key, one bar per head on show, with the weight written beside it.

import { h, placeholder, titledView, headColor } from "./dom.js";
import { fmt, shortLabel } from "./format.js";
import { weightsKey, weightsShown } from "./snapshot.js";

export function createBars() {
  const box = h("div", {class: "ae-bars", "data-testid": "bars"});
  const view = titledView("bars_title", box, weightsKey, (snap) => {
    const {cube, heads, scale, causal, visibleHeads, query: qi, t} = snap;
    if (!weightsShown(snap)) { box.replaceChildren(placeholder(t)); return; }
    box.replaceChildren(...cube.tokens.map((token, j) => {
      const masked = cube.masked(causal, qi, j);
      const bars = visibleHeads.map((head) => {
        const w = cube.weight(heads, scale, causal, head, qi, j);
        return h("div", {class: "ae-bar-line"},
          h("div", {class: "ae-bar-track"},
            h("div", {class: "ae-bar", style: `width:${(100 * w).toFixed(2)}%;background:${headColor(head)}`})),
          h("span", {class: "ae-bar-value", text: masked ? `✕ ${fmt(w)}` : fmt(w)}));
      });
      return h("div", {class: "ae-bar-row" + (masked ? " ae-masked" : "")},
        h("span", {class: "ae-bar-label", title: token, text: shortLabel(token, 14)}),
        h("div", {class: "ae-bar-stack" + (visibleHeads.length > 2 ? " ae-many" : "")}, bars));
    }));
  });
  // the card is the caller's: this view is its title and its box
  return {el: [view.title, box], update: view.update};
}
