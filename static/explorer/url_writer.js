// The view in the page's own URL (a served page or an exported file; a notebook's view has none):
// written once the student pauses, read once when the page opens (url.js parses and writes it).

import { encodeNumbers, parseUrl, toSearch } from "./url.js";

// click-cost: history.replaceState costs 2–20 ms a call in Chromium (the browser records the
// entry; right after a repaint it also forces a style recalculation): in the click's script it was
// most of a served click's 23 ms at 24 tokens x 8 heads (bench/click_cost.py). The URL is written
// once the student pauses (URL_PAUSE_MS after the last change), and before the page goes away;
// data-url-pending on `root` says a write is due (tests wait for it).
const URL_PAUSE_MS = 200;

// The value shown of each param the link carries (constants.view): the snapshot's, where it clamps
// the view (under the param's name, or below), else the view asked for.
export function linkedValues(snap, state, table) {
  const shown = {source: snap.source.name, why_d: snap.whyD, lens: snap.lensAsked};
  const values = {};
  for (const {name} of table) values[name] = name in shown ? shown[name] : name in snap ? snap[name] : state[name];
  return values;
}

// A model's head on show as the link writes it (url.js toSearch `model`), or null.
export function modelLink(snap, constants) {
  const shown = snap.modelView;
  return shown ? {layer: shown.layer, head: shown.head, merge: shown.merge, special: shown.special, topK: shown.topK,
    threshold: shown.threshold, defaultTopK: constants.model.top_k, rope: shown.rope, window: shown.window,
    compare: shown.compare} : null;
}

export function createUrlWriter(store, requests, constants, root) {
  const {state, link} = store;
  let writable = true;
  const numbersLinks = new WeakMap();  // cube → its numbers= text, encoded once per sentence
  const numbersLink = (cube) => {
    if (!numbersLinks.has(cube)) {
      numbersLinks.set(cube, encodeNumbers({tokens: cube.tokens, q: cube.matrixText("q"), k: cube.matrixText("k"),
        v: cube.matrixText("v")}));
    }
    return numbersLinks.get(cube);
  };
  function write(snap) {
    // keep text=, numbers= and practice= until what they ask for has arrived
    if (!state.url_sync || !writable || link.held || requests.waiting("own") || requests.waiting("practice")) return;
    // a typed sentence: the toy one, or one a model ran (its entry says so), goes in the link as its text
    const shownEntry = snap.modelView ? snap.modelView.entry : snap.cube.entry;
    const text = shownEntry.link === "text" ? shownEntry.text : "";
    const numbers = shownEntry.link === "matrices" ? numbersLink(snap.cube) : "";
    const search = toSearch(window.location.search, {model: modelLink(snap, constants),
      linked: linkedValues(snap, state, constants.view), step: snap.step, text, numbers,
      practice: snap.practice ? snap.practice.number : 0}, constants.view);
    if (search === window.location.search) return;
    try {
      window.history.replaceState(window.history.state, "", window.location.pathname + search + window.location.hash);
    } catch (error) {
      // some embedders (a sandboxed iframe, file:// in some browsers) forbid it: the view works without
      writable = false;
      console.warn("Attention Explorer: the page's URL cannot be updated here:", error.message);
    }
  }
  let due = null, timer = 0;
  const flush = () => {
    clearTimeout(timer);
    const last = due;
    due = null;
    delete root.dataset.urlPending;
    if (last) write(last);
  };
  if (state.url_sync) window.addEventListener("pagehide", flush);
  let stopWritten = state.stop;
  return {
    // the snapshot on show, written once the student pauses; a lesson's new stop at once (a
    // clicker's press is no flurry of clicks, and a reload right after it must open that stop)
    onPause(snap) {
      if (!state.url_sync) return;
      due = snap;
      if (root.dataset.urlPending !== "true") root.dataset.urlPending = "true";
      clearTimeout(timer);
      if (state.stop !== stopWritten) {
        stopWritten = state.stop;
        flush();
        return;
      }
      timer = setTimeout(flush, URL_PAUSE_MS);
    },
    flush,
    stop() { flush(); window.removeEventListener("pagehide", flush); },
  };
}

// The view the page's link asks for, when the page opens: its changes, its notices (a value the
// page could not use holds the link), and what it asks of Python (a practice problem, the
// student's numbers or sentence).
export function openLink(store, actions, constants, prefill) {
  const {state, link} = store;
  const found = parseUrl(window.location.search, {cubes: store.cubes, models: store.catalog.models, state, constants, lab: state.lab});
  store.viewState.set(found.changes);
  link.held = found.notices.length > 0;
  store.notices.items.push(...found.notices);
  store.notices.version += 1;
  if (found.pending && found.pending.practice) {
    actions.openPractice(found.pending.practice);
  } else if (found.pending && found.pending.numbers) {
    link.query = found.pending.query;
    actions.send({type: "numbers", ...found.pending.numbers}, {fromLink: true});
  } else if (found.pending) {
    link.query = found.pending.query;
    prefill(found.pending.text);
    actions.sendSentence(found.pending.text, found.pending.query, {fromLink: true});
  }
}
