// What the model trained here fills in (app/models.py masked_entry, from attention_core.prediction):
// it was trained on masked words, not the next one, so the card hides the sentence's last word,
// the predicate, as [MASK] and shows the model's top 5 for it, whether the first is the word
// hidden, and each layer's guess there as a one-column lens grid. It follows the training step on
// show (each step's entry carries its own), in an exported file and a served page alike.

import { h, texts } from "./dom.js";
import { fmt } from "./format.js";
import { createLensGrid, saidItem } from "./lens_grid.js";

export function createMaskedWord(ctx) {
  const title = h("h2");
  const intro = h("p", {class: "ae-hint", "data-testid": "fill-intro"});
  const list = h("ol", {class: "ae-next-list", "data-testid": "fill-token"});
  const verdict = h("p", {class: "ae-effect", "data-testid": "fill-verdict"});
  const lensTitle = h("h3"), lensHint = h("p", {class: "ae-hint"});
  const lens = createLensGrid({table: "fill-lens", detail: "fill-detail", cell: "fill-cell"});
  const el = h("section", {class: "ae-card ae-card-next", "data-testid": "fill-card", hidden: true},
    title, intro, list, verdict, lensTitle, lensHint, lens.el);
  const drawLabels = texts([[title, "fill_title"], [lensTitle, "logit_lens_title"], [lensHint, "fill_lens_caption"]]);

  function update(snap) {
    drawLabels(snap);
    const entry = snap.modelView ? snap.modelView.entry : null;
    const fill = entry && entry.fill;
    el.hidden = !fill;
    if (!fill) return;
    const {t} = snap;
    intro.textContent = t("fill_intro", {word: fill.word});
    list.setAttribute("aria-label", t("fill_list", {word: fill.word}));
    const rows = fill.top.map((token, i) => `${token.id}|${token.probability}|${i}`).join(",");
    if (list.dataset.rows !== rows) {
      list.dataset.rows = rows;
      list.replaceChildren(...fill.top.map((token, i) => saidItem(token, {"data-testid": `fill-row-${i}`})));
    }
    const first = fill.top[0];
    verdict.textContent = first.token === fill.word ? t("fill_right", {word: fill.word, probability: fmt(first.probability, 3)})
      : t("fill_wrong", {word: fill.word, guess: first.token, probability: fmt(first.probability, 3)});
    lens.drawColumn(t, {position: fill.position, token: "[MASK]", top: fill.lens},
      {cellName: (values) => t("fill_lens_cell", values), title: t("logit_lens_title")});
  }
  return {el, update};
}
