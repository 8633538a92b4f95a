// requests.js: one table of pending requests, replies matched by id, superseded replies dropped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequests, withView } from "../../static/explorer/requests.js";

// A stand-in for the Panel model: what the page sends, and a way to deliver Python's replies.
function fakeModel() {
  const sent = [], handlers = [];
  return {
    sent,
    send_msg: (message) => sent.push(message),
    on: (name, handler) => { assert.equal(name, "msg:custom"); handlers.push(handler); },
    reply: (message) => handlers.forEach((handler) => handler(message)),
  };
}

const settled = (promise) => Promise.race([promise.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))]);

test("each request carries a new id and its reply resolves it", async () => {
  const model = fakeModel(), requests = createRequests(model);
  const first = requests.ask("own", {type: "sentence", text: "a"});
  const head = requests.ask("head:x", {type: "head", model: "m"});
  assert.deepEqual(model.sent.map((m) => m.type), ["sentence", "head"]);
  assert.notEqual(model.sent[0].id, model.sent[1].id);
  assert.ok(requests.waiting("own") && requests.waiting("head:x") && requests.busy());
  model.reply({id: model.sent[1].id, type: "head", ok: true, entries: [{name: "m|0|0|10"}], view: null});
  assert.equal((await head).entries[0].name, "m|0|0|10");
  assert.ok(!requests.waiting("head:x") && requests.waiting("own"));
  model.reply({id: model.sent[0].id, type: "sentence", ok: false, error: {code: "empty_sentence", values: {}}});
  assert.equal((await first).error.code, "empty_sentence");
  assert.ok(!requests.busy());
});

test("a reply to a superseded request is dropped and the newer one still counts", async () => {
  const model = fakeModel(), requests = createRequests(model);
  const older = requests.ask("own", {type: "sentence", text: "old"});
  const newer = requests.ask("own", {type: "sentence", text: "new"});
  model.reply({id: model.sent[0].id, type: "sentence", ok: true, entries: [], view: {source: {kind: "sentence", name: "custom"}}});
  assert.equal(await settled(older), false);
  assert.ok(requests.waiting("own"), "the newer request still waits");
  model.reply({id: model.sent[1].id, type: "sentence", ok: true, entries: [], view: {source: {kind: "sentence", name: "custom"}, query: 1}});
  assert.equal((await newer).view.query, 1);
});

test("replies that are not to a pending request, or not replies at all, change nothing", async () => {
  const model = fakeModel(), requests = createRequests(model);
  const asked = requests.ask("own", {type: "numbers"});
  for (const stray of [null, "x", {id: 999}, {id: `${model.sent[0].id}0`, type: "numbers", ok: true}]) model.reply(stray);
  assert.ok(requests.waiting("own"));
  model.reply({id: model.sent[0].id, type: "numbers", ok: true, entries: [], view: null});
  model.reply({id: model.sent[0].id, type: "numbers", ok: false, error: {}});  // answered already
  assert.equal((await asked).ok, true);
});

test("two drawings of one view take only their own replies, and a reply of another type is not this request's", async () => {
  const model = fakeModel();
  const first = createRequests(model), second = createRequests(model);  // both hear every reply
  const a = first.ask("own", {type: "sentence", text: "a"});
  const b = second.ask("own", {type: "numbers"});
  assert.notEqual(model.sent[0].id, model.sent[1].id);
  model.reply({id: model.sent[0].id, type: "numbers", ok: true, entries: [], view: null});  // wrong type
  assert.ok(first.waiting("own"));
  model.reply({id: model.sent[1].id, type: "numbers", ok: true, entries: [], view: {source: {kind: "numbers", name: "numbers"}}});
  assert.equal((await b).view.source.name, "numbers");
  assert.ok(first.waiting("own") && !second.waiting("own"));
  model.reply({id: model.sent[0].id, type: "sentence", ok: true, entries: [], view: {source: {kind: "sentence", name: "custom"}}});
  assert.equal((await a).view.source.name, "custom");
});

test("a request carries the view it needs, as it is when it goes: the fields its type names that it leaves out", () => {
  const fields = {numbers: ["heads", "query"], sentence: ["merge", "special"]};
  const state = {query: 3, heads: 2, merge: false, special: true, scale: true};
  const model = fakeModel();
  const requests = createRequests(model, {complete: (message) => withView(message, fields, state)});
  requests.ask("own", {type: "numbers", tokens: ["a"], q: [], k: [], v: []});
  assert.deepEqual({heads: model.sent[0].heads, query: model.sent[0].query}, {heads: 2, query: 3});
  state.query = 0;  // the student moved on before the next request: it carries the new query
  requests.ask("own", {type: "sentence", text: "x", query: null, model: null});
  assert.equal(model.sent[1].query, null, "a field the request carries is its own, not the view's");
  assert.deepEqual([model.sent[1].merge, model.sent[1].special, "scale" in model.sent[1]], [false, true, false]);
  assert.deepEqual(withView({type: "unknown", a: 1}, fields, state), {type: "unknown", a: 1});
});
