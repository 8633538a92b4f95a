// The weights table: the selected query's weight on every key, one column per head on show.

import { h, scrollBox, memo, placeholder, sayWhenItScrolls, setText, titledView, WEIGHTS_TABLE_ID } from "./dom.js";
import { fmt } from "./format.js";
import { weightsFrameKey, weightsKey, weightsShown } from "./snapshot.js";

export function createWeightsTable() {
  const box = h("div", {class: "ae-weights"});
  // what the table shows for every query: its rows and columns, drawn once; the query's caption
  // and numbers are set on them (cells[key][column])
  let caption = null, cells = [];
  const view = titledView("weights_title", box, weightsFrameKey, (snap) => {
    const {cube, heads, scale, causal, visibleHeads, t} = snap;
    caption = null;
    cells = [];
    if (!weightsShown(snap)) { box.replaceChildren(placeholder(snap)); return; }
    const header = h("tr", {}, h("th", {scope: "col", text: t("key")}),
      ...visibleHeads.map((head) => h("th", {scope: "col", class: "ae-num", text: heads > 1 ? `${t("head")} ${head + 1}` : t("weight")})));
    const rows = cube.tokens.map((token, j) => {
      const row = visibleHeads.map((head) => h("td", {class: "ae-num", "data-head": head}));
      cells.push(row);
      return h("tr", {"data-key": j}, h("th", {scope: "row", text: token}), ...row);
    });
    // a model's head says which one it is, and at which switches (a contract for tests and tools)
    const which = cube.model ? {"data-layer": cube.model.layer, "data-model-head": cube.model.head,
      "data-scale": String(scale), "data-causal": String(causal),
      "data-experiment": cube.model.experiment || ""} : {};  // q and k unrotated, another window (app.models.experiment_code)
    caption = h("caption");
    const scroller = scrollBox(t("weights_title"), {}, h("table", {class: "ae-table", id: WEIGHTS_TABLE_ID, "data-testid": "weights-table", ...which},
      caption, h("thead", {}, header), h("tbody", {}, rows)));
    const hint = h("p", {class: "ae-hint", "data-testid": "weights-scrolls", text: t("table_scrolls", {count: visibleHeads.length})});
    sayWhenItScrolls(scroller, hint);
    box.replaceChildren(hint, scroller);
  });
  const drawQuery = memo((snap) => {
    const {cube, heads, scale, causal, visibleHeads, query: qi, t} = snap;
    setText(caption, t("query_caption", {token: cube.tokens[qi]}));
    visibleHeads.forEach((head, k) => {
      const weights = cube.weightRow(heads, scale, causal, head, qi);
      cells.forEach((row, j) => setText(row[k], fmt(weights[j], 3)));
    });
  });
  function update(snap) {
    view.update(snap);
    if (snap.status === "ready" && weightsShown(snap)) drawQuery(view.drawnKey(weightsKey(snap)), snap);
  }
  // the card is the caller's: this view is its title and its box
  return {el: [view.title, box], update};
}
