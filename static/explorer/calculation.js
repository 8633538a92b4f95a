// The hand calculation for the selected query and head, as the book writes it: q·k, ÷√d_k, mask,
// softmax weight, weight × v, output. In step-by-step mode the columns appear one step at a time.

import { h, scrollBox, memo, setAttr, setText, titledView } from "./dom.js";
import { fmt, vector } from "./format.js";
import { viewKey, weightsOnlyReason } from "./snapshot.js";

// The columns after the key's name, in the order of the steps, with their headings.
const COLUMNS = ["score", "scaled", "mask", "softmax", "contribution"];
const headings = (t) => ({key: t("key"), score: t("score"), scaled: t("scaled"), mask: t("mask"), softmax: t("softmax"),
  contribution: t("contribution")});

// The book's own softmax example (numbers from the core, via the constants), under the steps.
function softmaxExample(t, {scores, weights, book}) {
  return h("p", {class: "ae-hint", "data-testid": "softmax-example", text: t("softmax_example", {
    scores: vector(scores, 1), weights: vector(weights, 3), book: vector(book, 2)})});
}

export function createCalculation(ctx) {
  const box = h("div", {class: "ae-calc", "data-testid": "calculation"});
  // What the calculation shows for every query (its formula, columns and steps) is drawn once per
  // view; a query sets its rows, caption, output and the spread on what was drawn (`shown`).
  let shown = null;
  const frameKey = (snap) => viewKey(snap, snap.focusHead, snap.reveal, snap.step, snap.checking, snap.held && snap.held.kind);
  const view = titledView("calc_title", box, frameKey, (snap) => {
    const {cube, heads: H, scale, causal, focusHead: head, reveal, steps, t} = snap;
    shown = null;
    if (cube.weightsOnly) {  // a model's weights alone: no scores to show (model.js says why, and how to see them)
      box.replaceChildren(h("p", {class: "ae-hint", "data-testid": "calc-weights-only", text: weightsOnlyReason(snap)}));
      return;
    }
    const block = cube.block(H);
    // a question held (snapshot.js held): the inputs it is worked from written out first, short vectors only
    const held = snap.held || {inputs: [], hides: []}, inputs = block.d_k <= 4 ? held.inputs.filter((name) => name !== "q") : [];
    const columns = [...inputs, ...COLUMNS.slice(0, Math.min(reveal, COLUMNS.length))];
    const titles = {...headings(t), k: "k", v: "v"};
    // each row's cells, empty; the score's cell holds q·k (short vectors) and then the score. Each
    // cell carries its column's heading: a phone lays the table out per key, a line per step.
    const rows = cube.tokens.map((token) => {
      const cells = Object.fromEntries(columns.map((name) => [name, name === "score" && block.d_k <= 4
        ? h("td", {class: "ae-num", "data-label": titles[name]}, h("span", {class: "ae-dot"}), "")
        : h("td", {class: name === "softmax" ? "ae-num ae-strong" : inputs.includes(name) ? "ae-given" : "ae-num",
          "data-label": titles[name]})]));
      return {row: h("tr", {class: ""}, h("th", {scope: "row", text: token}), ...columns.map((name) => cells[name])), cells};
    });
    const header = h("tr", {}, ...["key", ...columns].map((name) => h("th", {scope: "col", class: inputs.includes(name) ? "ae-given" : "",
      text: titles[name]})));
    const caption = h("caption");
    const output = reveal >= steps ? h("td", {colspan: columns.length, class: "ae-num ae-strong", "data-testid": "output-vector"}) : null;
    const table = h("table", {class: "ae-table ae-stack", "data-testid": "calc-table"},
      caption, h("thead", {}, header), h("tbody", {}, rows.map(({row}) => row)),
      output ? h("tfoot", {}, h("tr", {}, h("th", {scope: "row", text: t("output")}), output)) : null);
    const stepTexts = [t("step_scores"), scale ? t("step_scale") : t("step_noscale"), causal ? t("step_mask") : t("step_nomask"),
      t("step_softmax"), t("step_output")];
    const stepList = h("ol", {class: "ae-steps"}, ...stepTexts.slice(0, Math.min(reveal, stepTexts.length)).map((text, i) =>
      h("li", {class: snap.step >= 0 && i === Math.min(snap.step, stepTexts.length - 1) ? "ae-current" : "", text})));
    // the heads note speaks of the query's weights: its words are set with the query's numbers
    const headsNote = H > 1 && scale && !held.hides.includes("heads_note") ? h("p", {class: "ae-hint", "data-testid": "heads-note"}) : null;
    const formula = h("p", {class: "ae-formula"},
      h("span", {class: "ae-formula-main", text: scale ? "softmax(QKᵀ / √d_k) V" : "softmax(QKᵀ) V"}),
      h("span", {class: "ae-formula-values", text: t("formula_values", {d_k: block.d_k, sqrt_d_k: fmt(block.sqrt_d_k, 3)})}));
    const effect = reveal > 3 && !held.hides.includes("scale_effect") ? h("p", {class: "ae-effect", "data-testid": "scale-effect"}) : null;
    const example = reveal > 3 ? softmaxExample(t, ctx.constants.softmax_example) : null;
    box.replaceChildren(formula, headsNote || "", effect || "", scrollBox(t("calc_title"), {}, table), stepList, example || "");
    // each key's k and v as the rows write them: the same for every query
    const kTexts = block.d_k <= 4 ? cube.tokens.map((_, j) => vector(cube.kRow(H, head, j))) : [];
    const vTexts = columns.includes("contribution") || columns.includes("v") ? cube.tokens.map((_, j) => vector(cube.vRow(H, head, j))) : [];
    shown = {block, rows, caption, output, effect, headsNote, kTexts, vTexts, qAsked: block.d_k <= 4 && held.inputs.includes("q")};
  });

  // The query's numbers, on the rows drawn.
  const drawQuery = memo((snap) => {
    const {cube, heads: H, scale, causal, query: qi, focusHead: head, reveal, t} = snap;
    const {block, rows, caption, output, effect, headsNote, kTexts, vTexts, qAsked} = shown;
    const qText = block.d_k <= 4 ? vector(cube.qRow(H, head, qi)) : "";
    const masked = cube.maskedRow(causal, qi);
    const weights = cube.weightRow(H, scale, causal, head, qi);
    setText(caption, `${cube.tokens[qi]}${qAsked ? ` (q = ${qText})` : ""} — ${t("head")} ${head + 1}/${H}`);
    rows.forEach(({row, cells}, j) => {
      const w = weights[j];
      setAttr(row, "class", masked[j] && reveal > 2 ? "ae-masked" : "");
      if (cells.score) {
        const score = fmt(cube.score(H, head, qi, j), 3);
        if (block.d_k <= 4) {  // q·k spelled out, then the score
          setText(cells.score.firstChild, `${qText}·${kTexts[j]} = `);
          cells.score.lastChild.data = score;
        } else {
          setText(cells.score, score);
        }
      }
      if (cells.k) setText(cells.k, kTexts[j]);
      if (cells.v) setText(cells.v, vTexts[j]);
      if (cells.scaled) setText(cells.scaled, scale ? fmt(cube.scaled(H, true, head, qi, j), 3) : t("not_scaled"));
      if (cells.mask) setText(cells.mask, masked[j] ? "−∞" : "—");
      if (cells.softmax) setText(cells.softmax, fmt(w, 3));
      if (cells.contribution) setText(cells.contribution, `${fmt(w, 3)} × ${vTexts[j]}`);
    });
    if (output) setText(output, "(" + cube.output(H, scale, causal, head, qi).map((x) => fmt(x, 3)).join(", ") + ")");
    // the sentences beside the weights: the ones the core chose for this query's numbers
    const said = cube.scaleEffect(H, causal, head, qi, ctx.constants.scale_effect);
    if (headsNote && said && said.sharpening) {
      setText(headsNote, t(said.sharpening, {count: H, d_model: cube.d_model, d_k: block.d_k, sqrt_d_k: fmt(block.sqrt_d_k, 3),
        sqrt_d_model: fmt(cube.sqrt_d_model, 3), max: fmt(Math.max(...weights.filter((_, j) => !masked[j]))),
        model_max: fmt(said.modelMax), one_max: fmt(Math.max(...cube.weightRow(1, true, causal, 0, qi)))}));
    }
    if (!effect || !said) return;
    // the spread over the keys the query can see, with and without √d_k: both rows come from the cube
    const visible = (row) => row.filter((_, j) => !masked[j]);
    const rowOn = visible(cube.weightRow(H, true, causal, head, qi)), rowOff = visible(cube.weightRow(H, false, causal, head, qi));
    const spread = {on: fmt(Math.max(...rowOn)), on_min: fmt(Math.min(...rowOn)), off: fmt(Math.max(...rowOff)),
      off_min: fmt(Math.min(...rowOff)), weight: fmt(rowOn[0])};
    const undivided = said.effect === "scale_effect" && !scale;  // the same spread, said from the undivided side
    setText(effect, undivided ? t("scale_effect_off", spread) : t(said.effect, spread));
    effect.classList.toggle("ae-warn", undivided);
  });

  function update(snap) {
    view.update(snap);
    if (snap.status === "ready" && shown) drawQuery(view.drawnKey(`${frameKey(snap)}|${snap.query}`), snap);
  }
  return {title: view.title, el: box, update};
}
