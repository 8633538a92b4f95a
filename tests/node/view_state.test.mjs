// view_state.js: the view asked for, mirrored in the page; the query written to Python on a pause.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createViewState } from "../../static/explorer/view_state.js";

// A stand-in for the Panel model: params with change events (synchronous, as Bokeh's are), and a
// log of what the page wrote to it (what a served page sends to Python).
function fakeModel(initial) {
  const listeners = new Map(), values = {...initial}, written = [];
  const model = {
    written,
    on(name, callback) { listeners.set(name, [...(listeners.get(name) || []), callback]); },
    // Python's own change (a notebook, a reply)
    fromPython(name, value) { values[name] = value; for (const callback of listeners.get(name) || []) callback(); },
  };
  for (const name of Object.keys(initial)) {
    Object.defineProperty(model, name, {
      get: () => values[name],
      set: (value) => {
        if (value === values[name]) return;
        values[name] = value;
        written.push([name, value]);
        for (const callback of listeners.get(name) || []) callback();
      },
    });
  }
  return model;
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test("a change is on show at once and written to the model at once", () => {
  const model = fakeModel({query: 0, heads: 1});
  let changes = 0;
  const view = createViewState(model, ["query", "heads"], () => changes++);
  view.set({heads: 4});
  assert.equal(view.state.heads, 4);
  assert.deepEqual(model.written, [["heads", 4]]);
  assert.ok(changes >= 1);
});

test("clicked queries are on show at once and only the last is written, once the student pauses", async () => {
  const model = fakeModel({query: 0, heads: 1});
  const view = createViewState(model, ["query", "heads"], () => {}, {pauseMs: 30});
  for (const query of [1, 2, 3]) view.set({query}, {onPause: true});
  assert.equal(view.state.query, 3);
  assert.deepEqual(model.written, [], "nothing goes to Python while the student clicks");
  assert.ok(view.pending());
  await wait(60);
  assert.deepEqual(model.written, [["query", 3]]);
  assert.ok(!view.pending());
  assert.equal(model.query, 3);
});

test("flush writes a waiting query now (before a request, or as the page goes)", () => {
  const model = fakeModel({query: 0});
  const view = createViewState(model, ["query"], () => {}, {pauseMs: 10_000});
  view.set({query: 5}, {onPause: true});
  view.flush();
  assert.deepEqual(model.written, [["query", 5]]);
  view.flush();
  assert.equal(model.written.length, 1, "nothing is written twice");
});

test("a change written at once replaces a query waiting for the pause", async () => {
  const model = fakeModel({query: 0});
  const view = createViewState(model, ["query"], () => {}, {pauseMs: 20});
  view.set({query: 5}, {onPause: true});
  view.set({query: 2});  // a new sentence opens at its own query
  await wait(40);
  assert.deepEqual(model.written, [["query", 2]], "the older click is not written after it");
  assert.equal(view.state.query, 2);
});

test("Python's change is on show and wins over a query waiting for the pause", async () => {
  const model = fakeModel({query: 0});
  let changes = 0;
  const view = createViewState(model, ["query"], () => changes++, {pauseMs: 20});
  view.set({query: 5}, {onPause: true});
  const before = changes;
  model.fromPython("query", 1);
  assert.equal(view.state.query, 1);
  assert.ok(changes > before, "the page draws Python's change");
  await wait(40);
  assert.deepEqual(model.written, [], "the page does not overwrite Python's change with its older click");
});

test("a param the page does not mirror goes to the model as it is", () => {
  const model = fakeModel({query: 0, other: 1});
  const view = createViewState(model, ["query"], () => {});
  view.set({other: 2});
  assert.equal(model.other, 2);
  assert.ok(!("other" in view.state));
});

test("the model echoing the page's own write does not draw the page again", async () => {
  const model = fakeModel({query: 0});
  let changes = 0;
  const view = createViewState(model, ["query"], () => changes++, {pauseMs: 10});
  view.set({query: 3}, {onPause: true});
  assert.equal(changes, 1);
  await wait(30);
  assert.deepEqual(model.written, [["query", 3]]);
  assert.equal(changes, 1, "the query was on show since the click");
});
