// The rotation (RoPE) of a Llama-family head, for the selected query: each pair of q's dimensions
// before and after it turns by its angle, the scores with and without the rotation (an
// experiment), and the demonstration that moving every token leaves the scores as they are.
// Every number is the core's (attention_core.rotary, shipped in the head's cube as rope/*).

import { h, labelledCell as cell, memo, scrollBox, texts } from "./dom.js";
import { fmt, vector } from "./format.js";

// Lecture mode shows the first and the last of a head's pairs (their angles from the fastest to
// the slowest turning), and says how many lie between: a real model's 32 rows take no screen.
const LECTURE_PAIRS = 3;

export function createRotation() {
  const title = h("h2");
  const intro = h("p", {class: "ae-hint", "data-testid": "rope-intro"});
  const pairs = h("table", {class: "ae-table ae-stack", "data-testid": "rope-pairs"});
  const scores = h("table", {class: "ae-table ae-stack", "data-testid": "rope-scores"});
  const shift = h("p", {class: "ae-effect", "data-testid": "rope-shift"});
  const el = h("section", {class: "ae-card ae-card-rope", "data-testid": "rotation", hidden: true}, title, intro,
    scrollBox("q", {}, pairs), shift, scrollBox("q·k", {}, scores));
  const drawLabels = texts([[title, "rope_title"]]);
  const head = (...names) => h("thead", {}, h("tr", {}, ...names.map((text) => h("th", {scope: "col", text}))));

  const draw = memo((snap) => {
    const {cube, t, query} = snap;
    const rotation = cube.entry.model_head && cube.entry.model_head.rotation;
    el.hidden = !rotation || !cube.has("rope/angle");
    if (el.hidden) return;
    intro.textContent = t("rope_intro", {theta: fmt(rotation.theta, 0)});
    const angle = cube.tensor("rope/angle").row({token: query});
    const before = cube.tensor("rope/q_plain").row({token: query}), after = cube.tensor("q").row({token: query});
    const half = angle.length;
    pairs.replaceChildren(h("caption", {text: t("rope_pairs_caption", {query: cube.tokens[query], position: query})}),
      head(t("rope_pair"), t("rope_angle"), t("rope_before"), t("rope_after")),
      h("tbody", {}, ...angle.flatMap((radians, i) => {
        const middle = i >= LECTURE_PAIRS && i < half - LECTURE_PAIRS;
        const row = h("tr", {class: middle ? "ae-rope-middle" : null},
          h("th", {scope: "row", text: `${i + 1}, ${i + 1 + half}`}), cell(t("rope_angle"), fmt(radians, 3)),
          cell(t("rope_before"), vector([before[i], before[i + half]], 3)),
          cell(t("rope_after"), vector([after[i], after[i + half]], 3)));
        // where lecture mode leaves the middle out, one row says how many pairs it leaves
        const gap = i === LECTURE_PAIRS && middle ? [h("tr", {class: "ae-rope-gap", "data-testid": "rope-gap"},
          h("td", {colspan: 4, text: t("rope_pairs_between", {count: half - 2 * LECTURE_PAIRS})}))] : [];
        return [...gap, row];
      })));
    const turned = cube.tensor("scores/1"), plain = cube.tensor("rope/scores_plain");
    scores.replaceChildren(h("caption", {text: t("rope_scores_caption", {query: cube.tokens[query]})}),
      head(t("key"), t("rope_with"), t("rope_without")),
      h("tbody", {}, ...cube.tokens.map((token, key) => h("tr", {},
        h("th", {scope: "row", text: token}), cell(t("rope_with"), fmt(turned.at({head: 0, query, key}), 3)),
        cell(t("rope_without"), fmt(plain.at({query, key}), 3))))));
    shift.textContent = t("rope_shift", {shift: rotation.shift, difference: rotation.shift_difference.toExponential(1)});
  });

  function update(snap) {
    drawLabels(snap);
    if (snap.status === "ready") draw(`${snap.cube.serial}|${snap.query}|${snap.lang}`, snap);
    else el.hidden = true;
  }
  return {el, update};
}
