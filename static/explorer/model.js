// A real model's attention (app/models.py): the layers × heads overview, one small matrix per
// head, all at once and clickable; the chosen head's summaries; the token view (whole 어절 or the
// model's sub-words, special tokens shown or not) with its rule written out; how many of the
// strongest keys the lines and bars show; and what the switches mean on a real model.

import { h, memo, texts } from "./dom.js";
import { fmt } from "./format.js";
import { base64Bytes } from "./cube.js";
import { stepsElsewhere, viewCode, weightsOnlyReason } from "./snapshot.js";

// One head's matrix: white for 0, deep blue for 1.
function paint(canvas, bytes, offset, cells) {
  const draw = canvas.getContext("2d");
  const image = draw.createImageData(cells, cells);
  for (let i = 0; i < cells * cells; i++) {
    const v = bytes[offset + i] / 255;
    image.data.set([Math.round(255 - 255 * v), Math.round(255 - 141 * v), Math.round(255 - 77 * v), 255], 4 * i);
  }
  draw.putImageData(image, 0, 0);
}

// The query in another token view: the shown token that holds the first of the model's tokens the
// current one holds (or the next one shown, when it is a special token now hidden).
// A layer and a head as a person reads them: counted from 1 (links and data-* attributes count from 0).
const counted = (layer, head) => ({layer: layer + 1, head: head + 1});

export function queryInView(entry, fromCode, toCode, query) {
  const from = entry.groups[entry.views[fromCode]], to = entry.groups[entry.views[toCode]];
  const piece = (from[Math.min(query, from.length - 1)] || [0])[0];
  const found = to.findIndex((group) => group.includes(piece));
  if (found >= 0) return found;
  const after = to.findIndex((group) => group[0] > piece);
  return after >= 0 ? after : to.length - 1;
}

// The labels of the per-head summaries (attention_core.heads.layer_summaries), in the order shown.
const summaryLabels = (t) => ({entropy: t("summary_entropy"), first: t("summary_first"), self: t("summary_self"),
  previous: t("summary_previous")});

export function createModel(ctx) {
  const {actions} = ctx;
  let snap = null;
  const switchTo = (merge, special) => {
    const view = snap.modelView;
    actions.set({merge, special, query: queryInView(view.entry, viewCode(view.merge, view.special), viewCode(merge, special), snap.query)});
  };
  const title = h("h2"), about = h("p", {class: "ae-hint", "data-testid": "model-about"});
  const mergeBox = h("input", {type: "checkbox", id: "ae-merge", "data-testid": "merge-toggle",
    on: {change: () => switchTo(mergeBox.checked, snap.modelView.special)}});
  const specialBox = h("input", {type: "checkbox", id: "ae-special", "data-testid": "special-toggle",
    on: {change: () => switchTo(snap.modelView.merge, specialBox.checked)}});
  const mergeText = h("span"), specialText = h("span"), topKText = h("span"), thresholdText = h("span");
  const topK = h("input", {type: "number", min: "1", step: "1", id: "ae-top-k", class: "ae-number", "data-testid": "top-k",
    on: {change: () => {
      const value = Number(topK.value);
      if (Number.isInteger(value) && value >= 1) actions.set({top_k: value});
      else { topK.value = String(snap.modelView.topK); actions.notify("notice_top_k", {value: topK.value}); }
    }}});
  const threshold = h("input", {type: "range", min: "0", max: "0.5", step: "0.01", id: "ae-threshold", "data-testid": "threshold",
    on: {input: () => actions.set({threshold: Number(threshold.value)})}});
  const thresholdValue = h("output", {for: "ae-threshold", "data-testid": "threshold-value"});
  // the experiments beyond √d and the mask, where the model offers them: q and k unrotated, another window
  const ropeBox = h("input", {type: "checkbox", id: "ae-rope", "data-testid": "rope-toggle",
    on: {change: () => actions.set({rope: ropeBox.checked})}});
  const ropeText = h("span"), windowText = h("span");
  const ropeLabel = h("label", {for: "ae-rope", class: "ae-switch", hidden: true}, ropeBox, ropeText);
  const windowSelect = h("select", {id: "ae-window", class: "ae-select", "data-testid": "window-select",
    on: {change: () => actions.set({window: Number(windowSelect.value)})}});
  const windowLabel = h("label", {for: "ae-window", class: "ae-switch", hidden: true}, windowText, windowSelect);
  const drawWindows = memo((entry, t) => {
    windowSelect.replaceChildren(...entry.experiments.windows.map((size) => {
      const text = size === 0 ? t("window_none") : String(size);
      return h("option", {value: String(size), text: size === entry.window ? t("window_own", {window: text}) : text});
    }));
  });
  const rule = h("p", {class: "ae-hint", "data-testid": "merge-rule"});
  const typeHint = h("p", {class: "ae-hint", "data-testid": "model-type-hint"});
  const status = h("p", {class: "ae-effect", "data-testid": "model-status"});
  // the Llama family's: query heads sharing key/value heads, a sliding window, attention sinks
  const shape = h("p", {class: "ae-hint", "data-testid": "model-shape"});
  const sinkNote = h("p", {class: "ae-hint", "data-testid": "sink-note"});
  const headGroup = h("p", {class: "ae-hint", "data-testid": "head-kv-group"});
  const stepsButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "show-steps",
    on: {click: () => switchTo(false, true)}});
  // the model trained here: its saved steps on a slider, what it learned, the words it knows
  const stepText = h("span"), stepValue = h("output", {for: "ae-training-step", "data-testid": "training-step-value"});
  const stepSlider = h("input", {type: "range", min: "0", step: "1", id: "ae-training-step", "data-testid": "training-step",
    on: {input: () => {
      const {kind, training} = snap.modelView.entry;  // every saved step is an entry of the same kind
      actions.set({source: {kind, name: training.names[Number(stepSlider.value)]}});
    }}});
  const training = h("div", {class: "ae-training", "data-testid": "training"},
    h("label", {for: "ae-training-step", class: "ae-switch"}, stepText, stepSlider, stepValue));
  const learned = h("p", {class: "ae-hint", "data-testid": "training-accuracy"});
  const claim = h("p", {class: "ae-effect", "data-testid": "head-claim"});
  const vocabularyTitle = h("summary"), vocabularyList = h("p", {class: "ae-vocabulary"});
  const vocabulary = h("details", {class: "ae-hint", "data-testid": "vocabulary"}, vocabularyTitle, vocabularyList);
  const overview = h("div", {class: "ae-overview", "data-testid": "model-overview"});
  const summary = h("table", {class: "ae-table ae-summary", "data-testid": "head-summary"});
  const el = h("section", {class: "ae-card ae-card-model", "data-testid": "model-card", hidden: true},
    h("div", {class: "ae-card-head"}, title), about,
    h("div", {class: "ae-model-switches"},
      h("label", {for: "ae-merge", class: "ae-switch"}, mergeBox, mergeText),
      h("label", {for: "ae-special", class: "ae-switch"}, specialBox, specialText),
      h("label", {for: "ae-top-k", class: "ae-switch"}, topKText, topK),
      h("label", {for: "ae-threshold", class: "ae-switch"}, thresholdText, threshold, thresholdValue), ropeLabel, windowLabel),
    training, learned, rule, typeHint, vocabulary, status, claim, stepsButton, shape, headGroup, h("div", {class: "ae-model-body"}, overview, summary),
    sinkNote);
  const drawLabels = texts([[title, "model_title"], [mergeText, "merge_toggle"], [specialText, "special_toggle"],
    [topKText, "top_k_label"], [thresholdText, "threshold_label"], [stepsButton, "show_steps"],
    [stepText, "training_step"], [vocabularyTitle, "vocabulary_title"], [ropeText, "rope_toggle"], [windowText, "window_label"]]);

  let buttons = [];
  // The grid is built once per model and language; choosing a head only moves the outline.
  const drawGrid = memo((entry, t) => {
    // (layers, heads, cells, cells) uint8, round(255 × pooled weight)
    const bytes = base64Bytes(entry.overview.data), cells = entry.overview.cells;
    overview.style.setProperty("--heads", String(entry.heads));
    overview.style.setProperty("--layers", String(entry.layers));
    buttons = [];
    const rows = [h("span"), ...Array.from({length: entry.heads}, (_, head) => h("span", {class: "ae-overview-label", text: `H${head + 1}`}))];
    // query heads that share a key/value head: one bracket over each group, named by its key/value head
    const shared = entry.kv_groups.some((group) => group.length > 1);
    if (shared) {
      rows.push(h("span"), ...entry.kv_groups.map((group, kv) => h("span", {class: "ae-overview-group", "data-testid": `kv-group-${kv}`,
        "data-heads": group.join(" "), style: `grid-column: span ${group.length}`, text: t("overview_kv", {kv: kv + 1})})));
    }
    const sinks = new Set(entry.sinks.map(([layer, head]) => `${layer}|${head}`));
    for (let layer = 0; layer < entry.layers; layer++) {
      rows.push(h("span", {class: "ae-overview-label", text: `L${layer + 1}`}));
      for (let head = 0; head < entry.heads; head++) {
        const canvas = h("canvas", {width: cells, height: cells});
        paint(canvas, bytes, (layer * entry.heads + head) * cells * cells, cells);
        const values = Object.fromEntries(Object.keys(summaryLabels(t)).map((name) => [name, fmt(entry.summaries[name][layer][head], 2)]));
        const sink = sinks.has(`${layer}|${head}`);
        const label = t("overview_head", {...counted(layer, head), ...values}) + (sink ? " " + t("overview_sink") : "");
        const button = h("button", {type: "button", class: "ae-overview-head", "aria-pressed": "false",
          "data-testid": `overview-${layer}-${head}`, "data-layer": layer, "data-head": head, "data-sink": String(sink),
          title: label, "aria-label": label, on: {click: () => actions.set({layer, head})}},
          canvas, sink ? h("span", {class: "ae-sink-badge", "aria-hidden": "true", text: t("sink_badge")}) : null);
        buttons.push(button);
        rows.push(button);
      }
    }
    overview.replaceChildren(...rows);
    performance.mark("ae-overview-drawn");
  });

  // The trained model: which saved step, how well it does then, and the claim for the head on
  // show where the measurement supports one (app/trained_model.py claims()).
  function drawTraining(view, t) {
    const {entry, layer, head} = view, info = entry.training;
    training.hidden = learned.hidden = vocabulary.hidden = !info;
    claim.hidden = true;
    if (!info) return;
    const at = info.names.indexOf(entry.name);
    stepSlider.max = String(info.names.length - 1);
    stepSlider.value = String(at);
    stepValue.textContent = t("training_step_value", {step: info.steps[at], last: info.steps[info.steps.length - 1]});
    stepSlider.setAttribute("aria-valuetext", t("training_step_spoken", {step: info.steps[at], last: info.steps[info.steps.length - 1]}));
    learned.textContent = t("training_accuracy", {count: info.held_out, word: fmt(100 * info.accuracy.word, 1),
      verb: fmt(100 * info.accuracy.verb, 1), tense: fmt(100 * info.accuracy.tense, 1), honorific: fmt(100 * info.accuracy.honorific, 1)});
    const found = info.claims.find((c) => c.layer === layer && c.head === head);
    const roles = {object: t("role_object"), time: t("role_time"), subject: t("role_subject")};
    claim.hidden = false;
    claim.dataset.role = found ? found.role : "";
    // the held-out average, and beside it what the sentence on screen gives (never one read as the other)
    const values = found && {...counted(layer, head), role: roles[found.role], share: fmt(found.share, 2), count: info.held_out,
      word: found.word, here: found.here === null ? "" : fmt(found.here, 3)};
    claim.textContent = !found ? t("head_no_claim", counted(layer, head))
      : found.word ? t("head_claim", values) : t("head_claim_no_word", values);
    drawVocabulary(entry.name, entry);
  }
  // The vocabulary and the chosen head's summaries change with the model and head, not with a click on a token.
  const drawVocabulary = memo((entry) => { vocabularyList.textContent = entry.vocabulary.join(" · "); });
  const drawSummary = memo((entry, layer, head, t) => {
    const labels = summaryLabels(t);
    summary.replaceChildren(h("caption", {text: t("summary_caption", counted(layer, head))}),
      h("tbody", {}, ...Object.keys(labels).map((name) => h("tr", {"data-summary": name},
        h("th", {scope: "row", text: labels[name]}), h("td", {class: "ae-num", text: fmt(entry.summaries[name][layer][head], 3)})))));
  });

  function update(next) {
    snap = next;
    const view = snap.modelView;
    el.hidden = !view;
    if (!view) return;
    const {entry, layer, head} = view, t = snap.t;
    drawLabels(snap);
    drawGrid(`${entry.name}|${entry.version}|${snap.lang}`, entry, t);
    for (const button of buttons) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.layer) === layer && Number(button.dataset.head) === head));
    }
    about.textContent = t("model_about", {source: entry.source, layers: entry.layers, heads: entry.heads, n: entry.n}) +
      (entry.overview.cells < entry.n ? " " + t("model_pooled", {cells: entry.overview.cells}) : "");
    const share = entry.kv_groups[0].length;
    shape.textContent = [share > 1 ? t("model_kv_groups", {share, kv: entry.kv_groups.length}) : "",
      entry.window ? t("model_window", {window: entry.window}) : ""].filter(Boolean).join(" ");
    shape.hidden = !shape.textContent;
    // the head on show: the query heads that share its key/value head
    const kv = entry.kv_groups.findIndex((group) => group.includes(head));
    headGroup.hidden = share <= 1 || kv < 0;
    headGroup.textContent = headGroup.hidden ? "" : t("head_kv_group", {kv: kv + 1,
      heads: entry.kv_groups[kv].map((other) => `H${other + 1}`).join(", ")});
    sinkNote.textContent = entry.sinks.length ? t("sink_note", {count: entry.sinks.length, badge: t("sink_badge")}) : "";
    sinkNote.hidden = !entry.sinks.length;
    mergeBox.checked = view.merge;
    specialBox.checked = view.special;
    if (topK.getRootNode().activeElement !== topK) topK.value = String(view.topK);  // not while typed in (a shadow root in Panel)
    topK.max = String(entry.n);
    threshold.value = String(view.threshold);
    thresholdValue.textContent = fmt(view.threshold, 2);
    threshold.setAttribute("aria-valuetext", thresholdValue.textContent);
    rule.textContent = view.merge ? t("merge_rule") : t("pieces_rule");
    // served with a checkpoint, the own sentence runs through the model (app/explorer.py)
    typeHint.hidden = !(ctx.state.lab && entry.typable);
    typeHint.textContent = t("model_type_hint");
    const cube = snap.status === "ready" ? snap.cube : null;
    const offer = entry.experiments || {rope: false, windows: []};
    ropeLabel.hidden = !offer.rope;
    ropeBox.checked = view.rope;
    windowLabel.hidden = !offer.windows.length;
    if (offer.windows.length) {
      drawWindows(`${entry.name}|${entry.version}|${snap.lang}`, entry, t);
      windowSelect.value = String(view.window === null ? entry.window : view.window);
    }
    const own = entry.window || t("window_none"), tried = cube && cube.model.experiment ? cube.model : null;
    const experiments = snap.experiment ? [snap.scale ? null : t("experiment_scale"),
      snap.causal === cube.model.own.causal ? null : snap.causal ? t("experiment_mask_on") : t("experiment_mask_off"),
      tried && !tried.rope ? t("experiment_rope_off") : null,
      !tried || tried.window === entry.window ? null
        : tried.window === 0 ? t("experiment_no_window", {own}) : t("experiment_window", {window: tried.window, own}),
      // the window hides keys only with the mask on
      tried && tried.window !== entry.window && !snap.causal ? t("experiment_window_unmasked") : null,
      tried ? t("experiment_layers_above") : null].filter(Boolean) : [];
    // weights alone say why, and an experiment on them says so too (the merged view of an unrotated head)
    status.textContent = !cube ? (entry.in_file ? t("head_not_in_file") : t("model_waiting"))
      : cube.weightsOnly ? [weightsOnlyReason(snap), ...experiments].join(" ")
      : experiments.length ? experiments.join(" ")
      : entry.causal ? t("model_own_causal", counted(layer, head)) : t("model_own", counted(layer, head));
    status.classList.toggle("ae-warn", experiments.length > 0);
    status.dataset.experiment = String(experiments.length > 0);
    stepsButton.hidden = !(cube && cube.weightsOnly && entry.steps && !stepsElsewhere(entry) && entry.n <= entry.steps_max && (view.merge || !view.special));
    drawTraining(view, t);
    drawSummary(`${entry.name}|${entry.version}|${layer}|${head}|${snap.lang}`, entry, layer, head, t);
  }
  return {el, update};
}
