// The bars: one row per key, one column per head on show (in lecture mode, on the screen: snapshot.js
// figureHeads), each bar with its weight written beside it.

import { h, memo, placeholder, setAttr, setText, titledView, headColor, swatch } from "./dom.js";
import { fmt, shortLabel } from "./format.js";
import { drawnMaskedRow, drawnRow, drawnWeight, keysShown, lensBadge, figuresFrameKey, weightsKey, weightsShown } from "./snapshot.js";

// A bar's style: its length is the weight.
const barStyle = (w, head) => `width:${(100 * w).toFixed(2)}%;background:${headColor(head)}`;

export function createBars() {
  const box = h("div", {class: "ae-bars", "data-testid": "bars"});
  // the rows drawn for every query ({row, bars: [{bar, value}] per head on show}), and the
  // special tokens' line; none while a model's long sentence draws its strongest keys per query
  let rows = [], hiddenLine = null;
  const strongestOnly = (snap) => snap.figureHeads.length === 1 && !!snap.modelView && snap.cube.has("rank/1");

  // the keys' rows, with every bar empty: the same for every query
  const view = titledView("bars_title", box, figuresFrameKey, (snap) => {
    const {cube, figureHeads, t} = snap;
    rows = [];
    hiddenLine = null;
    if (!weightsShown(snap)) { box.replaceChildren(placeholder(snap)); return; }
    box.style.setProperty("--columns", String(figureHeads.length));
    box.classList.toggle("ae-many", figureHeads.length > 2);
    if (strongestOnly(snap)) return;  // drawn by update, for each query
    const head = figureHeads.length > 1 ? h("div", {class: "ae-bar-row ae-bar-heads", "aria-hidden": "true"}, h("span"),
      ...figureHeads.map((head) => h("span", {class: "ae-bar-head"}, swatch(head),
        figureHeads.length > 2 ? String(head + 1) : `${t("head")} ${head + 1}`))) : null;
    hiddenLine = cube.has("hidden/1") ? h("p", {class: "ae-rest", "data-testid": "bars-hidden"}) : null;
    rows = cube.tokens.map((token, j) => {
      const bars = figureHeads.map((head) => {
        // its width is set by drawQuery, through the style object: set both through it, so that the
        // style attribute reads the same however the bar got its width ("width: 4.5%; background: rgb(…)")
        const bar = h("div", {class: "ae-bar"});
        bar.style.width = "0%";
        bar.style.background = headColor(head);
        const value = h("span", {class: "ae-bar-value"});
        return {bar, value, line: h("div", {class: "ae-bar-line", "data-head": head}, h("div", {class: "ae-bar-track"}, bar), value)};
      });
      const row = h("div", {class: "ae-bar-row", "data-key": j},
        h("span", {class: "ae-bar-label", title: token, text: shortLabel(token, 14)}), ...bars.map(({line}) => line));
      return {row, bars};
    });
    box.replaceChildren(head || "", ...rows.map(({row}) => row), "", hiddenLine || "");
  }, lensBadge);

  // the query's weights on the bars drawn
  const drawQuery = memo((snap) => {
    const {cube, figureHeads, query: qi, t} = snap;
    if (strongestOnly(snap)) { drawStrongest(snap); return; }
    const masked = drawnMaskedRow(snap, qi);
    const weights = figureHeads.map((head) => drawnRow(snap, head, qi));
    rows.forEach(({row, bars}, j) => {
      setAttr(row, "class", "ae-bar-row" + (masked[j] ? " ae-masked" : ""));
      bars.forEach(({bar, value}, k) => {
        const w = weights[k][j];
        // the width alone, through the style object: parsing each bar's whole style attribute cost
        // more than the rest of the repaint
        bar.style.width = `${(100 * w).toFixed(2)}%`;
        setText(value, masked[j] ? `✕ ${fmt(w)}` : fmt(w));
      });
    });
    if (hiddenLine) setText(hiddenLine, t("hidden_special", {weight: fmt(cube.hidden(qi), 3)}));
  });

  // A model's long sentence with one head: the strongest keys, and what the others carry.
  function drawStrongest(snap) {
    const {cube, figureHeads, query: qi, t} = snap;
    const shown = keysShown(snap), maskedRow = drawnMaskedRow(snap, qi);
    const keys = shown ? shown.keys : cube.tokens.map((_, j) => j);
    const rest = shown ? h("p", {class: "ae-rest", "data-testid": "bars-rest",
      text: t("rest_keys", {count: shown.left, weight: fmt(shown.rest, 3)})}) : "";
    const hidden = cube.has("hidden/1") ? h("p", {class: "ae-rest", "data-testid": "bars-hidden",
      text: t("hidden_special", {weight: fmt(cube.hidden(qi), 3)})}) : "";
    box.replaceChildren("", ...keys.map((j) => {
      const token = cube.tokens[j];
      const masked = maskedRow[j];
      return h("div", {class: "ae-bar-row" + (masked ? " ae-masked" : ""), "data-key": j},
        h("span", {class: "ae-bar-label", title: token, text: shortLabel(token, 14)}),
        ...figureHeads.map((head) => {
          const w = drawnWeight(snap, head, qi, j);
          return h("div", {class: "ae-bar-line", "data-head": head},
            h("div", {class: "ae-bar-track"}, h("div", {class: "ae-bar", style: barStyle(w, head)})),
            h("span", {class: "ae-bar-value", text: masked ? `✕ ${fmt(w)}` : fmt(w)}));
        }));
    }), rest, hidden);
  }

  function update(snap) {
    view.update(snap);
    if (snap.status === "ready" && weightsShown(snap)) drawQuery(view.drawnKey(weightsKey(snap)), snap);
  }
  // the card is the caller's: this view is its title and its box
  return {el: [view.title, box], update};
}
