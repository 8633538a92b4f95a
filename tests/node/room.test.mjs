// The room's pure rules in the page: which state messages a page takes, which it asks the state
// for (a gap in seq), which it drops (made before what it shows); the output question's example
// and its check of the count of numbers before anything is sent; what a student follows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { followChanges, roomOfLink, roomView, sequenced } from "../../static/explorer/room_shared.js";
import { exampleNumbers, numbersProblem } from "../../static/explorer/room_poll.js";
import { assignedLesson } from "../../static/explorer/room_report.js";

const rules = JSON.parse(readFileSync(new URL("../golden/answers.json", import.meta.url), "utf8")).checker;

test("a state message is the next one, a stale one or a gap that asks for the state", () => {
  assert.equal(sequenced(null, 7), "next");  // before the first state: anything goes
  assert.equal(sequenced(3, 4), "next");
  assert.equal(sequenced(3, 6), "gap");
  assert.equal(sequenced(3, 3), "stale");
  assert.equal(sequenced(3, 1), "stale");
  assert.equal(sequenced(3, null), "next");  // an evicted room's closed carries none
});

test("the output question's example has as many numbers as it asks for", () => {
  const example = ["1.234", "5.678", "9.012"];
  for (const length of [1, 2, 4, 8]) assert.equal(exampleNumbers(length, example).split(", ").length, length);
  assert.equal(exampleNumbers(4, example), "1.234, 5.678, 9.012, 1.234");
  assert.equal(exampleNumbers(undefined, example), "1.234, 5.678");
});

test("numbers of the wrong count are refused before sending, saying how many", () => {
  assert.deepEqual(numbersProblem("0.1, 0.2, 0.3, 0.4", 8, rules), ["err_room_wrong_length", {expected: 8, given: 4}]);
  assert.deepEqual(numbersProblem("0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9", 8, rules), ["err_room_wrong_length", {expected: 8, given: 9}]);
  assert.equal(numbersProblem("(0.519, 0.592)", 2, rules), null);
  assert.equal(numbersProblem("영점 삼", 2, rules)[0].startsWith("err_"), true);  // the checker's own words
});

test("a link's room code and the changes that make a student's page the lecturer's view", () => {
  assert.equal(roomOfLink("?room= abc234 "), "ABC234");
  assert.equal(roomOfLink("?preset=cat-fish"), null);
  const table = [{name: "source", room: "follow"}, {name: "query", room: "follow"}, {name: "heads", room: "follow"},
    {name: "lang", room: "carry"}, {name: "mode"}];
  assert.deepEqual(followChanges({query: 2, heads: 1, source: {kind: "preset", name: "x"}, lang: "en", mode: "lecture"},
    {query: 2, heads: 2, source: {kind: "preset", name: "x"}, lang: "ko", mode: "normal"}, table), {heads: 1});
  // the lecturer sends what a room carries (the language too: the rules need it), nothing else
  assert.deepEqual(roomView({query: 1, heads: 2, source: null, lang: "ko", mode: "lecture"}, table),
    {source: null, query: 1, heads: 2, lang: "ko"});
});

test("an assignment of the lesson on show: a built-in by its name, the lecturer's own by each question's view, kind and switch", () => {
  const view = {source: {kind: "preset", name: "cat-fish"}, query: 2, scale: true, note: {title: "멈춤", note: "설명"}};
  const stops = [{title: "시작"}, {title: "예측", question: {kind: "what_if", change: "scale", truth: 1, view}},
    {title: "계산", question: {kind: "output", change: "", truth: 0, view: {...view, query: 1}}}];
  assert.deepEqual(assignedLesson({name: "hand-calculation", title: "손 계산", stops}, ["hand-calculation"]),
    {name: "hand-calculation", message: {lesson: "hand-calculation"}});
  const own = assignedLesson({name: "linked", title: "우리 반 수업", stops}, ["hand-calculation"]);
  assert.equal(own.name, "우리 반 수업");
  // the truth stays home (the server makes it again) and so does the stop's note: its title goes, for the report
  assert.deepEqual(own.message, {questions: [
    {view: {source: view.source, query: 2, scale: true, note: {title: "예측", title_en: ""}}, kind: "what_if", change: "scale"},
    {view: {source: view.source, query: 1, scale: true, note: {title: "계산", title_en: ""}}, kind: "output", change: ""}]});
  assert.equal(assignedLesson({name: "x", title: "y", stops: [stops[0]]}, []), null);
  assert.equal(assignedLesson(null, []), null);
  assert.equal(assignedLesson({}, []), null);  // the page's lesson when none is on show
});
