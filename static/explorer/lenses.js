// What attention weights do not tell, for the selected query of a model's head: what each key's
// value actually moves into the output (α ‖v W_O‖), the row without the first token (attention
// sinks), and the attention rollout to this layer. Every number and every comparison is the
// core's (attention_core.lenses, shipped in the head's cube as lens/*).

import { h, labelledCell as cell, memo, scrollBox, texts } from "./dom.js";
import { fmt } from "./format.js";

export function createLenses() {
  const title = h("h2");
  const intro = h("p", {class: "ae-hint"});
  const moved = h("p", {class: "ae-effect", "data-testid": "lens-moved"});
  const ablation = h("p", {class: "ae-effect", "data-testid": "lens-ablation"});
  // the model trained here: what removing the head costs its task on the held-out sentences
  const heldOut = h("p", {class: "ae-effect", "data-testid": "lens-ablation-held-out", hidden: true});
  const table = h("table", {class: "ae-table ae-stack", "data-testid": "lens-table"});
  const notes = h("ul", {class: "ae-hint ae-lens-notes"});
  const el = h("section", {class: "ae-card ae-card-lens", "data-testid": "lenses", hidden: true}, title, intro, moved, ablation, heldOut,
    scrollBox("lenses", {}, table), notes);
  const drawLabels = texts([[title, "lens_title"], [intro, "lens_intro"]]);

  const draw = memo((snap) => {
    const {cube, t, query} = snap;
    el.hidden = !cube.has("lens/moved");
    if (el.hidden) return;
    const {layer, own} = cube.entry.model_head;
    const topWeight = cube.tensor("lens/top_weight").at({query}), topMoved = cube.tensor("lens/top_moved").at({query});
    const names = {weight: cube.tokens[topWeight], moved: cube.tokens[topMoved]};
    moved.textContent = t("lens_top", names) + " " + (topWeight === topMoved ? t("lens_top_same") : t("lens_top_differs"));
    moved.dataset.differs = String(topWeight !== topMoved);
    ablation.textContent = t("lens_ablation", {change: fmt(cube.tensor("lens/ablation_percent").at({query}), 1)});
    const training = snap.modelView && snap.modelView.entry.training, measured = training && training.ablation;
    heldOut.hidden = !measured;
    if (measured) {
      const {head} = cube.entry.model_head;
      heldOut.textContent = t("lens_ablation_held_out", {count: training.held_out, loss: fmt(measured.loss, 3),
        without: fmt(measured.without[layer][head], 3), rank: measured.rank[layer][head],
        heads: measured.without.length * measured.without[0].length});
    }
    const weights = cube.weightRow(1, own.scale, own.causal, 0, query);  // the model's own, whatever the switches
    // each column: its heading, and its number for a key
    const [movedRow, noSinkRow, rolloutRow] = ["lens/moved", "lens/no_sink", "lens/rollout"].map((name) => cube.tensor(name).row({query}));
    const norms = cube.tensor("lens/vnorm");
    const columns = [[t("lens_weight"), (key) => weights[key]], [t("lens_moved"), (key) => movedRow[key]],
      [t("lens_vnorm"), (key) => norms.at({key})], [t("lens_no_sink"), (key) => noSinkRow[key]],
      [t("lens_rollout", {layer: layer + 1}), (key) => rolloutRow[key]]];
    table.replaceChildren(h("caption", {text: t("lens_caption", {query: cube.tokens[query]})}),
      h("thead", {}, h("tr", {}, h("th", {scope: "col", text: t("key")}), ...columns.map(([text]) => h("th", {scope: "col", text})))),
      h("tbody", {}, ...cube.tokens.map((token, key) => h("tr", {"data-key": key},
        h("th", {scope: "row", text: token}), ...columns.map(([label, value]) => cell(label, fmt(value(key), 3)))))));
    notes.replaceChildren(...[t("lens_note_moved"), t("lens_note_sink"), t("lens_note_rollout")].map((text) => h("li", {text})));
  });

  function update(snap) {
    drawLabels(snap);
    if (snap.status === "ready") draw(`${snap.cube.serial}|${snap.query}|${snap.lang}`, snap);
    else el.hidden = true;
  }
  return {el, update};
}
