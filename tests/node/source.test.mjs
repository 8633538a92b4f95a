// source.js, with url.js and snapshot.js: the entry on show is a typed source {kind, name}, found
// in its kind's catalog only; a link's preset=<name> is resolved to its entry's source once.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { entryOf, sameSource, sourceNamed, sourceOf } from "../../static/explorer/source.js";
import { parseUrl, toSearch } from "../../static/explorer/url.js";
import { makeSnapshot, modelShown } from "../../static/explorer/snapshot.js";

const kinds = {sentences: ["preset", "sentence", "numbers", "practice"], models: ["model", "imported", "trained"]};
// every view param as Python declares it (app/view_params.py, written by fixtures/view_fixture.py)
const view = JSON.parse(readFileSync(new URL("./fixtures/view.json", import.meta.url), "utf-8"));
const constants = {
  view, languages: ["ko", "en"], modes: ["normal", "lecture"], steps: 6, head_choices: [1, 2, 4, 8],
  own: {sentence: "custom", numbers: "numbers", model: "model-own"}, kinds, practice: {max: 100},
  why_scale: {dimensions: [2, 64], start: 64}, model: {top_k: 10, lenses: ["weight", "moved", "rollout", "no_sink"]},
};

// A sentence's cube as the page holds it (cube.js): its entry, its size, the head counts it offers.
function sentence(kind, name, n = 3) {
  const entry = {kind, name, default_query: n - 1, link: kind === "numbers" ? "matrices" : "preset", titles: {ko: name}};
  return {entry, model: null, state: "ready", n, tokens: Array.from({length: n}, (_, i) => `t${i}`), serial: 1,
    head_counts: [1, 2], offers: (heads) => [1, 2].includes(heads), weightsOnly: false};
}

// A model entry (app/models.py model_entry), 4 tokens in every token view.
function modelEntry(kind, name, typedName = null) {
  const views = {"00": "00", "01": "01", "10": "10", "11": "11"};
  const each = (value) => Object.fromEntries(Object.keys(views).map((code) => [code, value]));
  return {kind, name, typed_name: typedName, typable: !!typedName, layers: 2, heads: 4, causal: false, views,
    opens_at: each(3), groups: each([[0], [1], [2], [3]]), labels: each(["a", "b", "c", "d"])};
}

// The sentences on offer: presets, a sentence the exporter was given, and one named like a model.
const cubes = new Map([
  ["meet-friend", sentence("preset", "meet-friend", 5)], ["cat-fish", sentence("preset", "cat-fish")],
  ["sentence-1", sentence("sentence", "sentence-1", 4)], ["imported-1", sentence("sentence", "imported-1", 6)],
]);
const models = [modelEntry("model", "model-1", "model-own"), modelEntry("imported", "imported-1"),
  modelEntry("imported", "imported-2"), modelEntry("trained", "trained-2000", "trained-own-2000"),
  modelEntry("trained", "trained-1000", "trained-own-1000")];

test("a source's entry is looked for in its kind's catalog only, of that kind", () => {
  // one name, two entries: the sentence's among the sentences, the model's among the models
  assert.equal(entryOf({kind: "sentence", name: "imported-1"}, {cubes, models, kinds}), cubes.get("imported-1").entry);
  assert.equal(entryOf({kind: "imported", name: "imported-1"}, {cubes, models, kinds}), models[1]);
  // a source of the wrong kind names nothing
  assert.equal(entryOf({kind: "model", name: "cat-fish"}, {cubes, models, kinds}), null);
  assert.equal(entryOf({kind: "sentence", name: "cat-fish"}, {cubes, models, kinds}), null);
  assert.equal(entryOf({kind: "preset", name: "trained-2000"}, {cubes, models, kinds}), null);
  assert.equal(entryOf(null, {cubes, models, kinds}), null);
  assert.ok(sameSource(sourceOf(models[3]), {kind: "trained", name: "trained-2000"}));
  assert.ok(!sameSource({kind: "sentence", name: "imported-1"}, {kind: "imported", name: "imported-1"}));
});

test("the snapshot shows the entry of the source's kind: a sentence named like a model is a sentence", () => {
  const model = {source: {kind: "sentence", name: "imported-1"}, query: 0, heads: 1, head_view: -1, step: -1,
    mode: "normal", lang: "ko", scale: true, causal: false, layer: 0, head: 0, merge: true, special: false};
  const local = {sentenceError: null, gridErrors: [], layerErrors: [], answer: null};
  const snap = makeSnapshot({state: model, cubes, catalog: {models}, local, constants, t: (key) => key, notices: {}});
  assert.equal(snap.modelView, null);
  assert.equal(snap.cube, cubes.get("imported-1"));
  assert.deepEqual({...snap.source}, {kind: "sentence", name: "imported-1"});
  const asModel = {...model, source: {kind: "imported", name: "imported-1"}};
  assert.equal(modelShown(asModel, models, kinds).entry, models[1]);
  // a source no catalog has (of that kind) falls back to the first sentence, and says so
  const wrong = makeSnapshot({state: {...model, source: {kind: "model", name: "cat-fish"}}, cubes, catalog: {models},
    local, constants, t: (key) => key, notices: {}});
  assert.deepEqual({...wrong.source}, {kind: "preset", name: "meet-friend"});
});

const state = {source: {kind: "preset", name: "meet-friend"}, query: 4, heads: 1, scale: true, causal: false,
  lang: "ko", mode: "normal", position: true, why_d: 64, merge: true, special: false, top_k: 10, threshold: 0};
const read = (search) => parseUrl(search, {cubes, models, state, constants, lab: true});

test("every preset= value of a lecturer's link opens its entry's source", () => {
  const links = [
    ["?preset=cat-fish&query=1", {kind: "preset", name: "cat-fish"}],
    ["?preset=sentence-1", {kind: "sentence", name: "sentence-1"}],
    ["?preset=model-1&layer=1&head=2", {kind: "model", name: "model-1"}],
    ["?preset=imported-2", {kind: "imported", name: "imported-2"}],
    ["?preset=trained-1000", {kind: "trained", name: "trained-1000"}],
    // a sentence typed through a model: the model it went through, which runs the text again
    ["?preset=trained-own-2000&text=나는%20밥을%20먹었다", {kind: "trained", name: "trained-2000"}],
    ["?preset=model-own&text=고양이가", {kind: "model", name: "model-1"}],
  ];
  for (const [search, source] of links) {
    const {changes, notices} = read(search);
    assert.deepEqual({...changes.source}, source, search);
    assert.deepEqual(notices.filter(([key]) => key === "notice_preset"), [], search);
  }
  assert.equal(read("?preset=cat-fish&query=1").changes.query, 1);
  assert.equal(read("?preset=model-1&layer=1&head=2").changes.head, 2);
  assert.deepEqual(read("?preset=trained-own-2000&text=나는").pending, {text: "나는", query: null});
  // the student's own sentence and numbers: Python makes them, the link's source waits for its reply
  for (const search of ["?preset=custom&text=하나%20둘", "?preset=numbers&numbers=a,b~1,0/0,1~1,0/0,1~1,0/0,1"]) {
    const {changes, notices, pending} = read(search);
    assert.equal(changes.source, undefined, search);
    assert.deepEqual(notices, [], search);
    assert.ok(pending && (pending.text || pending.numbers), search);
  }
  // a name no catalog has: a notice, and the view stays
  const unknown = read("?preset=nope");
  assert.equal(unknown.changes.source, undefined);
  assert.deepEqual(unknown.notices[0], ["notice_preset", {value: "nope"}]);
});

test("a name both catalogs have opens the model, as links always did; the link writes the name back", () => {
  assert.deepEqual({...sourceNamed("imported-1", {cubes, models})}, {kind: "imported", name: "imported-1"});
  assert.deepEqual({...sourceNamed("cat-fish", {cubes, models})}, {kind: "preset", name: "cat-fish"});
  assert.equal(sourceNamed("nope", {cubes, models}), null);
  const linked = {source: "cat-fish", query: 2, scale: true, causal: false, heads: 1, lang: "ko", mode: "normal",
    why_d: 64, position: true, lens: "weight"};
  const search = toSearch("?x=1", {linked, step: -1, text: "", numbers: "", practice: 0, model: null}, view);
  assert.equal(search, "?x=1&preset=cat-fish&query=2&scale=1&causal=0&heads=1&lang=ko&mode=normal");
  // a param not at its default where it is written only then; a practice problem keeps the page's own
  assert.equal(toSearch("", {linked: {...linked, why_d: 8, position: false}, step: 2, model: null}, view),
    "?preset=cat-fish&query=2&scale=1&causal=0&heads=1&lang=ko&mode=normal&why_d=8&position=0&step=2");
  assert.equal(toSearch("?preset=x&query=1&lang=en&step=3", {linked: {...linked, lang: "en"}, practice: 4}, view),
    "?practice=4&lang=en&mode=normal");
});

test("preset=trained names the trained model's last step; a typed sentence through it is not a step", () => {
  const steps = ["trained-0050", "trained-2000", "trained-0000"].map((name) => ({kind: "trained", name}));
  const typed = {kind: "trained", name: "trained-own-2000", typed: true};
  assert.deepEqual(sourceNamed("trained", {cubes: new Map(), models: [...steps, typed]}), {kind: "trained", name: "trained-2000"});
  assert.equal(sourceNamed("trained", {cubes: new Map(), models: []}), null);
});

// A model head's cube with every step and the lenses (app/models.py lens_arrays): its lens/drawn
// rows are told apart from its weights by value.
function headCube(entry, lenses = true) {
  const cube = sentence("model", entry.name, 4);
  cube.model = {model: entry.name, layer: 0, head: 0, own: {scale: true, causal: false}};
  cube.entry = {...cube.entry, model_head: cube.model};
  cube.has = (name) => lenses && name === "lens/drawn";
  cube.lensCount = () => (lenses ? 3 : 0);
  cube.weightRow = () => [0.1, 0.2, 0.3, 0.4];
  cube.lensRow = (lens, query) => [lens, query, 0, 1];
  return cube;
}

test("a link's lens= draws a model's lines through that lens; a lens that does not exist is a notice, the lens kept", () => {
  const state = {source: null, scale: true, causal: false, heads: 1, lang: "ko", mode: "normal", lens: "weight"};
  const opened = parseUrl("?preset=model-1&layer=1&lens=rollout", {cubes, models, state, constants, lab: true});
  assert.equal(opened.changes.lens, "rollout");
  assert.deepEqual(opened.notices, []);
  const wrong = parseUrl("?preset=model-1&lens=attention", {cubes, models, state: {...state, lens: "moved"}, constants, lab: true});
  assert.equal(wrong.changes.lens, "weight");  // opening a model opens its weights; the notice says what the link asked
  assert.deepEqual(wrong.notices, [["notice_choice", {name: "lens", value: "attention", fallback: "weight"}]]);
  const linked = {source: "model-1", query: 2, scale: true, causal: false, heads: 1, lang: "ko", mode: "normal", lens: "rollout"};
  const shown = {linked, step: -1, model: {layer: 1, head: 0, merge: true, special: false, topK: 10, defaultTopK: 10, threshold: 0}};
  assert.match(toSearch("", shown, view), /lens=rollout/);
  assert.doesNotMatch(toSearch("?lens=moved", {...shown, linked: {...linked, lens: "weight"}}, view), /lens=/);
  // a sentence's one-head lens goes in its link too
  assert.match(toSearch("", {...shown, model: null, linked: {...linked, source: "meet-friend", lens: "moved"}}, view), /lens=moved/);
  const sentence = parseUrl("?preset=imported-1&lens=moved", {cubes, models, state, constants, lab: true});
  assert.equal(sentence.changes.lens, "moved");
});

test("the lens is drawn at the model's own switches only; an experiment or a head without lenses draws the weights", async () => {
  const {drawnRow, lensBlocked} = await import("../../static/explorer/snapshot.js");
  const entry = models[0], name = entry.name;
  const state = {source: {kind: entry.kind, name}, query: 2, heads: 1, head_view: -1, step: -1, mode: "normal", lang: "ko",
    scale: true, causal: false, layer: 0, head: 0, merge: true, special: false, lens: "rollout"};
  const local = {sentenceError: null, gridErrors: [], layerErrors: [], answer: null};
  const key = modelShown(state, models, kinds).key;
  const snapOf = (changes, cube) => makeSnapshot({state: {...state, ...changes}, cubes: new Map([[key, cube]]), catalog: {models},
    local, constants, t: (k) => k, notices: {}});
  const own = snapOf({}, headCube(entry));
  assert.equal(own.lens, "rollout");
  assert.deepEqual(drawnRow(own, 0, 2), [1, 2, 0, 1]);  // lens/drawn's row 1 (rollout), query 2
  assert.equal(lensBlocked(own), null);
  const experiment = snapOf({scale: false}, headCube(entry));
  assert.equal(experiment.lens, "weight");
  assert.deepEqual(drawnRow(experiment, 0, 2), [0.1, 0.2, 0.3, 0.4]);
  assert.equal(lensBlocked(experiment), "lens_blocked_experiment");
  const bare = snapOf({}, headCube(entry, false));
  assert.equal(bare.lens, "weight");
  assert.equal(lensBlocked(bare), "lens_blocked_none");
  // an experiment's own cube (rotation off, another window) has no lenses: the reason is the experiment
  const tried = headCube(entry, false);
  tried.model = {...tried.model, experiment: "r0"};
  assert.equal(lensBlocked(snapOf({}, tried)), "lens_blocked_experiment");
  assert.equal(lensBlocked(snapOf({lens: "weight"}, headCube(entry))), null);
});

test("a link's rope=0 and window=N are experiments where the model offers them; elsewhere a notice, the model's own kept", () => {
  const llama = {...modelEntry("model", "llama-1"), causal: true, window: 0, experiments: {rope: true, windows: [0, 1, 2]}};
  const state = {source: null, scale: true, causal: true, heads: 1, lang: "ko", mode: "normal", rope: true, window: -1};
  const asked = parseUrl("?preset=llama-1&rope=0&window=2", {cubes, models: [llama], state, constants, lab: true});
  assert.equal(asked.changes.rope, false);
  assert.equal(asked.changes.window, 2);
  assert.deepEqual(asked.notices, []);
  const shown = modelShown({...state, ...asked.changes, source: {kind: "model", name: "llama-1"}}, [llama], kinds);
  assert.equal(shown.key, "llama-1|0|0|10|r0w2");  // app/models.py head_name with experiment_code
  const own = modelShown({...state, source: {kind: "model", name: "llama-1"}, window: 0}, [llama], kinds);
  assert.equal(own.key, "llama-1|0|0|10");  // the model's own window is no experiment
  const wrong = parseUrl("?preset=llama-1&window=3", {cubes, models: [llama], state, constants, lab: true});
  assert.equal(wrong.changes.window, -1);
  assert.deepEqual(wrong.notices, [["notice_choice", {name: "window", value: "3", fallback: "—"}]]);
  const bert = parseUrl("?preset=model-1&rope=0", {cubes, models, state, constants, lab: true});
  assert.equal(bert.changes.rope, true);
  assert.deepEqual(bert.notices, [["notice_choice", {name: "rope", value: "0", fallback: "—"}]]);
  const linked = {source: "llama-1", query: 2, scale: true, causal: true, heads: 1, lang: "ko", mode: "normal", lens: "weight"};
  const link = {linked, step: -1, model: {layer: 0, head: 0, merge: true, special: false, topK: 10, defaultTopK: 10, threshold: 0,
    rope: shown.rope, window: shown.window}};
  assert.match(toSearch("", link, view), /&rope=0&window=2/);
  assert.doesNotMatch(toSearch("?rope=0&window=2", {...link, model: {...link.model, rope: true, window: null}}, view), /rope=|window=/);
});
