// A lesson walked alone (mode=self): at a stop with a question, the weights and the output stay
// hidden (the view's `checking`) until the student predicts. A prediction is judged at once: a
// choice by the truth Python sent with the lesson (app/lesson_check.py page_lesson), typed numbers
// by the fair checker on the page (checker.js: rounding is honest, a slip is named). Where the
// student is and what they answered are kept in this browser (localStorage), so a reload or a
// closed tab goes on from there. A slip offers one try aimed at it: the same question for another
// query of the stop's sentence, one where that slip made again would be named (checker.js
// aimedQuery), judged by the same checker; the last stop sums the path up and offers a last problem
// (practice.js) on a new sentence. The question's words are the
// room's (room_poll.js KINDS): one wording for a class and for a student alone.

import { h } from "./dom.js";
import { aimedQuery, isRight, judgeAnswer, verdictText } from "./checker.js";
import { KINDS, exampleNumbers, numbersProblem } from "./room_poll.js";
import { store, stored } from "./room_kept.js";

// The step a question's stop shows once answered (app/stop_shows.py answered_step): its own, or
// the kind's answer if later (-1: every step).
export const answeredStep = (step, hold) => (step === undefined || step < 0 ? -1 : Math.max(step, hold.answer));

const storageKey = (name) => `ae-lesson:${name}`;

// What this browser kept of lesson `name`: {stop (from 1), answers: {stop: answer}, practice:
// {stop: {query, and once tried: text, status, slip}}}.
export function progressOf(name) {
  const kept = stored("localStorage", storageKey(name), null);
  const object = (value) => (value && typeof value === "object" ? value : {});
  return kept && typeof kept === "object" && kept.answers && typeof kept.answers === "object"
    ? {stop: Number.isInteger(kept.stop) ? kept.stop : 1, answers: kept.answers, practice: object(kept.practice)}
    : {stop: 1, answers: {}, practice: {}};
}

// The try a stop's slip is practised on, while it waits for the student's answer (or null).
export const practicePending = (progress, index) => {
  const tried = progress.practice[index];
  return tried && Number.isInteger(tried.query) && !tried.status ? tried : null;
};

// The view a typed question of `q` asks about, at `query` (its own when null).
const askedView = (q, query = null) => ({heads: q.view.heads, scale: q.view.scale, causal: q.view.causal,
  query: query ?? q.view.query, head: Math.max(0, q.view.head_view), all_heads: false});
export const keepProgress = (name, progress) => store("localStorage", storageKey(name), progress);
// The progress kept, and told to the LMS where the page is a SCORM package (scorm.js; ctx.sco).
export function saveProgress(ctx, lesson, progress) {
  keepProgress(lesson.name, progress);
  if (ctx.sco) ctx.sco.reportedLesson(lesson.name, progress, summaryOf(lesson, progress));
}

// The verdict's status as the lesson says it: correct, rounded (right, honestly rounded) or wrong.
const statusOf = (answer) => (["correct", "rounded", "skipped", "shown"].includes(answer.status) ? answer.status : "wrong");

// The path summed up: questions tried and predicted of those asked, how many right, the slips named.
export function summaryOf(lesson, progress) {
  const asked = lesson.stops.map((stop, i) => (stop.question ? i + 1 : 0)).filter(Boolean);
  const answers = asked.map((index) => progress.answers[index]).filter(Boolean);
  const slips = [...new Set(answers.map((answer) => answer.slip).filter(Boolean))];
  // answered: every question tried (a skip and an answer asked for first too: the SCO's completion);
  // predicted: those a prediction was made for (what the summary tells the student)
  const predicted = answers.filter((answer) => answer.status !== "skipped" && answer.status !== "shown").length;
  return {asked: asked.length, answered: answers.length, predicted, right: answers.filter(isRight).length, slips};
}

export function createPredict(ctx) {
  const title = h("strong", {class: "ae-predict-title"});
  const question = h("p", {class: "ae-poll-question", "data-testid": "lesson-question"});
  const choices = h("div", {class: "ae-poll-choices", role: "group"});
  const input = h("input", {type: "text", inputmode: "decimal", autocomplete: "off", class: "ae-input",
    "data-testid": "lesson-predict-input", on: {keydown: (event) => { if (event.key === "Enter") submit(); }}});
  const submitButton = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-predict-submit", on: {click: () => submit()}});
  const problem = h("p", {class: "ae-effect ae-warn", role: "status", "data-testid": "lesson-predict-error", hidden: true});
  const form = h("div", {class: "ae-predict-form"}, choices, h("div", {class: "ae-inline"}, input, submitButton), problem);
  const work = h("div", {}, form);  // what a student answers with (a projector shows the question alone)
  const verdict = h("p", {class: "ae-effect", role: "status", "data-testid": "lesson-verdict", hidden: true});
  const detail = h("p", {class: "ae-hint", "data-testid": "lesson-verdict-detail", hidden: true});
  // a slip: one try aimed at it (another query, where that slip would show); the path's end: a last
  // problem on a new sentence
  // asking for the answer before predicting: scored 0, said so
  const giveUp = h("button", {type: "button", class: "ae-chip ae-small", "data-testid": "lesson-predict-show",
    on: {click: () => record({status: "shown"})}});
  // moving on past an open prediction: said first (the next press takes it, scored 0)
  const skipWarning = h("p", {class: "ae-effect ae-warn", role: "status", "data-testid": "lesson-skip-warning", hidden: true});
  const practise = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-practice", hidden: true,
    on: {click: () => startPractice()}});
  const practiceQuestion = h("p", {class: "ae-poll-question", "data-testid": "lesson-practice-question"});
  const practiceInput = h("input", {type: "text", inputmode: "decimal", autocomplete: "off", class: "ae-input",
    "data-testid": "lesson-practice-input", on: {keydown: (event) => { if (event.key === "Enter") submitPractice(); }}});
  const practiceSubmit = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-practice-submit",
    on: {click: () => submitPractice()}});
  const practiceProblem = h("p", {class: "ae-effect ae-warn", role: "status", "data-testid": "lesson-practice-error", hidden: true});
  const practiceVerdict = h("p", {class: "ae-effect", role: "status", "data-testid": "lesson-practice-verdict", hidden: true});
  const practiceBox = h("div", {class: "ae-predict-form", "data-testid": "lesson-practice-try", hidden: true},
    practiceQuestion, h("div", {class: "ae-inline"}, practiceInput, practiceSubmit), practiceProblem, practiceVerdict);
  const transfer = h("button", {type: "button", class: "ae-chip", "data-testid": "lesson-transfer", hidden: true,
    on: {click: () => ctx.actions.openPractice(problemFor(0))}});
  const box = h("div", {class: "ae-predict", "data-testid": "lesson-predict", hidden: true}, title, question, work, skipWarning,
    verdict, detail, practise, practiceBox);
  work.append(giveUp);
  const summary = h("p", {class: "ae-effect", "data-testid": "lesson-summary", hidden: true});
  // a practice problem for stop `index` (0: the path's last), the same one each time, among those
  // the page can open (the file's bank, or Python's)
  const problemFor = (index) => 1 + ((index * 37 + 11) % Math.min(100, ctx.constants.practice.max));
  let shown = null;  // {lesson, index, question, snap}: what the box was last drawn for
  let chosen = null;  // the choice pressed, before it is submitted
  let warned = null;  // "name|stop" whose skip was said: the next press on takes it

  // The first answer to the question on show, kept (a prediction is made once) and told (SCORM);
  // the answer shows now, whatever the stop's step.
  function record(answer) {
    if (!shown || !shown.question) return false;
    const {lesson, index} = shown, progress = progressOf(lesson.name);
    if (progress.answers[index]) return false;
    progress.answers[index] = answer;
    saveProgress(ctx, lesson, progress);
    const hold = ctx.constants.stop_shows.held[shown.question.kind];
    ctx.actions.setLocal({held: null});
    ctx.actions.set({checking: false, step: answeredStep(ctx.state.step, hold)});
    return true;
  }

  // Moving on from stop `index` of `lesson` walked alone: whether it may (true: no open question
  // there, or its skip was said and is now taken, scored 0).
  function skip(lesson, index) {
    const stop = lesson.stops[index - 1];
    if (!stop || !stop.question || progressOf(lesson.name).answers[index]) return true;
    const key = `${lesson.name}|${index}`;
    if (warned !== key) { warned = key; ctx.actions.redraw(); return false; }
    warned = null;
    const progress = progressOf(lesson.name);
    progress.answers[index] = {status: "skipped"};
    saveProgress(ctx, lesson, progress);
    return true;
  }

  function submit() {
    if (!shown || !shown.question) return;
    const {lesson, index, question: q, snap} = shown;
    const progress = progressOf(lesson.name);
    if (progress.answers[index]) return;  // a prediction is made once
    let answer;
    if (KINDS[q.kind] && !ctx.constants.questions.kinds[q.kind].typed) {
      if (chosen === null) return;
      answer = {choice: chosen, status: chosen === q.truth ? "correct" : "wrong"};
    } else {
      const said = numbersProblem(input.value, q.length, ctx.constants.checker);
      if (said) { problem.textContent = snap.t(...said); problem.hidden = false; return; }
      const judged = judgeAnswer(input.value, snap.cube, askedView(q), ctx.constants.checker);
      answer = {text: input.value, status: judged.status, slip: judged.slip || "", key: judged.key, values: judged.values};
    }
    record(answer);
  }

  // The try aimed at the slip of the stop on show: the query where that slip would show, asked with
  // the answer hidden (or, where no query of this sentence shows it, a practice problem).
  function startPractice() {
    if (!shown) return;
    const {lesson, index, question: q, snap} = shown;
    const progress = progressOf(lesson.name), answer = progress.answers[index];
    if (!answer || !answer.slip || !snap.cube) return;
    const query = aimedQuery(snap.cube, askedView(q), answer.slip, ctx.constants.checker);
    if (query === null) { ctx.actions.openPractice(problemFor(index)); return; }
    progress.practice[index] = {query};
    saveProgress(ctx, lesson, progress);
    practiceInput.value = "";
    ctx.actions.set({query, checking: true});
  }

  function submitPractice() {
    if (!shown || !shown.question) return;
    const {lesson, index, question: q, snap} = shown;
    const progress = progressOf(lesson.name), tried = practicePending(progress, index);
    if (!tried) return;
    const said = numbersProblem(practiceInput.value, q.length, ctx.constants.checker);
    if (said) { practiceProblem.textContent = snap.t(...said); practiceProblem.hidden = false; return; }
    const judged = judgeAnswer(practiceInput.value, snap.cube, askedView(q, tried.query), ctx.constants.checker);
    progress.practice[index] = {...tried, text: practiceInput.value, status: statusOf(judged), slip: judged.slip || "",
      key: judged.key, values: judged.values};
    saveProgress(ctx, lesson, progress);
    ctx.actions.set({checking: false});
  }

  // The box for stop `index` of `lesson` in self-study (hidden otherwise), and the summary at the end.
  // mode: the page's way of showing the lesson (app/stop_shows.py MODES): alone, the student
  // answers here; on a projector, the question held is shown (the lecturer reveals it).
  function update(snap, lesson, index, mode = {}) {
    const alone = !!lesson && mode.until === "answer", onScreen = !!lesson && mode.until === "reveal" && !!snap.held;
    const stop = alone || onScreen ? lesson.stops[index - 1] : null, q = stop ? stop.question : null;
    box.hidden = !q;
    work.hidden = !alone;
    const progress = lesson ? progressOf(lesson.name) : null;
    summary.hidden = transfer.hidden = !alone || index !== lesson.stops.length;
    transfer.textContent = snap.t("lesson_transfer");
    if (!summary.hidden) {
      const sum = summaryOf(lesson, progress);
      const slips = sum.slips.map((slip) => snap.t(`poll_outcome_${slip}`)).join(", ") || snap.t("lesson_no_slips");
      summary.textContent = snap.t("lesson_summary", {...sum, answered: sum.predicted, slips});
    }
    if (!q) { shown = null; return; }
    if (!shown || shown.lesson !== lesson || shown.index !== index) { chosen = null; input.value = ""; problem.hidden = true; }
    shown = {lesson, index, question: q, snap};
    const kind = {...ctx.constants.questions.kinds[q.kind], ...KINDS[q.kind]}, answer = alone ? progress.answers[index] : null;
    skipWarning.hidden = !alone || !!answer || warned !== `${lesson.name}|${index}`;
    skipWarning.textContent = snap.t("lesson_skip_warning");
    giveUp.hidden = !!answer;
    giveUp.textContent = snap.t("lesson_predict_show");
    const labels = kind.labels(q, snap.t, kind.outcomes);
    title.textContent = snap.t("lesson_predict_title");
    question.textContent = kind.question(q, snap.t, {query: q.tokens[q.view.query] || "?", head: Math.max(0, q.view.head_view) + 1});
    const picked = answer ? answer.choice : chosen;
    choices.replaceChildren(...(kind.typed ? [] : labels).map((label, j) => h("button", {type: "button", class: "ae-chip",
      "data-testid": `lesson-predict-choice-${j}`, "aria-pressed": String(picked === j), disabled: !!answer, text: label,
      on: {click: () => { chosen = j; ctx.actions.redraw(); }}})));
    input.hidden = !kind.typed;
    input.disabled = submitButton.disabled = !!answer;
    input.placeholder = kind.typed ? exampleNumbers(q.length, kind.example) : "";
    if (answer && kind.typed && !input.value) input.value = answer.text;
    submitButton.textContent = snap.t("lesson_predict_submit");
    verdict.hidden = detail.hidden = !answer;
    const tried = progress.practice[index];
    practise.hidden = !answer || !answer.slip || !!tried;
    practise.textContent = answer && answer.slip ? snap.t("lesson_practice", {slip: snap.t(`poll_outcome_${answer.slip}`)}) : "";
    practiceBox.hidden = !tried;
    if (tried) {
      practiceQuestion.textContent = snap.t("lesson_practice_try", {question: kind.question(q, snap.t,
        {query: q.tokens[tried.query] || "?", head: Math.max(0, q.view.head_view) + 1})});
      practiceSubmit.textContent = snap.t("lesson_predict_submit");
      practiceInput.placeholder = exampleNumbers(q.length, ctx.constants.questions.kinds.output.example);
      practiceInput.disabled = practiceSubmit.disabled = !!tried.status;
      if (tried.status && !practiceInput.value) practiceInput.value = tried.text;
      practiceVerdict.hidden = !tried.status;
      if (tried.status) {
        practiceProblem.hidden = true;
        practiceVerdict.dataset.status = tried.status;
        practiceVerdict.dataset.slip = tried.slip || "";
        practiceVerdict.textContent = verdictText(snap.t, tried, "hint_");
      }
    }
    if (!answer) { delete verdict.dataset.status; return; }
    verdict.dataset.status = statusOf(answer);
    verdict.dataset.slip = answer.slip || "";
    const given = answer.status === "skipped" || answer.status === "shown";  // no prediction: 0, and the answer
    const right = {answer: kind.typed ? "" : labels[q.truth]};
    verdict.textContent = given ? (answer.status === "skipped" ? snap.t("lesson_skipped", right) : snap.t("lesson_shown", right))
      : kind.typed ? verdictText(snap.t, answer, "hint_") : kind.verdict(answer.choice === q.truth, labels[q.truth], snap.t);
    detail.textContent = kind.detail(q, snap.t);
    detail.hidden = !detail.textContent;
  }

  return {el: [box, summary, transfer], update, skip};
}
