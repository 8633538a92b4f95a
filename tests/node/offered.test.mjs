// The catalogs Python offers: parsed once from their JSON strings; the exported file's as they are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { offeredProperty, offeredReader } from "../../static/explorer/offered.js";

test("a catalog's JSON string is parsed once, and again only when Python sends a new one", () => {
  const model = {sentences_json: '[{"name":"a"}]', sentences: undefined};
  const offered = offeredReader(model);
  const first = offered("sentences");
  assert.deepEqual(first, [{name: "a"}]);
  assert.equal(offered("sentences"), first);  // the same value: not parsed again
  model.sentences_json = '[{"name":"b"}]';
  assert.deepEqual(offered("sentences"), [{name: "b"}]);
  assert.equal(offeredProperty(model, "sentences"), "sentences_json");
});

test("the exported file's stand-in model holds the catalogs as they are", () => {
  const strings = {ko: {app_title: "어텐션 탐색기"}};
  const model = {strings};
  assert.equal(offeredReader(model)("strings"), strings);
  assert.equal(offeredProperty(model, "strings"), "strings");
});
