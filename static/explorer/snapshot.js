// One immutable picture of what the page shows, built once per change from the model's state.
// Every clamp and fallback of the view is decided here, and only here.

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

// The snapshot. `status` is "ready" when the sentence's numbers are there; "waiting" while the
// student's own sentence is on its way from Python; "loading" or "failed" while, or when, its
// numbers could not be decoded. Views that draw numbers draw only when it is "ready".
export function makeSnapshot({model, cubes, constants, t, notices}) {
  const own = Object.values(constants.own);
  const cube = cubes.get(model.preset) || (own.includes(model.preset) ? null : cubes.values().next().value);
  const base = {
    t, lang: model.lang, mode: model.mode, lecture: model.mode === constants.modes[1], lab: model.lab, steps: constants.steps,
    step: model.step, checking: !!model.checking,
    // working an answer, the student sees the steps up to the mask, not the weights or the output
    reveal: Math.min(model.step >= 0 ? model.step + 1 : constants.steps, model.checking ? 3 : constants.steps),
    notices, sentenceError: model.sentence_error, gridErrors: model.grid_errors, answer: model.answer,
    layerErrors: model.layer_errors || [],
    scale: !!model.scale, causal: !!model.causal, position: model.position !== false,
    // the "why √d" view's d: the model's when the table has it, else its first
    whyD: constants.why_scale.dimensions.includes(model.why_d) ? model.why_d : constants.why_scale.dimensions[0],
  };
  if (!cube) return Object.freeze({...base, status: "waiting", cube: null});
  if (cube.state !== "ready") return Object.freeze({...base, status: cube.state, cube});
  const heads = headsShown(cube, model.heads);
  const headView = headViewShown(heads, model.head_view);
  const visibleHeads = headView >= 0 ? [headView] : Array.from({length: heads}, (_, i) => i);
  // a practice problem: its number, query and slips; unsolved, only the problem itself shows
  const practice = cube.entry.practice || null;
  return Object.freeze({
    ...base, status: "ready", cube, preset: cube.entry.name, query: queryShown(cube, model.query),
    heads, headView, visibleHeads: Object.freeze(visibleHeads), focusHead: headView >= 0 ? headView : 0,
    practice, practising: !!practice && base.checking,
  });
}

// The part of a snapshot that names one view of the numbers, as a memo key.
export function viewKey(snap, ...extra) {
  return [snap.cube.serial, snap.heads, snap.scale, snap.causal, snap.visibleHeads.join(","), snap.lang, ...extra].join("|");
}

// Weights exist from the softmax step (the 4th of the step-by-step reveal) on.
export function weightsShown(snap) {
  return snap.reveal >= 4;
}

// The memo key of the views that show the selected query's weights (lines, bars, weights table).
export function weightsKey(snap) {
  return viewKey(snap, snap.query, weightsShown(snap), snap.checking);
}
