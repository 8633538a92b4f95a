// A real model's attention (app/models.py), as one card: the heads' overview and the chosen head's
// summaries, and the overview in words (model_heads.js); the switches (model_switches.js); the
// model trained here, step by step (model_training.js); and, kept here, the token view's rule
// written out, what is on show (the model's own head, its weights alone and why, or an
// experiment) and the way to every step of a head shown by its weights alone.

import { h, texts } from "./dom.js";
import { stepsElsewhere, viewCode, weightsOnlyReason } from "./snapshot.js";
import { counted, createHeadNotes, createHeads } from "./model_heads.js";
import { createModelSwitches } from "./model_switches.js";
import { createTraining } from "./model_training.js";

// The query in another token view: the shown token that holds the first of the model's tokens the
// current one holds (or the next one shown, when it is a special token now hidden).
export function queryInView(entry, fromCode, toCode, query) {
  const from = entry.groups[entry.views[fromCode]], to = entry.groups[entry.views[toCode]];
  const piece = (from[Math.min(query, from.length - 1)] || [0])[0];
  const found = to.findIndex((group) => group.includes(piece));
  if (found >= 0) return found;
  const after = to.findIndex((group) => group[0] > piece);
  return after >= 0 ? after : to.length - 1;
}

// The experiments on show beyond the model's own head, each said once: √d off, the mask turned,
// q and k unrotated, another window (and that the layers above still see the model's own).
function experimentNotes(snap, entry, cube) {
  const t = snap.t;
  const own = entry.window || t("window_none"), tried = cube && cube.model.experiment ? cube.model : null;
  return snap.experiment ? [snap.scale ? null : t("experiment_scale"),
    snap.causal === cube.model.own.causal ? null : snap.causal ? t("experiment_mask_on") : t("experiment_mask_off"),
    tried && !tried.rope ? t("experiment_rope_off") : null,
    !tried || tried.window === entry.window ? null
      : tried.window === 0 ? t("experiment_no_window", {own}) : t("experiment_window", {window: tried.window, own}),
    // the window hides keys only with the mask on
    tried && tried.window !== entry.window && !snap.causal ? t("experiment_window_unmasked") : null,
    tried ? t("experiment_layers_above") : null].filter(Boolean) : [];
}

// What is on show, in `status`: the head's numbers on their way or not in the file, the model's
// own head, or the experiments, marked as such.
function sayStatus(status, snap, cube) {
  const {entry, layer, head} = snap.modelView, t = snap.t;
  const experiments = experimentNotes(snap, entry, cube);
  // weights alone say why, and an experiment on them says so too (the merged view of an unrotated head)
  status.textContent = !cube ? (entry.in_file ? t("head_not_in_file") : t("model_waiting"))
    : cube.weightsOnly ? [weightsOnlyReason(snap), ...experiments].join(" ")
    : experiments.length ? experiments.join(" ")
    : entry.causal ? t("model_own_causal", counted(layer, head)) : t("model_own", counted(layer, head));
  status.classList.toggle("ae-warn", experiments.length > 0);
  status.dataset.experiment = String(experiments.length > 0);
}

export function createModel(ctx) {
  const {actions} = ctx;
  let snap = null;
  // another token view ({merge} or {special} changed, or both), the query kept on the same token
  const switchTo = (changes) => {
    const view = snap.modelView, {merge, special} = {merge: view.merge, special: view.special, ...changes};
    actions.set({merge, special, query: queryInView(view.entry, viewCode(view.merge, view.special), viewCode(merge, special), snap.query)});
  };
  const title = h("h2");
  const rule = h("p", {class: "ae-hint", "data-testid": "merge-rule"});
  const typeHint = h("p", {class: "ae-hint", "data-testid": "model-type-hint"});
  const status = h("p", {class: "ae-effect", "data-testid": "model-status"});
  const stepsButton = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "show-steps",
    on: {click: () => switchTo({merge: false, special: true})}});
  const heads = createHeads(ctx), notes = createHeadNotes(), switches = createModelSwitches(ctx, switchTo);
  const trained = createTraining(ctx);
  const el = h("section", {class: "ae-card ae-card-model", "data-testid": "model-card", hidden: true},
    h("div", {class: "ae-card-head"}, title), notes.about, switches.el,
    trained.training, trained.learned, rule, typeHint, trained.vocabulary, status, trained.claim, stepsButton,
    notes.shape, notes.headGroup, heads.el, notes.sinkNote);
  const drawLabels = texts([[title, "model_title"], [stepsButton, "show_steps"]]);

  function update(next) {
    snap = next;
    const view = snap.modelView;
    el.hidden = !view;
    if (!view) return;
    const {entry} = view, t = snap.t;
    drawLabels(snap);
    for (const part of [heads, notes, switches, trained]) part.update(snap);
    rule.textContent = view.merge ? t("merge_rule") : t("pieces_rule");
    // served with a checkpoint, the own sentence runs through the model (app/explorer.py)
    typeHint.hidden = !(ctx.state.lab && entry.typable);
    typeHint.textContent = t("model_type_hint");
    const cube = snap.status === "ready" ? snap.cube : null;
    sayStatus(status, snap, cube);
    stepsButton.hidden = !(cube && cube.weightsOnly && entry.steps && !stepsElsewhere(entry) && entry.n <= entry.steps_max && (view.merge || !view.special));
  }
  return {el, update};
}
