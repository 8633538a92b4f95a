// What the lines, bars and heatmap draw through the lens chosen beside the switches (controls.js),
// in words: for a model's head with the key the lens puts first beside the heaviest weight's (both
// the core's rankings, lens/rank and rank/1, at the model's own switches); or why the lens asked
// for is not drawn.

import { h } from "./dom.js";
import { fmt, tiedAt } from "./format.js";
import { lensBlocked } from "./snapshot.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

export function createLensLine() {
  const el = h("p", {class: "ae-effect", "data-testid": "lens-shown", hidden: true});

  function update(snap) {
    const {t} = snap, blocked = snap.status === "ready" ? lensBlocked(snap) : null;
    el.hidden = snap.status !== "ready" || (snap.lens === "weight" && !blocked);
    el.classList.toggle("ae-warn", !!blocked);
    delete el.dataset.top;
    delete el.dataset.weightTop;
    if (el.hidden) return;
    if (blocked) {
      el.textContent = {lens_blocked_experiment: t("lens_blocked_experiment"), lens_blocked_heads: t("lens_blocked_heads"),
        lens_blocked_sentence: t("lens_blocked_sentence"), lens_blocked_none: t("lens_blocked_none")}[blocked];
      return;
    }
    const {cube, query, modelView} = snap;
    if (!modelView) {  // a sentence's one head: what is drawn
      el.textContent = t("lens_shown_moved_head");
      return;
    }
    const own = cube.model.own;
    const top = cube.lensRankRow(snap.lensAt, query)[0], weightTop = cube.rankRow(own.scale, own.causal, query)[0];
    const shown = {moved: t("lens_shown_moved"), rollout: t("lens_shown_rollout", {layer: modelView.layer + 1}),
      no_sink: t("lens_shown_no_sink")}[snap.lens];
    // every key that ties with the largest at the decimals shown is named
    const lensRow = cube.lensRow(snap.lensAt, query, own.scale, own.causal), weights = cube.weightRow(1, own.scale, own.causal, 0, query);
    const named = (row, first) => tiedAt(row, first).map((key) => cube.tokens[key]).join(", ");
    el.textContent = shown + " " + t("lens_shown_top", {query: cube.tokens[query], top: named(lensRow, top),
      value: fmt(lensRow[top], 3), weight_top: named(weights, weightTop), weight: fmt(weights[weightTop], 3)});
    el.dataset.top = String(top);
    el.dataset.weightTop = String(weightTop);
  }
  return {el, update};
}
