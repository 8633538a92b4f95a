// The lines figure: the query on the left, every key on the right, line width = weight. One or
// two heads share a figure (their lines side by side); more heads get one small figure each.

import { h, placeholder, s, headColor, swatch, titledView } from "./dom.js";
import { fmt, shortLabel } from "./format.js";
import { keysShown, weightsKey, weightsShown } from "./snapshot.js";
import { headCaption } from "./captions.js";

// Heads that still read as one figure; more get small multiples.
const SHARED_FIGURE_HEADS = 2;

// The geometry of a figure (viewBox units): a small multiple is narrower, with shorter labels.
const FULL = {qx: 140, kx: 270, width: 400, label: 12};
const SMALL = {qx: 96, kx: 176, width: 262, label: 7};

// The figures of a snapshot: [{heads, geometry}], one for one or two heads, else one per head.
export function lineFigures(snap) {
  const shown = snap.visibleHeads;
  return shown.length <= SHARED_FIGURE_HEADS ? [{heads: shown, geometry: FULL}] : shown.map((head) => ({heads: [head], geometry: SMALL}));
}

// A model's long sentence: the query alone on the left, only the keys shown on the right (keysShown),
// and a last row for the weight the other keys carry.
function strongestLinesSvg(snap, head, shown, {qx, kx, width, label}) {
  const {cube, heads: H, scale, causal, query: qi, t} = snap;
  const rows = shown.keys.length + 1, row = 34, top = 28, height = top + rows * row + 8;
  const svg = s("svg", {viewBox: `0 0 ${width} ${height}`, class: "ae-lines-svg", role: "img", "aria-label": t("lines_title")});
  svg.append(s("text", {x: qx, y: 16, "text-anchor": "end", class: "ae-axis", text: t("axis_query")}),
    s("text", {x: kx, y: 16, "text-anchor": "start", class: "ae-axis", text: t("axis_key")}));
  const y = (r) => top + r * row + row / 2, qy = top + (rows * row) / 2;
  shown.keys.forEach((j, r) => {
    const w = cube.weight(H, scale, causal, head, qi, j);
    svg.append(s("line", {x1: qx + 8, y1: qy, x2: kx - 8, y2: y(r), stroke: headColor(head),
      "stroke-width": (1.5 + 12 * w).toFixed(2), "stroke-opacity": (0.25 + 0.75 * w).toFixed(3), "stroke-linecap": "round",
      "data-head": head, "data-key": j, "data-weight": w}),
    s("g", {class: "ae-ktoken"}, s("text", {x: kx, y: y(r) + 6, "text-anchor": "start", text: shortLabel(cube.tokens[j], label)}),
      s("title", {text: cube.tokens[j]})));
  });
  svg.append(s("g", {class: "ae-qtoken ae-selected", "data-index": qi}, s("rect", {x: 4, y: qy - row / 2 + 3, width: qx - 2,
    height: row - 6, rx: 6}), s("text", {x: qx, y: qy + 6, "text-anchor": "end", text: shortLabel(cube.tokens[qi], label)}),
  s("title", {text: cube.tokens[qi]})),
  s("text", {x: kx, y: y(rows - 1) + 6, "text-anchor": "start", class: "ae-rest", "data-testid": "lines-rest",
    text: t("rest_keys", {count: shown.left, weight: fmt(shown.rest, 3)})}));
  return svg;
}

// One SVG of the query's lines for `heads`; `first` marks the figure whose tokens carry the test ids.
export function linesSvg(ctx, snap, heads, first, geometry) {
  const shown = heads.length === 1 ? keysShown(snap) : null;
  if (shown) return strongestLinesSvg(snap, heads[0], shown, geometry);
  const {qx, kx, width, label} = geometry;
  const {cube, heads: H, scale, causal, query: qi, t} = snap;
  const n = cube.n, row = 34, top = 28, height = top + n * row + 8;
  const svg = s("svg", {viewBox: `0 0 ${width} ${height}`, class: "ae-lines-svg", role: "img", "aria-label": t("lines_title")});
  svg.append(s("text", {x: qx, y: 16, "text-anchor": "end", class: "ae-axis", text: t("axis_query")}),
    s("text", {x: kx, y: 16, "text-anchor": "start", class: "ae-axis", text: t("axis_key")}));
  const y = (i) => top + i * row + row / 2;
  heads.forEach((head, order) => {
    const offset = (order - (heads.length - 1) / 2) * Math.min(4, 16 / heads.length);
    for (let j = 0; j < n; j++) {
      if (cube.masked(causal, qi, j)) continue;
      const w = cube.weight(H, scale, causal, head, qi, j);
      svg.append(s("line", {x1: qx + 8, y1: y(qi) + offset, x2: kx - 8, y2: y(j) + offset,
        stroke: headColor(head), "stroke-width": (1.5 + 12 * w).toFixed(2),
        "stroke-opacity": (0.25 + 0.75 * w).toFixed(3), "stroke-linecap": "round",
        "data-head": head, "data-key": j, "data-weight": w}));
    }
  });
  for (let i = 0; i < n; i++) {
    const group = s("g", {class: "ae-qtoken" + (i === qi ? " ae-selected" : ""), "data-index": i,
      "data-testid": first ? `figure-token-${i}` : null, on: {click: () => ctx.actions.setQuery(i)}});
    group.append(s("rect", {x: 4, y: y(i) - row / 2 + 3, width: qx - 2, height: row - 6, rx: 6}),
      s("text", {x: qx, y: y(i) + 6, "text-anchor": "end", text: shortLabel(cube.tokens[i], label)}),
      s("title", {text: cube.tokens[i]}));
    svg.append(group);
    const masked = cube.masked(causal, qi, i);
    const key = s("g", {class: "ae-ktoken" + (masked ? " ae-masked" : "")});
    key.append(s("text", {x: kx, y: y(i) + 6, "text-anchor": "start", text: shortLabel(cube.tokens[i], label)}),
      s("title", {text: cube.tokens[i]}));
    if (masked) {
      key.append(s("line", {x1: kx - 4, y1: y(i) + 1, x2: kx + 8 + 9 * Math.min(label, cube.tokens[i].length), y2: y(i) + 1,
        class: "ae-strike"}), s("text", {x: width - 6, y: y(i) + 6, "text-anchor": "end", class: "ae-mask-mark", text: "✕ 0"}));
    }
    svg.append(key);
  }
  return svg;
}

export function createLines(ctx, tools) {
  const box = h("div", {class: "ae-lines", "data-testid": "lines-figure"});
  const view = titledView("lines_title", box, weightsKey, (snap) => {
    if (!weightsShown(snap)) {
      box.classList.remove("ae-multiples");
      box.replaceChildren(placeholder(snap.t, snap.checking));
      return;
    }
    const figures = lineFigures(snap);
    const shared = figures.length === 1;
    box.classList.toggle("ae-multiples", !shared);
    box.dataset.panels = String(snap.visibleHeads.length);
    if (shared) { box.replaceChildren(linesSvg(ctx, snap, figures[0].heads, true, figures[0].geometry)); return; }
    box.replaceChildren(...figures.map(({heads: [head], geometry}, order) => h("figure", {class: "ae-lines-panel", "data-head": head},
      h("figcaption", {}, swatch(head), headCaption(snap, head)), linesSvg(ctx, snap, [head], order === 0, geometry))));
  });
  const el = h("section", {class: "ae-card ae-card-lines"}, h("div", {class: "ae-card-head"}, view.title, tools), box);
  return {el, update: view.update};
}
