// "Check my answer": the student's output vector is checked on the page against the paths the core
// computed (checker.js), for the exact view on screen; the verdict shows while that view is on screen.
// checker.js and its words arrive with the first check (bench/first_load.py: the first screen loads
// only what it draws).

import { h, memo, texts } from "./dom.js";
import { sameSource } from "./source.js";

// The view a verdict is about, from a snapshot, in the shape Python echoes back.
export function checkedView(snap) {
  return {source: snap.source, query: snap.query, heads: snap.heads, head: snap.focusHead, scale: snap.scale,
    causal: snap.causal, all_heads: snap.headView < 0 && snap.heads > 1};
}

function sameView(verdict, view) {
  return Object.entries(view).every(([name, value]) => (name === "source" ? sameSource(verdict.source, value)
    : verdict[name] === value));
}

export function createAnswerCheck(ctx) {
  const title = h("h3");
  const hint = h("p", {class: "ae-hint"});
  const label = h("label", {for: "ae-answer"});
  const input = h("input", {type: "text", id: "ae-answer", class: "ae-input", "data-testid": "answer-input",
    autocomplete: "off", spellcheck: "false"});
  // the weights too, if the student wants credit for an output computed right from wrong weights
  const weightsLabel = h("label", {for: "ae-answer-weights"});
  const weightsInput = h("input", {type: "text", id: "ae-answer-weights", class: "ae-input", "data-testid": "answer-weights",
    autocomplete: "off", spellcheck: "false"});
  const button = h("button", {type: "button", class: "ae-chip", "data-testid": "answer-check"});
  const result = h("p", {class: "ae-answer", role: "status", "data-testid": "answer-result"});
  let current = null;  // the snapshot on screen
  let judged = null;   // checker.js once it is here
  let checking = null;  // checker.js on its way, asked for once
  const checker = () => (checking = checking || ctx.firstUse(() => import("./checker.js")));
  const submit = () => {
    if (!current || current.status !== "ready") return;
    const snap = current;
    const [answer, weights] = [input.value, weightsInput.value || null];
    checker().then((module) => {
      judged = module;
      const view = checkedView(snap);
      const verdict = module.judgeAnswer(answer, snap.cube, view, ctx.constants.checker, weights);
      // right: the weights and the output may show again
      ctx.actions.setLocal({answer: {...verdict, ...view}});
      if (module.isRight(verdict)) ctx.actions.set({checking: false});
    });
  };
  button.addEventListener("click", submit);
  for (const field of [input, weightsInput]) field.addEventListener("keydown", (event) => { if (event.key === "Enter") submit(); });
  // Working an answer hides the weights and the output until it is right or revealed.
  const mode = h("button", {type: "button", class: "ae-chip", "aria-pressed": "false", "data-testid": "check-mode",
    on: {click: () => ctx.actions.set({checking: !ctx.state.checking})}});
  const el = h("div", {class: "ae-check"}, h("div", {class: "ae-card-head"}, title, mode), hint, label,
    h("div", {class: "ae-inline"}, input, button), weightsLabel, weightsInput, result);
  const drawLabels = texts([[title, "check_title"], [hint, "check_hint"], [label, "check_title"], [button, "check"],
    [weightsLabel, "check_weights"]]);
  const drawMode = memo(({t, checking}) => {
    mode.textContent = checking ? t("checking_reveal") : t("checking_start");
    mode.setAttribute("aria-pressed", String(checking));
  });
  // what each box is for, in the box (its label is for screen readers; lecture mode hides the hint)
  const drawPlaceholders = memo((t) => {
    input.placeholder = t("check_output_placeholder");
    weightsInput.placeholder = t("check_weights_placeholder");
  });
  function update(snap) {
    drawLabels(snap);
    drawPlaceholders(snap.lang, snap.t);
    drawMode(`${snap.lang}|${snap.checking}`, snap);
    if (snap.status !== "ready") return;
    current = snap;
    const verdict = snap.answer;
    const shown = verdict && sameView(verdict, checkedView(snap));
    // a verdict kept from before this page loaded: its words come with checker.js
    if (shown && !judged) {
      checker().then((module) => { judged = module; if (current === snap) update(snap); });
      return;
    }
    result.textContent = shown ? judged.verdictText(snap.t, verdict, "hint_") + " " + snap.t("answer_checked", verdict.values) : "";
    result.className = "ae-answer" + (shown ? ` ae-${verdict.status}` : "");
    // the contract for tests and for anyone styling it: the verdict and the slip named
    result.dataset.status = shown ? verdict.status : "";
    result.dataset.hint = shown ? verdict.slip || "" : "";
  }
  return {el, update};
}
