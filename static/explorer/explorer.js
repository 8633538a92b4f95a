// Attention Explorer's browser client. It creates every view once; on each change it builds one
// immutable snapshot of the state (once per microtask) and hands it to every view, which repaints
// only what it shows that changed. It only indexes numbers attention_core computed: it never
// recomputes softmax, scaling or masks. The module map is in docs/architecture.md.
//
// render() wires the parts: the page's store (page_store.js), the requests to Python (requests.js)
// and what their replies do (loading.js), the actions views may take (actions.js), the views
// (layout.js), the URL (url_writer.js) and the keys (keyboard.js).

import { h } from "./dom.js";
import { createTranslations, wholeWords } from "./i18n.js";
import { makeSnapshot } from "./snapshot.js";
import { createRequests, withView } from "./requests.js";
import { offeredProperty, offeredReader } from "./offered.js";
import { listenToKeys } from "./keyboard.js";
import { createPageStore } from "./page_store.js";
import { createLoading } from "./loading.js";
import { createActions } from "./actions.js";
import { createLayout } from "./layout.js";
import { createUrlWriter, openLink } from "./url_writer.js";

// In an iframe, the page tells its parent how tall it is, so a course page can size the frame
// (README: "Embed in a course website"). Embedded, lecture mode does not take the screen's height,
// which would grow with the frame.
function tellParentTheHeight(root) {
  root.classList.add("ae-embedded");
  let last = 0;
  new ResizeObserver(() => {
    // the content's own bottom: the document's scroll height never falls below the frame's height
    const height = Math.ceil(root.getBoundingClientRect().bottom + window.scrollY);
    if (Math.abs(height - last) < 2) return;
    last = height;
    window.parent.postMessage({type: "attention-explorer:height", height}, "*");
  }).observe(root);
}

// What the page's entry gives (each entry's bundle carries only its own): `served`, the cards a
// served page and a notebook add (served.js), which ask Python; `createRoom`, their room (room.js)
// or an exported file's (room_offline.js, which says a room needs a server); `startScorm`, an
// exported file's LMS reporting (scorm.js, standalone.js), which a served page never needs.
export function render({ model }, {served = [], createRoom, startScorm = null, authoring = null}) {
  performance.mark("ae-render");  // bench/model.py measures from here to the overview drawn
  const constants = JSON.parse(model.esm_constants.json);  // app/explorer.py _constants
  const offered = offeredReader(model);
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(refresh);
  };
  const store = createPageStore(model, offered, constants, schedule);
  const {state} = store;
  // each request carries the view it needs (the query on show, before the pause writes it to Python)
  const requests = createRequests(model, {complete: (message) => withView(message, constants.requests, store.state)});
  const root = h("div", {class: "ae-root", "data-testid": "explorer", tabindex: "-1"});
  const loading = createLoading(store, requests, constants, schedule);
  const actions = createActions(store, loading, requests, {constants, offered, schedule, root});
  // a SCORM package's page (export --scorm): the LMS it reports to, found before the lesson opens
  // (the LMS's record of an earlier launch comes first); null elsewhere
  const graded = offered("lesson");
  const sco = startScorm && model.scorm && state.url_sync ? startScorm({...model.scorm, rows: constants.practice.rows,
    lesson: graded && Array.isArray(graded.stops) ? graded : null, kinds: constants.questions.kinds}, window) : null;
  // a module loaded on first use (firstUse(() => import(…))) is given once the page has all its words
  // and constants (served: the first screen's come first)
  const whole = wholeWords(model, constants);
  const firstUse = (load) => Promise.all([load(), whole.ready()]).then(([module]) => module);
  const ctx = {model, state, local: store.local, constants, cubes: store.cubes, catalog: store.catalog, actions, offered, sco,
    createRoom, firstUse, authoring};
  const {made, views, stage, grid} = createLayout(ctx, root, served);
  const urls = createUrlWriter(store, requests, constants, root);
  const words = createTranslations(() => offered("strings"), whole);
  // t as the page has it now (a view loaded on first use that draws before the next repaint)
  ctx.translate = () => words.translate(words.shownLang(state.lang));
  // a package of practice problems alone opens on the problem the student was at (problem 1 at first)
  if (sco && !graded && model.scorm.practice) actions.openPractice((sco.keptPractice && sco.keptPractice.open) || 1);

  function refresh() {
    scheduled = false;
    loading.fetchShown();
    const lang = words.shownLang(state.lang);
    const snap = makeSnapshot({state, cubes: store.cubes, catalog: store.catalog, local: store.local, constants, lang,
      t: words.translate(lang),
      notices: Object.freeze({items: Object.freeze([...store.notices.items]), version: store.notices.version})});
    store.current = snap;
    if (snap.status === "loading") snap.cube.ready.then(schedule);  // draw again once its numbers are there
    drawRoot(snap);
    for (const view of views) view.update(snap);
    if (snap.status === "ready") urls.onPause(snap);
  }
  // What the page's own element shows of a snapshot.
  function drawRoot(snap) {
    root.classList.toggle("ae-lecture", snap.lecture);
    // numbers on their way (a model's head, a preset's numbers): what is drawn is the last view's,
    // dimmed until the new ones are drawn (and tests wait for "ready")
    if (root.dataset.status !== snap.status) root.dataset.status = snap.status;
    // an unsolved practice problem: nothing that would give its rows away
    stage.hidden = grid.hidden = !!snap.practising;
    // a model's heads have no designed captions; a caption says what a head looks at, the answer of a room's question
    // a key question held: a head's caption names the key it looks at
    made.captions.el.hidden = !!snap.practising || !!snap.modelView || snap.polling
      || !!(snap.held && snap.held.hides.includes("captions"));
    root.classList.toggle("ae-practising", !!snap.practising);
    // click-cost: setting lang, even to the value it has, restyles and lays out the whole page
    // again in Chromium (~50 ms at 24 tokens x 8 heads): set it only when the language changes
    if (root.getAttribute("lang") !== snap.lang) root.setAttribute("lang", snap.lang);
    if (snap.cube) root.style.setProperty("--n", String(snap.cube.n));  // long sentences make the figure taller
    if (state.url_sync) {  // a page of its own: its title and language follow the UI's
      document.title = snap.t("app_title");
      if (document.documentElement.lang !== snap.lang) document.documentElement.lang = snap.lang;  // click-cost: as above
    }
  }

  requests.onChange(schedule);
  followCatalogs(model, store, offered, () => { words.reset(); schedule(); }, schedule);
  // A page of its own (served or exported) answers the keys anywhere; in a notebook, only inside the view.
  const stopKeys = listenToKeys(state.url_sync ? window : root, {
    state,
    query: () => (store.current && store.current.status === "ready" ? store.current.query : 0),
    lastQuery: () => (store.current && store.current.cube ? store.current.cube.n - 1 : 0),
    setQuery: (index) => { actions.setQuery(index); made.tokens.focusQuery(state.query); },
    stepBy: (delta) => made.stepper.goTo(state.step + delta),
    lesson: made.lesson,
  });
  // a view removed (a reconnect draws the page again, and the new drawing reads the URL) writes the
  // view it had first
  model.on("remove", () => { stopKeys(); urls.stop(); store.viewState.flush(); });
  if (state.url_sync && window.parent !== window) tellParentTheHeight(root);
  if (state.url_sync) openLink(store, actions, constants, (text) => made.lab.prefill(text));
  loading.restore();
  refresh();
  return root;
}

// Python changed what it offers (a notebook's own sentence or model sentence): a model whose
// entry changed has new heads; every sentence's cube is made again; new strings, new translators.
function followCatalogs(model, store, offered, stringsChanged, schedule) {
  const {catalog, cubes} = store;
  model.on(offeredProperty(model, "models"), () => {
    const before = new Map(catalog.models.map((entry) => [entry.name, JSON.stringify(entry)]));
    // a model whose whole entry the page has keeps it over the same one without its body
    const whole = new Map(catalog.models.filter((entry) => !entry.later).map((entry) => [entry.name, entry]));
    const models = (offered("models") || []).map((entry) => (entry.later && whole.get(entry.name)) || entry);
    const listed = new Set(models.map((entry) => entry.name));
    // Python's list, then the models the page's replies added that Python does not list (a typed sentence's)
    catalog.models = [...models, ...catalog.models.filter((entry) => entry.typed && !listed.has(entry.name))];
    for (const entry of models) if (before.get(entry.name) !== JSON.stringify(entry)) store.offer(entry);
    schedule();
  });
  // A sentence whose entry is the same (a reconnected page gets the catalog again) keeps its cube,
  // already decoded: nothing on screen blinks.
  model.on(offeredProperty(model, "sentences"), () => {
    const before = new Map(cubes);
    // a preset without its body is the same as the whole entry of that name a reply brought
    const same = (cube, entry) => cube && !cube.model && (entry.later ? cube.entry.name === entry.name
      : JSON.stringify(cube.entry) === JSON.stringify(entry));
    cubes.clear();
    store.asked.clear();  // the models' heads go too: ask again for any shown
    for (const entry of [...offered("sentences"), ...catalog.sentences.values()]) {
      if (cubes.has(entry.name)) continue;  // Python's catalog first
      if (same(before.get(entry.name), entry)) cubes.set(entry.name, before.get(entry.name));
      else store.addCube(entry);
    }
    schedule();
  });
  model.on(offeredProperty(model, "strings"), stringsChanged);
}
