// The controls: sentence, √d_k and mask switches, head count and which heads show. Built once;
// each update changes only labels and pressed or hidden states, so focus stays where it was.

import { h, memo, swatch, texts } from "./dom.js";
import { headsShown, lensBadge } from "./snapshot.js";
import { entryOf, sourceOf } from "./source.js";

// A group of toggle buttons, one per value, never rebuilt. items: [value, testid, head colour or null].
function segmented(testid, labelId, items, onPick) {
  const group = h("div", {class: "ae-segmented", role: "group", "aria-labelledby": labelId, "data-testid": testid});
  const buttons = new Map(items.map(([value, buttonId, head]) => {
    const button = h("button", {type: "button", class: "ae-seg", "aria-pressed": "false", "data-value": value,
      "data-testid": buttonId, on: {click: () => onPick(value)}});
    if (head !== null) button.append(swatch(head));
    button.append(h("span"));
    group.append(button);
    return [value, button];
  }));
  // shown: value → label, or absent to hide; current: the pressed value
  const set = (shown, current) => {
    for (const [value, button] of buttons) {
      button.hidden = !shown.has(value);
      button.lastChild.textContent = shown.get(value) ?? "";
      button.setAttribute("aria-pressed", String(value === current));
    }
  };
  return {group, set};
}

export function createControls(ctx) {
  const {constants, actions} = ctx;
  const maxHeads = Math.max(...constants.head_choices);
  const sentenceLabel = h("label", {for: "ae-sentence"});
  const sentenceSelect = h("select", {id: "ae-sentence", class: "ae-select", "data-testid": "preset-select",
    on: {change: () => {
      // an option is an entry: its value the name (a contract of the tests), its data-kind the kind
      const option = sentenceSelect.selectedOptions[0];
      const chosen = entryOf({kind: option.dataset.kind, name: option.value},
        {cubes: ctx.cubes, models: ctx.catalog.models, kinds: constants.kinds});
      if (!chosen) return;
      // a model opens at its last token (its head's entry is asked for), a sentence at its own query
      if (constants.kinds.models.includes(chosen.kind)) { actions.openModel(chosen); return; }
      const cube = ctx.cubes.get(chosen.name);
      actions.set({source: sourceOf(chosen), query: chosen.default_query, heads: headsShown(cube, ctx.state.heads), head_view: -1});
    }}});
  // Practice problems: the one after the last opened on this page, from problem 1.
  let lastProblem = 0;
  const practiceButton = h("button", {type: "button", class: "ae-chip", "data-testid": "practice-open",
    on: {click: () => actions.openPractice(lastProblem + 1)}});
  const scaleBox = h("input", {type: "checkbox", id: "ae-scale", "data-testid": "scale-toggle",
    on: {change: () => actions.set({scale: scaleBox.checked})}});
  const causalBox = h("input", {type: "checkbox", id: "ae-causal", "data-testid": "causal-toggle",
    on: {change: () => actions.set({causal: causalBox.checked})}});
  const scaleText = h("span"), causalText = h("span");
  // a model's head: the lens its lines, bars and heatmap draw through (attention_core.lenses.DRAWN;
  // model.js says what is drawn), where a sentence has its head counts
  const lensText = h("span", {class: "ae-group-label"});
  const lens = h("select", {id: "ae-lens", class: "ae-select", "data-testid": "lens", on: {change: () => actions.set({lens: lens.value})}},
    ...constants.model.lenses.map((name) => h("option", {value: name})));
  const lensControl = h("label", {for: "ae-lens", class: "ae-control", hidden: true}, lensText, lens);
  const drawLensOptions = memo((t) => {
    for (const option of lens.options) option.textContent = option.value === "weight" ? t("lens_option_weight") : lensBadge({t, lens: option.value});
  });
  const headsLabel = h("span", {class: "ae-group-label", id: "ae-heads-label"});
  const headViewLabel = h("span", {class: "ae-group-label", id: "ae-head-view-label"});
  const heads = segmented("heads-group", "ae-heads-label",
    constants.head_choices.map((count) => [count, `heads-${count}`, null]),
    (count) => actions.set({heads: count, head_view: -1}));
  const headView = segmented("head-view-group", "ae-head-view-label",
    [[-1, "head-view-all", null], ...Array.from({length: maxHeads}, (_, i) => [i, `head-view-${i}`, i])],
    (value) => actions.set({head_view: value}));
  headView.group.classList.add("ae-headview");
  // Secondary controls (which heads show, practice problems, the own sentence) fold behind "more" on a phone and
  // in lecture mode; elsewhere the button is not shown and they are always there.
  // the lens is one of them: a phone's and a projector's first screen keeps the figures
  const secondary = h("div", {class: "ae-secondary", id: "ae-secondary", "data-testid": "secondary-controls"},
    h("div", {class: "ae-control"}, headViewLabel, headView.group), lensControl, h("div", {class: "ae-control"}, practiceButton));
  const more = h("button", {type: "button", class: "ae-chip ae-more", "aria-expanded": "false",
    "aria-controls": "ae-secondary", "data-testid": "more-toggle", on: {click: () => {
      const open = more.getAttribute("aria-expanded") !== "true";
      more.setAttribute("aria-expanded", String(open));
      secondary.classList.toggle("ae-open", open);
    }}});
  const el = h("section", {class: "ae-controls"},
    h("div", {class: "ae-control ae-control-sentence"}, sentenceLabel, sentenceSelect),
    h("div", {class: "ae-control ae-switches"},
      h("label", {for: "ae-scale", class: "ae-switch"}, scaleBox, scaleText),
      h("label", {for: "ae-causal", class: "ae-switch"}, causalBox, causalText)),
    h("div", {class: "ae-control"}, headsLabel, heads.group),
    secondary);

  // The options follow the sentences on offer: rebuilt only when that list or the language changes.
  // A model is one option, whichever of its heads is on show.
  const drawOptions = memo((snap) => {
    const sentences = Array.from(ctx.cubes.values()).filter((cube) => !cube.model).map((cube) => cube.entry);
    // the trained model is one option (its last step); the step slider (model_training.js) picks the others
    const models = ctx.catalog.models.filter((entry) => !entry.training || entry.name === entry.training.names.at(-1));
    const options = [...models, ...sentences].map((entry) => h("option", {value: entry.name, "data-kind": entry.kind,
      text: entry.titles[snap.lang]}));
    sentenceSelect.replaceChildren(...options);
  });
  const drawLabels = texts([[sentenceLabel, "sentence"], [scaleText, "scale"], [causalText, "causal"],
    [headsLabel, "heads"], [headViewLabel, "head_view"], [lensText, "lens_label"], [more, "more_controls"], [practiceButton, "practice_open"]]);
  function update(snap) {
    drawLabels(snap);
    drawOptions([snap.lang, ...ctx.catalog.models.map((entry) => `${entry.name}:${entry.version}`),
      ...Array.from(ctx.cubes.values()).filter((cube) => !cube.model).map((cube) => cube.serial)].join("|"), snap);
    // a model's head, or a sentence with its one-head lens: the lenses its cube has
    lensControl.hidden = !snap.modelView && !(snap.cube && snap.cube.lensCount());
    if (!lensControl.hidden) {
      drawLensOptions(snap.lang, snap.t);
      const count = snap.cube ? snap.cube.lensCount() : 0;
      [...lens.options].forEach((option, i) => { option.disabled = i > count && option.value !== snap.lensAsked; });
      lens.value = snap.lensAsked || "weight";
    }
    scaleBox.checked = snap.scale;
    causalBox.checked = snap.causal;
    // weights alone (a model's merged view, or imported weights) come at one setting only
    scaleBox.disabled = causalBox.disabled = !!(snap.cube && snap.cube.weightsOnly);
    const shownEntry = snap.modelView ? snap.modelView.entry : null;
    const shownName = shownEntry ? (shownEntry.training ? shownEntry.training.names.at(-1) : shownEntry.name)
      : snap.cube && snap.cube.entry.name;
    const shownKind = shownEntry ? shownEntry.kind : snap.cube && snap.cube.entry.kind;
    // the option of that kind and name (a sentence and a model may share a name)
    const index = [...sentenceSelect.options].findIndex((o) => o.value === shownName && o.dataset.kind === shownKind);
    if (index >= 0 && sentenceSelect.selectedIndex !== index) sentenceSelect.selectedIndex = index;
    // a model's head is one head: its layer and head are chosen in the overview (model_heads.js), also
    // while its numbers are on their way or not in the file
    heads.group.parentElement.hidden = headView.group.parentElement.hidden = !!snap.modelView;
    if (!snap.cube) return;
    if (snap.status !== "ready") return;
    if (snap.practice) lastProblem = snap.practice.number;
    practiceButton.hidden = !ctx.state.lab && !(ctx.offered("practice_bank") || []).length;  // nowhere to get a problem
    heads.set(new Map(snap.cube.head_counts.map((count) => [count, String(count)])), snap.heads);
    headView.set(new Map([[-1, snap.t("all_heads")], ...Array.from({length: snap.heads}, (_, i) => [i, String(i + 1)])]),
      snap.headView);
  }
  return {el, update, more, secondary};
}
