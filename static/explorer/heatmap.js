// The heatmap: every query's weights, one grid per head on show, the selected query's row outlined.

import { h, placeholder, s, headColor, titledView, WEIGHTS_TABLE_ID } from "./dom.js";
import { fmt, shortLabel } from "./format.js";
import { drawnMaskedRow, drawnRow, lensBadge, viewKey, weightsShown } from "./snapshot.js";

// Longer sentences get no heatmap: one SVG cell per pair would be too many to draw at once.
const HEATMAP_TOKENS = 64;
// A cell's number shows only where it reads: in lecture mode, at the projector's reading size
// (16 px up to 720 rows of screen, 24 up to 1080, 48 beyond); elsewhere always.
const readingSize = (screenHeight) => (screenHeight > 1100 ? 48 : screenHeight > 730 ? 24 : 16);

// The grids depend on the sentence, heads, switches and language, not on the query: they are
// built once per such view, and choosing a query only moves the outline.
export function createHeatmap(ctx) {
  const box = h("div", {class: "ae-heat", "data-testid": "heatmap"});
  let outlines = [], cellSize = 0, labelSize = 0;
  // the numbers' drawn size, measured whenever the grids change size; too small: the grids keep
  // their colours and the weights table says the numbers
  const quiet = () => {
    const num = box.querySelector(".ae-heat-num"), svg = num && num.ownerSVGElement;
    if (!svg || !box.closest(".ae-lecture")) { box.classList.remove("ae-heat-quiet"); return; }
    const drawn = parseFloat(getComputedStyle(num).fontSize) * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    box.classList.toggle("ae-heat-quiet", drawn < readingSize(window.innerHeight));
  };
  if (typeof ResizeObserver !== "undefined") new ResizeObserver(quiet).observe(box);

  // lecture mode with three heads or more draws its labels larger (CSS): they get more room
  const roomy = (snap) => snap.mode === "lecture" && snap.visibleHeads.length >= 3;
  const view = titledView("heatmap_title", box, (snap) => viewKey(snap, weightsShown(snap), snap.checking, snap.polling, roomy(snap)), (snap) => {
    const {cube, heads, visibleHeads, t} = snap;
    outlines = [];
    if (!weightsShown(snap)) { box.replaceChildren(placeholder(snap)); return; }
    const n = cube.n;
    if (n > HEATMAP_TOKENS) {  // a long sentence: the model's overview draws it instead
      box.replaceChildren(h("p", {class: "ae-hint", "data-testid": "heatmap-too-long", text: t("heatmap_too_long", {count: n, max: HEATMAP_TOKENS})}));
      return;
    }
    cellSize = Math.max(18, Math.min(44, Math.floor(320 / n)));
    labelSize = roomy(snap) ? 104 : 86;  // room for four Hangul syllables at a projector's label size
    const cell = cellSize, label = labelSize;
    box.replaceChildren(...visibleHeads.map((head) => {
      const size = label + n * cell + 4;
      const svg = s("svg", {viewBox: `0 0 ${size} ${size}`, class: "ae-heat-svg", role: "img",
        "aria-label": `${t("heatmap_title")} — ${t("head")} ${head + 1}`, "aria-describedby": WEIGHTS_TABLE_ID});
      for (let i = 0; i < n; i++) {
        const row = drawnRow(snap, head, i), maskedRow = drawnMaskedRow(snap, i);
        svg.append(s("text", {x: label - 6, y: label + i * cell + cell / 2 + 5, "text-anchor": "end", class: "ae-heat-label",
          text: shortLabel(cube.tokens[i], 7)}));
        svg.append(s("text", {x: 0, y: 0, class: "ae-heat-label", "text-anchor": "start",
          transform: `translate(${label + i * cell + cell / 2 + 5},${label - 6}) rotate(-60)`, text: shortLabel(cube.tokens[i], 7)}));
        for (let j = 0; j < n; j++) {
          const w = row[j];
          const masked = maskedRow[j];
          const x = label + j * cell, y = label + i * cell;
          svg.append(s("rect", {x, y, width: cell - 1, height: cell - 1, fill: masked ? "#f3f3f3" : headColor(head),
            "fill-opacity": masked ? 1 : (0.06 + 0.94 * w).toFixed(3), class: "ae-heat-cell", "data-row": i}));
          if (masked) {
            svg.append(s("path", {d: `M${x + 4},${y + 4}L${x + cell - 5},${y + cell - 5}M${x + cell - 5},${y + 4}L${x + 4},${y + cell - 5}`,
              class: "ae-heat-x"}));
          } else if (cell >= 30) {
            svg.append(s("text", {x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle",
              class: "ae-heat-num" + (w > 0.5 ? " ae-on-dark" : ""), text: fmt(w, 2)}));
          }
        }
      }
      // one listener per grid instead of one per cell
      svg.addEventListener("click", (event) => {
        const row = event.target.getAttribute && event.target.getAttribute("data-row");
        if (row !== null && row !== undefined) ctx.actions.setQuery(Number(row));
      });
      const outline = s("rect", {x: label - 2, y: 0, width: n * cell + 3, height: cell + 3, class: "ae-heat-row"});
      outlines.push(outline);
      svg.append(outline);
      return h("figure", {class: "ae-heat-fig"}, svg,
        visibleHeads.length > 1 || heads > 1 ? h("figcaption", {text: `${t("head")} ${head + 1}`}) : null);
    }));
  }, lensBadge);

  function update(snap) {
    view.update(snap);
    queueMicrotask(quiet);  // a new view (lecture mode, more heads) may change the grids' size
    if (snap.status !== "ready") return;
    for (const outline of outlines) outline.setAttribute("y", labelSize + snap.query * cellSize - 2);
  }
  return {el: h("section", {class: "ae-card ae-card-heat"}, view.title, box), update};
}
