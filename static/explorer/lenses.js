// What attention weights do not tell, for the selected query of a model's head: what each key's
// value actually moves into the output (α ‖v W_O‖), the row without the first token (attention
// sinks), and the attention rollout to this layer. Every number and every comparison is the
// core's (attention_core.lenses, shipped in the head's cube as lens/*). The head's ablation (the
// model run again without it) comes in an exported file's cube; a served page asks Python for it
// when the student presses the button (a forward pass: too slow to make with every head opened).

import { h, labelledCell as cell, memo, scrollBox, texts } from "./dom.js";
import { fmt, tiedAt } from "./format.js";

export function createLenses(ctx) {
  const title = h("h2");
  const intro = h("p", {class: "ae-hint"});
  const moved = h("p", {class: "ae-effect", "data-testid": "lens-moved"});
  const ablationText = h("span");
  const run = h("button", {type: "button", class: "ae-chip", "data-testid": "lens-ablation-run",
    on: {click: () => ctx.actions.measureAblation(current)}});
  const ablation = h("p", {class: "ae-effect", "data-testid": "lens-ablation"}, ablationText, " ", run);
  // a causal model's next token after the last one, with the head and without it (with the ablation)
  const nextLine = h("p", {class: "ae-effect", "data-testid": "lens-next", hidden: true});
  let current = null;  // the head cube on show
  // the model trained here: what removing the head costs its task on the held-out sentences
  const heldOut = h("p", {class: "ae-effect", "data-testid": "lens-ablation-held-out", hidden: true});
  const table = h("table", {class: "ae-table ae-stack", "data-testid": "lens-table"});
  const notes = h("ul", {class: "ae-hint ae-lens-notes"});
  const el = h("section", {class: "ae-card ae-card-lens", "data-testid": "lenses", hidden: true}, title, intro, moved, ablation, nextLine, heldOut,
    scrollBox("lenses", {}, table), notes);
  const drawLabels = texts([[title, "lens_title"], [intro, "lens_intro"]]);

  const draw = memo((snap) => {
    const {cube, t, query} = snap;
    el.hidden = !cube.has("lens/moved");
    if (el.hidden) return;
    const {layer, own} = cube.entry.model_head;
    const topWeight = cube.tensor("lens/top_weight").at({query}), topMoved = cube.tensor("lens/top_moved").at({query});
    // every key that ties with the largest at the decimals the table shows
    const weightTops = tiedAt(cube.weightRow(1, own.scale, own.causal, 0, query), topWeight);
    const movedTops = tiedAt(cube.tensor("lens/moved").row({query}), topMoved);
    const names = {weight: weightTops.map((key) => cube.tokens[key]).join(", "), moved: movedTops.map((key) => cube.tokens[key]).join(", ")};
    const shared = weightTops.filter((key) => movedTops.includes(key));
    const same = shared.length === weightTops.length && shared.length === movedTops.length;
    moved.textContent = t("lens_top", names) + " " + (same ? t("lens_top_same") : shared.length ? t("lens_top_shared") : t("lens_top_differs"));
    moved.dataset.differs = String(!shared.length);
    drawAblation(snap);
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

  // the head's ablation for the query: in its cube (a file), asked of Python (a served page), or
  // the button that asks for it
  function drawAblation(snap) {
    const {cube, t, query} = snap;
    const asked = ctx.actions.ablationOf(cube);
    const percent = cube.has("lens/ablation_percent") ? cube.tensor("lens/ablation_percent").at({query})
      : Array.isArray(asked) ? asked[query] : null;
    ablation.dataset.state = percent !== null ? "measured" : asked === "waiting" ? "waiting" : "ask";
    ablation.hidden = percent === null && !snap.lab;
    ablationText.textContent = percent !== null ? t("lens_ablation", {change: fmt(percent, 1)})
      : asked === "waiting" ? t("lens_ablation_waiting") : t("lens_ablation_ask");
    run.hidden = percent !== null;
    run.disabled = asked === "waiting";
    run.textContent = t("lens_ablation_run");
    const next = ctx.actions.nextChangeOf(cube);
    nextLine.hidden = !next;
    if (next) {
      const said = {token: next.top_token, before: fmt(next.before, 3), after: fmt(next.after, 3), other: next.top_after_token};
      nextLine.textContent = next.changed ? t("lens_next_changed", said) : t("lens_next_same", said);
      nextLine.dataset.changed = String(next.changed);
    }
  }

  function update(snap) {
    drawLabels(snap);
    current = snap.status === "ready" ? snap.cube : null;
    if (snap.status === "ready") {
      const asked = ctx.actions.ablationOf(snap.cube);
      draw(`${snap.cube.serial}|${snap.query}|${snap.lang}|${Array.isArray(asked) ? "measured" : asked || ""}`, snap);
    } else el.hidden = true;
  }
  return {el, update};
}
