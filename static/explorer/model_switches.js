// A real model's switches, side by side in its card: the token view (whole 어절 or the model's
// sub-words, special tokens shown or not), how many of the strongest keys the lines and bars show
// and the weight below which none does, and the experiments beyond √d and the mask where the model
// offers them (q and k unrotated, another window). Each group is {labels, update(snap)}: its
// labels in the row, and update only while a model is on show.

import { h, memo, texts } from "./dom.js";
import { fmt } from "./format.js";

// The token view. switchTo({merge} or {special}): the card keeps the query on the same token.
function tokenView(switchTo) {
  const mergeBox = h("input", {type: "checkbox", id: "ae-merge", "data-testid": "merge-toggle",
    on: {change: () => switchTo({merge: mergeBox.checked})}});
  const specialBox = h("input", {type: "checkbox", id: "ae-special", "data-testid": "special-toggle",
    on: {change: () => switchTo({special: specialBox.checked})}});
  const mergeText = h("span"), specialText = h("span");
  const drawLabels = texts([[mergeText, "merge_toggle"], [specialText, "special_toggle"]]);
  function update(snap) {
    drawLabels(snap);
    mergeBox.checked = snap.modelView.merge;
    specialBox.checked = snap.modelView.special;
  }
  return {labels: [h("label", {for: "ae-merge", class: "ae-switch"}, mergeBox, mergeText),
    h("label", {for: "ae-special", class: "ae-switch"}, specialBox, specialText)], update};
}

// The strongest keys: a count typed in (a bad one puts the last back and says why) and a threshold.
function strongestKeys(actions) {
  let shown = null;  // the model's view last drawn: the count a bad one gives way to
  const topKText = h("span"), thresholdText = h("span");
  const topK = h("input", {type: "number", min: "1", step: "1", id: "ae-top-k", class: "ae-number", "data-testid": "top-k",
    on: {change: () => {
      const value = Number(topK.value);
      if (Number.isInteger(value) && value >= 1) actions.set({top_k: value});
      else {
        const typed = topK.value;
        topK.value = String(shown.topK);
        actions.notify("notice_top_k", {value: typed, fallback: topK.value});
      }
    }}});
  const threshold = h("input", {type: "range", min: "0", max: "0.5", step: "0.01", id: "ae-threshold", "data-testid": "threshold",
    on: {input: () => actions.set({threshold: Number(threshold.value)})}});
  const thresholdValue = h("output", {for: "ae-threshold", "data-testid": "threshold-value"});
  const drawLabels = texts([[topKText, "top_k_label"], [thresholdText, "threshold_label"]]);
  function update(snap) {
    const view = snap.modelView;
    shown = view;
    drawLabels(snap);
    if (topK.getRootNode().activeElement !== topK) topK.value = String(view.topK);  // not while typed in (a shadow root in Panel)
    topK.max = String(view.entry.n);
    threshold.value = String(view.threshold);
    thresholdValue.textContent = fmt(view.threshold, 2);
    threshold.setAttribute("aria-valuetext", thresholdValue.textContent);
  }
  return {labels: [h("label", {for: "ae-top-k", class: "ae-switch"}, topKText, topK),
    h("label", {for: "ae-threshold", class: "ae-switch"}, thresholdText, threshold, thresholdValue)], update};
}

// The experiments, each hidden where the model does not offer it (app.models.experiment_offer).
function experimentSwitches(actions) {
  const ropeBox = h("input", {type: "checkbox", id: "ae-rope", "data-testid": "rope-toggle",
    on: {change: () => actions.set({rope: ropeBox.checked})}});
  const ropeText = h("span"), windowText = h("span");
  const ropeLabel = h("label", {for: "ae-rope", class: "ae-switch", hidden: true}, ropeBox, ropeText);
  const windowSelect = h("select", {id: "ae-window", class: "ae-select", "data-testid": "window-select",
    on: {change: () => actions.set({window: Number(windowSelect.value)})}});
  const windowLabel = h("label", {for: "ae-window", class: "ae-switch", hidden: true}, windowText, windowSelect);
  // the windows on offer, the model's own named as such: once per model and language
  const drawWindows = memo((entry, t) => {
    windowSelect.replaceChildren(...entry.experiments.windows.map((size) => {
      const text = size === 0 ? t("window_none") : String(size);
      return h("option", {value: String(size), text: size === entry.window ? t("window_own", {window: text}) : text});
    }));
  });
  const drawLabels = texts([[ropeText, "rope_toggle"], [windowText, "window_label"]]);
  function update(snap) {
    const view = snap.modelView, {entry} = view;
    drawLabels(snap);
    const offer = entry.experiments || {rope: false, windows: []};
    ropeLabel.hidden = !offer.rope;
    ropeBox.checked = view.rope;
    windowLabel.hidden = !offer.windows.length;
    if (offer.windows.length) {
      drawWindows(`${entry.name}|${entry.version}|${snap.lang}`, entry, snap.t);
      windowSelect.value = String(view.window === null ? entry.window : view.window);
    }
  }
  return {labels: [ropeLabel, windowLabel], update};
}

// Every switch, in one row. switchTo: the card's change of token view (model.js).
export function createModelSwitches(ctx, switchTo) {
  const groups = [tokenView(switchTo), strongestKeys(ctx.actions), experimentSwitches(ctx.actions)];
  const el = h("div", {class: "ae-model-switches"}, ...groups.flatMap((group) => group.labels));
  return {el, update(snap) { for (const group of groups) group.update(snap); }};
}
