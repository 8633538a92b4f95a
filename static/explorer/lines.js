// The lines figure: the query on the left, every key on the right, line width = weight. One or
// two heads share a figure (their lines side by side); more heads get one small figure each.

import { h, memo, placeholder, s, headColor, swatch, titledView, WEIGHTS_TABLE_ID, watchScale } from "./dom.js";
import { fitLabel, fmt, labelEms, shortLabel } from "./format.js";
import { drawnMaskedRow, drawnRow, drawnWeight, figuresFrameKey, headPages, keysShown, lensBadge, weightsKey, weightsShown } from "./snapshot.js";
import { headCaption } from "./captions.js";
import { createStepStage, stepStageShown } from "./step_stage.js";

// Heads that still read as one figure; more get small multiples.
const SHARED_FIGURE_HEADS = 2;

// The geometry of a figure (viewBox units): the query's column ends at qx, the keys' starts at kx;
// `row` units a token; a label `label` characters at most, or `ems` wide (fitLabel).
// A small multiple is narrower, with shorter labels.
const FULL = {qx: 140, kx: 270, width: 400, label: 12, row: 34};
const SMALL = {qx: 96, kx: 176, width: 262, label: 7, row: 34};
// Lecture mode draws its tokens 17 units high (explorer.css) and a token's row 26 units, so that a
// sentence of twelve fits a 1280x720 projector at 16 px or more. Three heads or more make a row of
// small figures beside the bars: the query's column drawn once, in the first; each head's lines
// and keys after it (LECTURE_NEXT: its lines start at the query's mark, at the figure's left edge).
// 80 units of keys' column hold a label of 4.4 ems at 17 units.
const LECTURE_TOKEN_UNITS = 17;
const LECTURE_FULL = {...FULL, row: 26};
const LECTURE_FIRST = {qx: 88, kx: 146, width: 226, ems: 4.4, row: 26};
const LECTURE_NEXT = {qx: 0, kx: 58, width: 138, ems: 4.4, row: 26, queries: false};

// The figures of a snapshot: [{heads, geometry}], one for one or two heads, else one per head.
// `lecture`: as lecture mode lays them out, a row of LECTURE_FIRST and LECTURE_NEXT (the saved
// figure, figure.js, draws every head its own SMALL figure).
export function lineFigures(snap, {lecture = false} = {}) {
  const shown = lecture ? snap.figureHeads : snap.visibleHeads;
  if (shown.length <= SHARED_FIGURE_HEADS) return [{heads: shown, geometry: lecture ? LECTURE_FULL : FULL}];
  return shown.map((head, order) => ({heads: [head], geometry: !lecture ? SMALL : order === 0 ? LECTURE_FIRST : LECTURE_NEXT}));
}

// A token's label as a figure's column holds it.
const labelText = (token, {label, ems}) => (ems ? fitLabel(token, ems) : shortLabel(token, label));

// The figure's frame: an SVG of `rows` token rows with the query and key axis titles (the query's
// where the figure draws the queries' column).
const LINES_TOP = 30;
function linesFrame(t, rows, {qx, kx, width, row, queries = true}, extra = 0) {
  const svg = watchScale(s("svg", {viewBox: `0 0 ${width} ${LINES_TOP + rows * row + 8 + extra}`, class: "ae-lines-svg", role: "img",
    "aria-label": t("lines_title"), "aria-describedby": WEIGHTS_TABLE_ID}));
  if (queries) svg.append(s("text", {x: qx, y: 20, "text-anchor": "end", class: "ae-axis", text: t("axis_query")}));
  svg.append(s("text", {x: kx, y: 20, "text-anchor": "start", class: "ae-axis", text: t("axis_key")}));
  return svg;
}

// Two heads in one figure: the second's lines dashed, so colour is not the only cue; the legend
// under the keys draws each head's line beside its number.
const LEGEND = 24;
const dash = (order) => (order > 0 ? {"stroke-dasharray": "10 6"} : {});
function legend(t, heads, y, {kx, width}, style) {
  const step = (width - 40) / heads.length;
  return s("g", {class: "ae-lines-legend", "aria-hidden": "true"}, ...heads.flatMap((head, order) => {
    const x = 20 + order * step;
    return [s("line", {x1: x, y1: y, x2: x + 36, y2: y, stroke: headColor(head), "stroke-width": 4, ...style(order)}),
      s("text", {x: x + 44, y: y + 5, class: "ae-axis", text: `${t("head")} ${head + 1}`})];
  }));
}

// One line from the query (at height y1) to key j (at y2): width and opacity grow with its weight w.
function weightLine(head, j, w, y1, y2, {qx, kx}) {
  return s("line", {x1: qx + 8, y1, x2: kx - 8, y2, stroke: headColor(head), "stroke-width": (1.5 + 12 * w).toFixed(2),
    "stroke-opacity": (0.25 + 0.75 * w).toFixed(3), "stroke-linecap": "round", "data-head": head, "data-key": j});
}

// A token's label at the query's side (end-anchored at qx) or the key's (start-anchored at kx), with its full text.
function tokenLabel(token, y, side, geometry) {
  const {qx, kx} = geometry;
  return [s("text", {x: side === "query" ? qx : kx, y: y + 6, "text-anchor": side === "query" ? "end" : "start",
    text: labelText(token, geometry)}), s("title", {text: token})];
}

// A model's long sentence: the query alone on the left, only the keys shown on the right (keysShown),
// and a last row for the weight the other keys carry.
function strongestLinesSvg(snap, head, shown, geometry) {
  const {cube, query: qi, t} = snap;
  const {qx, kx, row} = geometry, rows = shown.keys.length + 1;
  const svg = linesFrame(t, rows, geometry);
  const y = (r) => LINES_TOP + r * row + row / 2, qy = LINES_TOP + (rows * row) / 2;
  shown.keys.forEach((j, r) => {
    svg.append(weightLine(head, j, drawnWeight(snap, head, qi, j), qy, y(r), geometry),
      s("g", {class: "ae-ktoken"}, ...tokenLabel(cube.tokens[j], y(r), "key", geometry)));
  });
  svg.append(s("g", {class: "ae-qtoken ae-selected", "data-index": qi},
    s("rect", {x: 4, y: qy - row / 2 + 3, width: qx - 2, height: row - 6, rx: 6}), ...tokenLabel(cube.tokens[qi], qy, "query", geometry)),
  s("text", {x: kx, y: y(rows - 1) + 6, "text-anchor": "start", class: "ae-rest", "data-testid": "lines-rest",
    text: t("rest_keys", {count: shown.left, weight: fmt(shown.rest, 3)})}));
  return svg;
}

// The figure of `heads` for one sentence, head count, switches and language, for any query: the
// tokens, and one line per head and key, drawn once; show(snap) sets the query's weights on them,
// puts in the figure only the lines of the keys the query sees, and moves the selection and the
// mask's marks. The result is the same SVG, node for node, as drawing the query's figure afresh.
// `first` marks the figure whose tokens carry the test ids.
function queryLines(ctx, snap, heads, first, geometry) {
  const {qx, kx, width, label, row, ems, queries: withQueries = true} = geometry;
  const {cube, t} = snap;
  const n = cube.n;
  const svg = linesFrame(t, n, geometry, heads.length > 1 ? LEGEND : 0);
  const y = (i) => LINES_TOP + i * row + row / 2;
  if (heads.length > 1) svg.append(legend(t, heads, LINES_TOP + n * row + 8 + LEGEND / 2, geometry, dash));
  const offsets = heads.map((_, order) => (order - (heads.length - 1) / 2) * Math.min(4, 16 / heads.length));
  // every attribute in weightLine's order; the query's numbers are set by show()
  const lines = heads.map((head, order) => Array.from({length: n}, (_, j) => s("line", {x1: qx + 8, y1: 0, x2: kx - 8,
    y2: y(j) + offsets[order], stroke: headColor(head), "stroke-width": 0, "stroke-opacity": 0, "stroke-linecap": "round",
    ...dash(order), "data-head": head, "data-key": j})));
  // without the queries' column, the query is a mark at the left edge its lines start from
  const queryMark = withQueries ? null : s("rect", {class: "ae-query-mark", x: 0, y: 0, width: 8, height: row - 6, rx: 3});
  if (queryMark) svg.append(queryMark);
  const queries = [], keys = [], marks = [];
  for (let i = 0; i < n; i++) {
    if (withQueries) {
      const group = s("g", {class: "ae-qtoken", "data-index": i,
        "data-testid": first ? `figure-token-${i}` : null, on: {click: () => ctx.actions.setQuery(i)}});
      group.append(s("rect", {x: 4, y: y(i) - row / 2 + 3, width: qx - 2, height: row - 6, rx: 6}),
        ...tokenLabel(cube.tokens[i], y(i), "query", geometry));
      svg.append(group);
      queries.push(group);
    }
    const key = s("g", {class: "ae-ktoken"});
    key.append(...tokenLabel(cube.tokens[i], y(i), "key", geometry));
    svg.append(key);
    keys.push(key);
    // a masked key struck through; "✕ 0" beside it where the column has room (the bars say it too)
    const struck = ems ? LECTURE_TOKEN_UNITS * labelEms(key.firstChild.textContent) : 9 * Math.min(label, cube.tokens[i].length);
    marks.push([s("line", {x1: kx - 4, y1: y(i) + 1, x2: kx + 8 + struck, y2: y(i) + 1, class: "ae-strike"}),
      ems ? null : s("text", {x: width - 6, y: y(i) + 6, "text-anchor": "end", class: "ae-mask-mark", text: "✕ 0"})].filter(Boolean));
  }
  let shownMask = null, selected = -1;
  function show(snap) {
    const {query: qi} = snap;
    const masked = drawnMaskedRow(snap, qi);
    const mask = masked.join();
    if (mask !== shownMask) {  // the lines in the figure: those of the keys the query sees
      const drawn = document.createDocumentFragment();
      lines.forEach((headLines) => headLines.forEach((line, j) => { if (masked[j]) line.remove(); else drawn.append(line); }));
      svg.insertBefore(drawn, queries[0] || queryMark || keys[0]);
      keys.forEach((key, i) => {
        key.setAttribute("class", "ae-ktoken" + (masked[i] ? " ae-masked" : ""));
        if (masked[i]) key.append(...marks[i]);
        else for (const mark of marks[i]) mark.remove();
      });
      shownMask = mask;
    }
    heads.forEach((head, order) => {
      const weights = drawnRow(snap, head, qi), y1 = String(y(qi) + offsets[order]);
      lines[order].forEach((line, j) => {
        if (masked[j]) return;
        const w = weights[j];
        line.setAttribute("y1", y1);
        line.setAttribute("stroke-width", (1.5 + 12 * w).toFixed(2));
        line.setAttribute("stroke-opacity", (0.25 + 0.75 * w).toFixed(3));  // click-cost: the width is the
        // weight (the weights table has its number): a third attribute per line was ~0.6 ms a click at 24 x 8
      });
    });
    if (selected !== qi) {
      if (queryMark) queryMark.setAttribute("y", String(y(qi) - row / 2 + 3));
      if (selected >= 0 && queries.length) queries[selected].setAttribute("class", "ae-qtoken");
      if (queries.length) queries[qi].setAttribute("class", "ae-qtoken ae-selected");
      selected = qi;
    }
  }
  return {svg, show};
}

// Whether the figure shows only some keys, which change with the query: it is then drawn afresh.
function strongestOnly(snap, heads) {
  return heads.length === 1 && !!snap.modelView && snap.cube.has("rank/1");
}

// One SVG of the query's lines for `heads`; `first` marks the figure whose tokens carry the test ids.
export function linesSvg(ctx, snap, heads, first, geometry) {
  const shown = heads.length === 1 ? keysShown(snap) : null;
  if (shown) return strongestLinesSvg(snap, heads[0], shown, geometry);
  const figure = queryLines(ctx, snap, heads, first, geometry);
  figure.show(snap);
  return figure.svg;
}

// The lecturer's pages of heads (snapshot.js figureHeadsShown): "head 1–4", "head 5–8", shown in
// lecture mode when more heads are on show than a screen draws.
function createHeadsPager(ctx) {
  const group = h("div", {class: "ae-segmented ae-heads-pager", role: "group", "data-testid": "heads-pager"});
  let drawn = "";
  function update(snap) {
    const pages = headPages(snap.visibleHeads, snap.lecture), {figureHeads, t} = snap;
    group.hidden = pages.length < 2;
    const key = `${pages.length}|${figureHeads.join()}|${snap.lang}`;
    if (pages.length < 2 || key === drawn) return;
    drawn = key;
    group.setAttribute("aria-label", t("heads_pager"));
    group.replaceChildren(...pages.map((heads, page) => h("button", {type: "button", class: "ae-seg",
      "data-testid": `heads-page-${page + 1}`, "aria-pressed": String(heads[0] === figureHeads[0]),
      on: {click: () => ctx.actions.setLocal({headsPage: page})}, text: t("heads_page", {first: heads[0] + 1, last: heads.at(-1) + 1})})));
  }
  return {el: group, update};
}

export function createLines(ctx, tools) {
  const box = h("div", {class: "ae-lines", "data-testid": "lines-figure"});
  const stage = createStepStage();  // before softmax: the calculation so far, where the lines will be
  let figures = [];  // the figures drawn for the view, each with its show(snap); none while drawn afresh per query
  const view = titledView("lines_title", box, figuresFrameKey, (snap) => {
    figures = [];
    if (!weightsShown(snap)) {
      box.classList.remove("ae-multiples");
      box.replaceChildren(stepStageShown(snap) ? stage.el : placeholder(snap));
      return;
    }
    const layout = lineFigures(snap, {lecture: snap.lecture});
    const shared = layout.length === 1;
    box.classList.toggle("ae-multiples", !shared);
    box.dataset.panels = String(layout.length);
    // lecture mode's row of figures: each as wide as its viewBox, so that all draw at one scale
    box.style.setProperty("--panel-columns", layout.map(({geometry}) => `minmax(0, ${geometry.width}fr)`).join(" "));
    if (shared) {
      if (strongestOnly(snap, layout[0].heads)) return;  // drawn by update, for each query
      figures = [queryLines(ctx, snap, layout[0].heads, true, layout[0].geometry)];
      box.replaceChildren(figures[0].svg);
      return;
    }
    figures = layout.map(({heads, geometry}, order) => queryLines(ctx, snap, heads, order === 0, geometry));
    box.replaceChildren(...layout.map(({heads: [head]}, order) => h("figure", {class: "ae-lines-panel", "data-head": head},
      h("figcaption", {}, swatch(head), h("span", {class: "ae-panel-caption", text: headCaption(snap, head)})), figures[order].svg)));
  }, lensBadge);
  const drawQuery = memo((snap) => {
    const layout = lineFigures(snap, {lecture: snap.lecture});
    if (layout.length === 1 && strongestOnly(snap, layout[0].heads)) {
      box.replaceChildren(linesSvg(ctx, snap, layout[0].heads, true, layout[0].geometry));
      return;
    }
    for (const figure of figures) figure.show(snap);
  });
  const pager = createHeadsPager(ctx);
  const drawStage = memo((snap) => stage.draw(snap));
  function update(snap) {
    view.update(snap);
    if (snap.status === "ready" && !weightsShown(snap) && stepStageShown(snap)) {
      drawStage(`${figuresFrameKey(snap)}|${snap.query}|${snap.reveal}|${snap.focusHead}`, snap);
    }
    if (snap.status === "ready") pager.update(snap);
    if (snap.status === "ready" && weightsShown(snap)) drawQuery(view.drawnKey(weightsKey(snap)), snap);
  }
  const el = h("section", {class: "ae-card ae-card-lines"}, h("div", {class: "ae-card-head"}, view.title, pager.el, tools), box);
  return {el, update};
}
