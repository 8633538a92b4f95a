// checker.js against the golden file (tests/golden/answers.json, made by the core: python -m
// tests.golden_answers): every typed answer reads as attention_core.answer.parse_vector reads it, and
// every verdict, on a view of a preset or a row of a practice problem, is the core's, to the last
// value. tests/unit/test_golden_answers.py holds the core to the same file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Cube } from "../../static/explorer/cube.js";
import { aimedQuery, judgeAnswer, judgeRow, parseAnswer, practiceProblem, viewBands } from "../../static/explorer/checker.js";

const golden = JSON.parse(readFileSync(new URL("../golden/answers.json", import.meta.url), "utf8"));
const rules = golden.checker;  // the core's rule book, as app/constants.py ships it to the page

// Each case's difference from the file, as a readable line; none when the page agrees.
function differences(cases, actual) {
  const found = [];
  for (const item of cases) {
    const got = actual(item);
    try {
      assert.deepStrictEqual(got.value, got.expected);
    } catch {
      found.push(`${JSON.stringify(item.text)} ${JSON.stringify(item.check || "")}: page ${JSON.stringify(got.value)}, core ${JSON.stringify(got.expected)}`);
    }
  }
  return found;
}

async function cubes() {
  const made = Object.fromEntries(Object.entries(golden.entries).map(([name, entry], i) => [name, new Cube(entry, i)]));
  await Promise.all(Object.values(made).map((cube) => cube.ready));
  for (const [name, cube] of Object.entries(made)) assert.equal(cube.state, "ready", `${name}: ${cube.error}`);
  return made;
}

test("the golden file is big enough to mean something", () => {
  assert.ok(golden.cases.length >= 2000, `${golden.cases.length} cases`);
  assert.ok(golden.cases.filter((item) => item.verdict).length >= 300);
});

test("every typed answer reads as the core reads it: the same numbers, or the same error and values", () => {
  const found = differences(golden.cases, (item) => ({value: parseAnswer(item.text, rules), expected: item.parse}));
  assert.deepEqual(found.slice(0, 10), [], `${found.length} of ${golden.cases.length} cases differ`);
});

test("every answer on a view of a preset gets the core's verdict: status, slip, key and values", async () => {
  const made = await cubes();
  const cases = golden.cases.filter((item) => item.check && item.check.view);
  assert.ok(cases.length > 0);
  // the bands of a view, made once a view (checker.js makes them for each answer the page checks)
  const bands = new Map();
  const bandsOf = (entry, view) => {
    const key = JSON.stringify([entry, view.heads, view.scale, view.causal, view.query]);
    if (!bands.has(key)) bands.set(key, viewBands(made[entry], view, rules));
    return bands.get(key);
  };
  const found = differences(cases, (item) => ({
    value: judgeAnswer(item.text, made[item.check.entry], item.check.view, rules,
      item.check.weights === undefined ? null : item.check.weights, bandsOf(item.check.entry, item.check.view)),
    expected: item.verdict}));
  assert.deepEqual(found.slice(0, 10), [], `${found.length} of ${cases.length} verdicts differ`);
  // and as the page calls it, making the view's bands itself: a case in 25
  const alone = differences(cases.filter((_, i) => i % 25 === 0), (item) => ({
    value: judgeAnswer(item.text, made[item.check.entry], item.check.view, rules,
      item.check.weights === undefined ? null : item.check.weights), expected: item.verdict}));
  assert.deepEqual(alone, []);
});

test("every row of a practice problem gets the core's verdict (practice.judge_row)", async () => {
  const made = await cubes();
  const cases = golden.cases.filter((item) => item.check && item.check.row);
  assert.ok(cases.length > 0);
  const found = differences(cases, (item) => {
    const problem = practiceProblem(made[item.check.entry]);
    const previous = item.check.previous === undefined ? null : item.check.previous;
    return {value: judgeRow(item.text, item.check.row, problem, rules, previous), expected: item.verdict};
  });
  assert.deepEqual(found.slice(0, 10), [], `${found.length} of ${cases.length} verdicts differ`);
});

test("a slip's try is aimed: at the query chosen, the same slip made again is named, on every golden view", async () => {
  const made = await cubes();
  let aimed = 0;
  const seen = new Set();
  for (const item of golden.cases.filter((c) => c.check && c.check.view && c.verdict && c.verdict.slip)) {
    const {entry, view} = item.check, slip = item.verdict.slip;
    const key = JSON.stringify([entry, view, slip]);
    if (seen.has(key) || slip.startsWith("recheck")) continue;
    seen.add(key);
    const cube = made[entry], at = {...view, all_heads: false};
    const query = aimedQuery(cube, at, slip, rules);
    if (query === null) continue;  // no other query of this sentence shows it
    assert.notEqual(query, view.query);
    const bands = viewBands(cube, {...at, query}, rules);
    const held = slip === "other_head" ? bands.filter((_, h) => h !== at.head).map((b) => b.truth) : [bands[at.head][slip]];
    // the slip's answer there, as a student who made it again would type it (three decimals)
    const typed = held.map(([low, high]) => low.map((x, i) => ((x + high[i]) / 2).toFixed(3)).join(", "));
    assert.ok(typed.some((text) => judgeAnswer(text, cube, {...at, query}, rules).slip === slip), `${key}: ${typed}`);
    aimed += 1;
  }
  assert.ok(aimed >= 20, `${aimed} slips aimed`);
});
