// What the page asks of Python and what it does with the replies (app/protocol.py): a model's head,
// the whole entry of a preset or model that came without its body, the student's own sentence,
// numbers or W, a practice problem, a head's ablation, and a reconnected page's session. Each
// reply changes the page's store (page_store.js) and schedules a repaint.

import { modelShown, viewCode } from "./snapshot.js";
import { cubeOf, entryOf, sameSource, sourceOf } from "./source.js";

// `store`: page_store.js; `requests`: requests.js; `schedule()`: a repaint.
export function createLoading(store, requests, constants, schedule) {
  const {state, cubes, catalog, local, link} = store;
  const entryShown = () => entryOf(state.source, {cubes, models: catalog.models, kinds: constants.kinds});

  // A preset or model that came without its body (a served page's, not the one its link opened,
  // app.kinds.travelling_later): its whole entry, asked of Python once, replaces it.
  const wholes = new Map();  // name → the promise of its whole entry
  function fetchWhole(entry) {
    if (!wholes.has(entry.name)) {
      wholes.set(entry.name, requests.ask(`entry:${entry.name}`, {type: "entry", kind: entry.kind, name: entry.name})
        .then((reply) => {
          if (!reply.ok) store.notify(`err_${reply.error.code}`, reply.error.values);  // asked once: not again
          else if (constants.kinds.models.includes(reply.entries[0].kind)) store.offer(reply.entries[0]);
          else store.addCube(reply.entries[0]);
          schedule();
          return reply.ok;
        }));
    }
    return wholes.get(entry.name);  // resolves to whether the whole entry is here
  }

  // What view `view` shows, its numbers here: a sentence's (its whole entry asked for first when it
  // came without), or a model's head. A promise of its ready cube, or null (none, or it failed).
  async function viewWhole(view) {
    const entry = entryOf(view.source, {cubes, models: catalog.models, kinds: constants.kinds});
    if (entry && entry.later) await fetchWhole(entry);
    const cube = constants.kinds.models.includes(view.source && view.source.kind) ? await fetchHead(view)
      : cubeOf(view.source, {cubes, kinds: constants.kinds});
    if (!cube || cube.entry.later) return null;
    await cube.ready.catch(() => null);
    return cube.state === "ready" ? cube : null;
  }
  // The whole entry of what `source` names (a model or preset that came without its body): a
  // promise of whether it is here.
  function entryWhole(source) {
    const entry = entryOf(source, {cubes, models: catalog.models, kinds: constants.kinds});
    return !entry ? Promise.resolve(false) : entry.later ? fetchWhole(entry) : Promise.resolve(true);
  }

  // `apply(entry)` for the entry `source` names, at once, or (a model that travelled without its
  // body: a served page's, not on show) once its whole entry is here, so the view stays as it is
  // meanwhile; then only if the student has not asked for another source since.
  let sourcesAsked = 0;
  function whenWhole(source, apply) {
    if (!source) { apply(null); return; }
    const asOf = ++sourcesAsked;
    const find = () => entryOf(source, {cubes, models: catalog.models, kinds: constants.kinds});
    const entry = find();
    if (!entry || !entry.later || !constants.kinds.models.includes(entry.kind)) { apply(entry); return; }
    fetchWhole(entry).then((here) => { if (here && asOf === sourcesAsked) apply(find()); });
  }

  // A model's head in the token view `view` asks for (the one on show by default): from the file's
  // bank, else asked of Python once. A promise of its cube (null where there is none to be had).
  const headsAsked = new Map();  // key → the promise of its cube, once asked of Python
  function fetchHead(view = state) {
    const shown = modelShown(view, catalog.models, constants.kinds);
    if (!shown) return Promise.resolve(null);
    if (cubes.has(shown.key)) return Promise.resolve(cubes.get(shown.key));
    // a file's banked heads, found by what they are (layer, head, token view), not by a name format
    const banked = (shown.entry.bank || []).find(({model_head: head}) => head.layer === shown.layer
      && head.head === shown.head && viewCode(head.merge, head.special) === shown.code && (head.experiment || "") === shown.experiment);
    if (banked) { store.addCube(banked, shown.key); return Promise.resolve(cubes.get(shown.key) || null); }
    if (!state.lab) return Promise.resolve(null);
    if (store.asked.has(shown.key)) return headsAsked.get(shown.key) || Promise.resolve(null);
    store.asked.add(shown.key);
    const entryAsked = shown.entry;
    const asked = requests.ask(`head:${shown.key}`, {type: "head", model: shown.entry.name, layer: shown.layer, head: shown.head,
      merge: shown.merge, special: shown.special, rope: shown.rope, window: shown.window}).then((reply) => {
      if (!catalog.models.includes(entryAsked)) return null;  // its sentence changed while it was made
      if (reply.ok) store.addCube(reply.entries[0], shown.key);
      else store.notify(`err_${reply.error.code}`, reply.error.values);
      schedule();
      return cubes.get(shown.key) || null;
    });
    headsAsked.set(shown.key, asked);
    return asked;
  }

  // What the next snapshot needs that is not here yet: the head on show, the entry on show when it
  // came without its body (a link's model is asked for here).
  function fetchShown() {
    fetchHead();
    const entry = entryShown();
    if (entry && entry.later) fetchWhole(entry);
  }

  // Python's reply to the student's own sentence, numbers or W: shown, or why not, where it was typed.
  const tokenLabel = (entry, query) => (entry.cube ? entry.cube.tokens[query]
    : entry.labels[entry.views[viewCode(state.merge !== false, !!state.special)]][query]);
  /** @param {import("./entries").Reply} reply */
  function receiveOwn(reply, askedOn, fromLink = false) {
    const refused = {sentence: "sentenceError", numbers: "gridErrors", layer: "layerErrors"}[reply.type];
    if (!reply.ok && fromLink) {  // the link's sentence or numbers: said at the top; the link stays as typed
      link.held = true;
      if (refused === "gridErrors") {
        const error = (reply.error.cells || [reply.error])[0];
        const cell = error.row >= 0 && ["q", "k", "v"].includes(error.where) ? `${error.where.toUpperCase()} ${error.row + 1}, ${error.col + 1}: `
          : error.where === "token" ? `${error.row + 1}: ` : "";
        store.notify("notice_numbers_refused", {cell, problem: {key: `err_${error.code}`, values: error.values}});
      }
    }
    if (!reply.ok) {
      const aboutAGrid = reply.type !== "sentence";
      if (aboutAGrid && !sameSource(state.source, askedOn)) return reply;  // the student has moved on: not this grid's errors
      local[refused] = aboutAGrid ? reply.error.cells || [reply.error] : reply.error;
      link.query = null;
      schedule();
      return reply;
    }
    reply.entries.forEach(store.offer);
    Object.assign(local, {sentenceError: null, gridErrors: [], layerErrors: [], answer: null});
    const view = {...reply.view};
    const entry = reply.entries.find((e) => sameSource(e, view.source));
    if (link.query !== null && entry) {  // the link's query, where the sentence has it (Python checked a sentence's)
      if (entry.link === "matrices" && link.query < entry.cube.n) view.query = link.query;
      else if (view.query !== link.query) {
        store.notify("notice_query", {value: link.query, token: tokenLabel(entry, view.query)});
        link.held = true;  // the link keeps the query asked for
      }
    }
    link.query = null;
    store.viewState.set(view);
    schedule();
    return reply;
  }

  // A request for the student's own sentence, numbers or W: the newest one counts.
  function sendOwn(message, {fromLink = false} = {}) {
    if (!fromLink) link.held = false;
    const askedOn = state.source;  // cell errors are about the grid of this sentence
    return requests.ask("own", message).then((reply) => receiveOwn(reply, askedOn, fromLink));
  }

  // A practice problem opens unsolved, in the exam's view: one head, √d on, no mask, its query.
  // Only one problem is among the sentences on offer at a time.
  function showPractice(entry) {
    for (const [name, cube] of cubes) if (cube.entry.practice && name !== entry.name) cubes.delete(name);
    if (!cubes.has(entry.name)) store.addCube(entry);
    local.answer = null;
    store.viewState.set({source: sourceOf(entry), query: entry.practice.query, heads: entry.cube.head_counts[0], head_view: -1,
      scale: true, causal: false, step: -1, checking: true});
    schedule();
  }

  // A model's head removed and the model run again (the ablation request): asked of Python once
  // per head cube, kept with it; a reply for a cube the page no longer has is dropped.
  const ablations = new WeakMap();  // cube → percent (query,) or "waiting"
  const nextChanges = new WeakMap();  // cube → what removing the head does to the next token (a causal model's)
  function measureAblation(cube) {
    if (ablations.has(cube) || !state.lab) return;
    const {model: name, layer, head} = cube.entry.model_head;
    ablations.set(cube, "waiting");
    requests.ask(`ablation:${cube.serial}`, {type: "ablation", model: name, layer, head}).then((reply) => {
      if (![...cubes.values()].includes(cube)) return;  // its sentence changed meanwhile
      if (reply.ok) {
        ablations.set(cube, reply.entries[0].percent);
        if (reply.entries[0].next) nextChanges.set(cube, reply.entries[0].next);
      }
      else { ablations.delete(cube); store.notify(`err_${reply.error.code}`, reply.error.values); }
      schedule();
    });
    schedule();
  }

  // A page drawn again for a session it had (a reconnect) asks for what the session made, when
  // the view names something it does not have.
  function restore() {
    if (!state.lab || requests.busy() || entryShown()) return;
    requests.ask("restore", {type: "restore"}).then((reply) => {
      if (reply.ok) reply.entries.filter((e) => e.kind !== "practice" || sameSource(e, state.source)).forEach(store.offer);
      schedule();
    });
  }

  return {whenWhole, viewWhole, entryWhole, fetchShown, sendOwn, showPractice, measureAblation, ablationOf: (cube) => ablations.get(cube),
    nextChangeOf: (cube) => nextChanges.get(cube) || null, restore};
}
