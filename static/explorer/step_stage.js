// Before the softmax step, the stage shows the calculation so far where the lines will be drawn:
// the query's row, a key a line — q·k, then ÷√d_k, then the mask — large enough to read from the
// back of a room, so that a lesson's stop at scores, ÷√d_k or the mask shows the numbers its note
// speaks of on the first screen (no card needed). Every number is the cube's (the core's).

import { h, setText } from "./dom.js";
import { fmt, vector } from "./format.js";

// Whether the stage shows the calculation so far: a step before softmax, not a room's question's or
// a worked answer's hiding (those say why instead; a lesson's question held shows what it is
// worked from: snapshot.js held), on a view whose scores are known.
export function stepStageShown(snap) {
  return !snap.polling && (!snap.checking || !!snap.held) && (snap.reveal >= 1 || stageInputs(snap).length > 0)
    && snap.reveal < 4 && !snap.cube.weightsOnly;
}

// The inputs a lesson's question held is worked from (app/stop_shows.py HELD: each key's k, or v),
// written out where they are short (d_k ≤ 4), as the calculation writes them; the query's q goes
// in the caption.
const stageInputs = (snap) => (snap.held && !snap.cube.weightsOnly && snap.cube.block(snap.heads).d_k <= 4
  ? snap.held.inputs.filter((name) => name !== "q") : []);

// The element, and draw(snap) filling it for the query, head and step on show.
export function createStepStage() {
  const caption = h("p", {class: "ae-step-stage-caption", "data-testid": "step-stage-caption"});
  const head = h("tr");
  const body = h("tbody");
  const el = h("div", {class: "ae-step-stage", "data-testid": "step-stage"}, caption,
    h("table", {class: "ae-step-table"}, h("thead", {}, head), body));
  function draw(snap) {
    const {cube, heads: H, scale, causal, query: qi, focusHead: focus, reveal, t} = snap;
    const inputs = stageInputs(snap);
    const columns = [...inputs.map((name) => [name, name]), ...(reveal >= 1 ? [["score", t("score")]] : []),
      ...(reveal >= 2 ? [["scaled", t("scaled")]] : []), ...(reveal >= 3 ? [["mask", t("mask")]] : [])];
    el.dataset.step = String(reveal - 1);
    setText(caption, reveal >= 1 ? t("step_stage_caption", {query: cube.tokens[qi], head: focus + 1, heads: H, step: t(`step_name_${reveal - 1}`)})
      : t("step_stage_held", {query: cube.tokens[qi], head: focus + 1, heads: H, q: vector(cube.qRow(H, focus, qi))}));
    head.replaceChildren(h("th", {scope: "col", text: t("key")}), ...columns.map(([, title]) => h("th", {scope: "col", text: title})));
    const masked = cube.maskedRow(causal, qi);
    body.replaceChildren(...cube.tokens.map((token, j) => h("tr", {class: masked[j] && reveal >= 3 ? "ae-masked" : "", "data-key": j},
      h("th", {scope: "row", text: token}),
      ...columns.map(([name]) => h("td", {class: "ae-num", "data-cell": name, text:
        name === "k" ? vector(cube.kRow(H, focus, j)) : name === "v" ? vector(cube.vRow(H, focus, j))
          : name === "score" ? fmt(cube.score(H, focus, qi, j), 3)
          : name === "scaled" ? (scale ? fmt(cube.scaled(H, true, focus, qi, j), 3) : t("not_scaled"))
            : (causal && masked[j] ? "−∞" : "—")})))));
  }
  return {el, draw};
}
