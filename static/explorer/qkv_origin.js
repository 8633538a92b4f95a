// Where Q, K and V come from (003: Q = X W_Q; 000: input = token embedding + position): for a preset
// that shows it, E + P = X, the weight matrices and their products as small tables with their
// shapes, the selected token's row traced through them. Every number is the core's
// (attention_core.layer, shipped in the cube as layer/*); X W_Q, X W_K, X W_V are the cube's q, k, v.

import { h, memo, texts } from "./dom.js";
import { short, shortVector } from "./format.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

// The matrices shown, in reading order: [cube array, its name, testid suffix, what its rows are:
// the tokens, the positions, or the input's dimensions].
function matrices(t) {
  return [
    ["layer/e", t("qkv_e"), "e", "token"], ["layer/p", t("qkv_p"), "p", "position"], ["layer/x", t("qkv_x"), "x", "token"],
    ["layer/w_q", t("qkv_w_q"), "w_q", "dimension"], ["layer/w_k", t("qkv_w_k"), "w_k", "dimension"],
    ["layer/w_v", t("qkv_w_v"), "w_v", "dimension"], ["q", t("qkv_q"), "q", "token"], ["k", t("qkv_k"), "k", "token"],
    ["v", t("qkv_v"), "v", "token"],
  ];
}

// The typed W cells, as the Python side reads them ({w_q: [[text]], ...}), from the inputs on screen.
function typedWeights(grid) {
  const weights = {};
  for (const name of ["w_q", "w_k", "w_v"]) {
    const rows = grid.querySelectorAll(`[data-testid=qkv-matrix-${name}] tbody tr`);
    weights[name] = Array.from(rows, (row) => Array.from(row.querySelectorAll("input"), (input) => input.value));
  }
  return weights;
}

export function createQkvOrigin(ctx) {
  const editable = !!ctx.state.lab;  // changing W needs Python to compute what follows
  const title = h("h2");
  const intro = h("p", {class: "ae-hint"});
  // the chapter's own sentence that this view shows, beside it
  const chapter = h("p", {class: "ae-chapter", "data-testid": "qkv-chapter"});
  const edit = h("p", {class: "ae-hint", hidden: !editable});
  const trace = h("p", {class: "ae-qkv-trace", "data-testid": "qkv-trace"});
  const grid = h("div", {class: "ae-qkv-grid"});
  const errors = h("ul", {class: "ae-grid-errors", "data-testid": "w-errors"});  // a list: announced by its live box
  const el = h("section", {class: "ae-card ae-card-qkv", "data-testid": "qkv-origin", hidden: true}, title, intro, chapter, edit,
    trace, grid, h("div", {role: "status"}, errors));
  const drawLabels = texts([[title, "qkv_title"], [intro, "qkv_intro"], [chapter, "chapter_qkv"], [edit, "qkv_edit"]]);
  let base = null;  // the sentence whose layer the cells belong to
  const send = () => ctx.actions.send({type: "layer", base, ...typedWeights(grid)});
  // a number cell of W: typed here, computed with in Python
  const cell = (name, i, j, x) => h("input", {type: "text", inputmode: "decimal", class: "ae-cell ae-w-cell", value: short(x),
    "aria-label": `${name.toUpperCase()} ${i + 1}, ${j + 1}`, "data-testid": `w-cell-${name}-${i}-${j}`,
    on: {change: send, keydown: (event) => { if (event.key === "Enter") send(); }}});

  const draw = memo((snap) => {
    const {cube, t, query} = snap;
    el.hidden = !cube.has("layer/x");
    if (el.hidden) return;
    base = cube.entry.name;
    const rowName = {token: (i) => cube.tokens[i], position: (i) => t("qkv_position", {index: i + 1}), dimension: (i) => String(i + 1)};
    grid.replaceChildren(...matrices(t).map(([name, label, id, rowsAre]) => {
      const numbers = cube.tensor(name).matrix();
      const [rows, cols] = [numbers.length, numbers[0].length];
      const body = numbers.map((values, i) => h("tr", {class: rowsAre !== "dimension" && i === query ? "ae-selected-row" : ""},
        h("th", {scope: "row", text: rowName[rowsAre](i)}),
        ...values.map((x, j) => h("td", {class: "ae-num"},
          editable && rowsAre === "dimension" ? cell(id, i, j, x) : short(x)))));
      return h("figure", {class: "ae-qkv-matrix"},
        h("figcaption", {}, label, " ", h("span", {class: "ae-shape", text: `(${rows} × ${cols})`})),
        h("table", {class: "ae-table", "data-testid": `qkv-matrix-${id}`}, h("tbody", {}, body)));
    }));
    const row = (name) => shortVector(cube.tensor(name).row({token: query}));
    trace.textContent = t("qkv_trace", {token: cube.tokens[query], e: row("layer/e"), p: row("layer/p"), x: row("layer/x"),
      q: row("q"), k: row("k"), v: row("v")});
  });
  // the cells Python refused, marked in place and listed; the rest of the page keeps its numbers
  const drawErrors = memo((snap) => {
    for (const input of grid.querySelectorAll("input[aria-invalid]")) input.removeAttribute("aria-invalid");
    errors.replaceChildren(...snap.layerErrors.map((error) => {
      const input = grid.querySelector(`[data-testid=w-cell-${error.where}-${error.row}-${error.col}]`);
      if (input) input.setAttribute("aria-invalid", "true");
      const where = error.row >= 0 ? `${error.where.toUpperCase()} ${error.row + 1}, ${error.col + 1}: ` : "";
      return h("li", {text: where + snap.t(`err_${error.code}`, error.values)});
    }));
  });
  return {el, update(snap) {
    drawLabels(snap);
    if (snap.status !== "ready") return;
    draw(`${snap.cube.serial}|${snap.query}|${snap.lang}`, snap);
    drawErrors(`${snap.cube.serial}|${snap.lang}|${JSON.stringify(snap.layerErrors)}`, snap);
  }};
}
