// The page as a SCORM 1.2 SCO (export --scorm, app/scorm.py): it finds the LMS's API (window.API, up
// the parent frames, then the opener's), initialises it, and reports what it grades: a lesson's
// predictions walked alone, and practice problems 1 to settings.practice row by row. Each is judged
// by the fair checker (a rounded answer counts as right; a practice row computed right from the
// student's own slipped row above it earns its method mark). The LMS is told cmi.core.lesson_status
// (incomplete, then completed, or passed / failed against the mastery score the lecturer chose)
// and, once every point was tried and not before, the score as a percent (cmi.core.score.raw,
// .min 0, .max 100: Moodle's gradebook reads raw against its maximum grade, 100), each answer as a cmi.interactions row, the progress in
// cmi.suspend_data (so the LMS's next launch goes on where the student was), and
// cmi.core.session_time; LMSCommit after each answer, LMSFinish when the page goes. Without an LMS it
// does nothing: the plain exported file.

import { isRight } from "./checker.js";
import { keepProgress, summaryOf } from "./lesson_predict.js";

// ADL's discovery: the API on this window or on one of its parents (at most 7 up), else on the
// opener's.
export function findApi(start) {
  const up = (win) => {
    for (let hops = 0; win && hops <= 7; hops += 1) {
      try {
        if (win.API && typeof win.API.LMSInitialize === "function") return win.API;
      } catch (error) { return null; }  // another origin's frame: no further
      if (!win.parent || win.parent === win) return null;
      win = win.parent;
    }
    return null;
  };
  return up(start) || (start.opener ? up(start.opener) : null);
}

// A duration as SCORM 1.2's CMITimespan: HHHH:MM:SS.SS.
export function timespan(seconds) {
  const whole = Math.max(0, seconds);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  return `${String(Math.min(h, 9999)).padStart(4, "0")}:${String(m).padStart(2, "0")}:${s.toFixed(2).padStart(5, "0")}`;
}

// The verdicts that earn a point: right, right up to rounding, or (a practice row) carried right
// from the student's own row above.
const CREDITED = new Set(["correct", "rounded", "carried"]);
// a lesson's question moved past (skipped) or its answer asked for first (shown): no prediction, 0
const NOT_PREDICTED = new Set(["skipped", "shown"]);

// What the practice problems graded earn (record: practice.js's {problems: {number: {rows: {row:
// {text, status}}, shown}}}, each row's first checked answer, as in an exam): a point a row of
// problems 1 to `count`, each of `rows` rows. A problem is finished when each of its rows was
// answered or its answers were shown (rows not answered by then earn nothing).
export function practiceSummary(record, count, rows) {
  let right = 0, answered = 0;
  for (let number = 1; number <= count; number += 1) {
    const problem = (record.problems || {})[number];
    if (!problem) continue;
    right += rows.filter((row) => problem.rows[row] && CREDITED.has(problem.rows[row].status)).length;
    if (problem.shown || rows.every((row) => problem.rows[row])) answered += rows.length;
  }
  return {asked: count * rows.length, answered, right};
}

// What the LMS is told of the parts graded ({asked, answered, right} each: a lesson's summary,
// lesson_predict.js summaryOf; the practice's, practiceSummary): the score a percent of the points,
// two decimals; the status incomplete until every point was tried.
export function scoreOf(parts, mastery) {
  const sum = (field) => parts.reduce((total, part) => total + part[field], 0);
  const asked = sum("asked"), right = sum("right");
  const done = asked > 0 && sum("answered") >= asked;
  const percent = asked ? Math.round((10000 * right) / asked) / 100 : 0;
  const status = !done ? "incomplete" : mastery === null || mastery === undefined ? "completed"
    : percent >= mastery ? "passed" : "failed";
  return {raw: percent, min: 0, max: 100, status, right, asked};
}

// What a student chose, as the LMS shows it: the key's token (which key gets the most weight), or
// the outcome's name (what a switch does: sharper, flatter, …); its number where the lesson's
// question is not known. `kinds`: constants.questions.kinds (each kind's outcomes).
export function choiceWords(question, choice, kinds = {}) {
  if (!question) return String(choice);
  const outcomes = (kinds[question.kind] && kinds[question.kind].outcomes) || [];
  const said = outcomes.length ? outcomes[choice] : (question.tokens || [])[choice];
  return said === undefined ? String(choice) : String(said);
}

// Each answer graded as an interaction row (SCORM 1.2 cmi.interactions.n): {id, type, response,
// result}. A lesson's stop `index`: "stop-<index>", the token or outcome chosen (choiceWords; a
// fill-in, since SCORM 1.2's choice type holds only one-letter identifiers) or typed numbers
// (fill-in); a practice row: "practice-<number>-<row>", fill-in. `lesson.stops`: its stops, each
// with its question; `kinds`: constants.questions.kinds.
export function interactionsOf(lesson, practice, count, kinds = {}) {
  const made = [];
  for (const [index, answer] of Object.entries((lesson && lesson.progress.answers) || {})) {
    const choice = Number.isInteger(answer.choice);
    const stop = lesson.stops && lesson.stops[Number(index) - 1];
    made.push({id: `stop-${index}`, type: "fill-in",
      response: choice ? choiceWords(stop && stop.question, answer.choice, kinds)
        : String(answer.text || (NOT_PREDICTED.has(answer.status) ? `(${answer.status})` : "")),
      result: CREDITED.has(answer.status) ? "correct" : "wrong"});
  }
  for (const [number, problem] of Object.entries((practice && practice.problems) || {})) {
    if (Number(number) > count) continue;
    for (const [row, verdict] of Object.entries(problem.rows || {})) {
      made.push({id: `practice-${number}-${row}`, type: "fill-in", response: String(verdict.text || ""),
        result: CREDITED.has(verdict.status) ? "correct" : "wrong"});
    }
  }
  // SCORM 1.2: an identifier is printable ASCII, a response at most 255 characters
  return made.map((made) => ({...made, response: made.response.slice(0, 255)}));
}

// SCORM 1.2 keeps at most 4,096 characters of suspend_data.
const SUSPEND_CHARS = 4096;

// What is kept in suspend_data: the lesson's progress and the practice record; past 4,096
// characters the practice rows' texts go first (their verdicts stay, and so the score).
export function suspendOf(lesson, practice) {
  const data = {};
  if (lesson) Object.assign(data, {lesson: lesson.name, progress: lesson.progress});
  if (practice) data.practice = practice;
  let said = JSON.stringify(data);
  if (said.length > SUSPEND_CHARS && practice) {
    const problems = Object.fromEntries(Object.entries(practice.problems || {}).map(([number, problem]) =>
      [number, {...problem, rows: Object.fromEntries(Object.entries(problem.rows || {}).map(([row, verdict]) =>
        [row, {status: verdict.status}]))}]));
    said = JSON.stringify({...data, practice: {...practice, problems}});
  }
  return said.length <= SUSPEND_CHARS ? said : null;
}

// A lesson's summary from the progress the LMS kept (before the lesson itself reports): its answers,
// each at a stop with a question (`asked` of them).
function keptSummary(progress, asked) {
  const answers = Object.values(progress.answers || {});
  return {asked, answered: answers.length, right: answers.filter(isRight).length};
}

// settings: {mastery, lesson (the lesson graded, as Python sent it) or null, practice (the problems graded, 1 to it), rows (a practice problem's rows)};
// the page's window. Returns the SCO ({kept, reportedLesson(name, progress, summary),
// reportedPractice(record), finish}), or null without an LMS.
export function startScorm(settings, win) {
  const api = findApi(win);
  if (!api) return null;
  const began = Date.now();
  if (String(api.LMSInitialize("")) !== "true") return null;
  const count = settings.practice || 0, rows = settings.rows || [];
  // the mastery score: the lecturer's (the package's manifest), else the one the LMS says it holds
  const held = Number.parseFloat(api.LMSGetValue("cmi.student_data.mastery_score"));
  const mastery = settings.mastery ?? (Number.isFinite(held) ? held : null);
  // the LMS's record of an earlier launch comes first: the progress as it was left
  let kept = {};
  try {
    kept = JSON.parse(api.LMSGetValue("cmi.suspend_data") || "null") || {};
    if (typeof kept.lesson === "string" && kept.progress) keepProgress(kept.lesson, kept.progress);
  } catch (error) { kept = {}; /* not ours: started afresh */ }
  const status = String(api.LMSGetValue("cmi.core.lesson_status") || "");
  if (status === "" || status === "not attempted") api.LMSSetValue("cmi.core.lesson_status", "incomplete");
  api.LMSCommit("");
  // the lesson graded ({name, asked}), as the LMS kept it or not yet begun: {name, progress, summary}
  const progressKept = typeof kept.lesson === "string" && kept.progress && settings.lesson
    && kept.lesson === settings.lesson.name ? kept.progress : {stop: 1, answers: {}, practice: {}};
  let lesson = settings.lesson ? {name: settings.lesson.name, stops: settings.lesson.stops, progress: progressKept,
    summary: keptSummary(progressKept, summaryOf(settings.lesson, {answers: {}}).asked)} : null;
  let practice = kept.practice && typeof kept.practice === "object" ? kept.practice : (count ? {problems: {}} : null);
  // the interactions the LMS has: told in an earlier launch (the record's answers), or in this one
  const told = new Map();
  let rowsTold = Number(api.LMSGetValue("cmi.interactions._count")) || 0;
  for (const row of interactionsOf(lesson, practice, count, settings.kinds)) told.set(row.id, `${row.response}|${row.result}`);
  let last = status === "" || status === "not attempted" ? "incomplete" : status, scored = "";
  let finished = false;

  function report() {
    if (finished) return;
    const said = suspendOf(lesson, practice);
    if (said !== null) api.LMSSetValue("cmi.suspend_data", said);
    const time = new Date().toTimeString().slice(0, 8);
    for (const row of interactionsOf(lesson, practice, count, settings.kinds)) {
      const key = `${row.response}|${row.result}`;
      if (told.get(row.id) === key) continue;
      const at = `cmi.interactions.${rowsTold}`;
      api.LMSSetValue(`${at}.id`, row.id);
      api.LMSSetValue(`${at}.type`, row.type);
      api.LMSSetValue(`${at}.time`, time);
      api.LMSSetValue(`${at}.student_response`, row.response);
      api.LMSSetValue(`${at}.result`, row.result);
      api.LMSSetValue(`${at}.weighting`, "1");
      told.set(row.id, key);
      rowsTold += 1;
    }
    const parts = [lesson && lesson.summary, practice && practiceSummary(practice, count, rows)].filter(Boolean);
    const score = scoreOf(parts, mastery), scoreSaid = JSON.stringify(score);
    if (scoreSaid !== scored) {  // the score and status told again only when they change
      // the score only once every point was tried: an LMS with a mastery score turns any score into
      // passed or failed (docs/lms.md), and a part of the walk is neither
      if (score.status !== "incomplete") {
        api.LMSSetValue("cmi.core.score.raw", String(score.raw));
        api.LMSSetValue("cmi.core.score.min", String(score.min));
        api.LMSSetValue("cmi.core.score.max", String(score.max));
      }
      api.LMSSetValue("cmi.core.lesson_status", score.status);
      scored = scoreSaid;
    }
    last = score.status;
    api.LMSCommit("");
  }
  const finish = () => {
    if (finished) return;
    finished = true;
    api.LMSSetValue("cmi.core.session_time", timespan((Date.now() - began) / 1000));
    api.LMSSetValue("cmi.core.exit", last === "incomplete" ? "suspend" : "");
    api.LMSCommit("");
    api.LMSFinish("");
  };
  win.addEventListener("pagehide", finish);
  win.addEventListener("beforeunload", finish);
  return {
    // the practice record the LMS kept (practice.js starts from it), or null
    keptPractice: practice,
    reportedLesson(name, progress, summary) {
      lesson = {name, stops: settings.lesson ? settings.lesson.stops : [], progress, summary};
      report();
    },
    reportedPractice(record) {
      practice = record;
      report();
    },
    finish,
  };
}
