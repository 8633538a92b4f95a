// A practice problem in the exam's format: Q, K and V given, the student writes the query's score
// row, the scaled row, the weights and the output, and each row is checked on its own against the
// truth and the slips the core computed for that row (attention_core.practice, shipped in the
// problem's cube as `practice/<row>`). While the problem is unsolved the rest of the explorer is
// hidden (explorer.js); four right rows, or "show the answers", open it on this problem.

import { h, memo, texts } from "./dom.js";
import { isRight, judgeRow, practiceRow } from "./checker.js";
import { vector } from "./format.js";

export function createPractice(ctx) {
  const {constants, actions} = ctx;
  const title = h("h2", {"data-testid": "practice-title"});
  const next = h("button", {type: "button", class: "ae-chip", "data-testid": "practice-next",
    on: {click: () => current && actions.openPractice(current.cube.entry.practice.number + 1)}});
  const reveal = h("button", {type: "button", class: "ae-chip", "data-testid": "practice-reveal",
    on: {click: () => actions.set({checking: false})}});
  const task = h("p", {class: "ae-hint", "data-testid": "practice-task"});
  const given = h("div", {class: "ae-scroll", "data-testid": "practice-given"});
  const solved = h("p", {class: "ae-answer ae-correct", role: "status", "data-testid": "practice-solved", hidden: true});
  const verdicts = new Map();  // "number|row" → the verdict on screen, kept while the page is open
  let current = null;          // the snapshot on screen

  const rows = constants.practice.rows.map((name) => {
    const label = h("label", {for: `ae-practice-${name}`});
    const input = h("input", {type: "text", id: `ae-practice-${name}`, class: "ae-input", autocomplete: "off",
      spellcheck: "false", "data-testid": `practice-input-${name}`});
    const button = h("button", {type: "button", class: "ae-chip", "data-testid": `practice-check-${name}`});
    const result = h("p", {class: "ae-answer", role: "status", "data-testid": `practice-result-${name}`});
    const exact = h("p", {class: "ae-hint ae-exact", "data-testid": `practice-exact-${name}`, hidden: true});
    const check = () => {
      if (!current || !current.practice) return;
      const number = current.practice.number;
      verdicts.set(`${number}|${name}`, judgeRow(input.value, name, practiceRow(current.cube, name), constants.checker));
      const solved = constants.practice.rows.every((row) => isRight(verdicts.get(`${number}|${row}`)));
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
    task, given, ...rows.map((row) => row.el), solved);
  const drawLabels = texts([[next, "practice_next"], [reveal, "practice_reveal"], [solved, "practice_solved"],
    ...rows.map((row) => [row.label, `practice_row_${row.name}`]), ...rows.map((row) => [row.button, "check"])]);

  // The problem's statement and its given numbers, drawn when the problem or the language changes.
  const drawProblem = memo((snap) => {
    const {cube, t, practice} = snap;
    title.textContent = t("practice_title", {number: practice.number});
    task.textContent = t("practice_task", {query: cube.tokens[practice.query]});
    const head = h("tr", {}, ...[t("practice_token"), "q", "k", "v"].map((text) => h("th", {scope: "col", text})));
    const body = cube.tokens.map((token, i) => h("tr", {class: i === practice.query ? "ae-selected-row" : ""},
      h("th", {scope: "row", text: token}), ...["q", "k", "v"].map((name) => h("td", {class: "ae-num", text: vector(cube.tensor(name).row({token: i}), 0)}))));
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
    if (shownNumber !== number) {  // a new problem starts with empty rows
      shownNumber = number;
      for (const row of rows) row.input.value = "";
    }
    const open = !snap.checking;  // solved, or its answers shown
    let allRight = true;
    for (const row of rows) {
      const verdict = verdicts.get(`${number}|${row.name}`);
      row.result.textContent = verdict ? snap.t(verdict.key, verdict.values) : "";
      row.result.className = "ae-answer" + (verdict ? ` ae-${verdict.status}` : "");
      // the contract for tests: the verdict and the slip named, as on the output checker
      row.result.dataset.status = verdict ? verdict.status : "";
      row.result.dataset.hint = verdict ? verdict.slip : "";
      // once the problem is open, each row not answered right shows its exact values
      row.exact.hidden = !open || isRight(verdict);
      allRight = allRight && isRight(verdict);
      if (!row.exact.hidden) row.exact.textContent = snap.t("practice_exact", {exact: vector(practiceRow(snap.cube, row.name).truth, 3)});
    }
    reveal.hidden = open;
    solved.hidden = !allRight;
  }
  return {el, update};
}
