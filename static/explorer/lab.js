// The lab: the student's own sentence and the numbers editor, which need Python (where there is
// none, in the exported file, the card says so instead), and the answer check, which does not.

import { h, texts } from "./dom.js";
import { createOwnSentence } from "./own_sentence.js";
import { createLazyEditor } from "./editor_lazy.js";
import { createAnswerCheck } from "./answer.js";

export function createLab(ctx) {
  const title = h("h2");
  const serverNote = h("p", {class: "ae-hint", "data-testid": "needs-server"});
  const check = createAnswerCheck(ctx);
  const [sentence, editor] = ctx.state.lab ? [createOwnSentence(ctx), createLazyEditor(ctx)] : [];
  const parts = [sentence, editor, check].filter(Boolean);
  const card = h("section", {class: "ae-card ae-card-lab"}, title, editor ? editor.el : serverNote);
  const drawLabels = texts([[title, "lab_title"], [serverNote, "needs_server"]]);
  function update(snap) {
    drawLabels(snap);
    for (const part of parts) part.update(snap);
    // a model's head is explored, not worked by hand; a lesson's question held is answered in the
    // lesson's box, once (no second checker beside it, no reveal button)
    check.el.hidden = !!(snap.cube && snap.cube.model) || !!snap.held;
  }
  return {
    sentence: sentence ? sentence.el : null, card, check: check.el, update,
    prefill: (text) => { if (sentence) sentence.prefill(text); },
  };
}
