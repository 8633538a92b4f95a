// cube.js: payloads attention_core packed (tests/node/fixtures/cube.json, made by cube_fixture.py)
// give the core's numbers when looked up by axis name, whatever order the names are given in.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Cube } from "../../static/explorer/cube.js";

const fixture = JSON.parse(readFileSync(new URL("./fixtures/cube.json", import.meta.url), "utf-8"));

async function opened(name) {
  const cube = new Cube({name, cube: fixture[name].payload}, 1);
  await cube.ready;
  assert.equal(cube.state, "ready", String(cube.error));
  return cube;
}

for (const name of ["preset", "weights_only", "bank"]) {
  test(`${name}: every lookup gives the number the core computed`, async () => {
    const cube = await opened(name);
    for (const [method, args, value] of fixture[name].expect) {
      assert.deepEqual(cube[method](...args), value, `${method}(${args.join(", ")})`);
    }
  });
}

test("a tensor is indexed by its axes' names, in any order, and names it lacks are ignored", async () => {
  const cube = await opened("preset");
  const weights = cube.tensor("weights/2");
  assert.deepEqual(weights.axes, ["scale", "causal", "head", "query", "key"]);
  const inOrder = weights.at({scale: 1, causal: 0, head: 1, query: 2, key: 0});
  assert.equal(weights.at({key: 0, query: 2, head: 1, causal: 0, scale: 1, layer: 7}), inOrder);
  assert.equal(inOrder, cube.weight(2, true, false, 1, 2, 0));
  const one = cube.tensor("weights/1");  // d_k = 2: √d changes the weights (with 2 heads d_k = 1, and it does not)
  assert.notEqual(one.at({scale: 1, causal: 0, head: 0, query: 2, key: 0}), one.at({scale: 0, causal: 0, head: 0, query: 2, key: 0}));
  const q = cube.tensor("q");
  assert.deepEqual(q.matrix(), [0, 1, 2].map((token) => q.row({token})));
  assert.equal(q.matrix().length, q.size("token"));
});

test("a missing axis, an index out of range or a switch that is not a boolean is refused", async () => {
  const cube = await opened("preset");
  const weights = cube.tensor("weights/1");
  assert.throws(() => weights.at({scale: 1, causal: 0, head: 0, query: 0}), /no index for axis key/);
  assert.throws(() => weights.at({scale: 2, causal: 0, head: 0, query: 0, key: 0}), /index 2 on axis scale/);
  assert.throws(() => cube.weight(1, 1, false, 0, 0, 0), /scale must be true or false/);
  assert.throws(() => cube.tensor("weights/3"), /no array weights\/3/);
});

test("weights alone have no scale or causal axis: the model's own weights at every switch", async () => {
  const cube = await opened("weights_only");
  assert.ok(cube.weightsOnly);
  assert.deepEqual(cube.tensor("weights/1").axes, ["head", "query", "key"]);
  const row = cube.weightRow(1, true, false, 0, 1);
  for (const scale of [false, true]) for (const causal of [false, true]) {
    assert.deepEqual(cube.weightRow(1, scale, causal, 0, 1), row);
  }
});

test("a bank entry sees its own problem: the selected axis is fixed and gone", async () => {
  const cube = await opened("bank");
  const q = cube.tensor("q");
  assert.deepEqual(q.axes, ["token", "dim"]);
  assert.throws(() => q.size("problem"), /no axis problem/);
  assert.equal(q.data.BYTES_PER_ELEMENT, 1, "a practice problem's Q travels as small integers, a byte each");
  assert.deepEqual(cube.matrixText("q"), fixture.bank.payload.tokens.map((_, i) => cube.qRow(1, 0, i).map(String)));
});

test("a payload in an unknown encoding fails with a message, and nothing else breaks", async () => {
  const cube = new Cube({name: "old", cube: {...fixture.preset.payload, encoding: "zlib-float64le-base64"}}, 2);
  await cube.ready;
  assert.equal(cube.state, "failed");
  assert.match(String(cube.error.message), /unknown encoding/);
});

test("maskedRow is masked() for every key: the causal mask hides the keys after the query, only when on", async () => {
  const cube = await opened("preset");
  for (let query = 0; query < cube.n; query++) {
    const row = cube.maskedRow(true, query);
    assert.deepEqual(row, Array.from({length: cube.n}, (_, key) => cube.masked(true, query, key)));
    assert.deepEqual(row, Array.from({length: cube.n}, (_, key) => key > query));
    assert.deepEqual(cube.maskedRow(false, query), Array(cube.n).fill(false));
  }
});

test("a model's overview gives back every head's pixels: a causal model's triangles and whole squares", async () => {
  const { overviewPixels } = await import("../../static/explorer/model_heads.js");
  for (const name of ["causal", "full"]) {
    const {entry, pixels} = fixture.overviews[name];
    assert.equal(entry.overview.triangle, name === "causal");
    assert.deepEqual(Array.from(await overviewPixels(entry)), pixels, name);
    // the served page's socket brings the packed bytes as a binary frame, not as base64
    const bytes = Uint8Array.from(Buffer.from(entry.overview.data, "base64"));
    assert.deepEqual(Array.from(await overviewPixels({...entry, overview: {...entry.overview, data: bytes}})), pixels, name);
  }
});
