// Two checkpoints with the same tokenizer, one head on the same sentence: A₁ − A₂ (this checkpoint's
// weights less the other's) on a diverging scale, orange where a weight grew, blue where it shrank,
// and, for the selected query, the key that changed the most with both its weights. Every number
// is the core's (attention_core.lenses.difference, shipped in the head's cube as diff/*), at the
// model's own switches.

import { h, memo, s, texts } from "./dom.js";
import { fmt, shortLabel, tiedAt } from "./format.js";

// the diverging scale's two ends (orange: grew here; blue: larger in the other checkpoint), and
// the most colour a cell takes: dark text keeps 5:1 on either at full change (WCAG AA)
const GREW = "#c85a00", SHRANK = "#1f63b5", DEEPEST = 0.7;
const signed = (x) => (x > 0 ? "+" : "") + fmt(x, 3);

// The other checkpoint, in the page's words: a training step, or a folder.
export function comparedLabel(t, compared) {
  return compared.step !== undefined ? t("diff_step", {step: compared.step}) : t("diff_folder", {folder: compared.folder});
}

export function createDifference(ctx) {
  const title = h("h2"), intro = h("p", {class: "ae-hint", "data-testid": "diff-intro"});
  const withText = h("span");
  const select = h("select", {id: "ae-compare", class: "ae-select", "data-testid": "diff-with",
    on: {change: () => ctx.actions.set({compare: select.value})}});
  const summary = h("p", {class: "ae-effect", "data-testid": "diff-summary"});
  const grid = h("div", {class: "ae-heat ae-diff", "data-testid": "diff-heatmap"});
  const legend = h("p", {class: "ae-hint", "data-testid": "diff-legend"});
  const el = h("section", {class: "ae-card ae-card-diff", "data-testid": "diff", hidden: true}, title, intro,
    h("label", {for: "ae-compare", class: "ae-switch"}, withText, select), summary, grid, legend);
  const drawLabels = texts([[title, "diff_title"], [withText, "diff_with"]]);

  // the grid: every query's changes for one other checkpoint
  const drawGrid = memo((snap, other, label) => {
    const {cube, t} = snap, n = cube.n, change = cube.tensor("diff/weights"), causal = cube.model.own.causal;
    // lecture mode draws the labels larger (CSS): they get more room, as the heatmap's
    const cell = Math.max(18, Math.min(44, Math.floor(320 / n))), labels = snap.lecture ? 112 : 86, size = labels + n * cell + 4;
    const svg = s("svg", {viewBox: `0 0 ${size} ${size}`, class: "ae-heat-svg", role: "img", "aria-label": `${t("diff_title")} — ${label}`});
    for (let i = 0; i < n; i++) {
      svg.append(s("text", {x: labels - 6, y: labels + i * cell + cell / 2 + 5, "text-anchor": "end", class: "ae-heat-label",
        text: shortLabel(cube.tokens[i], 7)}),
      s("text", {x: 0, y: 0, class: "ae-heat-label", transform: `translate(${labels + i * cell + cell / 2 + 5},${labels - 6}) rotate(-60)`,
        text: shortLabel(cube.tokens[i], 7)}));
      const row = change.row({other, query: i});
      row.forEach((delta, j) => {
        const x = labels + j * cell, y = labels + i * cell, masked = cube.masked(causal, i, j);
        svg.append(s("rect", {x, y, width: cell - 1, height: cell - 1, class: "ae-diff-cell", "data-row": i, "data-key": j,
          fill: masked ? "#f3f3f3" : delta >= 0 ? GREW : SHRANK, "fill-opacity": masked ? 1 : (0.04 + DEEPEST * Math.min(1, Math.abs(delta))).toFixed(3)}));
        if (!masked && cell >= 30) {
          svg.append(s("text", {x: x + cell / 2, y: y + cell / 2 + 4, "text-anchor": "middle",
            class: "ae-heat-num", text: signed(delta)}));
        }
      });
    }
    grid.replaceChildren(h("figure", {class: "ae-heat-fig"}, svg));
  });

  function update(snap) {
    drawLabels(snap);
    const compared = snap.modelView ? snap.modelView.entry.compared || [] : [];
    el.hidden = snap.status !== "ready" || !compared.length || !snap.cube.has("diff/weights") || snap.checking;
    if (el.hidden) return;
    const {cube, t, query, modelView: {compareAt: other}} = snap;
    const labels = compared.map((entry) => comparedLabel(t, entry)), label = labels[other];
    intro.textContent = t("diff_intro", {other: label});
    // the options follow the checkpoints compared (another training step compares with others) and the language
    const optionsKey = [snap.lang, ...compared.map((entry) => entry.name)].join("|");
    if (select.dataset.options !== optionsKey) {
      select.replaceChildren(...compared.map((entry, i) => h("option", {value: entry.name, text: labels[i]})));
      select.dataset.options = optionsKey;
    }
    select.value = compared[other].name;
    drawGrid(`${cube.serial}|${other}|${snap.lang}|${snap.lecture}`, snap, other, label);
    const key = cube.tensor("diff/top").at({other, query});
    const own = cube.model.own;
    const change = (j) => cube.tensor("diff/weights").at({other, query, key: j});
    const here = (j) => fmt(cube.weight(1, own.scale, own.causal, 0, query, j), 3);
    // every key whose change looks as large as the top one's at the decimals shown (the second query
    // of a causal head always has two: its weights sum to one)
    const tied = tiedAt(cube.tensor("diff/weights").row({other, query}), key);
    summary.textContent = tied.length > 1
      ? t("diff_summary_tied", {query: cube.tokens[query], other: label,
        keys: tied.map((j) => t("diff_tied_key", {key: cube.tokens[j], change: signed(change(j)), here: here(j)})).join(", ")})
      : t("diff_summary", {query: cube.tokens[query], key: cube.tokens[key], other: label, here: here(key), change: signed(change(key))});
    summary.dataset.key = String(key);
    summary.dataset.keys = tied.join(",");
    legend.textContent = t("diff_legend", {other: label});
    for (const rect of grid.querySelectorAll(".ae-diff-row")) rect.remove();
    const svg = grid.querySelector("svg");
    if (svg) {
      const cellRect = svg.querySelector(".ae-diff-cell");
      const size = Number(cellRect.getAttribute("width")) + 1, start = Number(cellRect.getAttribute("x"));
      svg.append(s("rect", {x: start - 2, y: start + query * size - 2, width: cube.n * size + 3, height: size + 3, class: "ae-heat-row ae-diff-row"}));
    }
  }
  return {el, update};
}
