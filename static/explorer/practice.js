// A practice problem in the exam's format: Q, K and V given, the student writes the query's score
// row, the scaled row, the weights and the output, and each row is checked on its own against the
// truth and the slips the core computed for that row (attention_core.practice, shipped in the
// problem's cube as `practice/<row>`), and against the student's own row above it: a row computed
// right from a slipped row gets its credit ("carried"). While the problem is unsolved the rest of
// the explorer is hidden (explorer.js); four rows with their credit, or "show the answers", open
// it on this problem.

import { h, scrollBox, memo, texts } from "./dom.js";
import { isCredited, judgeRow, practiceProblem, verdictText } from "./checker.js";
import { vector } from "./format.js";
import "./first_screen.js";  // one chunk for what it shares with the first screen

// How the page numbers the rows (their labels: ① 스코어, ② …).
const ROW_MARKS = ["①", "②", "③", "④"];

export function createPractice(ctx) {
  const {constants, actions} = ctx;
  const title = h("h2", {"data-testid": "practice-title"});
  const next = h("button", {type: "button", class: "ae-chip", "data-testid": "practice-next",
    on: {click: () => current && actions.openPractice(current.cube.entry.practice.number + 1)}});
  const reveal = h("button", {type: "button", class: "ae-chip", "data-testid": "practice-reveal",
    on: {click: () => {
      if (current && current.practice) {  // shown before it was solved: its rows earn nothing more
        problemRecord(current.practice.number).shown = true;
        reportRecord();
      }
      actions.set({checking: false});
    }}});
  const task = h("p", {class: "ae-hint", "data-testid": "practice-task"});
  // a problem the LMS grades (a SCORM package's page): how its rows are marked
  const gradedNote = h("p", {class: "ae-hint", "data-testid": "practice-graded", hidden: true});
  const gradedUpTo = ctx.sco ? (ctx.model.scorm.practice || 0) : 0;
  const given = scrollBox("", {"data-testid": "practice-given"});
  const solved = h("p", {class: "ae-answer ae-correct", role: "status", "data-testid": "practice-solved", hidden: true});
  const verdicts = new Map();  // "number|row" → the verdict on screen, kept while the page is open
  // what is graded (a SCORM package's page: scorm.js practiceSummary; the LMS's record of an earlier
  // launch first): {open: the problem on show, problems: {number: {rows: {row: {text, status}: its
  // first checked answer, judged against the row above as it was then}, shown: its answers were
  // shown before each row was answered}}}; rows checked after that earn nothing
  const record = (ctx.sco && ctx.sco.keptPractice) || {problems: {}};
  const problemRecord = (number) => (record.problems[number] = record.problems[number] || {rows: {}, shown: false});
  const reportRecord = () => { if (ctx.sco) ctx.sco.reportedPractice(record); };
  let current = null;          // the snapshot on screen
  const problems = new WeakMap();  // cube → the problem as the checker reads it (its bands made once)
  const problemOf = (cube) => {
    if (!problems.has(cube)) problems.set(cube, practiceProblem(cube));
    return problems.get(cube);
  };

  // Row `index` of problem `number` judged, with the row above it as the student typed it; the rows
  // below that were checked are judged again, from this row as it is now.
  function judgeFrom(index, number) {
    rows.slice(index).forEach((row, k) => {
      if (k > 0 && !verdicts.has(`${number}|${row.name}`)) return;
      const above = index + k > 0 ? rows[index + k - 1].input.value : null;
      verdicts.set(`${number}|${row.name}`, judgeRow(row.input.value, row.name, problemOf(current.cube), constants.checker, above));
    });
  }

  const rows = constants.practice.rows.map((name, index) => {
    const label = h("label", {for: `ae-practice-${name}`});
    const input = h("input", {type: "text", id: `ae-practice-${name}`, class: "ae-input", autocomplete: "off",
      spellcheck: "false", "data-testid": `practice-input-${name}`});
    const button = h("button", {type: "button", class: "ae-chip", "data-testid": `practice-check-${name}`});
    const result = h("p", {class: "ae-answer", role: "status", "data-testid": `practice-result-${name}`});
    const exact = h("p", {class: "ae-hint ae-exact", "data-testid": `practice-exact-${name}`, hidden: true});
    const check = () => {
      if (!current || !current.practice) return;
      const number = current.practice.number;
      judgeFrom(index, number);
      const kept = problemRecord(number);
      if (!kept.shown) {
        for (const row of rows.slice(index)) {
          const verdict = verdicts.get(`${number}|${row.name}`);
          if (verdict && verdict.status !== "invalid" && !kept.rows[row.name]) {
            kept.rows[row.name] = {text: row.input.value, status: verdict.status};
          }
        }
        reportRecord();
      }
      const solved = constants.practice.rows.every((row) => isCredited(verdicts.get(`${number}|${row}`)));
      if (solved) actions.set({checking: false});  // the explorer opens on this problem
      else actions.redraw();
    };
    button.addEventListener("click", check);
    input.addEventListener("keydown", (event) => { if (event.key === "Enter") check(); });
    const el = h("div", {class: "ae-practice-row"}, label, h("div", {class: "ae-inline"}, input, button), result, exact);
    return {name, el, label, input, button, result, exact};
  });

  const el = h("section", {class: "ae-card ae-practice", "data-testid": "practice", hidden: true},
    h("div", {class: "ae-card-head"}, title, h("div", {class: "ae-inline"}, reveal, next)),
    task, gradedNote, given, ...rows.map((row) => row.el), solved);
  const drawLabels = texts([[next, "practice_next"], [reveal, "practice_reveal"], [solved, "practice_solved"], [gradedNote, "practice_graded"],
    ...rows.map((row) => [row.label, `practice_row_${row.name}`]), ...rows.map((row) => [row.button, "check"])]);

  // The problem's statement and its given numbers, drawn when the problem or the language changes.
  const drawProblem = memo((snap) => {
    const {cube, t, practice} = snap;
    title.textContent = t("practice_title", {number: practice.number});
    task.textContent = t("practice_task", {query: cube.tokens[practice.query]});
    const head = h("tr", {}, ...[t("practice_token"), "q", "k", "v"].map((text) => h("th", {scope: "col", text})));
    const body = cube.tokens.map((token, i) => h("tr", {class: i === practice.query ? "ae-selected-row" : ""},
      h("th", {scope: "row", text: token}), ...["q", "k", "v"].map((name) => h("td", {class: "ae-num", text: vector(cube.tensor(name).row({token: i}), 0)}))));
    given.setAttribute("aria-label", t("practice_given"));
    given.replaceChildren(h("table", {class: "ae-table"}, h("caption", {text: t("practice_given")}),
      h("thead", {}, head), h("tbody", {}, body)));
  });
  let shownNumber = null;

  function update(snap) {
    drawLabels(snap);
    el.hidden = !snap.practice;
    if (!snap.practice || snap.status !== "ready") return;
    current = snap;
    const {number} = snap.practice;
    drawProblem(`${snap.cube.serial}|${snap.lang}`, snap);
    gradedNote.hidden = number > gradedUpTo;
    if (shownNumber !== number) {  // a new problem starts with the rows kept of it, or empty ones
      shownNumber = number;
      const kept = record.problems[number];
      rows.forEach((row) => { row.input.value = (kept && kept.rows[row.name] && kept.rows[row.name].text) || ""; });
      rows.forEach((row, index) => { if (row.input.value && !verdicts.has(`${number}|${row.name}`)) judgeFrom(index, number); });
      if (record.open !== number) {
        record.open = number;
        reportRecord();
      }
      const credited = constants.practice.rows.every((row) => isCredited(verdicts.get(`${number}|${row}`)));
      if (snap.checking && kept && (kept.shown || credited)) {  // solved or shown in an earlier launch: open
        actions.set({checking: false});
        return;
      }
    }
    const open = !snap.checking;  // solved, or its answers shown
    let allRight = true;
    for (const row of rows) {
      const verdict = verdicts.get(`${number}|${row.name}`);
      // a row carried from a slip says in which row the slip is: the first wrong row above it (or,
      // where none was checked, the row it follows)
      const at = rows.indexOf(row);
      const first = rows.slice(0, at).findIndex((above) => (verdicts.get(`${number}|${above.name}`) || {}).status === "wrong");
      const shown = verdict && verdict.status === "carried"
        ? {...verdict, values: {...verdict.values, first: ROW_MARKS[first >= 0 ? first : at - 1]}} : verdict;
      row.result.textContent = shown ? verdictText(snap.t, shown, "practice_hint_") : "";
      row.result.className = "ae-answer" + (verdict ? ` ae-${verdict.status}` : "");
      // the contract for tests: the verdict and the slip named, as on the output checker
      row.result.dataset.status = verdict ? verdict.status : "";
      row.result.dataset.hint = verdict ? verdict.slip : "";
      // once the problem is open, each row not answered right shows its exact values
      row.exact.hidden = !open || isCredited(verdict);
      allRight = allRight && isCredited(verdict);
      if (!row.exact.hidden) row.exact.textContent = snap.t("practice_exact", {exact: vector(problemOf(snap.cube).rows[row.name].truth, 3)});
    }
    reveal.hidden = open;
    solved.hidden = !allRight;
  }
  return {el, update};
}
