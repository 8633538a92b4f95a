// Attention Explorer's browser client. It creates every view once; on each change it builds one
// immutable snapshot of the state (once per microtask) and hands it to every view, which repaints
// only what it shows that changed. It only indexes numbers attention_core computed: it never
// recomputes softmax, scaling or masks. The module map is in docs/architecture.md.

import { h } from "./dom.js";
import { Cube } from "./cube.js";
import { translator } from "./i18n.js";
import { encodeNumbers, parseUrl, toSearch } from "./url.js";
import { makeSnapshot, modelShown, openingChanges, queryShown, viewCode } from "./snapshot.js";
import { entryOf, sameSource, sourceOf } from "./source.js";
import { createRequests } from "./requests.js";
import { createViewState } from "./view_state.js";
import { offeredProperty, offeredReader } from "./offered.js";
import { createHeader } from "./header.js";
import { createControls } from "./controls.js";
import { createTokens } from "./tokens.js";
import { createCaptions } from "./captions.js";
import { createOrigin } from "./origin.js";
import { createLive } from "./live.js";
import { createNotices } from "./notices.js";
import { createLines } from "./lines.js";
import { createFigureTools } from "./figure.js";
import { createBars } from "./bars.js";
import { createWeightsTable } from "./weights_table.js";
import { createHeatmap } from "./heatmap.js";
import { createDifference } from "./difference.js";
import { createLensLine } from "./lens_line.js";
import { createRoom } from "./room.js";
import { createCalculation } from "./calculation.js";
import { createStepper } from "./stepper.js";
import { createLab } from "./lab.js";
import { createPractice } from "./practice.js";
import { createWhyScale } from "./why_scale.js";
import { createQkvOrigin } from "./qkv_origin.js";
import { createRotation } from "./rotation.js";
import { createLenses } from "./lenses.js";
import { createPolysemy } from "./polysemy.js";
import { createOrder } from "./order.js";
import { createConcatWo } from "./concat_wo.js";
import { createModel } from "./model.js";
import { listenToKeys } from "./keyboard.js";

// The model's params that the page draws from (app/explorer.py AttentionView), mirrored in the page
// (view_state.js).
const VIEW_PARAMS = ["lab", "url_sync", "source", "query", "scale", "causal", "heads", "head_view", "lang", "mode", "step",
  "checking", "why_d", "position", "layer", "head", "merge", "special", "top_k", "threshold", "lens", "rope", "window", "compare"];


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

export function render({ model }) {
  performance.mark("ae-render");  // bench/model.py measures from here to the overview drawn
  const constants = model.esm_constants;
  let serial = 0;
  const cubes = new Map();
  // a sentence's cube goes under its name; a model head's under the page's own key (snapshot.js modelShown)
  const addCube = (entry, key = entry && entry.name) => { if (entry) cubes.set(key, new Cube(entry, ++serial)); };
  const offered = offeredReader(model);
  for (const entry of offered("sentences")) addCube(entry);
  // the models on offer: Python's catalog, and those its replies added (a sentence typed through one);
  // the sentences its replies added (the student's own), kept when Python's catalog changes
  const catalog = {models: [...(offered("models") || [])], sentences: new Map()};
  const requests = createRequests(model, {beforeSend: () => viewState.flush()});  // Python sees the query on show
  // what only the page holds: why the last request was refused, and the checker's last verdict
  const local = {sentenceError: null, gridErrors: [], layerErrors: [], answer: null};
  // a model head's ablation, asked of Python apart from the head (actions.measureAblation): cube → percent (query,) or "waiting"
  const ablations = new WeakMap();

  const reported = new Set();
  const report = (key, lang) => {
    if (reported.has(`${lang}:${key}`)) return;
    reported.add(`${lang}:${key}`);
    console.error(`Attention Explorer: the string table has no "${key}" in "${lang}"`);
  };
  let translators = new Map();
  // A language the page has not got yet (a served page gets one, and the other when it switches):
  // its words show as soon as Python sends them; until then, the page is in a language it has.
  const shownLang = () => (state.lang in offered("strings") ? state.lang : Object.keys(offered("strings"))[0]);
  const translate = (lang) => {
    if (!translators.has(lang)) translators.set(lang, translator(offered("strings"), lang, report));
    return translators.get(lang);
  };

  const notices = {items: [], version: 0};
  let current = null;           // the last snapshot drawn
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(refresh);
  };
  // the view asked for: `state` read by every view, changed through viewState.set
  const viewState = createViewState(model, VIEW_PARAMS, schedule);
  const state = viewState.state;
  const root = h("div", {class: "ae-root", "data-testid": "explorer", tabindex: "-1"});
  // `apply(entry)` for the entry `source` names, at once, or (a model that travelled without its
  // body: a served page's, not on show) once its whole entry is here, so the view stays as it is
  // meanwhile; then only if the student has not asked for another source since.
  let sourcesAsked = 0;
  const whenWhole = (source, apply) => {
    if (!source) { apply(null); return; }
    const asOf = ++sourcesAsked;
    const find = () => entryOf(source, {cubes, models: catalog.models, kinds: constants.kinds});
    const entry = find();
    if (!entry || !entry.later || !constants.kinds.models.includes(entry.kind)) { apply(entry); return; }
    fetchWhole(entry).then((here) => { if (here && asOf === sourcesAsked) apply(find()); });
  };
  const actions = {
    set(changes) {
      linkHeld = false;
      whenWhole(changes.source, () => viewState.set(changes));
    },
    // A model at its opening view (its switches, first token view, last word as the query).
    openModel(entry) {
      whenWhole(sourceOf(entry), (whole) => actions.set({source: sourceOf(whole), ...openingChanges(whole)}));
    },
    setQuery(index) {
      if (!current || current.status !== "ready" || current.practising) return;  // a problem asks about its own query
      linkHeld = false;
      viewState.set({query: queryShown(current.cube, index)}, {onPause: true});
    },
    // The page's own state (errors of the last request, the checker's verdict).
    setLocal(changes) { Object.assign(local, changes); schedule(); },
    // A request for the student's own sentence, numbers or W: the newest one counts.
    send(message, {fromLink = false} = {}) {
      if (!fromLink) linkHeld = false;
      const askedOn = state.source;  // cell errors are about the grid of this sentence
      return requests.ask("own", message).then((reply) => receiveOwn(reply, askedOn, fromLink));
    },
    redraw: schedule,
    // Practice problem `number`: from the file's bank where there is one, else asked of Python.
    openPractice(number) {
      const bank = offered("practice_bank") || [];
      if (bank.length) {
        const entry = bank[number - 1];
        if (entry) showPractice(entry);
        else actions.notify("notice_practice", {value: number, last: bank.length});
      } else if (state.lab) {  // the URL keeps practice= until the problem is here
        requests.ask("practice", {type: "practice", number}).then((reply) => {
          if (reply.ok) showPractice(reply.entries[0]);
          else actions.notify("notice_practice", {value: number, last: constants.practice.max});
        });
      } else {
        actions.notify("needs_server", {});
      }
    },
    sendSentence(text, query, options) {
      // a model that takes typed sentences, on show, runs it; else it is the toy sentence
      const shown = modelShown(state, catalog.models, constants.kinds);
      const through = shown && shown.entry.typable ? shown.entry.name : null;
      return actions.send({type: "sentence", text, query, model: through}, options);
    },
    // A model's head removed and the model run again (the ablation request): asked of Python once
    // per head cube, kept with it (ablations); a reply for a cube the page no longer has is dropped.
    measureAblation(cube) {
      if (ablations.has(cube) || !state.lab) return;
      const {model: name, layer, head} = cube.entry.model_head;
      ablations.set(cube, "waiting");
      requests.ask(`ablation:${cube.serial}`, {type: "ablation", model: name, layer, head}).then((reply) => {
        if (![...cubes.values()].includes(cube)) return;  // its sentence changed meanwhile
        if (reply.ok) ablations.set(cube, reply.entries[0].percent);
        else { ablations.delete(cube); actions.notify(`err_${reply.error.code}`, reply.error.values); }
        schedule();
      });
      schedule();
    },
    // what ablations holds for a head cube: its percent per query, "waiting", or undefined
    ablationOf(cube) { return ablations.get(cube); },
    notify(key, values) {
      notices.items = [...notices.items, [key, values]];
      notices.version += 1;
      schedule();
    },
    dismiss(index) {
      notices.items = notices.items.filter((_, i) => i !== index);
      notices.version += 1;
      root.focus({preventScroll: true});  // the pressed button is gone
      schedule();
    },
  };
  const ctx = {model, state, local, constants, cubes, catalog, actions, offered};

  // An entry a reply brought: a model's goes in the catalog (its heads, made for its old sentence,
  // go); a sentence's becomes a cube.
  /** @param {import("./entries").Entry} entry */
  function offer(entry) {
    if (!constants.kinds.models.includes(entry.kind)) { catalog.sentences.set(entry.name, entry); addCube(entry); return; }
    catalog.models = [...catalog.models.filter((m) => m.name !== entry.name), entry];
    for (const [name, cube] of cubes) {
      if (cube.model && cube.model.model === entry.name) { cubes.delete(name); asked.delete(name); }
    }
  }
  // Python's reply to the student's own sentence, numbers or W: shown, or why not, where it was typed.
  let linkQuery = null;  // a query= that came with text= or numbers= in the link, checked once they are here
  const tokenLabel = (entry, query) => (entry.cube ? entry.cube.tokens[query]
    : entry.labels[entry.views[viewCode(state.merge !== false, !!state.special)]][query]);
  /** @param {import("./entries").Reply} reply */
  function receiveOwn(reply, askedOn, fromLink = false) {
    const refused = {sentence: "sentenceError", numbers: "gridErrors", layer: "layerErrors"}[reply.type];
    if (!reply.ok && fromLink) {  // the link's sentence or numbers: said at the top; the link stays as typed
      linkHeld = true;
      if (refused === "gridErrors") {
        const error = (reply.error.cells || [reply.error])[0];
        const cell = error.row >= 0 && ["q", "k", "v"].includes(error.where) ? `${error.where.toUpperCase()} ${error.row + 1}, ${error.col + 1}: `
          : error.where === "token" ? `${error.row + 1}: ` : "";
        actions.notify("notice_numbers_refused", {cell, problem: {key: `err_${error.code}`, values: error.values}});
      }
    }
    if (!reply.ok) {
      const aboutAGrid = reply.type !== "sentence";
      if (aboutAGrid && !sameSource(state.source, askedOn)) return reply;  // the student has moved on: not this grid's errors
      local[refused] = aboutAGrid ? reply.error.cells || [reply.error] : reply.error;
      linkQuery = null;
      schedule();
      return reply;
    }
    reply.entries.forEach(offer);
    Object.assign(local, {sentenceError: null, gridErrors: [], layerErrors: [], answer: null});
    const view = {...reply.view};
    const entry = reply.entries.find((e) => sameSource(e, view.source));
    if (linkQuery !== null && entry) {  // the link's query, where the sentence has it (Python checked a sentence's)
      if (entry.link === "matrices" && linkQuery < entry.cube.n) view.query = linkQuery;
      else if (view.query !== linkQuery) {
        actions.notify("notice_query", {value: linkQuery, token: tokenLabel(entry, view.query)});
        linkHeld = true;  // the link keeps the query asked for
      }
    }
    linkQuery = null;
    viewState.set(view);
    schedule();
    return reply;
  }
  // A practice problem opens unsolved, in the exam's view: one head, √d on, no mask, its query.
  // Only one problem is among the sentences on offer at a time.
  function showPractice(entry) {
    for (const [name, cube] of cubes) if (cube.entry.practice && name !== entry.name) cubes.delete(name);
    if (!cubes.has(entry.name)) addCube(entry);
    local.answer = null;
    viewState.set({source: sourceOf(entry), query: entry.practice.query, heads: entry.cube.head_counts[0], head_view: -1,
      scale: true, causal: false, step: -1, checking: true});
    schedule();
  }

  // Every view, made once in this order: [name, make(ctx, made so far), where its element goes].
  // "first": the first screen, which holds what a lecturer points at (in lecture mode exactly one
  // screen high, explorer.css); "stage": its figure row; "grid": the cards below; a card class puts
  // the element in a card of its own; null: another view's card holds its parts. A new view is one
  // line here (and its import).
  const VIEWS = [
    ["header", createHeader, "first"],
    ["notices", createNotices, "first"],
    ["room", createRoom, "first"],
    ["controls", createControls, "first"],
    ["lensLine", createLensLine, "first"],
    ["model", createModel, "first"],
    ["tokens", createTokens, "first"],
    ["origin", createOrigin, "first"],
    ["practice", createPractice, "first"],
    ["captions", createCaptions, "first"],
    ["live", createLive, "first"],
    ["figureTools", createFigureTools, null],  // its buttons sit in the lines' figure
    ["lines", (c, made) => createLines(c, made.figureTools.el), "stage"],
    ["bars", createBars, "stage", "ae-card-bars"],
    ["weights", createWeightsTable, "grid", "ae-card-weights"],
    ["stepper", createStepper, null],          // in the calculation's card
    ["lab", createLab, null],                  // its parts: the sentence box, the answer check, its card
    ["calculation", createCalculation, "grid", "ae-card-calc"],
    ["qkvOrigin", createQkvOrigin, "grid"],
    ["rotation", createRotation, "grid"],
    ["lenses", createLenses, "grid"],
    ["difference", createDifference, "grid"],
    ["concatWo", createConcatWo, "grid"],
    ["heatmap", createHeatmap, "grid"],
    ["whyScale", createWhyScale, "grid"],
    ["order", createOrder, "grid"],
    ["polysemy", createPolysemy, "grid"],
    ["labCard", (c, made) => ({el: made.lab.card, update() {}}), "grid"],
  ];
  const made = {};
  const areas = {first: [], stage: [], grid: []};
  for (const [name, make, area, card] of VIEWS) {
    made[name] = make(ctx, made);
    if (area) areas[area].push(card ? h("section", {class: `ae-card ${card}`}, made[name].el) : made[name].el);
  }
  const {header, controls, tokens, captions, stepper, lab, calculation} = made;
  const views = Object.values(made);
  // parts that live in another view's place
  if (lab.sentence) controls.secondary.append(lab.sentence);
  header.buttons.prepend(controls.more);
  header.buttons.prepend(made.room.button);
  header.buttons.before(made.room.panel);
  calculation.el.before(h("div", {class: "ae-card-head"}, calculation.title, stepper.toggle), stepper.bar);
  calculation.el.after(lab.check);
  const stage = h("div", {class: "ae-stage"}, ...areas.stage);
  const grid = h("div", {class: "ae-grid"}, ...areas.grid);
  root.append(h("div", {class: "ae-first"}, ...areas.first, stage), grid);

  let urlWritable = true;
  // A link with a value the page could not use keeps what was typed in it, so it can be mended,
  // until the student changes the view (actions.set, setQuery, send).
  let linkHeld = false;
  const numbersLinks = new WeakMap();  // cube → its numbers= text, encoded once per sentence
  const numbersLink = (cube) => {
    if (!numbersLinks.has(cube)) {
      numbersLinks.set(cube, encodeNumbers({tokens: cube.tokens, q: cube.matrixText("q"), k: cube.matrixText("k"),
        v: cube.matrixText("v")}));
    }
    return numbersLinks.get(cube);
  };
  function writeUrl(snap) {
    // keep text=, numbers= and practice= until what they ask for has arrived
    if (!state.url_sync || !urlWritable || linkHeld || requests.waiting("own") || requests.waiting("practice")) return;
    // a typed sentence: the toy one, or one a model ran (its entry says so), goes in the link as its text
    const shownEntry = snap.modelView ? snap.modelView.entry : snap.cube.entry;
    const text = shownEntry.link === "text" ? shownEntry.text : "";
    const numbers = shownEntry.link === "matrices" ? numbersLink(snap.cube) : "";
    const shown = snap.modelView;
    const search = toSearch(window.location.search, {model: shown ? {layer: shown.layer, head: shown.head, merge: shown.merge,
      special: shown.special, topK: shown.topK, threshold: shown.threshold, defaultTopK: constants.model.top_k,
      rope: shown.rope, window: shown.window, compare: shown.compare} : null,
      preset: snap.source.name, query: snap.query, scale: snap.scale, lens: snap.lensAsked,
      causal: snap.causal, heads: snap.heads, lang: state.lang, mode: snap.mode, step: snap.step, text, numbers,
      practice: snap.practice ? snap.practice.number : 0, why_d: snap.whyD === constants.why_scale.start ? null : snap.whyD, position: snap.position});
    if (search === window.location.search) return;
    try {
      window.history.replaceState(window.history.state, "", window.location.pathname + search + window.location.hash);
    } catch (error) {
      // some embedders (a sandboxed iframe, file:// in some browsers) forbid it: the view works without
      urlWritable = false;
      console.warn("Attention Explorer: the page's URL cannot be updated here:", error.message);
    }
  }

  // A model's head in the token view asked for: from the file's bank, else asked of Python once.
  const asked = new Set();  // heads (and presets' numbers) asked for once: a refused one is not asked again
  function fetchHead() {
    const shown = modelShown(state, catalog.models, constants.kinds);
    if (!shown || cubes.has(shown.key)) return;
    // a file's banked heads, found by what they are (layer, head, token view), not by a name format
    const banked = (shown.entry.bank || []).find(({model_head: head}) => head.layer === shown.layer
      && head.head === shown.head && viewCode(head.merge, head.special) === shown.code && (head.experiment || "") === shown.experiment);
    if (banked) { addCube(banked, shown.key); return; }
    if (!state.lab || asked.has(shown.key)) return;
    asked.add(shown.key);
    const entryAsked = shown.entry;
    requests.ask(`head:${shown.key}`, {type: "head", model: shown.entry.name, layer: shown.layer, head: shown.head,
      merge: shown.merge, special: shown.special, rope: shown.rope, window: shown.window}).then((reply) => {
      if (!catalog.models.includes(entryAsked)) return;  // its sentence changed while it was made
      if (reply.ok) addCube(reply.entries[0], shown.key);
      else actions.notify(`err_${reply.error.code}`, reply.error.values);
      schedule();
    });
  }

  // A preset or model that came without its body (a served page's, not the one its link opened,
  // app.kinds.travelling_later): its whole entry, asked of Python once, replaces it.
  const wholes = new Map();  // name → the promise of its whole entry
  function fetchWhole(entry) {
    if (!wholes.has(entry.name)) {
      wholes.set(entry.name, requests.ask(`entry:${entry.name}`, {type: "entry", kind: entry.kind, name: entry.name})
        .then((reply) => {
          if (!reply.ok) actions.notify(`err_${reply.error.code}`, reply.error.values);  // asked once: not again
          else if (constants.kinds.models.includes(reply.entries[0].kind)) offer(reply.entries[0]);
          else addCube(reply.entries[0]);
          schedule();
          return reply.ok;
        }));
    }
    return wholes.get(entry.name);  // resolves to whether the whole entry is here
  }
  // the entry on show, when it came without its body (a link's model is asked for here)
  function fetchLater() {
    const entry = entryOf(state.source, {cubes, models: catalog.models, kinds: constants.kinds});
    if (entry && entry.later) fetchWhole(entry);
  }

  function refresh() {
    scheduled = false;
    fetchHead();
    fetchLater();
    const lang = shownLang();
    const snap = makeSnapshot({state, cubes, catalog, local, constants, lang, t: translate(lang),
      notices: Object.freeze({items: Object.freeze([...notices.items]), version: notices.version})});
    current = snap;
    if (snap.status === "loading") snap.cube.ready.then(schedule);  // draw again once its numbers are there
    root.classList.toggle("ae-lecture", snap.lecture);
    // numbers on their way (a model's head, a preset's numbers): what is drawn is the last view's,
    // dimmed until the new ones are drawn (and tests wait for "ready")
    if (root.dataset.status !== snap.status) root.dataset.status = snap.status;
    // an unsolved practice problem: nothing that would give its rows away
    stage.hidden = grid.hidden = !!snap.practising;
    // a model's heads have no designed captions; a caption says what a head looks at, the answer of a room's question
    captions.el.hidden = !!snap.practising || !!snap.modelView || snap.polling;
    root.classList.toggle("ae-practising", !!snap.practising);
    // click-cost: setting lang, even to the value it has, restyles and lays out the whole page
    // again in Chromium (~50 ms at 24 tokens x 8 heads): set it only when the language changes
    if (root.getAttribute("lang") !== snap.lang) root.setAttribute("lang", snap.lang);
    if (snap.cube) root.style.setProperty("--n", String(snap.cube.n));  // long sentences make the figure taller
    if (state.url_sync) {  // a page of its own: its title and language follow the UI's
      document.title = snap.t("app_title");
      if (document.documentElement.lang !== snap.lang) document.documentElement.lang = snap.lang;  // click-cost: as above
    }
    for (const view of views) view.update(snap);
    if (snap.status === "ready") writeUrlOnPause(snap);
  }
  // click-cost: history.replaceState costs 2–20 ms a call in Chromium (the browser records the
  // entry; right after a repaint it also forces a style recalculation): in the click's script it was
  // most of a served click's 23 ms at 24 tokens x 8 heads (bench/click_cost.py). The URL is written
  // once the student pauses (URL_PAUSE_MS after the last change), and before the page goes away;
  // data-url-pending says a write is due (tests wait for it).
  const URL_PAUSE_MS = 200;
  let urlSnap = null, urlTimer = 0;
  const flushUrl = () => {
    clearTimeout(urlTimer);
    const last = urlSnap;
    urlSnap = null;
    delete root.dataset.urlPending;
    if (last) writeUrl(last);
  };
  if (state.url_sync) window.addEventListener("pagehide", flushUrl);
  function writeUrlOnPause(snap) {
    if (!state.url_sync) return;
    urlSnap = snap;
    if (root.dataset.urlPending !== "true") root.dataset.urlPending = "true";
    clearTimeout(urlTimer);
    urlTimer = setTimeout(flushUrl, URL_PAUSE_MS);
  }

  requests.onChange(schedule);
  // Python changed what it offers (a notebook's own sentence or model sentence): a model whose
  // entry changed has new heads; every sentence's cube is made again.
  model.on(offeredProperty(model, "models"), () => {
    const before = new Map(catalog.models.map((entry) => [entry.name, JSON.stringify(entry)]));
    // a model whose whole entry the page has keeps it over the same one without its body
    const whole = new Map(catalog.models.filter((entry) => !entry.later).map((entry) => [entry.name, entry]));
    const models = (offered("models") || []).map((entry) => (entry.later && whole.get(entry.name)) || entry);
    const listed = new Set(models.map((entry) => entry.name));
    // Python's list, then the models the page's replies added that Python does not list (a typed sentence's)
    catalog.models = [...models, ...catalog.models.filter((entry) => entry.typed && !listed.has(entry.name))];
    for (const entry of models) if (before.get(entry.name) !== JSON.stringify(entry)) offer(entry);
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
    asked.clear();  // the models' heads go too: ask again for any shown
    for (const entry of [...offered("sentences"), ...catalog.sentences.values()]) {
      if (cubes.has(entry.name)) continue;  // Python's catalog first
      if (same(before.get(entry.name), entry)) cubes.set(entry.name, before.get(entry.name));
      else addCube(entry);
    }
    schedule();
  });
  model.on(offeredProperty(model, "strings"), () => { translators = new Map(); schedule(); });
  // A page of its own (served or exported) answers the keys anywhere; in a notebook, only inside the view.
  const stopKeys = listenToKeys(state.url_sync ? window : root, {
    state,
    query: () => (current && current.status === "ready" ? current.query : 0),
    lastQuery: () => (current && current.cube ? current.cube.n - 1 : 0),
    setQuery: (index) => { actions.setQuery(index); tokens.focusQuery(state.query); },
    stepBy: (delta) => stepper.goTo(state.step + delta),
  });
  // a view removed (a reconnect draws the page again, and the new drawing reads the URL) writes the
  // view it had first
  model.on("remove", () => { stopKeys(); flushUrl(); viewState.flush(); window.removeEventListener("pagehide", flushUrl); });
  if (state.url_sync && window.parent !== window) tellParentTheHeight(root);

  if (state.url_sync) {
    const found = parseUrl(window.location.search, {cubes, models: catalog.models, state, constants, lab: state.lab});
    viewState.set(found.changes);
    linkHeld = found.notices.length > 0;
    notices.items.push(...found.notices);
    notices.version += 1;
    if (found.pending && found.pending.practice) {
      actions.openPractice(found.pending.practice);
    } else if (found.pending && found.pending.numbers) {
      linkQuery = found.pending.query;
      actions.send({type: "numbers", ...found.pending.numbers}, {fromLink: true});
    } else if (found.pending) {
      linkQuery = found.pending.query;
      lab.prefill(found.pending.text);
      actions.sendSentence(found.pending.text, found.pending.query, {fromLink: true});
    }
  }
  // A page drawn again for a session it had (a reconnect) asks for what the session made, when
  // the view names something it does not have.
  if (state.lab && !requests.busy() && !entryOf(state.source, {cubes, models: catalog.models, kinds: constants.kinds})) {
    requests.ask("restore", {type: "restore"}).then((reply) => {
      if (reply.ok) reply.entries.filter((e) => e.kind !== "practice" || sameSource(e, state.source)).forEach(offer);
      schedule();
    });
  }
  refresh();
  return root;
}
