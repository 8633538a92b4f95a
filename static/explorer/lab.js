// The lab: the student's own sentence, the numbers editor and the answer check, which all need
// Python. Where there is none (the exported file) the card says so instead.

import { h, texts } from "./dom.js";
import { createOwnSentence } from "./own_sentence.js";
import { createEditor } from "./editor.js";
import { createAnswerCheck } from "./answer.js";

export function createLab(ctx) {
  const title = h("h2");
  const serverNote = h("p", {class: "ae-hint", "data-testid": "needs-server"});
  const parts = ctx.model.lab ? [createOwnSentence(ctx), createEditor(ctx), createAnswerCheck(ctx)] : [];
  const [sentence, editor, check] = parts;
  const card = h("section", {class: "ae-card ae-card-lab"}, title, editor ? editor.el : serverNote);
  const drawLabels = texts([[title, "lab_title"], [serverNote, "needs_server"]]);
  function update(snap) {
    drawLabels(snap);
    for (const part of parts) part.update(snap);
  }
  return {
    sentence: sentence ? sentence.el : null, card, check: check ? check.el : null, update,
    prefill: (text) => { if (sentence) sentence.prefill(text); },
  };
}
