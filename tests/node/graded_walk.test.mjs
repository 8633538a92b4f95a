// A graded walk (issue 52): the rules of a lesson walked alone (lesson.js firstOpen, lesson_predict.js
// answeredStep and summaryOf) and what the SCORM SCO tells an LMS (scorm.js startScorm), with simulated
// students walking the built-in lessons (fixtures/graded_lessons.json, from Python's page_lesson)
// against an LMS that applies Moodle's and scorm-again's rule at LMSFinish: with a mastery score and a
// score.raw, the status becomes passed or failed whatever the SCO said; "not attempted" becomes completed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { firstOpen } from "../../static/explorer/lesson.js";
import { answeredStep, summaryOf } from "../../static/explorer/lesson_predict.js";
import { startScorm } from "../../static/explorer/scorm.js";

const LESSONS = JSON.parse(readFileSync(new URL("./fixtures/graded_lessons.json", import.meta.url), "utf8"));
const MASTERY = 80;

// An LMS as Moodle's scorm_12.js StoreData(true) and scorm-again's storeData(true) treat a SCO.
function lms(mastery = "") {
  const data = {"cmi.core.lesson_status": "not attempted", "cmi.core.score.raw": "", "cmi.suspend_data": "",
    "cmi.student_data.mastery_score": String(mastery), "cmi.core.lesson_mode": "normal", "cmi.core.credit": "credit",
    "cmi.interactions._count": "0"};
  const log = [];
  const api = {
    LMSInitialize: () => "true",
    LMSGetValue: (key) => data[key] ?? "",
    LMSSetValue: (key, value) => { data[key] = String(value); log.push([key, String(value)]); return "true"; },
    LMSCommit: () => "true",
    LMSFinish: () => {
      if (data["cmi.core.lesson_status"] === "not attempted") data["cmi.core.lesson_status"] = "completed";
      if (data["cmi.student_data.mastery_score"] !== "" && data["cmi.core.score.raw"] !== "") {
        data["cmi.core.lesson_status"] = Number(data["cmi.core.score.raw"]) >= Number(data["cmi.student_data.mastery_score"])
          ? "passed" : "failed";
      }
      return "true";
    },
  };
  return {api, data, log};
}

// A student's walk of `lesson` in a graded package: `answer(question, index)` gives each question's
// answer ({choice} or a status), or null to leave there. Returns the LMS's record after LMSFinish.
function walk(lesson, answer, {mastery = MASTERY} = {}) {
  const {api, data, log} = lms(mastery ?? "");
  const win = {API: api, addEventListener() {}};
  win.parent = win;
  const sco = startScorm({mastery, lesson, practice: 0, rows: [], kinds: {}}, win);
  const progress = {stop: 1, answers: {}, practice: {}};
  for (const [i, stop] of lesson.stops.entries()) {
    if (!stop.question) continue;
    const given = answer(stop.question, i + 1);
    if (given === null) break;
    progress.answers[i + 1] = given.choice !== undefined
      ? {choice: given.choice, status: given.choice === stop.question.truth ? "correct" : "wrong"} : given;
    sco.reportedLesson(lesson.name, progress, summaryOf(lesson, progress));
  }
  sco.finish();
  return {status: data["cmi.core.lesson_status"], raw: data["cmi.core.score.raw"], log};
}

// the answers an honest student gives: the choice that is right, the typed output right (exactly or
// honestly rounded: the checker's tests hold every rounding habit to this verdict)
const honest = (q) => (q.kind === "output" ? {text: "…", status: "rounded"} : {choice: q.truth});

test("a walk alone reaches no stop past an open question; a question once answered shows at least its answer's step", () => {
  const lesson = LESSONS[0], first = lesson.stops.findIndex((stop) => stop.question) + 1;
  assert.equal(firstOpen(lesson, {answers: {}}), first);
  assert.equal(firstOpen(lesson, {answers: {[first]: {status: "skipped"}}}) > first, true);
  const all = Object.fromEntries(lesson.stops.map((stop, i) => [i + 1, {status: "correct"}]));
  assert.equal(firstOpen(lesson, {answers: all}), Infinity);
  assert.equal(answeredStep(0, {answer: 3}), 3);  // a top key asked at the scores: its weights once answered
  assert.equal(answeredStep(5, {answer: 3}), 5);
  assert.equal(answeredStep(-1, {answer: 5}), -1);
  assert.equal(answeredStep(undefined, {answer: 5}), -1);
});

test("skipping and asking for the answer first score 0; the first answer is the one counted", () => {
  const lesson = LESSONS[0];
  const asked = lesson.stops.filter((stop) => stop.question).length;
  const answers = {};
  lesson.stops.forEach((stop, i) => { if (stop.question) answers[i + 1] = {status: i % 2 ? "skipped" : "shown"}; });
  assert.deepEqual(summaryOf(lesson, {answers}), {asked, answered: asked, predicted: 0, right: 0, slips: []});
});

test("the LMS gets no score before every question is answered: leaving at 5 of 6 or pausing at 3 of 3 stays incomplete", () => {
  for (const lesson of LESSONS) {
    const asked = lesson.stops.filter((stop) => stop.question).length;
    for (const stopAt of [asked - 1, 3]) {
      let count = 0;
      const left = walk(lesson, (q) => (count++ < stopAt ? honest(q) : null));
      assert.deepEqual([left.status, left.raw], ["incomplete", ""], `${lesson.name}: left after ${stopAt} of ${asked}`);
      assert.ok(!left.log.some(([key]) => key === "cmi.core.score.raw"));
    }
    const done = walk(lesson, honest);
    assert.deepEqual([done.status, done.raw], ["passed", "100"], lesson.name);
    // the naive SCO this replaces: a score after every answer, which the LMS turned into passed at 5 of 6
    const withoutMastery = walk(lesson, honest, {mastery: null});
    assert.equal(withoutMastery.status, "completed");
  }
});

// a seeded generator (mulberry32): the same students every run
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("simulated students: honest ones score 100 on every lesson; unprepared ones stay below the mastery score", () => {
  const figures = {};
  for (const lesson of LESSONS) {
    assert.equal(walk(lesson, honest).raw, "100");
    const next = random(52);
    const scores = {guess: [], skip: [], peek: [], half: []};
    for (let run = 0; run < 2000; run += 1) {
      // guessing: a choice at random, typed numbers that are not the output
      scores.guess.push(Number(walk(lesson, (q) => (q.kind === "output" ? {text: "1, 1", status: "wrong"}
        : {choice: Math.floor(next() * q.choices)})).raw));
      // skipping every prediction; asking for every answer first (the only way to see one before answering)
      if (run === 0) {
        scores.skip.push(Number(walk(lesson, () => ({status: "skipped"})).raw));
        scores.peek.push(Number(walk(lesson, () => ({status: "shown"})).raw));
      }
      // prepared for half: honest on every other question, guessing the rest
      let n = 0;
      scores.half.push(Number(walk(lesson, (q) => (n++ % 2 ? honest(q)
        : q.kind === "output" ? {text: "1, 1", status: "wrong"} : {choice: Math.floor(next() * q.choices)})).raw));
    }
    const share = (list) => list.filter((score) => score >= MASTERY).length / list.length;
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    figures[lesson.name] = Object.fromEntries(Object.entries(scores).map(([who, list]) =>
      [who, {median: median(list), max: Math.max(...list), reached: share(list)}]));
    assert.deepEqual([scores.skip[0], scores.peek[0]], [0, 0]);
    // a guesser cannot type an output: where a lesson has two, 4 of 6 (66.67) is the most guessing gets
    assert.ok(figures[lesson.name].guess.reached <= 0.01, `${lesson.name}: ${JSON.stringify(figures[lesson.name].guess)}`);
    // half prepared (the figure is reported, not bounded: they know half of it)
    assert.ok(figures[lesson.name].half.median > figures[lesson.name].guess.median);
  }
  console.log(JSON.stringify(figures));
});
