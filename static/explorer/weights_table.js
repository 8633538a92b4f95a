// The weights table: the selected query's weight on every key, one column per head on show.

import { h, placeholder, titledView } from "./dom.js";
import { fmt } from "./format.js";
import { weightsKey, weightsShown } from "./snapshot.js";

export function createWeightsTable() {
  const box = h("div", {class: "ae-weights"});
  const view = titledView("weights_title", box, weightsKey, (snap) => {
    const {cube, heads, scale, causal, visibleHeads, query: qi, t} = snap;
    if (!weightsShown(snap)) { box.replaceChildren(placeholder(t, snap.checking)); return; }
    const header = h("tr", {}, h("th", {scope: "col", text: t("key")}),
      ...visibleHeads.map((head) => h("th", {scope: "col", class: "ae-num", text: heads > 1 ? `${t("head")} ${head + 1}` : t("weight")})));
    const rows = cube.tokens.map((token, j) => h("tr", {"data-key": j},
      h("th", {scope: "row", text: token}),
      ...visibleHeads.map((head) => h("td", {class: "ae-num", "data-head": head,
        text: fmt(cube.weight(heads, scale, causal, head, qi, j), 3)}))));
    // a model's head says which one it is, and at which switches (a contract for tests and tools)
    const which = cube.model ? {"data-layer": cube.model.layer, "data-model-head": cube.model.head,
      "data-scale": String(scale), "data-causal": String(causal)} : {};
    box.replaceChildren(h("div", {class: "ae-scroll"}, h("table", {class: "ae-table", "data-testid": "weights-table", ...which},
      h("caption", {text: t("query_caption", {token: cube.tokens[qi]})}), h("thead", {}, header), h("tbody", {}, rows))));
  });
  // the card is the caller's: this view is its title and its box
  return {el: [view.title, box], update: view.update};
}
