// Concat and W_O (003: MultiHead = Concat(head_1, …, head_h) W_O): for the selected query, each
// head's output as a coloured block, the blocks side by side, times W_O, back to d_model. Every
// number is the core's: the heads' outputs from the cube, W_O and the product from layer/* (the
// core multiplied them); this view only lays them out.

import { h, scrollBox, memo, texts, headColor } from "./dom.js";
import { fmt, short } from "./format.js";
import { viewKey, weightsShown } from "./snapshot.js";

export function createConcatWo() {
  const title = h("h2");
  const intro = h("p", {class: "ae-hint", "data-testid": "concat-intro"});
  // the chapter's own sentence that this view shows, beside it
  const chapter = h("p", {class: "ae-chapter", "data-testid": "concat-chapter"});
  const blocks = h("div", {class: "ae-concat-blocks", "data-testid": "concat-heads"});
  const matrix = scrollBox("");
  const result = h("p", {class: "ae-concat-result", "data-testid": "concat-output"});
  const el = h("section", {class: "ae-card ae-card-concat", "data-testid": "concat-wo", hidden: true},
    title, intro, chapter, blocks, matrix, result);
  const drawTitle = texts([[title, "concat_title"], [chapter, "chapter_concat"]]);

  const draw = memo((snap) => {
    const {cube, t, heads, scale, causal, query} = snap;
    el.hidden = !cube.has("layer/w_o") || !weightsShown(snap);  // no output before the softmax step, nor while working one
    if (el.hidden) return;
    const w_o = cube.tensor("layer/w_o");
    const [width, d_out] = [w_o.size("in"), w_o.size("out")];
    intro.textContent = t("concat_intro", {token: cube.tokens[query], count: heads, d_v: cube.block(heads).d_v, width, d_out});
    blocks.replaceChildren(...Array.from({length: heads}, (_, head) => h("div", {class: "ae-concat-block",
      style: `border-color:${headColor(head)}`, "data-head": head},
      h("span", {class: "ae-concat-head", style: `background:${headColor(head)}`, text: `${t("head")} ${head + 1}`}),
      ...cube.output(heads, scale, causal, head, query).map((x) => h("span", {class: "ae-num", text: fmt(x, 3)})))));
    matrix.setAttribute("aria-label", t("concat_title"));
    matrix.replaceChildren(h("table", {class: "ae-table ae-concat-matrix", "data-testid": "concat-wo-matrix"},
      h("caption", {text: t("concat_matrix", {width, d_out})}),
      h("tbody", {}, ...Array.from({length: width}, (_, i) => h("tr", {},
        h("th", {scope: "row", style: `color:${headColor(Math.floor(i / cube.block(heads).d_v))}`, text: String(i + 1)}),
        ...w_o.row({in: i}).map((x) => h("td", {class: "ae-num", text: short(x)})))))));
    const output = cube.tensor(`layer/out/${heads}`).row({scale: +scale, causal: +causal, token: query});
    result.textContent = t("concat_output", {token: cube.tokens[query], output: "(" + output.map((x) => fmt(x, 3)).join(", ") + ")"});
  });
  return {el, update(snap) {
    drawTitle(snap);
    if (snap.status === "ready") draw(viewKey(snap, snap.query, weightsShown(snap)), snap);
  }};
}
