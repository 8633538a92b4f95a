// The SCORM 1.2 SCO's pure parts (static/explorer/scorm.js): the API found as ADL's discovery finds
// it, the session time in SCORM 1.2's CMITimespan, and the score and status the LMS is told.
import { test } from "node:test";
import assert from "node:assert/strict";
import { findApi, interactionsOf, practiceSummary, scoreOf, suspendOf, timespan } from "../../static/explorer/scorm.js";

const api = {LMSInitialize: () => "true"};

test("the API is found on the window, up its parents, or on its opener's", () => {
  const top = {API: api};
  top.parent = top;
  const middle = {parent: top};
  const frame = {parent: middle};
  assert.equal(findApi(frame), api);
  const alone = {parent: null, opener: {API: api, parent: null}};
  assert.equal(findApi(alone), api);
  const none = {};
  none.parent = none;
  assert.equal(findApi(none), null);
  const blocked = {get parent() { throw new Error("cross-origin"); }, get API() { throw new Error("cross-origin"); }};
  assert.equal(findApi(blocked), null);
});

test("the session time is SCORM 1.2's HHHH:MM:SS.SS", () => {
  assert.equal(timespan(0), "0000:00:00.00");
  assert.equal(timespan(2.734), "0000:00:02.73");
  assert.equal(timespan(3725.5), "0001:02:05.50");
  assert.match(timespan(1e9), /^9999:\d\d:\d\d\.\d\d$/);
});

test("the score is a percent of the points (Moodle reads raw against its maximum grade, 100); the status waits for every answer", () => {
  const part = (asked, answered, right) => ({asked, answered, right});
  assert.deepEqual(scoreOf([part(6, 3, 3)], 80), {raw: 50, min: 0, max: 100, status: "incomplete", right: 3, asked: 6});
  assert.deepEqual(scoreOf([part(6, 6, 5)], 80), {raw: 83.33, min: 0, max: 100, status: "passed", right: 5, asked: 6});
  assert.deepEqual(scoreOf([part(6, 6, 4)], 80), {raw: 66.67, min: 0, max: 100, status: "failed", right: 4, asked: 6});
  assert.equal(scoreOf([part(6, 6, 0)], null).status, "completed");
  // a lesson and practice problems: one score over both
  const both = scoreOf([part(6, 6, 6), part(8, 8, 6)], 80);
  assert.deepEqual([both.right, both.asked, both.raw, both.status], [12, 14, 85.71, "passed"]);
  assert.equal(scoreOf([part(6, 6, 6), part(8, 4, 4)], 80).status, "incomplete");
});

const ROWS = ["scores", "scaled", "weights", "output"];
const row = (status, text = "1") => ({text, status});

test("a practice row earns a point right, rounded or carried from the student's own slip; a problem is finished solved or shown", () => {
  const record = {problems: {
    1: {rows: {scores: row("correct"), scaled: row("rounded"), weights: row("correct"), output: row("correct")}, shown: false},
    // the scaled row slipped (÷d): the weights and the output computed right from it keep their method marks
    2: {rows: {scores: row("correct"), scaled: row("wrong"), weights: row("carried"), output: row("carried")}, shown: false},
    // shown before it was solved: what was credited stays, the rest earns nothing, and it is finished
    3: {rows: {scores: row("correct")}, shown: true},
    // begun: not finished
    4: {rows: {scores: row("correct"), scaled: row("correct")}, shown: false},
    // past the problems graded: not counted
    9: {rows: {scores: row("correct")}, shown: true},
  }};
  assert.deepEqual(practiceSummary(record, 4, ROWS), {asked: 16, answered: 12, right: 4 + 3 + 1 + 2});
  assert.deepEqual(practiceSummary({problems: {}}, 2, ROWS), {asked: 8, answered: 0, right: 0});
});

test("each answer is an interaction row: the token or outcome chosen, typed numbers, a practice row's numbers, correct or wrong", () => {
  const stops = Array.from({length: 12}, () => ({}));
  stops[3] = {question: {kind: "top_key", tokens: ["고양이가", "생선을", "먹었다"]}};
  stops[4] = {question: {kind: "what_if", tokens: ["고양이가", "생선을", "먹었다"]}};
  const kinds = {what_if: {outcomes: ["top_changes", "sharper", "flatter", "same"]}, top_key: {outcomes: []}};
  const lesson = {stops, progress: {answers: {4: {choice: 1, status: "correct"}, 5: {choice: 2, status: "wrong"},
    9: {text: "0.214, 0.977", status: "rounded"}, 12: {text: "1, 2", status: "wrong", slip: "forgot_scale"}}}};
  const record = {problems: {2: {rows: {weights: row("carried", "0.5, 0.5"), scaled: row("wrong", "1.5, 2")}}, 11: {rows: {scores: row("correct")}}}};
  assert.deepEqual(interactionsOf(lesson, record, 10, kinds), [
    {id: "stop-4", type: "fill-in", response: "생선을", result: "correct"},
    {id: "stop-5", type: "fill-in", response: "flatter", result: "wrong"},
    {id: "stop-9", type: "fill-in", response: "0.214, 0.977", result: "correct"},
    {id: "stop-12", type: "fill-in", response: "1, 2", result: "wrong"},
    {id: "practice-2-weights", type: "fill-in", response: "0.5, 0.5", result: "correct"},
    {id: "practice-2-scaled", type: "fill-in", response: "1.5, 2", result: "wrong"},
  ]);
  // a lesson whose questions are not known says the choice's number
  assert.equal(interactionsOf({progress: {answers: {3: {choice: 2, status: "correct"}}}}, null, 0)[0].response, "2");
  const long = interactionsOf(null, {problems: {1: {rows: {scores: row("wrong", "9".repeat(400))}}}}, 1);
  assert.equal(long[0].response.length, 255);
});

test("suspend_data stays within SCORM 1.2's 4,096 characters: the practice rows' texts go first, their verdicts stay", () => {
  const small = {problems: {1: {rows: {scores: row("correct", "1, 2")}, shown: false}}, open: 1};
  assert.deepEqual(JSON.parse(suspendOf({name: "x", progress: {stop: 3, answers: {}}}, small)),
    {lesson: "x", progress: {stop: 3, answers: {}}, practice: small});
  const text = "0.123, ".repeat(20);
  const big = {open: 10, problems: Object.fromEntries(Array.from({length: 10}, (_, i) =>
    [i + 1, {rows: Object.fromEntries(ROWS.map((name) => [name, row("correct", text)])), shown: false}]))};
  const said = suspendOf(null, big);
  assert.ok(said.length <= 4096);
  const kept = JSON.parse(said).practice;
  assert.deepEqual(kept.problems[10].rows.output, {status: "correct"});
  assert.deepEqual(practiceSummary(kept, 10, ROWS), practiceSummary(big, 10, ROWS));
});
