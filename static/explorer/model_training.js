// The model trained here (app/trained_model.py), in the model's card: its saved steps on a slider,
// how well it does at the step on show, the claim for the head on show where the measurement
// supports one (claims()), and the words it knows. Hidden on any other model.

import { h, memo, texts } from "./dom.js";
import { fmt } from "./format.js";
import { counted } from "./model_heads.js";

// The claim for the head on show: the held-out average, and beside it what the sentence on screen
// gives (never one read as the other); or that the measurement supports none.
function sayClaim(claim, info, layer, head, t) {
  const found = info.claims.find((c) => c.layer === layer && c.head === head);
  const roles = {object: t("role_object"), time: t("role_time"), subject: t("role_subject")};
  claim.hidden = false;
  claim.dataset.role = found ? found.role : "";
  const values = found && {...counted(layer, head), role: roles[found.role], share: fmt(found.share, 2), count: info.held_out,
    word: found.word, here: found.here === null ? "" : fmt(found.here, 3)};
  claim.textContent = !found ? t("head_no_claim", counted(layer, head))
    : found.word ? t("head_claim", values) : t("head_claim_no_word", values);
}

// Its parts sit apart in the card: {training (the slider), learned, vocabulary, claim, update(snap)},
// update only while a model is on show.
export function createTraining(ctx) {
  const {actions} = ctx;
  let shown = null;  // the entry on show: the slider's steps are its training's
  const stepText = h("span"), stepValue = h("output", {for: "ae-training-step", "data-testid": "training-step-value"});
  const stepSlider = h("input", {type: "range", min: "0", step: "1", id: "ae-training-step", "data-testid": "training-step",
    on: {input: () => {
      const {kind, training} = shown;  // every saved step is an entry of the same kind
      actions.set({source: {kind, name: training.names[Number(stepSlider.value)]}});
    }}});
  const training = h("div", {class: "ae-training", "data-testid": "training"},
    h("label", {for: "ae-training-step", class: "ae-switch"}, stepText, stepSlider, stepValue));
  const learned = h("p", {class: "ae-hint", "data-testid": "training-accuracy"});
  const claim = h("p", {class: "ae-effect", "data-testid": "head-claim"});
  const vocabularyTitle = h("summary"), vocabularyList = h("p", {class: "ae-vocabulary"});
  const vocabulary = h("details", {class: "ae-hint", "data-testid": "vocabulary"}, vocabularyTitle, vocabularyList);
  const drawLabels = texts([[stepText, "training_step"], [vocabularyTitle, "vocabulary_title"]]);
  // the words change with the model, not with its head or a click on a token
  const drawVocabulary = memo((entry) => { vocabularyList.textContent = entry.vocabulary.join(" · "); });
  function update(snap) {
    const {entry, layer, head} = snap.modelView, info = entry.training, t = snap.t;
    shown = entry;
    drawLabels(snap);
    training.hidden = learned.hidden = vocabulary.hidden = !info;
    claim.hidden = true;
    if (!info) return;
    const at = info.names.indexOf(entry.name), last = info.steps[info.steps.length - 1];
    stepSlider.max = String(info.names.length - 1);
    stepSlider.value = String(at);
    stepValue.textContent = t("training_step_value", {step: info.steps[at], last});
    stepSlider.setAttribute("aria-valuetext", t("training_step_spoken", {step: info.steps[at], last}));
    learned.textContent = t("training_accuracy", {count: info.held_out, word: fmt(100 * info.accuracy.word, 1),
      verb: fmt(100 * info.accuracy.verb, 1), tense: fmt(100 * info.accuracy.tense, 1), honorific: fmt(100 * info.accuracy.honorific, 1)});
    sayClaim(claim, info, layer, head, t);
    drawVocabulary(entry.name, entry);
  }
  return {training, learned, vocabulary, claim, update};
}
