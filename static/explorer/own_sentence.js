// The student's own sentence: typed here, tokenized and given toy Q/K/V by Python (the core).

import { h, memo } from "./dom.js";

export function createOwnSentence(ctx) {
  const label = h("label", {for: "ae-own"});
  const input = h("input", {type: "text", id: "ae-own", class: "ae-input", "data-testid": "sentence-input",
    autocomplete: "off", spellcheck: "false"});
  const apply = h("button", {type: "button", class: "ae-chip", "data-testid": "sentence-apply"});
  const error = h("p", {class: "ae-field-error", role: "status", "data-testid": "sentence-error"});
  const submit = () => ctx.actions.sendSentence(input.value, null);
  apply.addEventListener("click", submit);
  input.addEventListener("keydown", (event) => { if (event.key === "Enter") submit(); });
  const el = h("div", {class: "ae-control ae-control-own"}, label, h("div", {class: "ae-inline"}, input, apply), error);
  const drawLabels = memo(({t}) => {
    label.textContent = t("my_sentence");
    input.setAttribute("placeholder", t("my_sentence_placeholder"));
    input.setAttribute("title", t("my_sentence_hint"));
    apply.textContent = t("apply");
  });
  const drawError = memo(({t, sentenceError}) => {
    error.textContent = sentenceError ? t(`err_${sentenceError.code}`, sentenceError.values) : "";
  });
  function update(snap) {
    drawLabels(snap.lang, snap);
    drawError(`${snap.lang}|${JSON.stringify(snap.sentenceError)}`, snap);
  }
  // A sentence from the link (text=) shows in the box while Python reads it.
  const prefill = (text) => { input.value = text; };
  return {el, update, prefill};
}
