// One immutable picture of what the page shows, built once per change from the model's state.
// Every clamp and fallback of the view is decided here, and only here.

import { cubeOf, entryOf, sourceOf } from "./source.js";

// The head count shown: the one asked for when the sentence offers it, else its first (1).
export function headsShown(cube, heads) {
  return cube.offers(heads) ? heads : cube.head_counts[0];
}

// The query shown: the model's, kept inside the sentence.
export function queryShown(cube, query) {
  return Math.min(Math.max(0, query), cube.n - 1);
}

// The head shown alone, or -1 for all of them.
export function headViewShown(heads, headView) {
  return headView >= 0 && headView < heads ? headView : -1;
}

// The heads the lines, the bars and their captions draw at once: in lecture mode four a screen (a
// projector reads four small figures beside the bars), the lecturer paging through more (`page`,
// from 0); elsewhere every head on show. headPages: the pages, [[heads]], one when all fit.
const HEADS_A_SCREEN = 4;
export function headPages(visibleHeads, lecture) {
  if (!lecture || visibleHeads.length <= HEADS_A_SCREEN) return [visibleHeads];
  return Array.from({length: Math.ceil(visibleHeads.length / HEADS_A_SCREEN)},
    (_, page) => visibleHeads.slice(page * HEADS_A_SCREEN, (page + 1) * HEADS_A_SCREEN));
}
export function figureHeadsShown(visibleHeads, lecture, page) {
  const pages = headPages(visibleHeads, lecture);
  return pages[Math.min(Math.max(0, Number.isInteger(page) ? page : 0), pages.length - 1)];
}

// The snapshot. `status` is "ready" when the sentence's numbers are there; "waiting" while the
// student's own sentence is on its way from Python; "loading" or "failed" while, or when, its
// numbers could not be decoded. Views that draw numbers draw only when it is "ready".
// A model's token view as its code, "merge special", as app/models.py view_code writes it.
export function viewCode(merge, special) {
  return `${merge ? 1 : 0}${special ? 1 : 0}`;
}

// What opening a model changes: its own switches (√d on, the mask for GPT-2), its first token view
// (어절 without special tokens, or the entry's `opens`), one head, and its last word as the query.
export function openingChanges(entry) {
  const {layer, head, ...opens} = entry.opens || {};
  const view = {merge: true, special: false, ...opens};
  return {scale: true, causal: entry.causal, heads: 1, head_view: -1, lens: "weight", rope: true, window: -1, ...view,
    ...(layer === undefined ? {} : {layer, head}),  // the head a measurement chose to open on
    query: entry.opens_at[entry.views[viewCode(view.merge, view.special)]]};
}

// A model on show (app/models.py): the layer, head and token view asked for, kept inside the
// model, the token view's code (as the model entry's views name it) and the page's own key for
// that head's cube; null when the source on show is not a model's (kinds: constants.kinds).
export function modelShown(state, models, kinds) {
  const entry = entryOf(state.source, {cubes: new Map(), models: models || [], kinds});
  if (!entry || entry.later) return null;  // a model without its body: nothing to show until it is here
  const clamp = (value, count) => Math.min(Math.max(0, Number.isInteger(value) ? value : 0), count - 1);
  const layer = clamp(state.layer, entry.layers), head = clamp(state.head, entry.heads);
  const merge = state.merge !== false, special = !!state.special;
  const code = entry.views[viewCode(merge, special)];
  // the experiments on the head beyond √d and the mask (app/models.py experiment_offer): q and k
  // unrotated, another window (null: the model's own); named as the head's entry names them
  const offer = entry.experiments || {rope: false, windows: []};
  const rope = !offer.rope || state.rope !== false;
  const window = Number.isInteger(state.window) && offer.windows.includes(state.window) && state.window !== entry.window ? state.window : null;
  const experiment = (rope ? "" : "r0") + (window === null ? "" : `w${window}`);
  // the checkpoint its heads are compared with (entry.compared): the one the link or the page
  // named, else the first; `compare` is its name where one was named, else null
  const compared = entry.compared || [];
  const named = compared.findIndex((other) => other.name === state.compare);
  return Object.freeze({entry, layer, head, merge, special, code, rope, window, experiment,
    compareAt: Math.max(0, named), compare: named >= 0 ? state.compare : null,
    key: `${entry.name}|${layer}|${head}|${code}` + (experiment ? `|${experiment}` : ""),
    topK: Math.max(1, state.top_k || 1), threshold: Math.min(1, Math.max(0, state.threshold || 0)),
    lens: typeof state.lens === "string" ? state.lens : "weight"});
}

// How many steps an answer being worked lets show: a lesson's question held by its kind
// (constants.stop_shows.held: null, the stop's own), any other answer up to the mask.
function heldReveal(state, local, constants) {
  if (!state.checking) return constants.steps;
  const hold = local.held ? constants.stop_shows.held[local.held.kind] : null;
  return hold ? hold.reveal ?? constants.steps : 3;
}

// `lang`: the language the page shows (state.lang once its words are here).
export function makeSnapshot({state, cubes, catalog, local, constants, lang = state.lang, t, notices}) {
  const own = Object.values(constants.own);
  const modelView = modelShown(state, catalog.models, constants.kinds);
  // the source's cube; one the page waits for (the student's own, or a model's whole entry, on its
  // way), or else the first sentence
  const waited = !!state.source && (own.includes(state.source.name)
    || !!(entryOf(state.source, {cubes, models: catalog.models, kinds: constants.kinds}) || {}).later);
  const cube = modelView ? cubes.get(modelView.key) || null
    : cubeOf(state.source, {cubes, kinds: constants.kinds})
      || (waited ? null : [...cubes.values()].find((c) => !c.model) || null);
  const base = {
    t, lang, mode: state.mode, lecture: state.mode === constants.modes[1], lab: state.lab, steps: constants.steps,
    step: state.step, checking: !!state.checking,
    // working an answer, the student sees the steps up to the mask, not the weights or the output
    // a room's open question (room.js): nothing that gives its answer away, not even the scores
    polling: !!local.polling,
    reveal: local.polling ? 0 : Math.min(state.step >= 0 ? state.step + 1 : constants.steps, heldReveal(state, local, constants)),
    // a lesson's question held (app/stop_shows.py HELD): its kind, the inputs written out, what is put away
    held: state.checking && local.held ? {...local.held, ...constants.stop_shows.held[local.held.kind]} : null,
    notices, sentenceError: local.sentenceError, gridErrors: local.gridErrors, answer: local.answer,
    layerErrors: local.layerErrors,
    // the lens asked for: a model's (its view's), or a sentence's (the page's)
    lensAsked: modelView ? modelView.lens : typeof state.lens === "string" ? state.lens : "weight",
    scale: !!state.scale, causal: !!state.causal, position: state.position !== false,
    // the "why √d" view's d: the model's when the table has it, else its first
    whyD: constants.why_scale.dimensions.includes(state.why_d) ? state.why_d : constants.why_scale.dimensions[0],
  };
  base.modelView = modelView;
  if (!cube) return Object.freeze({...base, status: "waiting", cube: null});
  if (cube.state !== "ready") return Object.freeze({...base, status: cube.state, cube});
  // a model's head: weights alone come at the model's own switches; with every step, the switches
  // are experiments on it ("what if this head did not scale?")
  const ownSwitches = cube.model ? cube.model.own : null;
  if (cube.weightsOnly && ownSwitches) Object.assign(base, {scale: ownSwitches.scale, causal: ownSwitches.causal});
  const experiment = (!!ownSwitches && !cube.weightsOnly && (base.scale !== ownSwitches.scale || base.causal !== ownSwitches.causal))
    || !!(cube.model && cube.model.experiment);  // q and k unrotated, another window
  const heads = headsShown(cube, state.heads);
  const headView = headViewShown(heads, state.head_view);
  const visibleHeads = headView >= 0 ? [headView] : Array.from({length: heads}, (_, i) => i);
  // a practice problem: its number, query and slips; unsolved, only the problem itself shows
  const practice = cube.entry.practice || null;
  const lenses = constants.model.lenses, lensAsked = base.lensAsked;
  const lens = lensShown(cube, lensAsked, {experiment, checking: base.checking, heads, lenses});
  return Object.freeze({
    ...base, status: "ready", cube, source: sourceOf(modelView ? modelView.entry : cube.entry), query: queryShown(cube, state.query),
    // the lens drawn, and its row in the cube's lens/drawn (which has every lens but "weight")
    experiment, lens, lensAt: lenses.indexOf(lens) - 1, constantsLenses: lenses,
    heads, headView, visibleHeads: Object.freeze(visibleHeads), focusHead: headView >= 0 ? headView : 0,
    figureHeads: Object.freeze(figureHeadsShown(visibleHeads, base.lecture, local.headsPage)),
    practice, practising: !!practice && base.checking,
  });
}

// The lens the lines, bars and heatmap draw through (attention_core.lenses.DRAWN): the one asked
// for where the cube has it (a model's head: every lens; a sentence: the first, "moved"), at a
// model's own switches, a sentence's one head, and while no answer is being worked; else
// "weight", the weights themselves (lensBlocked says why).
function lensShown(cube, asked, {experiment, checking, heads, lenses}) {
  if (asked === "weight" || !lenses.includes(asked) || experiment || checking) return "weight";
  return lenses.indexOf(asked) - 1 < cube.lensCount() && (cube.model || heads === 1) ? asked : "weight";
}

// Why the lens asked for is not drawn, as a string key, or null: the cube has not that lens
// (weights alone, a model not run here, a sentence's lens other than "moved"), the switches are an
// experiment on a model (its lenses are at its own), or a sentence shows more than one head.
export function lensBlocked(snap) {
  const asked = snap.lensAsked, {cube} = snap;
  if (asked === "weight" || snap.lens === asked || snap.status !== "ready" || snap.checking) return null;
  if (cube.model && snap.experiment) return "lens_blocked_experiment";  // an experiment's cube has no lenses: they are the model's own
  if (!cube.model) return cube.lensCount() > snap.constantsLenses.indexOf(asked) - 1 ? "lens_blocked_heads" : "lens_blocked_sentence";
  return "lens_blocked_none";
}

// The keys hidden from the query in what the views draw: the mask's (the model's, with its window),
// or the lens's own (the rollout reaches past a window through the layers below: lens/mask).
export function drawnMaskedRow(snap, query) {
  const {cube, causal, lens} = snap;
  if (lens === "weight" || !cube.has("lens/mask")) return cube.maskedRow(causal, query);
  return cube.tensor("lens/mask").row({lens: snap.lensAt, query}).map((hidden) => hidden === 1);
}

// The lens drawn, named, for the figures' titles: "" for the weights themselves.
export function lensBadge(snap) {
  const {t, lens} = snap;
  return {moved: t("lens_option_moved"), rollout: t("lens_option_rollout"), no_sink: t("lens_option_no_sink")}[lens] || "";
}

// What the views draw for a head's query: its weights, or its lens's row (lensShown); one key's, or the row.
export function drawnRow(snap, head, query) {
  const {cube, heads, scale, causal, lens} = snap;
  return lens === "weight" ? cube.weightRow(heads, scale, causal, head, query) : cube.lensRow(snap.lensAt, query, scale, causal);
}
export function drawnWeight(snap, head, query, key) {
  const {cube, heads, scale, causal, lens} = snap;
  return lens === "weight" ? cube.weight(heads, scale, causal, head, query, key) : cube.lensRow(snap.lensAt, query, scale, causal)[key];
}

// The part of a snapshot that names one view of the numbers, as a memo key.
export function viewKey(snap, ...extra) {
  return [snap.cube.serial, snap.heads, snap.scale, snap.causal, snap.visibleHeads.join(","), snap.lang, snap.lens, ...extra].join("|");
}

// Weights exist from the softmax step (the 4th of the step-by-step reveal) on.
export function weightsShown(snap) {
  return snap.reveal >= 4;
}

// The memo key of what the views of the selected query's weights (lines, bars, weights table)
// draw for every query alike: their rows, columns and labels. A click on a query changes only
// weightsKey, and they set the query's numbers on what they drew.
export function weightsFrameKey(snap) {
  const shownKeys = snap.modelView ? `${snap.modelView.topK}|${snap.modelView.threshold}` : "";
  return viewKey(snap, weightsShown(snap), snap.checking, snap.polling, shownKeys);
}

// The same for the lines and the bars, which draw the heads on the screen (figureHeads), the lines
// in lecture mode's geometry.
export function figuresFrameKey(snap) {
  return `${weightsFrameKey(snap)}|${snap.figureHeads.join(",")}|${snap.lecture}`;
}

// The memo key of the views that show the selected query's weights (lines, bars, weights table).
export function weightsKey(snap) {
  return `${weightsFrameKey(snap)}|${snap.query}`;
}

// Why a head shows its weights alone, in the page's words: only the weights are known, the file
// carries every step at another training step only, the sentence is longer than every step travels
// for, or the token view is not the model's own; null when every step shows.
export function weightsOnlyReason(snap) {
  const {cube, modelView, t} = snap;
  if (!cube || !cube.weightsOnly) return null;
  const entry = modelView && modelView.entry;
  if (!entry || !entry.steps) return t("weights_only");
  if (stepsElsewhere(entry)) return t("steps_last_training_step", {last: entry.training.steps.at(-1)});
  if (entry.n > entry.steps_max) return t("steps_too_long", {n: entry.n, max: entry.steps_max});
  return t("steps_on_pieces");
}

// Whether an exported file carries this model's heads as weights alone although the model has
// every step: the trained model before its last training step (app/trained_model.py).
export function stepsElsewhere(entry) {
  return Boolean(entry && entry.in_file && entry.bank_steps === false && entry.training);
}

// A model's long sentence: the keys the lines and bars show, the query's strongest first (at most
// top_k, and only those of at least the threshold; always the strongest), in sentence order;
// `rest`: the weight of the keys left out, as the core ranked them; null when every key shows.
export function keysShown(snap) {
  const {cube, modelView, scale, causal, query, lens} = snap;
  if (!modelView || !cube.has("rank/1")) return null;
  const through = lens !== "weight", row = drawnRow(snap, 0, query), kept = [];
  for (const key of through ? cube.lensRankRow(snap.lensAt, query) : cube.rankRow(scale, causal, query)) {
    if (kept.length >= modelView.topK) break;
    if (kept.length && row[key] < modelView.threshold) break;
    kept.push(key);
  }
  if (kept.length === cube.n) return null;
  const rest = through ? cube.lensRestAfter(snap.lensAt, query, kept.length - 1) : cube.restAfter(scale, causal, query, kept.length - 1);
  return {keys: kept.sort((a, b) => a - b), left: cube.n - kept.length, rest};
}
