// The bars: one row per key, one column per head on show, each bar with its weight written beside it.

import { h, placeholder, titledView, headColor, swatch } from "./dom.js";
import { fmt, shortLabel } from "./format.js";
import { keysShown, weightsKey, weightsShown } from "./snapshot.js";

export function createBars() {
  const box = h("div", {class: "ae-bars", "data-testid": "bars"});
  const view = titledView("bars_title", box, weightsKey, (snap) => {
    const {cube, heads, scale, causal, visibleHeads, query: qi, t} = snap;
    if (!weightsShown(snap)) { box.replaceChildren(placeholder(t, snap.checking)); return; }
    box.style.setProperty("--columns", String(visibleHeads.length));
    box.classList.toggle("ae-many", visibleHeads.length > 2);
    const head = visibleHeads.length > 1 ? h("div", {class: "ae-bar-row ae-bar-heads", "aria-hidden": "true"}, h("span"),
      ...visibleHeads.map((head) => h("span", {class: "ae-bar-head"}, swatch(head),
        visibleHeads.length > 2 ? String(head + 1) : `${t("head")} ${head + 1}`))) : null;
    // a model's long sentence: the strongest keys, and what the others carry
    const shown = visibleHeads.length === 1 ? keysShown(snap) : null;
    const keys = shown ? shown.keys : cube.tokens.map((_, j) => j);
    const rest = shown ? h("p", {class: "ae-rest", "data-testid": "bars-rest",
      text: t("rest_keys", {count: shown.left, weight: fmt(shown.rest, 3)})}) : "";
    const hidden = cube.has("hidden/1") ? h("p", {class: "ae-rest", "data-testid": "bars-hidden",
      text: t("hidden_special", {weight: fmt(cube.hidden(qi), 3)})}) : "";
    box.replaceChildren(head || "", ...keys.map((j) => {
      const token = cube.tokens[j];
      const masked = cube.masked(causal, qi, j);
      return h("div", {class: "ae-bar-row" + (masked ? " ae-masked" : ""), "data-key": j},
        h("span", {class: "ae-bar-label", title: token, text: shortLabel(token, 14)}),
        ...visibleHeads.map((head) => {
          const w = cube.weight(heads, scale, causal, head, qi, j);
          return h("div", {class: "ae-bar-line", "data-head": head},
            h("div", {class: "ae-bar-track"},
              h("div", {class: "ae-bar", style: `width:${(100 * w).toFixed(2)}%;background:${headColor(head)}`})),
            h("span", {class: "ae-bar-value", text: masked ? `✕ ${fmt(w)}` : fmt(w)}));
        }));
    }), rest, hidden);
  });
  // the card is the caller's: this view is its title and its box
  return {el: [view.title, box], update: view.update};
}
