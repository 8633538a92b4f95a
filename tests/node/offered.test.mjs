// The catalogs Python offers: parsed once from their JSON strings; the exported file's as they are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { offeredProperty, offeredReader } from "../../static/explorer/offered.js";

// A stand-in for the Panel model: its properties, and Python changing one (its listeners called).
function fakeModel(values) {
  const listeners = new Map();
  return Object.assign(values, {
    on(name, callback) { listeners.set(name, [...(listeners.get(name) || []), callback]); },
    fromPython(name, value) { values[name] = value; for (const callback of listeners.get(name) || []) callback(); },
  });
}

test("a catalog's JSON string is parsed once, and again only when Python sends a new one", () => {
  const model = fakeModel({sentences_json: '[{"name":"a"}]', sentences: undefined});
  const offered = offeredReader(model);
  const first = offered("sentences");
  assert.deepEqual(first, [{name: "a"}]);
  assert.equal(offered("sentences"), first);  // the same value: not parsed again
  model.fromPython("sentences_json", '[{"name":"b"}]');
  assert.deepEqual(offered("sentences"), [{name: "b"}]);
  assert.equal(offeredProperty(model, "sentences"), "sentences_json");
});

test("a listener to a catalog registered after the reader reads the new value", () => {
  const model = fakeModel({models_json: "[1]"});
  const offered = offeredReader(model);
  assert.deepEqual(offered("models"), [1]);
  const seen = [];
  model.on("models_json", () => seen.push(offered("models")));
  model.fromPython("models_json", "[2]");
  assert.deepEqual(seen, [[2]]);
});

test("the exported file's stand-in model holds the catalogs as they are", () => {
  const strings = {ko: {app_title: "어텐션 탐색기"}};
  const model = fakeModel({strings});
  assert.equal(offeredReader(model)("strings"), strings);
  assert.equal(offeredProperty(model, "strings"), "strings");
});
