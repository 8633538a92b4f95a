// Attention Explorer's browser client. It creates every view once; on each change it builds one
// immutable snapshot of the state (once per microtask) and hands it to every view, which repaints
// only what it shows that changed. It only indexes numbers attention_core computed: it never
// recomputes softmax, scaling or masks. The module map is in docs/architecture.md.

import { h } from "./dom.js";
import { Cube } from "./cube.js";
import { translator } from "./i18n.js";
import { encodeNumbers, parseUrl, toSearch } from "./url.js";
import { makeSnapshot, modelShown, queryShown } from "./snapshot.js";
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
import { createCalculation } from "./calculation.js";
import { createStepper } from "./stepper.js";
import { createLab } from "./lab.js";
import { createPractice } from "./practice.js";
import { createWhyScale } from "./why_scale.js";
import { createQkvOrigin } from "./qkv_origin.js";
import { createPolysemy } from "./polysemy.js";
import { createOrder } from "./order.js";
import { createConcatWo } from "./concat_wo.js";
import { createModel } from "./model.js";
import { listenToKeys } from "./keyboard.js";

// The model's params that change what is drawn (app/explorer.py AttentionView).
const DRAWN = ["preset", "query", "scale", "causal", "heads", "head_view", "lang", "mode", "step",
  "sentence_error", "grid_errors", "answer", "checking", "why_d", "position", "layer_errors",
  "models", "layer", "head", "merge", "special", "top_k", "threshold"];

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
  const addCube = (entry) => { if (entry) cubes.set(entry.name, new Cube(entry, ++serial)); };
  for (const entry of model.sentences) addCube(entry);
  addCube(model.custom);

  const reported = new Set();
  const report = (key, lang) => {
    if (reported.has(`${lang}:${key}`)) return;
    reported.add(`${lang}:${key}`);
    console.error(`Attention Explorer: the string table has no "${key}" in "${lang}"`);
  };
  let translators = new Map();
  const translate = (lang) => {
    if (!translators.has(lang)) translators.set(lang, translator(model.strings, lang, report));
    return translators.get(lang);
  };

  const notices = {items: [], version: 0};
  let current = null;           // the last snapshot drawn
  let awaitingSentence = false; // a typed sentence from the link is on its way from Python
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(refresh);
  };
  const root = h("div", {class: "ae-root", "data-testid": "explorer", tabindex: "-1"});
  const actions = {
    set(changes) { Object.assign(model, changes); schedule(); },
    setQuery(index) {
      if (!current || current.status !== "ready" || current.practising) return;  // a problem asks about its own query
      model.query = queryShown(current.cube, index);
      schedule();
    },
    send(message) { model.send_msg(message); },
    redraw: schedule,
    // Practice problem `number`: from the file's bank where there is one, else asked of Python.
    openPractice(number) {
      const bank = model.practice_bank || [];
      if (bank.length) {
        const entry = bank[number - 1];
        if (entry) showPractice(entry);
        else actions.notify("notice_practice", {value: number, last: bank.length});
      } else if (model.lab) {
        awaitingSentence = true;  // the URL keeps practice= until the problem is here
        model.send_msg({type: "practice", number});
      } else {
        actions.notify("needs_server", {});
      }
    },
    sendSentence(text, query) { model.send_msg({type: "sentence", text, query}); },
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
  const ctx = {model, constants, cubes, actions};
  // A practice problem opens unsolved, in the exam's view: one head, √d on, no mask, its query.
  // Only one problem is among the sentences on offer at a time.
  function showPractice(entry) {
    for (const [name, cube] of cubes) if (cube.entry.practice && name !== entry.name) cubes.delete(name);
    if (!cubes.has(entry.name)) addCube(entry);
    Object.assign(model, {preset: entry.name, query: entry.practice.query, heads: entry.cube.head_counts[0], head_view: -1,
      scale: true, causal: false, step: -1, checking: true, answer: null});
    schedule();
  }

  const header = createHeader(ctx), noticeView = createNotices(ctx), controls = createControls(ctx);
  const tokens = createTokens(ctx), captions = createCaptions(ctx), origin = createOrigin(ctx), live = createLive(ctx);
  const figureTools = createFigureTools(ctx);
  const lines = createLines(ctx, figureTools.el), bars = createBars(ctx), weights = createWeightsTable(ctx);
  const heatmap = createHeatmap(ctx), calculation = createCalculation(ctx), stepper = createStepper(ctx);
  const lab = createLab(ctx), practice = createPractice(ctx), whyScale = createWhyScale(ctx), qkvOrigin = createQkvOrigin(ctx);
  const polysemy = createPolysemy(ctx), order = createOrder(ctx), concatWo = createConcatWo(ctx), modelView = createModel(ctx);
  const views = [header, noticeView, controls, modelView, tokens, captions, origin, live, lines, figureTools, bars, weights, heatmap,
    calculation, stepper, lab, practice, whyScale, qkvOrigin, polysemy, order, concatWo];
  if (lab.sentence) controls.secondary.append(lab.sentence);
  header.buttons.prepend(controls.more);
  // The first screen holds what a lecturer points at: controls, tokens, the lines and the bars.
  // In lecture mode it is exactly one screen high (explorer.css).
  const stage = h("div", {class: "ae-stage"}, lines.el, h("section", {class: "ae-card ae-card-bars"}, bars.el));
  const grid = h("div", {class: "ae-grid"},
      h("section", {class: "ae-card ae-card-weights"}, weights.el),
      h("section", {class: "ae-card ae-card-calc"},
        h("div", {class: "ae-card-head"}, calculation.title, stepper.toggle), stepper.bar, calculation.el, lab.check),
      qkvOrigin.el,
      concatWo.el,
      heatmap.el,
      whyScale.el,
      order.el,
      polysemy.el,
      lab.card);
  root.append(
    h("div", {class: "ae-first"}, header.el, noticeView.el, controls.el, modelView.el, tokens.el, origin.el, practice.el, captions.el,
      live.el, stage),
    grid);

  let urlWritable = true;
  const numbersLinks = new WeakMap();  // cube → its numbers= text, encoded once per sentence
  const numbersLink = (cube) => {
    if (!numbersLinks.has(cube)) {
      numbersLinks.set(cube, encodeNumbers({tokens: cube.tokens, q: cube.matrixText("q"), k: cube.matrixText("k"),
        v: cube.matrixText("v")}));
    }
    return numbersLinks.get(cube);
  };
  function writeUrl(snap) {
    if (!model.url_sync || !urlWritable || awaitingSentence) return;  // keep text= until its sentence has arrived
    // a typed sentence: the toy one, or one a model ran (its entry says so), goes in the link
    const typedThroughModel = snap.modelView && snap.modelView.entry.typed;
    const text = snap.preset === constants.own.sentence || typedThroughModel ? model.sentence_text : "";
    const numbers = snap.preset === constants.own.numbers ? numbersLink(snap.cube) : "";
    const shown = snap.modelView;
    const search = toSearch(window.location.search, {model: shown ? {layer: shown.layer, head: shown.head, merge: shown.merge,
      special: shown.special, topK: shown.topK, threshold: shown.threshold, defaultTopK: constants.model.top_k} : null,
      preset: snap.preset, query: snap.query, scale: snap.scale,
      causal: snap.causal, heads: snap.heads, lang: snap.lang, mode: snap.mode, step: snap.step, text, numbers,
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
  const asked = new Set();
  function fetchHead() {
    const shown = modelShown(model, model.models);
    if (!shown || cubes.has(shown.key)) return;
    const banked = (shown.entry.bank || []).find((entry) => entry.name === shown.key);
    if (banked) { addCube(banked); return; }
    if (!model.lab || asked.has(shown.key)) return;
    asked.add(shown.key);
    model.send_msg({type: "head", model: shown.entry.name, layer: shown.layer, head: shown.head, merge: shown.merge,
      special: shown.special});
  }

  function refresh() {
    scheduled = false;
    fetchHead();
    const snap = makeSnapshot({model, cubes, constants, t: translate(model.lang),
      notices: Object.freeze({items: Object.freeze([...notices.items]), version: notices.version})});
    current = snap;
    if (snap.status === "loading") snap.cube.ready.then(schedule);  // draw again once its numbers are there
    root.classList.toggle("ae-lecture", snap.lecture);
    // an unsolved practice problem: nothing that would give its rows away
    stage.hidden = grid.hidden = !!snap.practising;
    captions.el.hidden = !!snap.practising || !!snap.modelView;  // a model's heads have no designed captions
    root.classList.toggle("ae-practising", !!snap.practising);
    root.setAttribute("lang", snap.lang);
    if (snap.cube) root.style.setProperty("--n", String(snap.cube.n));  // long sentences make the figure taller
    if (model.url_sync) {  // a page of its own: its title and language follow the UI's
      document.title = snap.t("app_title");
      document.documentElement.lang = snap.lang;
    }
    for (const view of views) view.update(snap);
    if (snap.status === "ready") writeUrl(snap);
  }

  for (const name of DRAWN) model.on(name, schedule);
  let linkQuery = null;  // a query= that came with text=, checked once its sentence is there
  model.on("custom", () => {
    awaitingSentence = false;
    addCube(model.custom);
    const entry = model.custom;
    if (linkQuery !== null && entry && linkQuery >= entry.cube.n) {
      actions.notify("notice_query", {value: linkQuery, token: entry.cube.tokens[entry.default_query]});
    } else if (linkQuery !== null && entry && entry.name === constants.own.numbers) {
      model.query = linkQuery;  // the numbers from a link open at the link's query
    }
    linkQuery = null;
    schedule();
  });
  model.on("head_entry", () => { addCube(model.head_entry); schedule(); });
  // A model whose entry changed (the student's sentence through it, again): its heads are new.
  const modelEntries = new Map((model.models || []).map((entry) => [entry.name, entry]));
  model.on("models", () => {
    awaitingSentence = false;
    for (const entry of model.models || []) {
      if (modelEntries.get(entry.name) === entry) continue;
      modelEntries.set(entry.name, entry);
      for (const [name, cube] of cubes) {
        if (cube.model && cube.model.model === entry.name) { cubes.delete(name); asked.delete(name); }
      }
    }
    schedule();
  });
  model.on("model_error", () => {
    if (model.model_error) actions.notify(model.model_error.code, model.model_error.values);
  });
  model.on("practice_entry", () => {
    awaitingSentence = false;
    if (model.practice_entry) showPractice(model.practice_entry);
  });
  model.on("sentence_error", () => { awaitingSentence = false; });
  model.on("grid_errors", () => { awaitingSentence = false; });  // numbers from a link were refused
  model.on("sentences", () => {
    cubes.clear();
    asked.clear();  // the models' heads go too: ask again for any shown
    for (const entry of model.sentences) addCube(entry);
    addCube(model.custom);
    schedule();
  });
  model.on("strings", () => { translators = new Map(); schedule(); });
  // A page of its own (served or exported) answers the keys anywhere; in a notebook, only inside the view.
  const stopKeys = listenToKeys(model.url_sync ? window : root, {
    model,
    query: () => (current && current.status === "ready" ? current.query : 0),
    lastQuery: () => (current && current.cube ? current.cube.n - 1 : 0),
    setQuery: (index) => { actions.setQuery(index); tokens.focusQuery(model.query); },
    stepBy: (delta) => stepper.goTo(model.step + delta),
  });
  model.on("remove", stopKeys);
  if (model.url_sync && window.parent !== window) tellParentTheHeight(root);

  if (model.url_sync) {
    const found = parseUrl(window.location.search, {cubes, models: model.models || [], state: model, constants, lab: model.lab});
    Object.assign(model, found.changes);
    notices.items.push(...found.notices);
    notices.version += 1;
    if (found.pending && found.pending.practice) {
      actions.openPractice(found.pending.practice);
    } else if (found.pending && found.pending.numbers) {
      awaitingSentence = true;
      linkQuery = found.pending.query;
      actions.send({type: "numbers", ...found.pending.numbers});
    } else if (found.pending) {
      linkQuery = found.pending.query;
      lab.prefill(found.pending.text);
      awaitingSentence = true;
      actions.sendSentence(found.pending.text, found.pending.query);
    }
  }
  refresh();
  return root;
}
